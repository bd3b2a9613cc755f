import Mediator
import MediatorCommandLine
import TestSupport
import Testing

/// An in-process value no command line can send.
private struct ReviewBox: Sendable {
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

@Suite("Review: describe's examples and names a hostile registry can hold")
struct ReviewContractCommandLineTests {
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
        #expect(lines.last?.hasPrefix("  example: tool perform Shell say text=text ") == true, "\(lines.suffix(2))")
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
                Action("boxed", params: [.required("text", .string), .optional("box", .value(ReviewBox.self), default: ReviewBox())]) { _, _ in "ran" }
            ])
        let tool = CommandLineTool(mediator: mediator, name: "tool", version: "1")
        let lines = await describedLines(tool, "Shell", "boxed")
        let command = try #require(line(after: "  example: tool perform ", in: lines))
        let performed = await ToolRun.run(tool, ["batch"], input: command)
        #expect(performed.status == 0, "\(command): \(performed)")
        #expect(performed.output == [#""ran""#], "\(command): \(performed)")
    }

    @Test("Names the registry accepts that start with - are described and performed, and their examples run")
    func dashedNamesReachable() async throws {
        let mediator = Mediator()
        let ran = Counter()
        try mediator.register(target: "Shell", actions: [Action("-h") { _, _ in _ = ran.increment() }])
        try mediator.register(target: "--t", actions: [Action("go") { _, _ in _ = ran.increment() }])
        let tool = CommandLineTool(mediator: mediator, name: "tool", version: "1")
        #expect(mediator.verify().isEmpty)
        for (target, action) in [("Shell", "-h"), ("--t", "go")] {
            let lines = await describedLines(tool, target, action)
            #expect(lines.first == "\(target)/\(action)", "describe \(target) \(action): \(lines.prefix(2))")
            #expect(line(after: "  example: ", in: lines) == "tool perform \(target) \(action)", "describe \(target) \(action): \(lines.prefix(2))")
            // What that example, pasted, passes to the tool.
            let before = ran.value
            let performed = await ToolRun.run(tool, ["perform", target, action])
            #expect(performed.status == 0 && ran.value == before + 1, "perform \(target) \(action): \(performed)")
        }
    }
}
