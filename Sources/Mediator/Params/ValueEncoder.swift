/// Encodes `Encodable` values to the plain values actions return and ``ValueDecoder`` reads:
/// `[String: any Sendable]` for keyed containers, `[any Sendable]` for unkeyed ones, `String`,
/// `Int` (every integer type, when it fits), `Double` (`Float` too), `Bool`. Lets a provider return
/// its own `Encodable` type and a caller in another module decode its own type of the same shape.
///
/// A `nil` (an absent optional, an explicit `encodeNil`) leaves a key out of a dictionary; in an
/// array it is a nil element (an `Optional.none`, which ``isNil(_:)`` recognises). Infinities and
/// NaN are refused: JSON, where plain values often end up, cannot hold them. (Shared with the
/// command-line layer, which prints `Encodable` results through it rather than load Foundation.)
package enum ValueEncoder {
    /// `value` as plain values, or `nil` when it encodes nothing (an absent optional).
    package static func encode<T: Encodable>(_ value: T) throws(EncodingFailure) -> (any Sendable)? {
        let root = ValueEncoding(parent: nil, key: nil)
        if let leaf = try plainLeaf(value, at: root, key: nil) { return leaf }
        return try root.run(value)
    }

    /// The nil element of an array: an `Optional.none` boxed once, so storing it allocates nothing.
    static let nilElement: any Sendable = (any Sendable)?.none
}

/// Why a value could not be encoded, with the path to the part that did not fit.
package struct EncodingFailure: Error, CustomStringConvertible {
    let path: [any CodingKey]
    let message: String

    package var description: String { path.isEmpty ? message : "at \(pathDescription(path)): \(message)" }
}

// MARK: - Encoder

/// One level of the value being encoded: holds a single value, a keyed container or an unkeyed
/// one. A class, because containers and nested encoders write into their level after it has handed
/// them out; a level keeps its parent and key rather than a coding path, so that encoding a nested
/// value allocates no path unless one is asked for.
final class ValueEncoding: Encoder {
    enum Kind {
        case empty, null, single, keyed, unkeyed

        var described: String {
            switch self {
            case .empty: "nothing"
            case .null, .single: "a single value"
            case .keyed: "a keyed container"
            case .unkeyed: "an unkeyed container"
            }
        }
    }

    private let parent: ValueEncoding?
    private let key: (any CodingKey)?
    private var kind = Kind.empty
    private var single: (any Sendable)?
    private var dictionary: [String: any Sendable] = [:]
    private var array: [any Sendable] = []
    /// Levels handed out by `nestedContainer`/`superEncoder`, read when this level is finished:
    /// their writes may come after the handing out.
    private var pendingKeys: [String: ValueEncoding] = [:]
    private var pendingIndices: [(index: Int, level: ValueEncoding)] = []
    /// A misuse found where the `Encoder` protocol cannot throw (asking for a second kind of
    /// container), thrown when the level is finished.
    private var failure: EncodingFailure?

