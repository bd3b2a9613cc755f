/// Reads parameters and types from `Decodable` conformances, by decoding a placeholder value and
/// recording what the conformance asks for (see ``DeclaresParameters`` for the rules). Runs once
/// per keyed action, at declaration, never during a call.
enum SchemaReader {
    /// What was read from an input type.
    struct Reading: Sendable {
        /// The parameters; `nil` when the type is not decoded from named fields.
        let parameters: [Parameter]?
        /// Why the reading is incomplete, for `verify` to report.
        let problem: String?

        /// The parameters to check calls against: none when the reading is incomplete (the
        /// fields after the point where it stopped would be refused as undeclared); decoding the
        /// input still refuses bad params, and `verify` reports the problem.
        var checked: [Parameter]? { problem == nil ? parameters : nil }
    }

    /// Nested types deeper than this are described as any object (recursive types end here).
    static let depthLimit = 8

    /// The parameters of an input type: its own declaration, or what its conformance decodes.
    static func parameters<T: Decodable>(of type: T.Type) -> Reading {
        if let declaring = T.self as? any DeclaresParameters.Type { return Reading(parameters: declaring.parameters, problem: nil) }
        return decodedParameters(of: T.self)
    }

    /// The parameters as the type's `Decodable` conformance decodes them.
    static func decodedParameters<T: Decodable>(of type: T.Type) -> Reading {
        let recorder = ShapeRecorder()
        var problem: String?
        do {
            _ = try T(from: ShapeDecoder(recorder: recorder, depth: 1))
        } catch {
            problem = "reading the fields of \(typeName(T.self)) stopped at an error (\(error)); declare them with DeclaresParameters"
        }
        guard case .keyed = recorder.shape else {
            return Reading(parameters: nil, problem: "\(typeName(T.self)) is not decoded from named fields, so it cannot be an action's input")
        }
        return Reading(parameters: recorder.fields, problem: problem)
    }

    /// The declared type of values of `T`.
    static func type<T: Decodable>(of type: T.Type, depth: Int = 1) -> ParameterType {
        if let known = primitiveType(of: T.self) { return known }
        if let wrapper = T.self as? any ShapeWrapper.Type { return wrapper.wrappedType(depth: depth) }
        guard depth <= depthLimit else { return .object }
        let recorder = ShapeRecorder()
        _ = try? T(from: ShapeDecoder(recorder: recorder, depth: depth + 1))
        switch recorder.shape {
        case .keyed: return .object(recorder.fields)
        case .single(let type): return type
        case .unkeyed(let element): return .array(of: element ?? .object)
        case .none: return .object
        }
    }

    static func primitiveType(of type: Any.Type) -> ParameterType? {
        if type == String.self || type == Substring.self || type == Character.self { return .string }
        if type == Bool.self { return .boolean }
        if type is any BinaryInteger.Type { return .integer }
        if type is any BinaryFloatingPoint.Type { return .number }
        return nil
    }

    /// A placeholder `T` for the conformance being read to go on with.
    static func placeholder<T: Decodable>(_ type: T.Type, depth: Int) throws -> T {
        if T.self == String.self { return "" as! T }
        if T.self == Bool.self { return false as! T }
        if let integer = T.self as? any BinaryInteger.Type { return integer.init(0) as! T }
        if let floating = T.self as? any BinaryFloatingPoint.Type { return floating.init(0) as! T }
        if let wrapper = T.self as? any ShapeWrapper.Type { return wrapper.emptyValue as! T }
        if let cases = T.self as? any CaseIterable.Type, let first = cases.firstCase { return first as! T }
        if let enumeration = T.self as? any RawRepresentable.Type, let value = firstValue(of: enumeration) { return value as! T }
        guard depth <= depthLimit else { throw ShapeError() }
        return try T(from: ShapeDecoder(recorder: ShapeRecorder(), depth: depth + 1))
    }
}

/// A value of an enum with integer raw values that is not `CaseIterable`: the first raw value
/// from 0 to 1,024 (then -1 to -64) it accepts. Other raw types cannot be guessed.
private func firstValue<R: RawRepresentable>(of _: R.Type) -> R? {
    guard let integer = R.RawValue.self as? any BinaryInteger.Type else { return nil }
    for candidate in Array(0...1_024) + Array((-64)...(-1)).reversed() {
        if let raw = integer.init(exactly: candidate) as? R.RawValue, let value = R(rawValue: raw) { return value }
    }
    return nil
}

/// Thrown where a placeholder cannot be made.
struct ShapeError: Error, CustomStringConvertible {
    var description: String { "the type is nested too deeply to read" }
}

extension CaseIterable {
    fileprivate static var firstCase: Any? { allCases.first }
}

/// Arrays, optionals and string-keyed dictionaries: their shape comes from their type, not from
/// decoding.
protocol ShapeWrapper {
    static func wrappedType(depth: Int) -> ParameterType
    static var emptyValue: Any { get }
}

extension Array: ShapeWrapper where Element: Decodable {
    static func wrappedType(depth: Int) -> ParameterType { .array(of: SchemaReader.type(of: Element.self, depth: depth + 1)) }
    static var emptyValue: Any { [Element]() }
}

