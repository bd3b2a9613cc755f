import Foundation
import Mediator
import MediatorCommandLine
import TestSupport
import Testing

/// Runs `mediate` with raw options; arguments as text.
func rawMediate(_ arguments: [String], _ options: RawOptions) -> RawRun {
    RawProcess.run(Mediate.binary.path, arguments: arguments.map { Array($0.utf8) }, options: options)
}

@Suite("mediate: a result that cannot be written is a failure (exit 74)")
struct OutputErrorTests {
    static let full = RawOptions(output: .path("/dev/full"))

    @Test("A result written to a full device: exit 74 and one line naming the error")
    func fullDevice() {
        let run = rawMediate(["--in-memory", "perform", "Echo", "echo", "a=1"], Self.full)
        #expect(run.status == 74)
        #expect(run.errorText == "mediate: error: cannot write the result to standard output: No space left on device\n")
    }

    @Test(
        "Every kind of standard output counts: --json results and errors, help, version, list",
        arguments: [
            (["--json", "perform", "Echo", "echo"], "the result"),
            (["--json", "perform", "Echo", "nope"], "the error"),
            (["--help"], "the help"),
            (["batch", "--help"], "the help"),
            (["--version"], "the version"),
            (["list"], "the listing"),
            (["list", "--json"], "the result"),
        ])
    func everyOutput(arguments: [String], what: String) {
        let run = rawMediate(["--in-memory"] + arguments, Self.full)
        #expect(run.status == 74, "\(run.errorText)")
        #expect(run.errorText == "mediate: error: cannot write \(what) to standard output: No space left on device\n")
    }

    @Test("A batch stops at the first result it cannot write: exit 74, one line, later lines do not run")
    func batchStops() throws {
        let input = try temporaryFile("Echo echo a=1\nNope x\nEcho echo b=2\n")
        defer { unlink(input) }
        let run = rawMediate(["--in-memory", "batch"], RawOptions(input: .path(input), output: .path("/dev/full")))
        #expect(run.status == 74)
        // Line 2 would have failed with its own error line had it run.
        #expect(run.errorText == "mediate: error: line 1: cannot write the result to standard output: No space left on device\n")
    }

    @Test("An MCP server whose responses cannot be written: exit 74 and one line")
    func agentServerStops() throws {
        let input = try temporaryFile(String(repeating: #"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\n", count: 3))
        defer { unlink(input) }
        let run = rawMediate(["--in-memory", "mcp"], RawOptions(input: .path(input), output: .path("/dev/full")))
        #expect(run.status == 74)
        #expect(run.errorText == "mediate: error: cannot write a response to standard output: No space left on device\n")
    }

    @Test("With SIGPIPE ignored, a reader that is gone: exit 74 and one line (EPIPE), for perform and batch")
    func closedPipeIgnored() throws {
        let options = RawOptions(output: .closedPipe, ignoresSIGPIPE: true)
        let perform = rawMediate(["--in-memory", "perform", "Echo", "echo", "a=1"], options)
        #expect(perform.status == 74)
        #expect(perform.errorText == "mediate: error: cannot write the result to standard output: Broken pipe\n")

        var batchOptions = options
        let input = try temporaryFile("Echo echo a=1\nEcho echo b=2\n")
        defer { unlink(input) }
        batchOptions.input = .path(input)
        let batch = rawMediate(["--in-memory", "batch"], batchOptions)
        #expect(batch.status == 74)
        #expect(batch.errorText == "mediate: error: line 1: cannot write the result to standard output: Broken pipe\n")
    }

    @Test("With SIGPIPE at its default, a reader that is gone ends mediate with SIGPIPE, like any filter")
    func closedPipeDefault() {
        let run = rawMediate(["--in-memory", "perform", "Echo", "echo", "a=1"], RawOptions(output: .closedPipe))
        #expect(run.signal == SIGPIPE)
        #expect(run.error.isEmpty)
    }

    /// 2,000 result lines of about 1 KB: more than any pipe holds, so some write must come after
    /// the reader has gone, whatever the scheduling.
    static func manyLines() throws -> String {
        let value = String(repeating: "x", count: 1_000)
        return try temporaryFile((1...2_000).map { "Echo echo n=\($0) v=\(value)\n" }.joined())
    }

    @Test("batch | head -1 with SIGPIPE at its default: the first line arrives, then mediate ends by SIGPIPE")
    func headDefault() throws {
        let input = try Self.manyLines()
        defer { unlink(input) }
        let run = rawMediate(["--in-memory", "batch"], RawOptions(input: .path(input), output: .firstLineThenClose))
        #expect(String(decoding: run.output, as: UTF8.self).hasPrefix(#"{"n":"1","#))
        #expect(run.signal == SIGPIPE)
        #expect(run.error.isEmpty)
    }

    @Test("batch | head -1 with SIGPIPE ignored: the first line arrives, then exit 74 with one line naming the line and EPIPE")
    func headIgnored() throws {
        let input = try Self.manyLines()
        defer { unlink(input) }
        let options = RawOptions(input: .path(input), output: .firstLineThenClose, ignoresSIGPIPE: true)
        let run = rawMediate(["--in-memory", "batch"], options)
        #expect(String(decoding: run.output, as: UTF8.self).hasPrefix(#"{"n":"1","#))
        #expect(run.status == 74)
        let lines = run.errorText.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("mediate: error: line ") == true)
        #expect(lines.first?.hasSuffix(": cannot write the result to standard output: Broken pipe") == true, "\(run.errorText)")
    }

    @Test("The request whose result could not be written has run: its change is saved")
    func changeStands() throws {
        let directory = Mediate.temporaryDirectory()
        let signUp = rawMediate(["--data-dir", directory, "perform", "Accounts", "signUp", "username=ada", "password=analytical"], Self.full)
        #expect(signUp.status == 74)
        #expect(try Mediate.run(["--data-dir", directory, "perform", "Accounts", "logIn", "username=ada", "password=analytical"]).status == 0)
    }

    @Test("CommandLineTool: a writer that throws ends the run with 74 and one error line")
    func throwingWriter() async {
        let mediator = Mediator()
        #expect(throws: Never.self) { try mediator.registerEcho() }
        let tool = CommandLineTool(mediator: mediator, name: "tool", version: "1")
        var errors: [String] = []
        let status = await tool.run(
            ["perform", "Echo", "echo"],
            write: { stream, line throws(StreamError) in
                guard stream == .error else { throw StreamError(errorNumber: ENOSPC) }
                errors.append(line)
            })
        #expect(status == 74)
        #expect(errors == ["tool: error: cannot write the result to standard output: No space left on device"])
    }
}

/// A temporary file holding `text`; its path (the caller removes it).
func temporaryFile(_ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("mediate-input-\(UUID().uuidString)").path
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    return path
}
