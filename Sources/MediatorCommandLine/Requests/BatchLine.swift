import Mediator

/// Splits one `batch` line into words, shell style: spaces and tabs separate words (nothing else
/// does); single quotes keep everything literally; inside double quotes `\"` and `\\` are
/// escapes; outside quotes a backslash keeps the next character literally.
///
/// The line is read byte by byte, in one pass, as a shell reads it: every byte with a meaning
/// (space, tab, quotes, backslash) is ASCII, and no byte of a multi-byte UTF-8 sequence is ASCII,
/// so a space or a quote followed by a combining mark still separates or quotes (as `Character`s
/// they would merge into one), and an escaped non-ASCII character is kept whole (its bytes follow
/// the backslash's one by one). Words are cut only around ASCII bytes, so each is valid UTF-8.
enum BatchLine {
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let singleQuote = UInt8(ascii: "'")
    private static let doubleQuote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    /// Whether `byte` separates words (a space or a tab).
    static func isSeparator(_ byte: UInt8) -> Bool {
        byte == space || byte == tab
    }

    /// The line's first word exactly as written (quotes and backslashes not interpreted, as a URL
    /// line is taken literally), and the text after the separators that follow it.
    static func firstWord(of line: String) -> (word: String, rest: String) {
        withUTF8Bytes(of: line) { bytes in
            guard let end = bytes.firstIndex(where: isSeparator) else { return (line, "") }
            let restStart = bytes[end...].firstIndex { !isSeparator($0) } ?? bytes.endIndex
            return (text(bytes, 0, end), text(bytes, restStart, bytes.count))
        }
    }

    /// Whether the line's first word holds `://` (byte for byte), which makes the line a URL.
    static func startsWithURL(_ line: String) -> Bool {
        withUTF8Bytes(of: line) { bytes in
            var index = 0
            while index + 2 < bytes.count, !isSeparator(bytes[index]) {
                if bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "/") && bytes[index + 2] == UInt8(ascii: "/") {
                    return true
                }
                index += 1
            }
            return false
        }
    }

    static func words(_ line: String) throws(CommandError) -> [String] {
        let words = withUTF8Bytes(of: line) { bytes -> [String]? in
            // No quote and no backslash (the usual line): the words are the runs between
            // separators, cut from the line as they are.
            if !bytes.contains(where: { $0 == singleQuote || $0 == doubleQuote || $0 == backslash }) { return plainWords(bytes) }
            return nil
        }
        if let words { return words }
        return try quotedWords(line)
    }

    /// The runs of bytes between separators.
    private static func plainWords(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        var words: [String] = []
        var index = 0
        while index < bytes.count {
            if isSeparator(bytes[index]) {
                index += 1
                continue
            }
            let start = index
            while index < bytes.count && !isSeparator(bytes[index]) { index += 1 }
            words.append(text(bytes, start, index))
        }
        return words
    }

    /// The words of a line with quotes or backslashes, interpreted.
    private static func quotedWords(_ line: String) throws(CommandError) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        var inWord = false
        var iterator = line.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case space, tab:
                if inWord {
                    words.append(String(decoding: current, as: UTF8.self))
                    current.removeAll(keepingCapacity: true)
                    inWord = false
                }
            case singleQuote, doubleQuote:
                // Up to the matching quote; only double quotes read backslash escapes (of `"` and `\`).
                inWord = true
                var closed = false
                while let inner = iterator.next() {
                    if inner == byte {
                        closed = true
                        break
                    }
                    if byte == doubleQuote && inner == backslash {
                        guard let escaped = iterator.next() else { break }
                        if escaped != doubleQuote && escaped != backslash { current.append(backslash) }
                        current.append(escaped)
                    } else {
                        current.append(inner)
                    }
                }
                guard closed else { throw .usage("unterminated \(byte == singleQuote ? "single" : "double") quote in \(quoted(line))") }
            case backslash:
                inWord = true
                guard let escaped = iterator.next() else { throw .usage("a backslash ends \(quoted(line))") }
                current.append(escaped)
            default:
                inWord = true
                current.append(byte)
            }
        }
        if inWord { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }
}

/// The text of `bytes[start..<end]`, which must be cut at ASCII bytes (or the ends).
func text(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
}
