import Foundation
import Mediator

// A small, strict JSON reader and JSON Schema (draft 2020-12) validator for tests: enough to check
// the registry description against its own schema, and plain params against an action's params
// schema. Unknown keywords are reported as errors rather than skipped, so a schema can never
// pass by using a keyword the validator does not understand.

// MARK: - JSON values

/// A JSON value. Numbers keep whether they were written as integers (`1`) or not (`1.0`); JSON
/// Schema compares them mathematically either way.
public indirect enum JSONDocument: Sendable, Equatable, CustomStringConvertible {
    case null
    case boolean(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONDocument])
    case object([String: JSONDocument])

    /// The value as a number, for numbers only.
    public var numeric: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    /// Whether the value is a number with no fractional part (JSON Schema's `integer`).
    public var isInteger: Bool {
        switch self {
        case .integer: true
        case .number(let value): value.isFinite && value == value.rounded()
        default: false
        }
    }

    /// The field `key` of an object; `nil` for a missing field or a value that is not an object.
    public subscript(key: String) -> JSONDocument? {
        guard case .object(let fields) = self else { return nil }
        return fields[key]
    }

    /// The elements of an array, or `nil`.
    public var elements: [JSONDocument]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The text of a string, or `nil`.
    public var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The fields of an object, or `nil`.
    public var fields: [String: JSONDocument]? {
        if case .object(let fields) = self { return fields }
        return nil
    }

    /// JSON Schema equality: numbers by value (`1` equals `1.0`), objects by their fields.
    public func sameValue(as other: JSONDocument) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.boolean(let lhs), .boolean(let rhs)): return lhs == rhs
        case (.string(let lhs), .string(let rhs)): return lhs == rhs
        case (.integer(let lhs), .integer(let rhs)): return lhs == rhs
        case (.integer, .number), (.number, .integer), (.number, .number): return numeric == other.numeric
        case (.array(let lhs), .array(let rhs)): return lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.sameValue(as: $1) }
        case (.object(let lhs), .object(let rhs)):
            return lhs.count == rhs.count && lhs.allSatisfy { key, value in rhs[key].map { value.sameValue(as: $0) } ?? false }
        default: return false
        }
    }

    /// Compact JSON text, keys sorted.
    public var description: String {
        switch self {
        case .null: return "null"
        case .boolean(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .number(let value): return String(value)
        case .string(let value): return "\"" + value + "\""
        case .array(let items): return "[" + items.map(\.description).joined(separator: ",") + "]"
        case .object(let fields):
            return "{" + fields.keys.sorted().map { "\"\($0)\":\(fields[$0]!.description)" }.joined(separator: ",") + "}"
        }
    }

    /// A plain Swift value (what params and results hold) as JSON: strings, `Bool`, integers of any
    /// width that fit `Int`, finite floating-point numbers, arrays, `[String: any Sendable]` and
    /// ``Params``; `nil` for anything else (a callback, NaN, an `Optional` holding nothing).
    public init?(plain value: Any) {
        switch value {
        case let text as String: self = .string(text)
        case let text as Substring: self = .string(String(text))
        case let flag as Bool: self = .boolean(flag)
        case let integer as Int: self = .integer(integer)
        case let number as Double:
            guard number.isFinite else { return nil }
            self = .number(number)
        case let integer as any BinaryInteger:
            guard let exact = Int(exactly: integer) else { return nil }
            self = .integer(exact)
        case let number as any BinaryFloatingPoint:
            let double = Double(number)
            guard double.isFinite else { return nil }
            self = .number(double)
        case let params as Params:
            guard let object = JSONDocument(plain: params.values) else { return nil }
            self = object
        case let dictionary as [String: any Sendable]:
            var fields: [String: JSONDocument] = [:]
            for (key, item) in dictionary {
                guard let converted = JSONDocument(plain: item) else { return nil }
                fields[key] = converted
            }
            self = .object(fields)
        case let array as [Any]:
            var items: [JSONDocument] = []
            for item in array {
                guard let converted = JSONDocument(plain: item) else { return nil }
                items.append(converted)
            }
            self = .array(items)
        default:
            return nil
        }
    }
}

// MARK: - Reading JSON text

/// Why JSON text could not be read.
public struct JSONSyntaxError: Error, CustomStringConvertible {
    /// What was wrong and the byte offset where it was found.
    public let description: String
}

