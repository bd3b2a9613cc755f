#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Line output to the process's standard streams through `write(2)`: unbuffered, one call per
/// line where the system allows, so output of several requests (and processes) stays in order.
public enum StandardStreams {
    /// Writes `line` and a newline to standard output or standard error. A closed pipe is
    /// ignored: nothing more can be said.
    public static func write(_ line: String, to stream: CommandLineTool.Stream) {
        _ = writeAll(Array((line + "\n").utf8), to: stream == .output ? 1 : 2)
    }
}

/// Writes every byte to a file descriptor, retrying interrupted and partial writes. Shared with
/// `mediate`'s data store. Returns false on an error (`errno` says which).
package func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    var offset = 0
    return bytes.withUnsafeBytes { buffer in
        while offset < buffer.count {
            let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}

#if canImport(Darwin)
private let systemWrite = Darwin.write
#elseif canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Musl)
private let systemWrite = Musl.write
#endif