extension Optional: ShapeWrapper where Wrapped: Decodable {
    static func wrappedType(depth: Int) -> ParameterType { SchemaReader.type(of: Wrapped.self, depth: depth) }
    static var emptyValue: Any { Wrapped?.none as Any }
}

extension Dictionary: ShapeWrapper where Key == String, Value: Decodable {
    static func wrappedType(depth: Int) -> ParameterType { .object }
    static var emptyValue: Any { [String: Value]() }
}

// MARK: - The recording decoder

/// What the conformance asked for at one level.
final class ShapeRecorder {
    enum Shape {
        case none
        case keyed
        case single(ParameterType)
        case unkeyed(ParameterType?)
    }
    var shape = Shape.none
    var fields: [Parameter] = []
    /// Keys asked about with `decodeNil` (what `decodeIfPresent` does first): optional fields.
    var optionalKeys: Set<String> = []

    func record(_ name: String, _ type: ParameterType) {
        guard !fields.contains(where: { $0.name == name }) else { return }
        fields.append(Parameter(name: name, type: type, isRequired: !optionalKeys.contains(name), defaultValue: nil, summary: nil))
    }

    /// Replaces the type recorded for `name` (a field read through a nested unkeyed container or
    /// a super decoder, whose type is known only once something is decoded from it).
    func update(_ name: String, _ type: ParameterType) {
        guard let index = fields.firstIndex(where: { $0.name == name }) else { return }
        let field = fields[index]
        fields[index] = Parameter(name: name, type: type, isRequired: field.isRequired, defaultValue: nil, summary: nil)
    }

    /// For a nested level: tells the parent's field what was decoded here.
    var onShape: ((ParameterType) -> Void)?
}

struct ShapeDecoder: Decoder {
    let recorder: ShapeRecorder
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if case .none = recorder.shape { recorder.shape = .keyed }
        return KeyedDecodingContainer(ShapeKeyed<Key>(recorder: recorder, depth: depth))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if case .none = recorder.shape { recorder.shape = .unkeyed(nil) }
        return ShapeUnkeyed(recorder: recorder, depth: depth)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ShapeSingle(recorder: recorder, depth: depth)
    }
}

struct ShapeKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: ShapeRecorder
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }

    func decodeNil(forKey key: Key) throws -> Bool {
        recorder.optionalKeys.insert(key.stringValue)
        // At the depth limit an optional field (a recursive type's `next`) is taken as absent, so
        // the reading ends there cleanly instead of failing for want of a placeholder.
        if depth >= SchemaReader.depthLimit {
            recorder.record(key.stringValue, .object)
            return true
        }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        recorder.record(key.stringValue, SchemaReader.type(of: T.self, depth: depth))
        return try SchemaReader.placeholder(T.self, depth: depth)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        recorder.record(key.stringValue, .object)
        return KeyedDecodingContainer(ShapeKeyed<NestedKey>(recorder: ShapeRecorder(), depth: depth + 1))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let nested = ShapeRecorder()
        nested.shape = .unkeyed(nil)
        recorder.record(key.stringValue, .array(of: .object))
        nested.onShape = { [recorder] type in recorder.update(key.stringValue, type) }
        return ShapeUnkeyed(recorder: nested, depth: depth + 1)
    }

    func superDecoder() throws -> any Decoder { ShapeDecoder(recorder: recorder, depth: depth) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        let nested = ShapeRecorder()
        recorder.record(key.stringValue, .object)
        nested.onShape = { [recorder] type in recorder.update(key.stringValue, type) }
        return ShapeDecoder(recorder: nested, depth: depth + 1)
    }
}

/// Offers one element, so that the element's type is asked for once.
struct ShapeUnkeyed: UnkeyedDecodingContainer {
    let recorder: ShapeRecorder
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 1 }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex >= 1 }

    init(recorder: ShapeRecorder, depth: Int) {
        self.recorder = recorder
        self.depth = depth
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if case .unkeyed(nil) = recorder.shape {
            let element = SchemaReader.type(of: T.self, depth: depth)
            recorder.shape = .unkeyed(element)
            recorder.onShape?(.array(of: element))
        }
        currentIndex += 1
        return try SchemaReader.placeholder(T.self, depth: depth)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        currentIndex += 1
        return KeyedDecodingContainer(ShapeKeyed<NestedKey>(recorder: ShapeRecorder(), depth: depth + 1))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return ShapeUnkeyed(recorder: ShapeRecorder(), depth: depth + 1)
    }

    mutating func superDecoder() throws -> any Decoder {
        currentIndex += 1
        return ShapeDecoder(recorder: ShapeRecorder(), depth: depth + 1)
    }
}

struct ShapeSingle: SingleValueDecodingContainer {
    let recorder: ShapeRecorder
    let depth: Int
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if case .none = recorder.shape {
            let type = SchemaReader.type(of: T.self, depth: depth)
            recorder.shape = .single(type)
            recorder.onShape?(type)
        }
        return try SchemaReader.placeholder(T.self, depth: depth)
    }
}