/// A strict JSON reader (RFC 8259): no trailing commas, no comments, no duplicate keys in an
/// object, nothing after the value but whitespace.
public enum JSONReader {
    /// Reads `text` as one JSON value.
    ///
    /// - Parameter text: the JSON text.
    /// - Returns: the value.
    /// - Throws: ``JSONSyntaxError`` for anything that is not strict JSON.
    public static func read(_ text: String) throws(JSONSyntaxError) -> JSONDocument {
        var parser = Parser(bytes: Array(text.utf8))
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("text after the value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ what: String) -> JSONSyntaxError { JSONSyntaxError(description: "\(what) at byte \(index)") }

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ literal: String) throws(JSONSyntaxError) {
            for byte in literal.utf8 {
                guard index < bytes.count, bytes[index] == byte else { throw error("expected \(literal)") }
                index += 1
            }
        }

        mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONDocument {
            guard depth < 200 else { throw error("nesting too deep") }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try expect("true")
                return .boolean(true)
            case UInt8(ascii: "f"):
                try expect("false")
                return .boolean(false)
            case UInt8(ascii: "n"):
                try expect("null")
                return .null
            default: return try number()
            }
        }

        mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONDocument {
            index += 1
            var fields: [String: JSONDocument] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(fields)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
                let key = try string()
                guard fields[key] == nil else { throw error("duplicate key \"\(key)\"") }
                skipWhitespace()
                try expect(":")
                fields[key] = try value(depth: depth + 1)
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end in an object") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect("}")
                return .object(fields)
            }
        }

        mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONDocument {
            index += 1
            var items: [JSONDocument] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end in an array") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect("]")
                return .array(items)
            }
        }

        mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw error("a bad \\u escape")
            }
            index += 4
            return value
        }

        mutating func string() throws(JSONSyntaxError) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll()
            }
            while true {
                guard index < bytes.count else { throw error("an unterminated string") }
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    // The text came from a Swift string, so its raw bytes are valid UTF-8.
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    guard index < bytes.count else { throw error("an unterminated escape") }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{08}")
                    case UInt8(ascii: "f"): scalars.append("\u{0C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code) {
                            try expect("\\u")
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw error("an unpaired surrogate") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw error("an unpaired surrogate") }
                        scalars.append(scalar)
                    default: throw error("an unknown escape")
                    }
                case 0..<0x20:
                    throw error("a raw control character in a string")
                default:
                    run.append(byte)
                }
            }
        }

        mutating func number() throws(JSONSyntaxError) -> JSONDocument {
            let start = index
            var integral = true
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { throw error("an unexpected character") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                integral = false
                index += 1
                let digits = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                guard index > digits else { throw error("a fraction without digits") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                integral = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                let digits = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                guard index > digits else { throw error("an exponent without digits") }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if integral, let integer = Int(text) { return .integer(integer) }
            guard let number = Double(text), number.isFinite else { throw error("a number out of range") }
            return .number(number)
        }
    }
}

// MARK: - Validating against a schema

/// A JSON Schema (draft 2020-12) validator for the keywords these tests use: `type`, `properties`,
/// `required`, `additionalProperties`, `items`, `minimum`, `maximum`, `enum`, `const`, `$ref` (to
/// `#/$defs/...` of the root), `$defs`, `oneOf`, `anyOf`, `minLength`, `uniqueItems` and
/// `pattern`. Annotations (`$schema`, `$id`, `title`, `description`, `default`, `$comment`,
/// `examples`, and any `x-` keyword) are ignored; any other keyword is an error.
public struct JSONSchemaCheck: Sendable {
    /// The root schema, which `$ref`s resolve against.
    public let root: JSONDocument

    /// A validator for `schema`.
    ///
    /// - Parameter schema: the root schema.
    public init(schema: JSONDocument) {
        root = schema
    }

    private static let annotations: Set<String> = ["$schema", "$id", "title", "description", "default", "$comment", "examples", "$defs"]

    /// Every way `instance` fails the schema, each with its JSON pointer; empty when it is valid.
    ///
    /// - Parameter instance: the value to check.
    /// - Returns: the errors.
    public func errors(_ instance: JSONDocument) -> [String] {
        var found: [String] = []
        check(instance, against: root, at: "", into: &found, depth: 0)
        return found
    }

    /// Whether `instance` is valid.
    ///
    /// - Parameter instance: the value to check.
    /// - Returns: `true` when ``errors(_:)`` finds nothing.
    public func accepts(_ instance: JSONDocument) -> Bool { errors(instance).isEmpty }

