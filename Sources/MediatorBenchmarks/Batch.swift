import Mediator
import MediatorCommandLine

// `mediate batch` without the process around it: the command-line tool's batch over lines held in
// memory, its output discarded. (callgrind cannot run `mediate` itself: valgrind 3.19 stops with
// an internal error where an async `main` parks the main thread in `sigsuspend`.) A line is one
// request to an echo action like `mediate`'s `Echo/echo`, whose params come back as the result.

/// A tool over a mediator holding only an `Echo` target whose `echo` returns its params.
func makeBatchTool() throws -> CommandLineTool {
    let mediator = Mediator()
    try mediator.register(target: "Echo", actions: [Action("echo") { _, params in params }])
    return CommandLineTool(mediator: mediator, name: "bench", version: "0")
}

/// A Model Context Protocol server over a mediator like ``makeBatchTool()``'s: one `tools/call` of
/// `Echo.echo` is the agent bridge's counterpart of a batch line.
func makeAgentServer() throws -> MCPServer {
    let mediator = Mediator()
    try mediator.register(target: "Echo", actions: [Action("echo") { _, params in params }])
    return MCPServer(mediator: mediator, name: "bench", version: "0")
}

/// The `tools/call` request of `mcpCall`: the batch line `Echo echo a=1`, as an agent sends it.
let agentCallMessage = #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"Echo.echo","arguments":{"a":"1"}}}"#

/// `count` copies of `line`, each ending in a newline.
func batchInput(_ line: String, count: Int) -> BatchInput {
    let bytes = Array((line + "\n").utf8)
    var input: [UInt8] = []
    input.reserveCapacity(bytes.count * count)
    for _ in 0..<count { input.append(contentsOf: bytes) }
    return BatchInput(bytes: input)
}

/// What a batch of `count` lines writes (standard output and error alike), to check the case.
func batchAnswers(_ tool: CommandLineTool, line: String, count: Int) async -> [String] {
    final class Lines {
        var lines: [String] = []
    }
    let written = Lines()
    _ = await tool.run(["batch"], input: batchInput(line, count: count), write: { _, line in written.lines.append(line) })
    return written.lines
}

/// Runs a batch of `count` lines, its output discarded; its exit status.
func runBatch(_ tool: CommandLineTool, _ arguments: [String], line: String, count: Int) async -> Int32 {
    let input = batchInput(line, count: count)
    return await tool.run(arguments, input: input, write: { _, _ in })
}
