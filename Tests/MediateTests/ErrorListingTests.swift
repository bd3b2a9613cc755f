import Mediator
import MediatorCommandLine
import Testing

@Suite("Command line: errors list a few names and count the rest")
struct ErrorListingTests {
    @Test("--json errors carry the first 20 names and how many more exist; the line says so too")
    func omittedCount() async throws {
        let mediator = Mediator()
        for index in 0..<25 { try mediator.register(target: "T\(index + 10)", actions: []) }
        let tool = CommandLineTool(mediator: mediator, name: "tool", version: "1")
        var output: [String] = []
        var errors: [String] = []
        let status = await tool.run(
            ["list", "Nope", "--json"],
            write: { stream, line throws(StreamError) in
                if stream == .output { output.append(line) } else { errors.append(line) }
            })
        #expect(status == 69)
        let names = (10..<30).map { "\"T\($0)\"" }.joined(separator: ",")
        #expect(output.count == 1)
        #expect(output.first?.contains("\"available\":[\(names)]") == true, "\(output)")
        #expect(output.first?.contains("\"omitted\":5") == true, "\(output)")
        #expect(errors.first?.hasSuffix("T29, and 5 more)") == true, "\(errors)")
    }

    @Test("--json keeps the mediator's own code when it is not one the exit status names; the exit status is 70")
    func otherCodes() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "App",
            actions: [
                Action("refuse") { _, _ in throw MediatorError(MediatorError.Code(rawValue: "paymentRequired"), reason: "upgrade first") }
            ])
        let tool = CommandLineTool(mediator: mediator, name: "tool", version: "1")
        var output: [String] = []
        let status = await tool.run(
            ["perform", "App", "refuse", "--json"],
            write: { stream, line throws(StreamError) in
                if stream == .output { output.append(line) }
            })
        #expect(status == 70)
        #expect(output.first?.contains("\"code\":\"paymentRequired\"") == true, "\(output)")
    }
}
