import Mediator

extension JSONValue {
    /// A call's result as JSON: strings, numbers, `Bool`, `nil`, arrays, string-keyed dictionaries and
    /// ``Params`` as themselves, `Encodable` values as the library's encoder writes them; anything
    /// else as the string of its description.
    package init(result: Any?) {
        guard let value = result else {
            self = .null
            return
        }
        // Casts see through Optionals that hold a value, and no concrete type's cast succeeds on
        // one that holds nothing: `isNil` (a cast to a protocol, costly) waits until they failed.
        switch value {
        // Concrete types first: a cast to a protocol (`any BinaryInteger`) searches conformances.
        // (Bool before Int: a Foundation number holding a Bool casts to both.)
        case let string as String: self = .string(string)
        case let bool as Bool: self = .bool(bool)
        case let int as Int: self = .int(int)
        case let params as Params: self = .object(params.values.mapValues { JSONValue(result: $0) })
        case let json as JSONValue: self = json
        case let substring as Substring: self = .string(String(substring))
        case let double as Double: self = .double(double)
        case let float as Float: self = .double(Double(float))
        case let dictionary as [String: Any]: self = .object(dictionary.mapValues { JSONValue(result: $0) })
        case let array as [Any]: self = .array(array.map { JSONValue(result: $0) })
        case _ where isNil(value): self = .null
        case let integer as any BinaryInteger: self = Int(exactly: integer).map(JSONValue.int) ?? .string(String(describing: integer))
        case let encodable as any Encodable: self = JSONValue(encoding: encodable) ?? .string(String(describing: value))
        default: self = .string(String(describing: value))
        }
    }

    /// A call's result as JSON text: exactly `JSONValue(result:).serialized`, with the usual
    /// results (text, whole numbers, booleans, and ``Params`` holding them) written directly,
    /// without building a `JSONValue` and without casts that search conformances.
    package static func serialized(result: Any?) -> String {
        // Bytes, made into a string once: appending to a String piece by piece costs more.
        var output: [UInt8] = []
        output.reserveCapacity(64)
        write(result: result, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends ``serialized(result:)``'s text to `output`.
    package static func write(result: Any?, to output: inout [UInt8]) {
        guard let value = result else {
            output.append(contentsOf: "null".utf8)
            return
        }
        // The exact dynamic type, compared by identity (an Optional holding a value is not one of
        // these: it takes the general conversion, which sees through it).
        switch ObjectIdentifier(type(of: value)) {
        case ObjectIdentifier(String.self): write(string: value as! String, to: &output)
        case ObjectIdentifier(Int.self): output.append(contentsOf: String(value as! Int).utf8)
        case ObjectIdentifier(Bool.self): output.append(contentsOf: (value as! Bool ? "true" : "false").utf8)
        case ObjectIdentifier(Params.self):
            // Keys sorted as `String`s sort them, as a JSON object is written.
            output.append(UInt8(ascii: "{"))
            var first = true
            (value as! Params).forEachSorted { key, member in
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                write(string: key, to: &output)
                output.append(UInt8(ascii: ":"))
                write(result: member, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        default: output.append(contentsOf: JSONValue(result: value).serialized.utf8)
        }
    }

    /// `text` as a JSON string literal, as ``JSONValue/serialized`` writes it.
    private static func write(string text: String, to output: inout [UInt8]) {
        let plain = withUTF8Bytes(of: text) { bytes in
            guard isPlainJSONText(bytes) else { return false }
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: bytes)
            output.append(UInt8(ascii: "\""))
            return true
        }
        if plain { return }
        var escaped = ""
        writeJSONString(text, to: &escaped)
        output.append(contentsOf: escaped.utf8)
    }

    /// An `Encodable` value as its `encode(to:)` writes it, through the library's own encoder
    /// (Foundation's `JSONEncoder` would load FoundationEssentials into every program using this
    /// layer, for every run: about 2.9 million instructions at start-up); `nil` when it cannot be
    /// encoded (an infinity or NaN, a misused container).
    private init?(encoding value: any Encodable) {
        // Not `try?`: it would flatten a value that encodes nothing (nil, printed as null) into a
        // failure.
        let plain: (any Sendable)?
        do {
            plain = try ValueEncoder.encode(value)
        } catch {
            return nil
        }
        self = JSONValue(result: plain)
    }

    /// The value as a call parameter: objects become `[String: any Sendable]`, arrays
    /// `[any Sendable]`, whole numbers `Int`, `null` a `nil` (which params treat as absent).
    package var parameterValue: any Sendable {
        switch self {
        case .null: return String?.none
        case .bool(let value): return value
        case .int(let value): return value
        case .double(let value): return value
        case .string(let value): return value
        case .array(let values):
            // All strings: a [String], as URL and key=value callers would send.
            if let strings = values.allStrings { return strings }
            return values.map(\.parameterValue)
        case .object(let members): return members.mapValues(\.parameterValue)
        }
    }
}

extension [JSONValue] {
    fileprivate var allStrings: [String]? {
        var strings: [String] = []
        for value in self {
            guard case .string(let string) = value else { return nil }
            strings.append(string)
        }
        return strings
    }
}
