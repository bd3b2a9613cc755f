/// Decodes `Decodable` types from the plain values actions return: `[String: Any]` dictionaries
/// (or ``Params``), arrays, strings, numbers and `Bool`. Lets a typed wrapper own its result types
/// while the provider returns plain values. Text is coerced as ``Params`` coerces it. A provider's
/// own `Encodable` type, where plain values were expected, is first encoded to plain values
/// (``ValueEncoder``), so the caller's type of the same shape decodes from it.
enum ValueDecoder {
    static func decode<T: Decodable>(_ type: T.Type, from value: Any?) throws(DecodingFailure) -> T {
        do {
            return try T(from: ValueDecoding(value: value, codingPath: []))
        } catch let failure as DecodingFailure {
            throw failure
        } catch let error as DecodingError {
            // A type's own `init(from:)` refused a value: keep where, and its own words.
            switch error {
            case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
                throw DecodingFailure(path: context.codingPath, message: context.debugDescription)
            @unknown default:
                throw DecodingFailure(path: [], message: "\(error)")
            }
        } catch {
            throw DecodingFailure(path: [], message: "\(error)")
        }
    }
}

/// Why a value could not be decoded, with the path to the part that did not fit.
struct DecodingFailure: Error, CustomStringConvertible {
    let path: [any CodingKey]
    let message: String

    var description: String { "at \(pathDescription(path)): \(message)" }
}

/// A coding path as failures show it: `"points.[1].x"`, or "the result" for the top level.
func pathDescription(_ path: [any CodingKey]) -> String {
    guard !path.isEmpty else { return "the result" }
    return "\"" + path.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }.joined(separator: ".") + "\""
}

/// An integer index as a coding key.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

// MARK: - Decoder

struct ValueDecoding: Decoder {
    let value: Any?
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func failure(_ message: String) -> DecodingFailure {
        DecodingFailure(path: codingPath, message: message)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let dictionary = try dictionary(value) ?? encodedForm(of: value, codingPath: codingPath).flatMap(dictionary) else {
            throw failure("expected a dictionary, got \(found(value))")
        }
        return KeyedDecodingContainer(KeyedValues<Key>(dictionary: dictionary, codingPath: codingPath))
    }

