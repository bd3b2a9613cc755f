import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a raw run of a program ended.
struct RawRun {
    /// The exit status, or nil when a signal ended the process.
    let status: Int32?
    let signal: Int32?
    let output: [UInt8]
    let error: [UInt8]
    let timedOut: Bool
}

/// Runs a program with arguments given as raw bytes (so they can be invalid UTF-8, which
/// `Process` cannot pass), standard input from /dev/null and output to files.
enum RawProcess {
    static func run(_ path: String, arguments: [[UInt8]], timeout: Double = 30) -> RawRun {
        let directory = FileManager.default.temporaryDirectory.path
        let outputPath = "\(directory)/raw-out-\(UUID().uuidString)"
        let errorPath = "\(directory)/raw-err-\(UUID().uuidString)"
        defer {
            unlink(outputPath)
            unlink(errorPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        // argv: NUL-terminated copies of the raw bytes.
        let argv: [UnsafeMutablePointer<CChar>?] = ([Array(path.utf8)] + arguments).map { bytes in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            return copy
        } + [nil]
        defer { for pointer in argv { pointer?.deallocate() } }

        var pid = pid_t()
        let spawned = argv.withUnsafeBufferPointer { buffer in
            posix_spawn(&pid, path, &actions, nil, UnsafeMutablePointer(mutating: buffer.baseAddress!), environ)
        }
        guard spawned == 0 else { return RawRun(status: nil, signal: nil, output: [], error: Array("spawn failed: \(spawned)".utf8), timedOut: false) }

        var waitStatus: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while waitpid(pid, &waitStatus, WNOHANG) == 0 {
            if Date() > deadline {
                timedOut = true
                kill(pid, SIGKILL)
                waitpid(pid, &waitStatus, 0)
                break
            }
            usleep(1_000)
        }
        let output = FileManager.default.contents(atPath: outputPath).map(Array.init) ?? []
        let error = FileManager.default.contents(atPath: errorPath).map(Array.init) ?? []
        let signal = waitStatus & 0x7F
        return RawRun(
            status: signal == 0 ? (waitStatus >> 8) & 0xFF : nil,
            signal: signal == 0 ? nil : signal,
            output: output, error: error, timedOut: timedOut
        )
    }
}
