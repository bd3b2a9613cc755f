import Mediator

/// An observer that writes one line per finished call: when it started, where it came from, how
/// deeply it was nested, where it went, its outcome and how long it took.
///
/// ```swift
/// mediator.addObserver(CallLogger { line in print(line) })
/// // 2025-03-01T09:30:12.048Z in-process depth=2 Accounts/authorize ok 14.2µs
/// // 2025-03-01T09:30:12.047Z command-line depth=1 Notes/create ok 1.3ms
/// // 2025-03-01T09:30:12.051Z url=app://Legacy/open depth=1 Legacy/open -> Modern/open failed 9.8µs actionFailed: Modern/open: ...
/// ```
///
/// Every call is a line of its own, nested calls included: a call an action makes while it runs
/// finishes first, so its line comes before the line of the call that made it (the `depth` and the
/// start times tell them apart). Lines are written on the thread that finished the call, with no
/// mediator lock held, so `write` must be safe to call from several threads at once (`print` is).
///
/// The line's format, fields separated by one space:
///
/// ```
/// TIME ORIGIN depth=N ROUTE OUTCOME DURATION[ CODE: MESSAGE]
/// ```
///
/// - `TIME`: when the call started, UTC, ISO 8601 with milliseconds: `2025-03-01T09:30:12.047Z`.
/// - `ORIGIN`: `in-process`, `command-line`, `url=` followed by the URL as the caller gave it, or
///   `agent=` followed by the name an agent's client gave itself.
/// - `depth=N`: 1 for a call no other call made, 2 for a call made while one ran, and so on.
/// - `ROUTE`: where the call ended, `Target/action`, preceded by each pair it was redirected from
///   and ` -> ` (`Legacy/open -> Modern/open`), canonical names.
/// - `OUTCOME`: `ok` or `failed`.
/// - `DURATION`: as `CallRecord.description` writes it: `850ns`, `12.3µs`, `4.1ms`, `2.50s`.
/// - `CODE: MESSAGE`, for a failed call only: the error's code and its description, with the
///   characters a terminal would act on escaped (`\n`, `\u{1B}`), cut at 500 characters with "…".
///   It runs to the end of the line.
///
/// A name or URL is written as it is when it holds only printable ASCII other than the space,
/// `"` and `\` (every valid name does) and is at most 200 characters long; otherwise (a name a URL
/// made up, say) it is written as a JSON string literal (`"Bad name/x"`, control and format
/// characters as `\u001b`), cut at 200 characters with "…", so a line stays one line and its
/// fields stay apart whatever the caller sent.
public struct CallLogger: CallObserver {
    private let write: @Sendable (String) -> Void

    /// A logger that hands each line, without a newline, to `write`.
    ///
    /// ```swift
    /// let logger = CallLogger { line in print(line) }
    /// ```
    ///
    /// - Parameter write: called once per finished call, possibly from several threads at once.
    public init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Writes the call's line.
    ///
    /// - Parameter record: the finished call.
    public func callDidFinish(_ record: CallRecord) {
        write(Self.line(for: record))
    }

    /// The line the logger writes for `record` (see ``CallLogger`` for its format), to write it
    /// elsewhere or add fields of your own.
    ///
    /// ```swift
    /// mediator.addObserver(CallLogger { line in print("[router] " + line) })
    /// ```
    ///
    /// - Parameter record: the finished call.
    /// - Returns: its line, without a newline.
    public static func line(for record: CallRecord) -> String {
        var line = timestamp(record.startTime)
        line += " "
        switch record.request.origin {
        case .inProcess: line += "in-process"
        case .commandLine: line += "command-line"
        case .url(let url):
            line += "url="
            line += token(url, isPlain: isPlainURLByte)
        case .agent(let client):
            line += "agent="
            line += token(client, isPlain: isPlainURLByte)
        }
        line += " depth=\(record.request.depth) "
        for pair in record.redirectedFrom {
            line += token(pair, isPlain: isPlainNameByte)
            line += " -> "
        }
        line += token(record.name, isPlain: isPlainNameByte)
        line += record.succeeded ? " ok " : " failed "
        line += CallRecord.formatted(nanoseconds: record.durationNanoseconds)
        if let error = record.error {
            line += " "
            line += oneLine("\(error.code.rawValue): \(error)", limit: 500)
        }
        return line
    }

    // MARK: - Fields

    /// The longest name or URL written as it is; a longer one is cut and quoted.
    static let tokenLimit = 200

    /// `seconds` since 1970 as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    static func timestamp(_ seconds: Double) -> String {
        let time = utcFields(seconds)
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        return "\(padded(time.year, 4))-\(padded(time.month, 2))-\(padded(time.day, 2))T"
            + "\(padded(time.hour, 2)):\(padded(time.minute, 2)):\(padded(time.second, 2)).\(padded(time.millisecond, 3))Z"
    }

    /// `text` as it is when every byte is plain and it is short enough, else as a JSON string
    /// literal cut at ``tokenLimit`` characters.
    static func token(_ text: String, isPlain: (UInt8) -> Bool) -> String {
        let utf8 = text.utf8
        if !utf8.isEmpty, utf8.count <= tokenLimit, utf8.first != UInt8(ascii: "-"), utf8.allSatisfy(isPlain) { return text }
        var cut = ""
        cut.unicodeScalars.append(contentsOf: text.unicodeScalars.prefix(tokenLimit))
        if !text.unicodeScalars.dropFirst(tokenLimit).isEmpty { cut += "…" }
        var quoted = ""
        writeJSONString(cut, to: &quoted)
        return quoted
    }

    /// A byte a `Target/action` pair is written with as it is: a name's bytes and `/`.
    static func isPlainNameByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || Names.isNameByte(byte)
    }

    /// A byte a URL is written with as it is: printable ASCII other than space, `"` and `\`.
    static func isPlainURLByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }
}
