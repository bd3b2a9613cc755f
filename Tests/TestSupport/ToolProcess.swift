import Foundation

/// Runs a toolchain command for the tests that build or type-check generated code.
public enum ToolProcess {
    /// Why a command could not be run, or was ended as a hang.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `arguments` through `/usr/bin/env` (so the tool is found on `PATH`) in `directory`, its
    /// output (both streams) written to `log`, and returns its exit status and that output. A run
    /// that outlasts `hangLimitSeconds` (far beyond any build) is taken for a hang: it is ended and
    /// reported as a failure.
    public static func run(_ arguments: [String], in directory: URL? = nil, log: URL, hangLimitSeconds: UInt64) async throws -> (status: Int32, output: String)
    {
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw Failure(description: "cannot create \(log.path)") }
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        let watchdog = Task {
            try await Task.sleep(nanoseconds: hangLimitSeconds * 1_000_000_000)
            process.terminate()
        }
        defer { watchdog.cancel() }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { process in continuation.resume(returning: process.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        if process.terminationReason == .uncaughtSignal {
            throw Failure(description: "\(arguments.joined(separator: " ")) ended by signal \(status) (hang limit \(hangLimitSeconds) s):\n\(text)")
        }
        return (status, text)
    }
}