    init(parent: ValueEncoding?, key: (any CodingKey)?) {
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var level: ValueEncoding? = self
        while let current = level, let key = current.key {
            path.append(key)
            level = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedSlots<Key>(level: claim(.keyed)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedSlots(level: claim(.unkeyed))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleSlot(level: self)
    }

    /// This level, holding `wanted` from now on; when it already holds another kind, the misuse is
    /// recorded and a spare level that nobody reads takes the writes.
    private func claim(_ wanted: Kind) -> ValueEncoding {
        switch kind {
        case wanted:
            return self
        case .empty:
            kind = wanted
            // Room for a few elements from the start: a small struct or array allocates its
            // storage once instead of growing it element by element.
            if wanted == .keyed { dictionary = Dictionary(minimumCapacity: 4) }
            if wanted == .unkeyed { array.reserveCapacity(4) }
            return self
        default:
            if failure == nil {
                failure = EncodingFailure(path: codingPath, message: "cannot use \(wanted.described) where \(kind.described) was already encoded")
            }
            let spare = ValueEncoding(parent: parent, key: key)
            spare.kind = wanted
            return spare
        }
    }

    // MARK: Writing

    func setSingle(_ value: (any Sendable)?) throws(EncodingFailure) {
        guard kind == .empty else {
            throw EncodingFailure(path: codingPath, message: "cannot encode a single value where \(kind.described) was already encoded")
        }
        if let value {
            kind = .single
            single = value
        } else {
            kind = .null
        }
    }

    /// Stores `value` under `key`; `nil` leaves the key out.
    func set(_ value: (any Sendable)?, forKey key: String) {
        dictionary[key] = value
        if !pendingKeys.isEmpty { pendingKeys[key] = nil }
    }

    /// Appends `value`; `nil` appends a nil element.
    func append(_ value: (any Sendable)?) {
        array.append(value ?? ValueEncoder.nilElement)
    }

    /// The level for a nested container or super encoder at `key`: the one already handed out
    /// there, else a new one.
    func nested(forKey key: some CodingKey) -> ValueEncoding {
        if let existing = pendingKeys[key.stringValue] { return existing }
        let level = ValueEncoding(parent: self, key: key)
        pendingKeys[key.stringValue] = level
        return level
    }

    /// The level for a nested container or super encoder at the next index.
    func appendNested() -> ValueEncoding {
        let level = ValueEncoding(parent: self, key: IndexKey(array.count))
        pendingIndices.append((array.count, level))
        array.append(ValueEncoder.nilElement)
        return level
    }

    var count: Int { array.count }

    /// `value` encoded at a new level under `key`, or, when `key` is `nil`, at this level's own
    /// path (a value in a single-value container).
    func encode<T: Encodable>(_ value: T, under key: (any CodingKey)?) throws(EncodingFailure) -> (any Sendable)? {
        if let leaf = try plainLeaf(value, at: self, key: key) { return leaf }
        let level = key.map { ValueEncoding(parent: self, key: $0) } ?? ValueEncoding(parent: parent, key: self.key)
        return try level.run(value)
    }

    /// `value` encoded at this level: what it holds once `value` has written into it.
    func run<T: Encodable>(_ value: T) throws(EncodingFailure) -> (any Sendable)? {
        do {
            try value.encode(to: self)
        } catch let failure as EncodingFailure {
            throw failure
        } catch let EncodingError.invalidValue(_, context) {
            throw EncodingFailure(path: context.codingPath, message: context.debugDescription)
        } catch {
            throw EncodingFailure(path: codingPath, message: "\(error)")
        }
        return try finish()
    }

    /// What this level holds, its handed-out levels read in.
    func finish() throws(EncodingFailure) -> (any Sendable)? {
        if let failure { throw failure }
        switch kind {
        case .empty, .null:
            return nil
        case .single:
            return single
        case .keyed:
            for (key, level) in pendingKeys { dictionary[key] = try level.finish() }
            return dictionary
        case .unkeyed:
            for (index, level) in pendingIndices { array[index] = try level.finish() ?? ValueEncoder.nilElement }
            return array
        }
    }
}

// MARK: - Leaves

/// `value` as a plain value when it is one of the common leaf types, so that the generic paths
/// need no nested level for them; `nil` for every other type (they encode themselves, and their
/// leaves reach the typed overloads below). `level` and `key` say where it goes, for a failure.
func plainLeaf<T>(_ value: T, at level: ValueEncoding, key: (any CodingKey)?) throws(EncodingFailure) -> (any Sendable)? {
    switch value {
    case let text as String: text
    case let number as Int: number
    case let number as Double: try finite(number, at: level, key: key)
    case let flag as Bool: flag
    default: nil
    }
}

/// `number`, refused when infinite or NaN; `level` and `key` say where it goes, for the failure.
private func finite(_ number: Double, at level: ValueEncoding, key: (any CodingKey)?) throws(EncodingFailure) -> Double {
    guard number.isFinite else {
        throw EncodingFailure(
            path: level.codingPath + (key.map { [$0] } ?? []),
            message: "cannot encode \(number): plain values hold only finite numbers (JSON has no infinity or NaN)")
    }
    return number
}

/// `number` as an `Int` when it fits exactly, else as itself (a `UInt64` above `Int.max`).
private func plainInteger<I: FixedWidthInteger & Sendable>(_ number: I) -> any Sendable {
    if let integer = Int(exactly: number) { return integer }
    return number
}

// MARK: - Containers

struct KeyedSlots<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let level: ValueEncoding
    var codingPath: [any CodingKey] { level.codingPath }

    mutating func encodeNil(forKey key: Key) { level.set(nil, forKey: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) { level.set(value, forKey: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) { level.set(value, forKey: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        level.set(try finite(value, at: level, key: key), forKey: key.stringValue)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        level.set(try finite(Double(value), at: level, key: key), forKey: key.stringValue)
    }
    mutating func encode(_ value: Int, forKey key: Key) { level.set(value, forKey: key.stringValue) }
    mutating func encode(_ value: Int8, forKey key: Key) { level.set(plainInteger(value), forKey: key.stringValue) }
    mutating func encode(_ value: Int16, forKey key: Key) { level.set(plainInteger(value), forKey: key.stringValue) }
    mutating func encode(_ value: Int32, forKey key: Key) { level.set(plainInteger(value), forKey: key.stringValue) }
    mutating func encode(_ value: Int64, forKey key: Key) { level.set(plainInteger(value), forKey: key.stringValue) }
    mutating func encode(_ value: UInt, forKey key: Key) { level.set(plainInteger(value), forKey: key.stringValue) }
    mutating func encode(_ value: UInt8, forKey key: Key) { level.set(plainInteger(value), forKey: key.stringValue) }
    mutating func encode(_ value: UInt16, forKey key: Key) { level.set(plainInteger(value), forKey: key.stringValue) }
    mutating func encode(_ value: UInt32, forKey key: Key) { level.set(plainInteger(value), forKey: key.stringValue) }
    mutating func encode(_ value: UInt64, forKey key: Key) { level.set(plainInteger(value), forKey: key.stringValue) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        level.set(try level.encode(value, under: key), forKey: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        level.nested(forKey: key).container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        level.nested(forKey: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { level.nested(forKey: SuperKey()) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { level.nested(forKey: key) }
}

/// The key `superEncoder()` writes under, as Foundation's encoders do.
private struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { return nil }
}

struct UnkeyedSlots: UnkeyedEncodingContainer {
    let level: ValueEncoding
    var codingPath: [any CodingKey] { level.codingPath }
    var count: Int { level.count }

    mutating func encodeNil() { level.append(nil) }
    mutating func encode(_ value: Bool) { level.append(value) }
    mutating func encode(_ value: String) { level.append(value) }
    mutating func encode(_ value: Double) throws { level.append(try finite(value, at: level, key: IndexKey(level.count))) }
    mutating func encode(_ value: Float) throws { level.append(try finite(Double(value), at: level, key: IndexKey(level.count))) }
    mutating func encode(_ value: Int) { level.append(value) }
    mutating func encode(_ value: Int8) { level.append(plainInteger(value)) }
    mutating func encode(_ value: Int16) { level.append(plainInteger(value)) }
    mutating func encode(_ value: Int32) { level.append(plainInteger(value)) }
    mutating func encode(_ value: Int64) { level.append(plainInteger(value)) }
    mutating func encode(_ value: UInt) { level.append(plainInteger(value)) }
    mutating func encode(_ value: UInt8) { level.append(plainInteger(value)) }
    mutating func encode(_ value: UInt16) { level.append(plainInteger(value)) }
    mutating func encode(_ value: UInt32) { level.append(plainInteger(value)) }
    mutating func encode(_ value: UInt64) { level.append(plainInteger(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        level.append(try level.encode(value, under: IndexKey(level.count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        level.appendNested().container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        level.appendNested().unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { level.appendNested() }
}

struct SingleSlot: SingleValueEncodingContainer {
    let level: ValueEncoding
    var codingPath: [any CodingKey] { level.codingPath }

    mutating func encodeNil() throws { try level.setSingle(nil) }
    mutating func encode(_ value: Bool) throws { try level.setSingle(value) }
    mutating func encode(_ value: String) throws { try level.setSingle(value) }
    mutating func encode(_ value: Double) throws { try level.setSingle(try finite(value, at: level, key: nil)) }
    mutating func encode(_ value: Float) throws { try level.setSingle(try finite(Double(value), at: level, key: nil)) }
    mutating func encode(_ value: Int) throws { try level.setSingle(value) }
    mutating func encode(_ value: Int8) throws { try level.setSingle(plainInteger(value)) }
    mutating func encode(_ value: Int16) throws { try level.setSingle(plainInteger(value)) }
    mutating func encode(_ value: Int32) throws { try level.setSingle(plainInteger(value)) }
    mutating func encode(_ value: Int64) throws { try level.setSingle(plainInteger(value)) }
    mutating func encode(_ value: UInt) throws { try level.setSingle(plainInteger(value)) }
    mutating func encode(_ value: UInt8) throws { try level.setSingle(plainInteger(value)) }
    mutating func encode(_ value: UInt16) throws { try level.setSingle(plainInteger(value)) }
    mutating func encode(_ value: UInt32) throws { try level.setSingle(plainInteger(value)) }
    mutating func encode(_ value: UInt64) throws { try level.setSingle(plainInteger(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try level.setSingle(try level.encode(value, under: nil))
    }
}
