import Foundation

/// Reads the lines a child process writes to a pipe as they come, so a test can act on an event
/// ("the k-th line was read") instead of on time. Each wait is bounded by a generous limit that
/// only a hang reaches.
struct PipeLineReader {
    /// A line did not come within the limit: the writer hangs.
    struct Hang: Error, CustomStringConvertible {
        let seconds: Int
        var description: String { "no line and no end of output within \(seconds) s" }
    }

    let descriptor: Int32
    private var buffer: [UInt8] = []
    private var ended = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The next whole line without its newline, or `nil` at the end of the output. Bytes after the
    /// last newline are dropped: a line cut short (by a kill) was never written whole.
    mutating func next(limit seconds: Int = 60) throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            if ended { return nil }
            try fill(limit: seconds)
        }
    }

    private mutating func fill(limit seconds: Int) throws {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&request, 1, Int32(seconds * 1_000))
        if ready < 0 {
            if errno == EINTR { return }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        guard ready > 0 else { throw Hang(seconds: seconds) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
        if count < 0 {
            if errno == EINTR { return }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        if count == 0 { ended = true }
        buffer += chunk[..<count]
    }
}

/// A `mediate` process a test talks to line by line: input sent when the test chooses, each
/// output line read as it comes. Standard error is discarded unless `readsErrors` is set; then
/// its lines are read as they come too.
final class InteractiveMediate {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var reader: PipeLineReader
    private var errorReader: PipeLineReader

    /// Starts `mediate arguments...` with `environment` added to this process's.
    init(_ arguments: [String], environment: [String: String] = [:], readsErrors: Bool = false) throws {
        process.executableURL = Mediate.binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = readsErrors ? errors : FileHandle.nullDevice
        reader = PipeLineReader(descriptor: output.fileHandleForReading.fileDescriptor)
        errorReader = PipeLineReader(descriptor: errors.fileHandleForReading.fileDescriptor)
        try process.run()
    }

    /// Writes to the process's standard input (keep it under the pipe's 64 KiB buffer, or read
    /// output in between).
    func send(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Ends the process's standard input: a batch then finishes.
    func closeInput() throws {
        try input.fileHandleForWriting.close()
    }

    /// The next line of standard output, `nil` at its end; throws on a hang.
    func nextLine() throws -> String? {
        try reader.next()
    }

    /// The remaining lines, until the end of the output.
    func remainingLines() throws -> [String] {
        var lines: [String] = []
        while let line = try nextLine() { lines.append(line) }
        return lines
    }

    /// The next line of standard error (with `readsErrors`), `nil` at its end; throws on a hang.
    func nextErrorLine() throws -> String? {
        try errorReader.next()
    }

    /// The remaining lines of standard error, until its end.
    func remainingErrorLines() throws -> [String] {
        var lines: [String] = []
        while let line = try nextErrorLine() { lines.append(line) }
        return lines
    }

    /// Sends `number` (SIGKILL unless told) to the process.
    func signal(_ number: Int32 = SIGKILL) {
        _ = kill(process.processIdentifier, number)
    }

    /// Waits for the process to end (call after its output ended, so this cannot hang).
    func waitForExit() -> (reason: Process.TerminationReason, status: Int32) {
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
    }
}
