import Mediator
import MediatorCommandLine

/// What one in-process run of a `CommandLineTool` printed and returned.
struct ToolRun: CustomStringConvertible {
    var status: Int32 = -1
    var output: [String] = []
    var errors: [String] = []

    var description: String { "status \(status)\nstdout: \(output)\nstderr: \(errors)" }

    /// Runs `arguments` through `tool` with its output captured and `input` as batch input.
    static func run(_ tool: CommandLineTool, _ arguments: [String], input: String = "") async -> ToolRun {
        var run = ToolRun()
        var output: [String] = []
        var errors: [String] = []
        run.status = await tool.run(
            arguments, input: BatchInput(bytes: Array(input.utf8)),
            write: { stream, line throws(StreamError) in
                if stream == .output { output.append(line) } else { errors.append(line) }
            })
        run.output = output
        run.errors = errors
        return run
    }
}
