/// Splits one `batch` line into words, shell style: spaces and tabs separate words (nothing else
/// does); single quotes keep everything literally; inside double quotes `\"` and `\\` are
/// escapes; outside quotes a backslash keeps the next character literally.
///
/// The line is read scalar by scalar, as a shell reads bytes: a space or a quote followed by a
/// combining mark still separates or quotes (as `Character`s they would merge into one).
enum BatchLine {
    /// The word separators of a batch line.
    static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t"
    }

    /// The line's first word exactly as written (quotes and backslashes not interpreted, as a URL
    /// line is taken literally), and the text after the separators that follow it.
    static func firstWord(of line: String) -> (word: String, rest: String) {
        let scalars = line.unicodeScalars
        guard let end = scalars.firstIndex(where: isSeparator) else { return (line, "") }
        let restStart = scalars[end...].firstIndex { !isSeparator($0) } ?? scalars.endIndex
        return (String(scalars[..<end]), String(scalars[restStart...]))
    }

    static func words(_ line: String) throws(CommandError) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        var inWord = false
        var iterator = line.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            switch scalar {
            case _ where isSeparator(scalar):
                if inWord {
                    words.append(String(current))
                    current = String.UnicodeScalarView()
                    inWord = false
                }
            case "'":
                inWord = true
                var closed = false
                while let inner = iterator.next() {
                    if inner == "'" {
                        closed = true
                        break
                    }
                    current.append(inner)
                }
                guard closed else { throw .usage("unterminated single quote in \(quoted(line))") }
            case "\"":
                inWord = true
                var closed = false
                while let inner = iterator.next() {
                    if inner == "\"" {
                        closed = true
                        break
                    }
                    if inner == "\\" {
                        guard let escaped = iterator.next() else { break }
                        if escaped != "\"" && escaped != "\\" { current.append("\\") }
                        current.append(escaped)
                    } else {
                        current.append(inner)
                    }
                }
                guard closed else { throw .usage("unterminated double quote in \(quoted(line))") }
            case "\\":
                inWord = true
                guard let escaped = iterator.next() else { throw .usage("a backslash ends \(quoted(line))") }
                current.append(escaped)
            default:
                inWord = true
                current.append(scalar)
            }
        }
        if inWord { words.append(String(current)) }
        return words
    }
}
