import Mediator

#if canImport(FoundationEssentials)
import FoundationEssentials  // JSONEncoder only, for `Encodable` results; lighter to load than Foundation.
#else
import Foundation
#endif

extension JSONValue {
    /// A call's result as JSON: strings, numbers, `Bool`, `nil`, arrays, string-keyed dictionaries,
    /// ``Params`` and `Encodable` values as themselves; anything else as the string of its description.
    package init(result: Any?) {
        // A nil result, or an Optional holding nothing; casts below see through Optionals that hold a value.
        guard let value = result, !isNil(value) else {
            self = .null
            return
        }
        switch value {
        case let json as JSONValue: self = json
        case let string as String: self = .string(string)
        case let substring as Substring: self = .string(String(substring))
        case let bool as Bool: self = .bool(bool)
        case let int as Int: self = .int(int)
        case let double as Double: self = .double(double)
        case let float as Float: self = .double(Double(float))
        case let integer as any BinaryInteger: self = Int(exactly: integer).map(JSONValue.int) ?? .string(String(describing: integer))
        case let params as Params: self = .object(params.values.mapValues { JSONValue(result: $0) })
        case let dictionary as [String: Any]: self = .object(dictionary.mapValues { JSONValue(result: $0) })
        case let array as [Any]: self = .array(array.map { JSONValue(result: $0) })
        case let encodable as any Encodable: self = JSONValue(encoding: encodable) ?? .string(String(describing: value))
        default: self = .string(String(describing: value))
        }
    }

    private init?(encoding value: any Encodable) {
        guard let data = try? JSONEncoder().encode(value),
            let parsed = try? JSONValue(parsing: String(decoding: data, as: UTF8.self))
        else { return nil }
        self = parsed
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
