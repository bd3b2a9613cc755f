import Mediator

/// The example call `describe` shows for an action with declared params: each required param and
/// each optional one with a default, with its default or a placeholder of its type, spelled as a
/// command line and as a URL.
struct ExampleCall {
    /// The params sent, in declaration order.
    let values: [(name: String, value: any Sendable, isRequired: Bool)]
    /// Required params no command line or URL can send (`.value` types), by name.
    let inProcessOnly: [String]

    init(_ parameters: [Parameter]) {
        var values: [(name: String, value: any Sendable, isRequired: Bool)] = []
        var inProcessOnly: [String] = []
        for parameter in parameters {
            // No command line or URL can send an in-process value; an optional one is left out
            // (the action gets its default anyway), as is a default a terminal must not be shown
            // raw (control, bidi or format characters): the example stays one runnable line.
            if case .value = parameter.type.kind {
                if parameter.isRequired { inProcessOnly.append(parameter.name) }
                continue
            }
            if !parameter.isRequired, let value = parameter.defaultValue, !Self.isShowable(value) { continue }
            if let value = parameter.defaultValue ?? (parameter.isRequired ? Self.placeholder(for: parameter.type) : nil) {
                values.append((parameter.name, value, parameter.isRequired))
            } else if parameter.isRequired {
                inProcessOnly.append(parameter.name)
            }
        }
        self.values = values
        self.inProcessOnly = inProcessOnly
    }

    /// The words after `perform <Target> <action>`, each quoted for a POSIX shell where needed:
    /// `token=text limit=20`.
    var arguments: [String] {
        values.flatMap { Self.arguments(name: $0.name, value: $0.value) }.map(Self.shellQuoted)
    }

    /// The URL's query (without `?`), or `nil` when a required value has no URL form (an object,
    /// an empty array): URL queries carry text only. An optional one without is left out: the
    /// action gets its default anyway.
    var query: String? {
        var items: [String] = []
        for (name, value, isRequired) in values {
            guard let texts = Self.texts(value), !texts.isEmpty else {
                if isRequired { return nil } else { continue }
            }
            items += texts.map { Self.percentEncoded(name) + "=" + Self.percentEncoded($0) }
        }
        return items.joined(separator: "&")
    }

    // MARK: Values

    /// A value of `type` for an example: `text`, the smallest allowed integer (else 1), `true`, a
    /// one-element array, an object of its required fields; `nil` for an in-process value.
    static func placeholder(for type: ParameterType) -> (any Sendable)? {
        switch type.kind {
        case .string: return "text"
        case .integer(let minimum, let maximum): return minimum ?? maximum.map { Swift.min($0, 1) } ?? 1
        case .number(let minimum, let maximum): return minimum ?? maximum.map { Swift.min($0, 1.5) } ?? 1.5
        case .boolean: return true
        case .array(let element): return placeholder(for: element).map { [$0] as [any Sendable] }
        case .object(nil): return [:] as [String: any Sendable]
        case .object(let fields?):
            var object: [String: any Sendable] = [:]
            for field in fields {
                if let value = field.defaultValue ?? (field.isRequired ? placeholder(for: field.type) : nil) { object[field.name] = value }
            }
            return object
        case .value: return nil
        }
    }

    /// `value` as the text a URL query or `key=value` passes, one text per element for an array of
    /// scalars; `nil` when it is not text, a number or a boolean (or an array of them).
    private static func texts(_ value: Any) -> [String]? {
        switch value {
        case let text as String: return [text]
        case let flag as Bool: return [flag ? "true" : "false"]
        case let integer as Int: return [String(integer)]
        case let number as Double: return number.isFinite ? [String(number)] : nil
        case let array as [Any]:
            var texts: [String] = []
            for element in array {
                guard let text = Self.texts(element), text.count == 1, !(element is [Any]) else { return nil }
                texts += text
            }
            return texts
        default: return nil
        }
    }

    /// Whether a value's text can be shown on a terminal as it is: no scalar that
    /// ``Unicode/Scalar/isEscapedForTerminals`` (controls, newlines, bidi and format characters).
    private static func isShowable(_ value: Any) -> Bool {
        guard let texts = texts(value) else { return true }  // shown as JSON, which escapes them
        return texts.allSatisfy { !$0.unicodeScalars.contains(where: \.isEscapedForTerminals) }
    }

    // MARK: Spelling

    /// A param name as a `key=value` argument spells it: `\` before `\`, `=` and `:`, and before
    /// a leading `-` (else the word would read as an option: `\--level=text` is key `--level`).
    static func commandLineKey(_ name: String) -> String {
        var key = ""
        for character in name {
            if character == "\\" || character == "=" || character == ":" || (key.isEmpty && character == "-") { key.append("\\") }
            key.append(character)
        }
        return key
    }

    /// `name=text` arguments for text, numbers and booleans (one per element of an array of them),
    /// else one `name:=json` argument.
    private static func arguments(name: String, value: any Sendable) -> [String] {
        let key = commandLineKey(name)
        if let texts = texts(value), !texts.isEmpty { return texts.map { key + "=" + $0 } }
        return [key + ":=" + JSONValue(result: value).serialized]
    }

    /// `word` as a POSIX shell reads it back: as it is when it holds only safe characters, else in
    /// single quotes (a `'` written as `'\''`).
    static func shellQuoted(_ word: String) -> String {
        let safe =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", "/", ":", "=", "@", "%", "+", ",": true
                default: false
                }
            }
        if safe { return word }
        var quoted = "'"
        for character in word {
            quoted += character == "'" ? "'\\''" : String(character)
        }
        return quoted + "'"
    }

    /// `text` with every byte but RFC 3986's unreserved ones percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