    private func dictionary(_ value: Any?) -> [String: Any]? {
        switch value {
        case let params as Params: params.values
        case let plain as [String: Any]: plain
        default: nil
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let array = try value as? [Any] ?? encodedForm(of: value, codingPath: codingPath) as? [Any] else {
            throw failure("expected an array, got \(found(value))")
        }
        return UnkeyedValues(array: array, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValue(decoder: self)
    }
}

/// How an error message shows a value that did not fit.
func found(_ value: Any?) -> String {
    guard let value, !isNil(value) else { return "nothing" }
    return "\(typeName(type(of: value))) \(describe(value, limit: 60))"
}

/// Decodes a leaf value, coercing text where ``Params`` would.
func decodeLeaf<T: Decodable>(_ type: T.Type, from value: Any?, codingPath: [any CodingKey]) throws -> T {
    if let value, !isNil(value) {
        if let exact = value as? T { return exact }
        if let converted = convertPrimitive(value, to: T.self) { return converted }
    }
    // A primitive that did not fit is an error here: handing it to `T.init(from:)` would ask this
    // decoder for the same primitive again, without end.
    if isPrimitive(T.self) {
        // A provider's own type (an enum with a raw value) may encode to one that fits.
        if let encoded = try encodedForm(of: value, codingPath: codingPath) {
            if let exact = encoded as? T { return exact }
            if let converted = convertPrimitive(encoded, to: T.self) { return converted }
        }
        throw DecodingFailure(path: codingPath, message: "expected \(typeName(T.self)), got \(found(value))")
    }
    return try T(from: ValueDecoding(value: value, codingPath: codingPath))
}

/// `value` encoded to plain values (``ValueEncoder``) when it is an `Encodable` that is not one
/// already (a provider's own result type), for a second try at decoding; `nil` otherwise. Called
/// only where the plain value did not fit, so plain results pay nothing for it. A value that
/// encodes to nothing comes back as a nil element.
func encodedForm(of value: Any?, codingPath: [any CodingKey]) throws(DecodingFailure) -> Any? {
    guard let value, !isNil(value), !isPlainLeaf(value), let encodable = value as? any Encodable else { return nil }
    do {
        return try ValueEncoder.encode(encodable) ?? ValueEncoder.nilElement
    } catch {
        throw DecodingFailure(path: codingPath + error.path, message: "\(typeName(type(of: value))) could not be encoded: \(error.message)")
    }
}

/// Whether `value` is a leaf the decoder reads as it is: encoding it would give the same value.
private func isPlainLeaf(_ value: Any) -> Bool {
    value is any TextConvertible || value is any BinaryInteger || value is any BinaryFloatingPoint || value is Params
}

/// Whether `type` is one of the standard leaf types every decoder handles itself.
private func isPrimitive(_ type: Any.Type) -> Bool {
    type is any TextConvertible.Type || type is any BinaryInteger.Type || type is any BinaryFloatingPoint.Type
}

/// `value` converted to a primitive `T`: by the ``Params`` text rules, or between numeric types.
///
/// One rule for every numeric type: a number converts only when `T` holds it exactly and in range
/// (an `Int` 300 does not fit an `Int8`, 16777217 does not fit a `Float`, 1e39 is out of a
/// `Float`'s range, 0.5 is not an `Int`). Integer text is such a number; other decimal text is read
/// as the nearest value of `T` and refused out of range or when it underflows (``parseDecimal(_:as:)``).
private func convertPrimitive<T>(_ value: Any, to type: T.Type) -> T? {
    // `Int` and `Double` are text-convertible too; what the text rules refuse (an `Int64` result
    // asked for as `Int`) goes on to the numeric rules below.
    if let convertible = T.self as? any TextConvertible.Type, let converted = convertible.convert(from: value) as? T {
        return converted
    }
    let text = (value as? String) ?? (value as? Substring).map(String.init)
    if let integerType = T.self as? any BinaryInteger.Type {
        if let integer = value as? any BinaryInteger { return integerType.init(exactly: integer) as? T }
        if let number = value as? any BinaryFloatingPoint { return integerType.init(exactly: number) as? T }
        guard let text else { return nil }
        // Fixed-width types read the text themselves, so a `UInt64` takes values past `Int.max`.
        if let fixedWidth = integerType as? any FixedWidthInteger.Type { return fixedWidth.init(text, radix: 10) as? T }
        return Int.convert(from: text).flatMap { integerType.init(exactly: $0) as? T }
    }
    if let floatingType = T.self as? any BinaryFloatingPoint.Type {
        if let number = value as? any BinaryFloatingPoint { return floatingType.init(exactly: number) as? T }
        if let integer = value as? any BinaryInteger { return floatingType.init(exactly: integer) as? T }
        guard let text, let textual = floatingType as? any (BinaryFloatingPoint & LosslessStringConvertible).Type else { return nil }
        return parseDecimal(text, as: textual) as? T
    }
    return nil
}

struct KeyedValues<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let dictionary: [String: Any]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { dictionary.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { dictionary[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let value = dictionary[key.stringValue] else { return true }
        return isNil(value)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let value = dictionary[key.stringValue] else {
            throw DecodingFailure(path: codingPath + [key], message: "missing key \"\(key.stringValue)\" (expected \(typeName(T.self)))")
        }
        return try decodeLeaf(T.self, from: value, codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoding(value: dictionary[key.stringValue], codingPath: codingPath + [key]).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoding(value: dictionary[key.stringValue], codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoding(value: dictionary, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoding(value: dictionary[key.stringValue], codingPath: codingPath + [key])
    }
}

struct UnkeyedValues: UnkeyedDecodingContainer {
    let array: [Any]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(array: [Any], codingPath: [any CodingKey]) {
        self.array = array
        self.codingPath = codingPath
    }

    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    private var currentPath: [any CodingKey] { codingPath + [IndexKey(currentIndex)] }

    private func current() throws -> Any {
        guard !isAtEnd else {
            throw DecodingFailure(path: currentPath, message: "the array has only \(array.count) elements")
        }
        return array[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard isNil(try current()) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decodeLeaf(T.self, from: try current(), codingPath: currentPath)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try ValueDecoding(value: try current(), codingPath: currentPath).container(keyedBy: NestedKey.self)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try ValueDecoding(value: try current(), codingPath: currentPath).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = ValueDecoding(value: try current(), codingPath: currentPath)
        currentIndex += 1
        return decoder
    }
}

struct SingleValue: SingleValueDecodingContainer {
    let decoder: ValueDecoding
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        guard let value = decoder.value else { return true }
        return isNil(value)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeLeaf(T.self, from: decoder.value, codingPath: codingPath)
    }
}
