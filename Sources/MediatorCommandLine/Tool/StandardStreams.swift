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
    /// Writes `line` and a newline to standard output or standard error.
    public static func write(_ line: String, to stream: CommandLineTool.Stream) {
        let descriptor: Int32 = stream == .output ? 1 : 2
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        bytes.withUnsafeMutableBytes { buffer in
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // A closed pipe: nothing more can be said.
                }
                offset += written
            }
        }
    }
}

#if canImport(Darwin)
private let systemWrite = Darwin.write
#elseif canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Musl)
private let systemWrite = Musl.write
#endif
