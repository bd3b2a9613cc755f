/// A JSON value. Hand-written (parser and serializer): the library never imports Foundation, and the
/// command-line layer avoids it too (loading it costs more at process start than the rest of
/// `mediate` put together). The library reads redirect tables with it; the command line, params.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Compact JSON with object keys sorted, so the same value always prints the same text.
    /// Non-finite doubles, which JSON cannot express, print as `null`. Control characters, bidi
    /// controls and invisible format characters in strings print as `\uXXXX` escapes, so the text
    /// is safe to show on a terminal.
    package var serialized: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value): output += value.isFinite ? String(value) : "null"
        case .string(let value): writeJSONString(value, to: &output)
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                writeJSONString(key, to: &output)
                output += ":"
                members[key]!.write(to: &output)
            }
            output += "}"
        }
    }

}

// MARK: - Parsing

extension JSONValue {
    /// Why text is not JSON, with the byte offset where parsing stopped.
    package struct ParseError: Error, CustomStringConvertible, Equatable {
        package let offset: Int
        package let reason: String
        package var description: String { "\(reason) at byte \(offset)" }
    }

    /// How deeply arrays and objects may nest; deeper input is refused rather than risking the stack.
    package static let maximumDepth = 256

    /// Parses one JSON value (RFC 8259), with nothing but whitespace after it.
    package init(parsing text: String) throws(ParseError) {
        self = try Parser.whole(text) { parser throws(ParseError) in try parser.value(depth: 0) }
    }

    /// Reads JSON text in place, from the bytes of a string (valid only while they are lent).
    struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        func error(_ reason: String) -> ParseError { ParseError(offset: index, reason: reason) }

        /// Reads all of `text` with `readValue`, which reads one value: only whitespace may be
        /// around it.
        static func whole<Read>(_ text: String, _ readValue: (inout Parser) throws(ParseError) -> Read) throws(ParseError) -> Read {
            try withUTF8Bytes(of: text) { bytes in
                Result { () throws(ParseError) in
                    var parser = Parser(bytes: bytes)
                    parser.skipWhitespace()
                    let read = try readValue(&parser)
                    parser.skipWhitespace()
                    guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the value") }
                    return read
                }
            }.get()
        }

