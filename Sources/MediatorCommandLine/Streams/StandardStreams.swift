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
