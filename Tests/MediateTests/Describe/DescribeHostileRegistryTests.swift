import Mediator
import MediatorCommandLine
import TestSupport
import Testing

/// An in-process value no command line can send.
private struct InterceptionLostBox: Sendable {
    var size = 1
}

/// The `describe` lines of `tool` for one action.
private func describedLines(_ tool: CommandLineTool, _ target: String, _ action: String) async -> [String] {
    let run = await ToolRun.run(tool, ["describe", target, action])
    return run.output.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

/// What follows `prefix` on the first line that starts with it.
private func line(after prefix: String, in lines: [String]) -> String? {
    lines.first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
}

@Suite("describe: examples, and names a hostile registry can hold")
struct DescribeHostileRegistryTests {
    @Test("describe's example command line escapes control and bidi characters of a default, and stays on one line")
    func exampleEscapesDefaults() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Shell",
            actions: [
                Action("say", params: [.required("text", .string), .optional("separator", .string, default: "a\u{1B}[31mb\nc\u{202E}d")]) { _, params in
                    params
                }
            ])
        let tool = CommandLineTool(mediator: mediator, name: "tool", version: "1")
        let lines = await describedLines(tool, "Shell", "say")
        for line in lines {
            #expect(!line.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" }, "raw terminal control in \(line.debugDescription)")
        }
        // The example is the last line: nothing of it spilled onto a line of its own.
        // The optional default a terminal must not show raw is left out (the action gets it
        // anyway): the example stays one line, and runs.
        #expect(lines.last == "  example: tool perform Shell say text=text", "\(lines.suffix(2))")
        let performed = await ToolRun.run(tool, ["batch"], input: "Shell say text=text")
        #expect(performed.status == 0, "\(performed)")
    }

    @Test("describe's example sends a param whose name starts with -- (a name verify accepts) as perform reads it")
    func exampleOfDashedParamRuns() async throws {
        let mediator = Mediator()
        try mediator.register(target: "Shell", actions: [Action("flag", params: [.required("--level", .string)]) { _, params in params }])
        let tool = CommandLineTool(mediator: mediator, name: "tool", version: "1")
        #expect(mediator.verify().isEmpty)
        let lines = await describedLines(tool, "Shell", "flag")
        let command = try #require(line(after: "  example: tool perform ", in: lines))
        // A batch line splits as a POSIX shell does (the suite's own examples test runs them so).
        let performed = await ToolRun.run(tool, ["batch"], input: command)
        #expect(performed.status == 0, "\(command): \(performed)")
        #expect(performed.output == [#"{"--level":"text"}"#], "\(command): \(performed)")
    }

    @Test("describe's example leaves out an optional in-process value: pasted, it runs")
    func exampleLeavesOutInProcessDefault() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Shell",
            actions: [
                Action("boxed", params: [.required("text", .string), .optional("box", .value(InterceptionLostBox.self), default: InterceptionLostBox())]) {
                    _, _ in "ran"
                }
            ])
        let tool = CommandLineTool(mediator: mediator, name: "tool", version: "1")
        let lines = await describedLines(tool, "Shell", "boxed")
        let command = try #require(line(after: "  example: tool perform ", in: lines))
        let performed = await ToolRun.run(tool, ["batch"], input: command)
        #expect(performed.status == 0, "\(command): \(performed)")
        #expect(performed.output == [#""ran""#], "\(command): \(performed)")
    }

    @Test("Target and action names that start with - are refused at registration, naming the rule (a command line would read them as options)")
    func dashedNamesRefused() throws {
        let mediator = Mediator()
        let action = #expect(throws: MediatorError.self) { try mediator.register(target: "Shell", actions: [Action("-h") { _, _ in nil }]) }
        #expect(action?.code == .invalidName)
        #expect(action?.description == #"Shell/-h: invalid action name "-h": a name must not begin with "-" (a command line would read it as an option)"#)
        let target = #expect(throws: MediatorError.self) { try mediator.register(target: "--t", actions: [Action("go") { _, _ in nil }]) }
        #expect(target?.code == .invalidName)
        #expect(target?.description == #"--t: invalid target name "--t": a name must not begin with "-" (a command line would read it as an option)"#)
        #expect(throws: MediatorError.self) { try mediator.callNow(url: "app://--t/go") }
    }
}