    private func resolve(_ reference: String) -> JSONDocument? {
        guard reference.hasPrefix("#/") else { return nil }
        var current = root
        for part in reference.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) {
            let key = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard let next = current[key] else { return nil }
            current = next
        }
        return current
    }

    private static func typeMatches(_ instance: JSONDocument, _ name: String) -> Bool? {
        switch name {
        case "null": if case .null = instance { return true } else { return false }
        case "boolean": if case .boolean = instance { return true } else { return false }
        case "string": return instance.text != nil
        case "array": return instance.elements != nil
        case "object": return instance.fields != nil
        case "number": return instance.numeric != nil
        case "integer": return instance.isInteger
        default: return nil
        }
    }

    private func check(_ instance: JSONDocument, against schema: JSONDocument, at pointer: String, into found: inout [String], depth: Int) {
        let here = pointer.isEmpty ? "/" : pointer
        guard depth < 64 else {
            found.append("\(here): schema nesting too deep (a $ref cycle?)")
            return
        }
        switch schema {
        case .boolean(true): return
        case .boolean(false):
            found.append("\(here): the schema false accepts nothing")
            return
        case .object: break
        default:
            found.append("\(here): a schema must be an object or a boolean, not \(schema)")
            return
        }
        let keywords = schema.fields!
        for (keyword, value) in keywords.sorted(by: { $0.key < $1.key }) {
            if Self.annotations.contains(keyword) || keyword.hasPrefix("x-") { continue }
            switch keyword {
            case "$ref":
                guard let reference = value.text, let target = resolve(reference) else {
                    found.append("\(here): unresolvable $ref \(value)")
                    continue
                }
                check(instance, against: target, at: pointer, into: &found, depth: depth + 1)
            case "type":
                let names = value.elements?.compactMap(\.text) ?? value.text.map { [$0] } ?? []
                var matched = false
                for name in names {
                    guard let matches = Self.typeMatches(instance, name) else {
                        found.append("\(here): unknown type \(name)")
                        return
                    }
                    if matches { matched = true }
                }
                if !matched { found.append("\(here): expected \(names.joined(separator: " or ")), got \(instance)") }
            case "properties":
                guard let fields = instance.fields, let properties = value.fields else { continue }
                for (name, subschema) in properties where fields[name] != nil {
                    check(fields[name]!, against: subschema, at: pointer + "/" + name, into: &found, depth: depth + 1)
                }
            case "required":
                guard let fields = instance.fields else { continue }
                for name in value.elements?.compactMap(\.text) ?? [] where fields[name] == nil {
                    found.append("\(here): missing required property \"\(name)\"")
                }
            case "additionalProperties":
                guard let fields = instance.fields else { continue }
                let declared = keywords["properties"]?.fields ?? [:]
                for (name, item) in fields.sorted(by: { $0.key < $1.key }) where declared[name] == nil {
                    if case .boolean(false) = value {
                        found.append("\(here): property \"\(name)\" is not allowed")
                    } else {
                        check(item, against: value, at: pointer + "/" + name, into: &found, depth: depth + 1)
                    }
                }
            case "items":
                guard let items = instance.elements else { continue }
                for (index, item) in items.enumerated() {
                    check(item, against: value, at: pointer + "/\(index)", into: &found, depth: depth + 1)
                }
            case "minimum":
                if let number = instance.numeric, let minimum = value.numeric, number < minimum {
                    found.append("\(here): \(instance) is below the minimum \(value)")
                }
            case "maximum":
                if let number = instance.numeric, let maximum = value.numeric, number > maximum {
                    found.append("\(here): \(instance) is above the maximum \(value)")
                }
            case "const":
                if !instance.sameValue(as: value) { found.append("\(here): expected \(value), got \(instance)") }
            case "enum":
                if !(value.elements ?? []).contains(where: { instance.sameValue(as: $0) }) {
                    found.append("\(here): \(instance) is not one of \(value)")
                }
            case "oneOf", "anyOf":
                let passing = (value.elements ?? []).filter { option in
                    var sub: [String] = []
                    check(instance, against: option, at: pointer, into: &sub, depth: depth + 1)
                    return sub.isEmpty
                }.count
                if keyword == "oneOf" && passing != 1 {
                    found.append("\(here): \(passing) of the oneOf schemas match, not exactly one")
                } else if keyword == "anyOf" && passing == 0 {
                    found.append("\(here): none of the anyOf schemas match")
                }
            case "minLength":
                if let text = instance.text, let minimum = value.numeric, Double(text.unicodeScalars.count) < minimum {
                    found.append("\(here): \(instance) is shorter than \(value)")
                }
            case "uniqueItems":
                if case .boolean(true) = value, let items = instance.elements {
                    for (index, item) in items.enumerated() where items[..<index].contains(where: { $0.sameValue(as: item) }) {
                        found.append("\(here): item \(index) repeats an earlier item")
                    }
                }
            case "pattern":
                guard let text = instance.text else { continue }
                guard let pattern = value.text, let expression = try? NSRegularExpression(pattern: pattern) else {
                    found.append("\(here): bad pattern \(value)")
                    continue
                }
                let range = NSRange(text.startIndex..<text.endIndex, in: text)
                if expression.numberOfMatches(in: text, range: range) == 0 {
                    found.append("\(here): \(instance) does not match \(pattern)")
                }
            default:
                found.append("\(here): unsupported keyword \"\(keyword)\"")
            }
        }
    }
}
