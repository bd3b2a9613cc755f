import Mediator
import MediatorCommandLine
import Testing

/// What exit status 130 promises: `--help` says "130 interrupted (the request was cancelled)";
/// `CommandLineTool`'s documentation "130 interrupted" (the task running it was cancelled).
@Suite("mediate: a tool nobody interrupted never exits 130", .bug(id: "exit-130-uninterrupted", "a tool nobody interrupted exited 130"))
struct MediateExitStatusTests {
    @Test("A request whose action ends in CancellationError, nobody having interrupted the tool, does not exit 130")
    func cancellationErrorWithoutInterrupt() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Relay",
            actions: [
                Action("forward") { _, _ async throws -> (any Sendable)? in
                    let upstream = Task<Int, any Error> {
                        try await Task.sleep(nanoseconds: 600_000_000_000)
                        return 1
                    }
                    upstream.cancel()
                    return try await upstream.value
                }
            ])
        let tool = CommandLineTool(mediator: mediator, name: "tool", version: "1")
        var errors: [String] = []
        let status = await tool.run(
            ["perform", "Relay", "forward"],
            write: { stream, line throws(StreamError) in
                if stream == .error { errors.append(line) }
            })
        #expect(!Task.isCancelled)
        #expect(status != 130, "\(errors)")
    }
}
