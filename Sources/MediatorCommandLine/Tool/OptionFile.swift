import Mediator

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

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
        func systemFailure(_ what: String) -> CommandError {
            failure("\(what): \(String(cString: strerror(errno)))")
        }
        let tooLarge = failure("it is larger than the limit of \(maximumSize >> 20) MiB (\(maximumSize) bytes)")
        var info = stat()
        guard stat(path, &info) == 0 else { throw systemFailure("cannot read it") }
        if let kind = kind(info) { throw failure("it is \(kind), not a regular file") }
        guard info.st_size <= maximumSize else { throw tooLarge }
        let file = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { throw systemFailure("cannot open it") }
        defer { _ = close(file) }
        guard fstat(file, &info) == 0 else { throw systemFailure("cannot inspect it") }
        if let kind = kind(info) { throw failure("it is \(kind), not a regular file") }
        guard info.st_size <= maximumSize else { throw tooLarge }
        // At most one byte past the limit, whatever the size said: the file may grow meanwhile.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while count <= maximumSize {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, maximumSize + 1 - count))) }
            let read = bytes.withUnsafeMutableBytes { buffer in systemRead(file, buffer.baseAddress! + count, buffer.count - count) }
            if read < 0 {
                if errno == EINTR { continue }
                throw systemFailure("cannot read it")
            }
            if read == 0 { break }
            count += read
        }
        guard count <= maximumSize else { throw tooLarge }
        bytes.removeSubrange(count...)
        guard let text = validUTF8(bytes) else { throw failure("it is not UTF-8 text") }
        return text
    }

    /// What a file with this metadata is, when it is not a regular file.
    private static func kind(_ info: stat) -> String? {
        switch info.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "of an unknown kind"
        }
    }
}
