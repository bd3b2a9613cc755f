#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// Line output to the process's standard streams through `write(2)`: unbuffered, one call per
/// line where the system allows, so output of several requests (and processes) stays in order.
public enum StandardStreams {
    /// Writes `line` and a newline to standard output or standard error.
    ///
    /// ```swift
    /// try StandardStreams.write(#"{"ok":true}"#, to: .output)
    /// ```
    ///
    /// - Parameters:
    ///   - line: the text, without its newline.
    ///   - stream: standard output or standard error.
    /// - Throws: ``StreamError`` when the system refuses the write: `ENOSPC` on a full disk,
    ///   `EPIPE` when the reading end of a pipe is closed and `SIGPIPE` is ignored. (With `SIGPIPE`
    ///   at its default, such a write ends the process instead, as for any Unix filter.)
    public static func write(_ line: String, to stream: CommandLineTool.Stream) throws(StreamError) {
        var text = line
        text.append("\n")
        let failure = text.withUTF8 { writeAll($0, to: stream == .output ? 1 : 2) }
        if let failure { throw StreamError(errorNumber: failure) }
    }
}

/// Writes every byte to a file descriptor, retrying interrupted and partial writes. Shared with
/// `mediate`'s data store. Returns false on an error (`errno` says which).
package func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    let failure = bytes.withUnsafeBufferPointer { writeAll($0, to: descriptor) }
    if let failure { errno = failure }
    return failure == nil
}

/// Writes every byte, retrying interrupted and partial writes, and waiting (rather than failing)
/// when the descriptor is non-blocking and full. Returns the error number of a failure, nil when
/// everything was written.
func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32? {
    var offset = 0
    while offset < bytes.count {
        let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
            let failure = errno
            if failure == EINTR { continue }
            if failure == EAGAIN || failure == EWOULDBLOCK {
                if let pollFailure = waitUntilReady(descriptor, for: Int16(POLLOUT)) { return pollFailure }
                continue
            }
            return failure
        }
        offset += written
    }
    return nil
}

/// Blocks until `descriptor` is ready for `events` (`POLLIN`, `POLLOUT`): a standard stream may be
/// non-blocking when a parent process made it so. Returns the error number of a failed `poll`.
func waitUntilReady(_ descriptor: Int32, for events: Int16) -> Int32? {
    var entry = pollfd(fd: descriptor, events: events, revents: 0)
    while poll(&entry, 1, -1) < 0 {
        let failure = errno
        if failure != EINTR { return failure }
    }
    // Ready, or hung up or in error: the next read or write says which.
    return nil
}
