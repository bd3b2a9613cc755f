import Mediator

/// A file named by an option (`--redirects FILE`, `--routes FILE`), read whole as UTF-8 text.
///
/// The file is named by the person at the command line, so a symbolic link is followed (as `cat`
/// would), but what it names is treated as hostile: it must be a regular file (a FIFO, device,
/// socket or directory is refused from its metadata, before any `open`, so a FIFO cannot hang the
/// run nor a device be touched; the `open` is non-blocking besides, and the open file is checked
/// again in case another was swapped in), of at most ``maximumSize`` bytes (never read whole when
/// larger, even if it grows meanwhile), and UTF-8. Every problem is one line, `OPTION "PATH":
/// REASON`, with the code the option's table uses for a file that cannot be used (exit 65).
enum OptionFile {
    /// The largest file read: 8 MiB, more than a redirect table of
    /// ``RedirectTable/maximumEntries`` entries of the longest names needs, and room for a route
    /// table of the library's limit of 100,000 routes at about 80 bytes each.
    static let maximumSize = 8 << 20

    /// The text of the file at `path`, named by `option`; a problem is a ``CommandError/call(_:)``
    /// with `code` and the reason after `option "path": `.
    static func read(_ path: String, option: String, code: MediatorError.Code) throws(CommandError) -> String {
        func failure(_ reason: String) -> CommandError {
            .call(MediatorError(code, reason: "\(option) \(quoted(path)): \(reason)"))
        }
        switch readRegularFile(atPath: path, limit: maximumSize) {
        case .bytes(let bytes):
            guard let text = validUTF8(bytes) else { throw failure("it is not UTF-8 text") }
            return text
        case .notRegularFile(let kind): throw failure("it is \(kind), not a regular file")
        case .tooLarge: throw failure("it is larger than the limit of \(maximumSize >> 20) MiB (\(maximumSize) bytes)")
        case .failed(let what, let error): throw failure("\(what): \(error)")
        }
    }
}