        /// The first byte of a value at `depth`, after checking the depth and that there is one.
        func valueStart(depth: Int) throws(ParseError) -> UInt8 {
            guard depth < JSONValue.maximumDepth else { throw error("nesting deeper than \(JSONValue.maximumDepth)") }
            guard index < bytes.count else { throw error("unexpected end of input") }
            return bytes[index]
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                let byte = bytes[index]
                guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
                index += 1
            }
        }

        mutating func value(depth: Int) throws(ParseError) -> JSONValue {
            switch try valueStart(depth: depth) {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("unexpected character")
            }
        }

        mutating func literal(_ word: StaticString) throws(ParseError) {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw error("invalid literal") }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
                throw error("invalid literal")
            }
            index += count
        }

        mutating func object(depth: Int) throws(ParseError) -> JSONValue {
            var members: [String: JSONValue] = [:]
            try forEachMember { parser, read throws(ParseError) in
                let key = parser.text(of: read)
                // A repeated key is refused, not resolved (the last one winning would silently drop
                // the others: a state file with two "accounts" would lose one on the next write).
                guard members[key] == nil else { throw parser.repeatedKey(key) }
                members[key] = try parser.value(depth: depth + 1)
            }
            return .object(members)
        }

        func repeatedKey(_ key: String) -> ParseError { error("repeated key \"\(oneLine(key, limit: 100))\"") }

        /// Reads an object (at its `{`): each member's key, then `readValue` reads its value.
        mutating func forEachMember(_ readValue: (inout Parser, StringRead) throws(ParseError) -> Void) throws(ParseError) {
            try forEachItem(closedBy: UInt8(ascii: "}"), in: "object") { parser throws(ParseError) in
                guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") else {
                    throw parser.error("expected a string key")
                }
                let key = try parser.stringRead()
                parser.skipWhitespace()
                guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: ":") else { throw parser.error("expected \":\"") }
                parser.index += 1
                parser.skipWhitespace()
                try readValue(&parser, key)
            }
        }

        mutating func array(depth: Int) throws(ParseError) -> JSONValue {
            var values: [JSONValue] = []
            try forEachElement { parser throws(ParseError) in values.append(try parser.value(depth: depth + 1)) }
            return .array(values)
        }

        /// Reads an array (at its `[`): `readValue` reads each element.
        mutating func forEachElement(_ readValue: (inout Parser) throws(ParseError) -> Void) throws(ParseError) {
            try forEachItem(closedBy: UInt8(ascii: "]"), in: "array", readValue)
        }

        /// Reads the items of an object or an array (at its opening byte) up to `close`, the items
        /// separated by commas: `readItem` reads each one, from its first byte.
        @inline(__always)
        private mutating func forEachItem(
            closedBy close: UInt8, in container: String, _ readItem: (inout Parser) throws(ParseError) -> Void
        ) throws(ParseError) {
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == close {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                try readItem(&self)
                skipWhitespace()
                guard index < bytes.count else { throw error("unterminated \(container)") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == close {
                    index += 1
                    return
                }
                throw error("expected \",\" or \"\(Character(Unicode.Scalar(close)))\"")
            }
        }

        /// A string as read: where its bytes are, when they are printable ASCII without escapes
        /// (its text is those bytes as they are), else its text.
        enum StringRead: Sendable {
            case plain(Range<Int>)
            case text(String)

            /// The string's text, its bytes (if plain) read from `bytes`, the text it was read from.
            func text(in bytes: UnsafeBufferPointer<UInt8>) -> String {
                switch self {
                case .plain(let range): String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                case .text(let text): text
                }
            }
        }

        /// The text of a string read from these bytes.
        func text(of read: StringRead) -> String { read.text(in: bytes) }

        mutating func string() throws(ParseError) -> String { text(of: try stringRead()) }

        /// Reads a string (at its quote).
        mutating func stringRead() throws(ParseError) -> StringRead {
            index += 1
            let stringStart = index
            // The usual string, printable ASCII without escapes: left as its bytes (ASCII is valid
            // UTF-8). Anything else is read again from the start, below.
            while index < bytes.count, bytes[index] >= 0x20, bytes[index] < 0x80, bytes[index] != UInt8(ascii: "\\") {
                if bytes[index] == UInt8(ascii: "\"") {
                    index += 1
                    return .plain(stringStart..<(index - 1))
                }
                index += 1
            }
            index = stringStart
            var start = index
            var raw: [UInt8] = []
            while true {
                guard index < bytes.count else { throw error("unterminated string") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    // No escape in the string: its bytes as they are, copied once.
                    if raw.isEmpty && start == stringStart {
                        index += 1
                        guard let text = validUTF8(bytes[start..<(index - 1)]) else { throw error("invalid UTF-8 in string") }
                        return .text(text)
                    }
                    raw += bytes[start..<index]
                    index += 1
                    break
                }
                if byte < 0x20 { throw error("control character in string") }
                guard byte == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                raw += bytes[start..<index]
                index += 1
                guard index < bytes.count else { throw error("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): raw.append(0x22)
                case UInt8(ascii: "\\"): raw.append(0x5C)
                case UInt8(ascii: "/"): raw.append(0x2F)
                case UInt8(ascii: "b"): raw.append(0x08)
                case UInt8(ascii: "f"): raw.append(0x0C)
                case UInt8(ascii: "n"): raw.append(0x0A)
                case UInt8(ascii: "r"): raw.append(0x0D)
                case UInt8(ascii: "t"): raw.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid unicode escape") }
                    raw += Array(String(scalar).utf8)
                default: throw error("invalid escape")
                }
                start = index
            }
            guard let text = validUTF8(raw) else { throw error("invalid UTF-8 in string") }
            return .text(text)
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard index + 4 <= bytes.count else { throw error("short unicode escape") }
            var value: UInt32 = 0
            for byte in bytes[index..<(index + 4)] {
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw error("invalid unicode escape")
                }
                value = value << 4 | digit
            }
            index += 4
            return value
        }

        mutating func number() throws(ParseError) -> JSONValue {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            var integral = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                integral = false
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                integral = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            // Up to 18 digits fit in an Int whatever they are: read as they are.
            if integral, index - start <= 18 {
                let negative = bytes[start] == UInt8(ascii: "-")
                var value = 0
                for digit in bytes[(negative ? start + 1 : start)..<index] { value = value * 10 + Int(digit - UInt8(ascii: "0")) }
                return .int(negative ? -value : value)
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if integral, let value = Int(text) { return .int(value) }
            guard let value = Double(text), value.isFinite else { throw ParseError(offset: start, reason: "number out of range") }
            return .double(value)
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    }
}
