import Foundation
import Testing

/// What one run of `mediate` printed and returned.
struct Run: CustomStringConvertible {
    let output: String
    let error: String
    let status: Int32

    /// Standard output without its final newline.
    var line: String { output.hasSuffix("\n") ? String(output.dropLast()) : output }
    var lines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    var errorLines: [String] { error.split(separator: "\n").map(String.init) }
    var description: String { "status \(status)\nstdout: \(output)\nstderr: \(error)" }

    /// The standard output parsed as one JSON object.
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])) as? [String: Any]
    }
}

/// The session token in a line `"<32 lowercase hex digits>"` (what `logIn` prints), or `nil`.
func sessionToken(_ line: String) -> String? {
    guard line.utf8.count == 34, line.hasPrefix("\""), line.hasSuffix("\"") else { return nil }
    let token = String(line.dropFirst().dropLast())
    return token.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) } ? token : nil
}

/// Runs the built `mediate` binary, as swift-argument-parser's own tests run theirs.
enum Mediate {
    /// The directory holding the test binary holds the products too.
    static let binary: URL = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent().appendingPathComponent("mediate")
    }()

    /// A fresh, empty data directory, mode 0700 (mediate refuses one that others can write to).
    static func temporaryDirectory() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mediate-test-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    /// Runs `mediate arguments...` with `input` on standard input; fails the test on a hang (30 s).
    @discardableResult
    static func run(_ arguments: [String], input: String? = nil) throws -> Run {
        let process = try start(arguments, input: input)
        return try finish(process)
    }

    struct Started {
        let process: Process
        let outputFile: URL
        let errorFile: URL
    }

    static func start(_ arguments: [String], input: String? = nil) throws -> Started {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        // Output goes to files, not pipes: a full pipe would block the child while we wait for it.
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("mediate-out-\(UUID().uuidString)")
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("mediate-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        let inputPipe = Pipe()
        process.standardInput = inputPipe
        try process.run()
        if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inputPipe.fileHandleForWriting.close()
        return Started(process: process, outputFile: outputFile, errorFile: errorFile)
    }

    static func finish(_ started: Started) throws -> Run {
        // A limit only a hang reaches, even on a loaded machine.
        let deadline = Date().addingTimeInterval(120)
        while started.process.isRunning && Date() < deadline { usleep(2_000) }
        if started.process.isRunning {
            started.process.terminate()
            Issue.record("mediate did not finish within 120 s")
        }
        started.process.waitUntilExit()
        defer {
            try? FileManager.default.removeItem(at: started.outputFile)
            try? FileManager.default.removeItem(at: started.errorFile)
        }
        let output = try String(contentsOf: started.outputFile, encoding: .utf8)
        let error = try String(contentsOf: started.errorFile, encoding: .utf8)
        #expect(started.process.terminationReason == .exit, "mediate ended by a signal")
        return Run(output: output, error: error, status: started.process.terminationStatus)
    }
}
