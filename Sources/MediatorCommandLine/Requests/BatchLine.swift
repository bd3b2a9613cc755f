/// Splits one `batch` line into words, shell style: whitespace separates words; single quotes
/// keep everything literally; inside double quotes `\"` and `\\` are escapes; outside quotes a
/// backslash keeps the next character literally.
enum BatchLine {
    static func words(_ line: String) throws(CommandError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t":
                if inWord { words.append(current); current = ""; inWord = false }
            case "'":
                inWord = true
                var closed = false
                while let inner = iterator.next() {
                    if inner == "'" { closed = true; break }
                    current.append(inner)
                }
                guard closed else { throw .usage("unterminated single quote in \(quoted(line))") }
            case "\"":
                inWord = true
                var closed = false
                while let inner = iterator.next() {
                    if inner == "\"" { closed = true; break }
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
                current.append(character)
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
