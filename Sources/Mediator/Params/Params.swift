/// The parameters of one call: string keys to `Sendable` values, with typed access that explains
/// its failures.
///
/// Build it from a dictionary literal and read it with ``value(_:as:)``:
///
/// ```swift
/// let params: Params = ["id": 42, "title": "hi", "onDone": { @Sendable (id: Int) in print(id) }]
/// let id = try params.value("id", as: Int.self)                 // 42
/// let tag = try params.valueIfPresent("tag", as: String.self)   // nil: absent
/// let done = try params.value("onDone", as: (@Sendable (Int) -> Void).self)
/// ```
///
/// ## Sendable rules
/// Every value must be `Sendable`, because an action may run on any thread and a cached target is
/// shared by all of them. Value types of `Sendable` parts, `Sendable` classes and actors qualify;
/// callbacks must be `@Sendable` closures. This is checked at compile time.
///
/// ## Text coercion
/// URL and command-line callers can only send text, so a `String` value (or an array of them) is
/// converted when an action asks for another type and the text is unambiguous:
/// - `Int`: optional sign and decimal digits (`"42"`, `"-7"`); `Double`: a finite decimal number
///   (`"1.5"`, `"-2e3"`; not `"nan"`, `"inf"` or hexadecimal);
/// - `Bool`: exactly `"true"`, `"false"`, `"1"` or `"0"`;
/// - arrays (`[String]`, `[Int]`, `[Double]`, `[Bool]`): a single value becomes a one-element
///   array, and each element of an array is converted as above.
/// Numbers also convert between `Int` and `Double` when no precision is lost. Nothing else is
/// converted: asking for a `String` where an `Int` was passed is an error, not `"42"`.
///
/// A value of `nil` (an `Optional` that is `.none`) counts as absent.
/// When a dictionary literal repeats a key, the last value wins.
public struct Params: Sendable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// How the values are kept: a few as a list of pairs, searched one by one (no hashing: for a
    /// handful of keys, comparing them costs less than hashing the one asked for), more in a
    /// dictionary.
    @usableFromInline
    enum Storage: Sendable {
        /// At most ``Params/pairLimit`` pairs, keys distinct (as `String` compares them).
        case pairs([(String, any Sendable)])
        /// Any number of values.
        case dictionary([String: any Sendable])
    }

    /// Where a pair's value starts: after the key, at the value's alignment.
    @usableFromInline static var valueOffset: Int {
        let alignment = MemoryLayout<any Sendable>.alignment
        return (MemoryLayout<String>.size + alignment - 1) / alignment * alignment
    }

    /// Whether ``valueOffset`` is where the compiler puts a pair's value (and the key at the
    /// start), as ``raw(_:)`` reads them; checked by debug builds whenever params are made.
    static var checkLayout: Bool {
        MemoryLayout<(String, any Sendable)>.offset(of: \(String, any Sendable).0) == 0
            && MemoryLayout<(String, any Sendable)>.offset(of: \(String, any Sendable).1) == valueOffset
    }

    /// The most values kept as pairs; more go into a dictionary.
    @usableFromInline static var pairLimit: Int { 8 }

    /// The values.
    @usableFromInline var storage: Storage

    /// The raw values, as passed (a dictionary made on each read when the params hold few values:
    /// read them with ``value(_:as:)`` or the subscript on hot paths).
    public var values: [String: any Sendable] {
        switch storage {
        case .pairs(let pairs): Dictionary(pairs, uniquingKeysWith: { _, last in last })
        case .dictionary(let values): values
        }
    }

    /// Params holding `values`.
    ///
    /// ```swift
    /// var values: [String: any Sendable] = ["id": 42]
    /// values["tag"] = "work"
    /// let params = Params(values)
    /// ```
    ///
    /// - Parameter values: the values by key; a `nil` value counts as absent.
    public init(_ values: [String: any Sendable] = [:]) {
        storage = values.isEmpty ? .pairs([]) : .dictionary(values)
    }

    /// Params from a dictionary literal: `["id": 42, "title": "hi"]`.
    ///
    /// - Parameter elements: the keys and values; when a key is repeated, the last value wins.
    public init(dictionaryLiteral elements: (String, any Sendable)...) {
        assert(Self.checkLayout, "Params.raw reads pairs at the wrong offsets")
        guard elements.count <= Self.pairLimit else {
            storage = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
            return
        }
        // The literal's own array is kept when its keys are distinct (the usual case). Keys read
        // in place, as ``raw(_:)`` reads them: reading the pairs copied their values too.
        let distinct = elements.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return true }
            let key = { (index: Int) in UnsafeRawPointer(base + index).assumingMemoryBound(to: String.self).pointee }
            for index in 1..<max(1, buffer.count) {
                for earlier in 0..<index where key(earlier) == key(index) { return false }
            }
            return true
        }
        if distinct {
            storage = .pairs(elements)
        } else {
            storage = .pairs([])
            for (key, value) in elements { self[key] = value }
        }
    }

    /// Params holding `pairs`, whose keys are already distinct (as `String` compares them).
    package init(distinctPairs pairs: [(String, any Sendable)]) {
        if pairs.count <= Self.pairLimit {
            storage = .pairs(pairs)
        } else {
            storage = .dictionary(Dictionary(uniqueKeysWithValues: pairs))
        }
    }

    /// The raw value stored under `key`, or `nil` when absent.
    @inlinable
    func raw(_ key: String) -> (any Sendable)? {
        switch storage {
        case .pairs(let pairs):
            // The key and then the value read on their own, in place: any way of reading a pair
            // as a tuple copied all of it (the value through its existential's value witnesses),
            // which cost more than hashing the key. The offsets are those of Swift's documented
            // type layout (docs/ABI/TypeLayout.rst: a tuple's elements in order, each at the next
            // offset its alignment allows); a debug build checks them (`Params.checkLayout`).
            return pairs.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return nil }
                for index in 0..<buffer.count {
                    let pair = UnsafeRawPointer(base + index)
                    if pair.assumingMemoryBound(to: String.self).pointee == key {
                        return (pair + Self.valueOffset).assumingMemoryBound(to: (any Sendable).self).pointee
                    }
                }
                return nil
            }
        case .dictionary(let values):
            return values[key]
        }
    }

    /// The index of `key` among `pairs`, the keys read in place as ``raw(_:)`` reads them (a search
    /// that read whole pairs would copy each value it passed).
    static func index(ofKey key: String, in pairs: [(String, any Sendable)]) -> Int? {
        pairs.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            return (0..<buffer.count).first { UnsafeRawPointer(base + $0).assumingMemoryBound(to: String.self).pointee == key }
        }
    }

    /// The raw value stored under `key` (`nil` when absent); setting `nil` removes the key.
    public subscript(key: String) -> (any Sendable)? {
        get { raw(key) }
        set {
            switch storage {
            case .dictionary(var values):
                storage = .pairs([])  // not a second reference to `values` while it changes
                values[key] = newValue
                storage = .dictionary(values)
            case .pairs(var pairs):
                storage = .pairs([])
                if let index = pairs.firstIndex(where: { $0.0 == key }) {
                    if let newValue { pairs[index].1 = newValue } else { pairs.remove(at: index) }
                } else if let newValue {
                    pairs.append((key, newValue))
                }
                storage = pairs.count <= Self.pairLimit ? .pairs(pairs) : .dictionary(Dictionary(pairs, uniquingKeysWith: { _, last in last }))
            }
        }
    }

    /// Whether `body` holds for every key and value, in no particular order (stops at the first
    /// `false`): a walk that makes no dictionary.
    func allSatisfy(_ body: (String, any Sendable) -> Bool) -> Bool {
        switch storage {
        case .pairs(let pairs):
            // Read in place, as ``raw(_:)`` does.
            pairs.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return true }
                for index in 0..<buffer.count {
                    let pair = UnsafeRawPointer(base + index)
                    let value = (pair + Self.valueOffset).assumingMemoryBound(to: (any Sendable).self)
                    if !body(pair.assumingMemoryBound(to: String.self).pointee, value.pointee) { return false }
                }
                return true
            }
        case .dictionary(let values): values.allSatisfy { body($0.key, $0.value) }
        }
    }

    /// The keys, sorted.
    public var keys: [String] {
        switch storage {
        case .pairs(let pairs): pairs.map(\.0).sorted()
        case .dictionary(let values): values.keys.sorted()
        }
    }

    /// Calls `body` with each key and its raw value, keys in ascending order (as ``keys`` sorts
    /// them); a value may be an `Optional` holding nothing. For writers of whole params (JSON).
    package func forEachSorted(_ body: (String, any Sendable) -> Void) {
        switch storage {
        case .pairs(let pairs):
            if pairs.count == 1 {
                body(pairs[0].0, pairs[0].1)
            } else {
                for (key, value) in pairs.sorted(by: { $0.0 < $1.0 }) { body(key, value) }
            }
        case .dictionary(let values):
            for (key, value) in values.sorted(by: { $0.key < $1.key }) { body(key, value) }
        }
    }

    /// The number of keys.
    public var count: Int {
        switch storage {
        case .pairs(let pairs): pairs.count
        case .dictionary(let values): values.count
        }
    }

    /// Whether there are no params.
    public var isEmpty: Bool { count == 0 }

    /// Whether `key` holds a value that is not `nil`.
    ///
    /// - Parameter key: the key to look for.
    /// - Returns: `true` when a value other than `nil` is stored under `key`.
    public func contains(_ key: String) -> Bool {
        guard let raw = raw(key) else { return false }
        return !isNil(raw)
    }

    /// The value under `key` as a `T`, converting text where unambiguous (see the type's notes).
    ///
    /// ```swift
    /// let id = try params.value("id", as: Int.self)   // 42 from 42, or from "42" sent by a URL
    /// let title: String = try params.value("title")   // the type from the context
    /// ```
    ///
    /// - Parameters:
    ///   - key: the parameter's name.
    ///   - type: the type to read it as; may be left out when the context gives it.
    /// - Returns: the value, converted when the rules of <doc:ParamsAndTextCoercion> allow (text
    ///   to `Int`, `Double`, `Bool` and arrays; `Int` and `Double` into each other without loss).
    /// - Throws: ``MediatorError/Code/invalidParameter`` naming the key, the type asked for and
    ///   what was found, when the key is absent or its value cannot be read as `T`.
    @inlinable
    public func value<T>(_ key: String, as type: T.Type = T.self) throws(MediatorError) -> T {
        // Fast path first, inlined so the caller's specialization casts to a concrete type: a value
        // of the asked type. The slow path casts to protocol types (a conformance lookup each), so
        // it runs only when this fails.
        if let raw = raw(key), let exact = castValue(raw, as: T.self) { return exact }
        return try slowValue(key, as: T.self)
    }

    /// Out of line, so the inlined fast path stays small.
    @usableFromInline
    func slowValue<T>(_ key: String, as _: T.Type) throws(MediatorError) -> T {
        guard let raw = raw(key) else { throw Self.missing(key, T.self) }
        // Text read as an `Int`, what URL and command-line callers send most, converted before
        // anything that holds a `T?`: this function is not specialized for `T`, and a `T?` in its
        // frame would look that optional type's metadata up on every call (about 300 instructions).
        if T.self == Int.self, let value = Self.int(fromText: raw) {
            // Exact: `T` is `Int`.
            return unsafeBitCast(value, to: T.self)
        }
        return try converted(raw, key: key, as: T.self)
    }

    /// The rest of ``slowValue(_:as:)``: the other text conversions, then the general path.
    @inline(never)
    private func converted<T>(_ raw: any Sendable, key: String, as _: T.Type) throws(MediatorError) -> T {
        if let converted = convertText(raw, to: T.self) { return converted }
        guard !isNil(raw) else { throw Self.missing(key, T.self) }
        return try convert(raw, key: key, to: T.self)
    }

    /// The error for a required parameter that is absent. Built only when thrown: the message
    /// costs a type-name lookup.
    private static func missing<T>(_ key: String, _: T.Type) -> MediatorError {
        MediatorError(.invalidParameter, parameter: key, reason: "missing required parameter \"\(key)\" (expected \(typeName(T.self)))")
    }

    /// `raw` as an `Int`, when it is text that `Int(_:)` reads; what `Int.convert` does for text,
    /// without boxing the text again to cast it back.
    private static func int(fromText raw: any Sendable) -> Int? {
        guard let text = raw as? String else { return nil }
        return Int(text)
    }

    /// The value under `key` as a `T`, or `nil` when the key is absent (or holds `nil`).
    ///
    /// ```swift
    /// let tag = try params.valueIfPresent("tag", as: String.self)   // nil when not sent
    /// ```
    ///
    /// - Parameters:
    ///   - key: the parameter's name.
    ///   - type: the type to read it as; may be left out when the context gives it.
    /// - Returns: the value (converted from text as ``value(_:as:)`` does), or `nil` when absent.
    /// - Throws: ``MediatorError/Code/invalidParameter`` when a value is present but cannot be
    ///   read as `T`: a wrong value is never silently treated as absent.
    @inlinable
    public func valueIfPresent<T>(_ key: String, as type: T.Type = T.self) throws(MediatorError) -> T? {
        guard let raw = raw(key) else { return nil }
        if let exact = castValue(raw, as: T.self) { return exact }
        return try slowValueIfPresent(raw, key: key, as: T.self)
    }

    /// The general path for a present value that is not a `T`: `nil` when it is `nil`, else
    /// converted by the text rules or refused.
    @usableFromInline
    func slowValueIfPresent<T>(_ raw: any Sendable, key: String, as _: T.Type) throws(MediatorError) -> T? {
        if let converted = convertText(raw, to: T.self) { return converted }
        guard !isNil(raw) else { return nil }
        return try convert(raw, key: key, to: T.self)
    }

    /// The value under `key` as a `T`, or `defaultValue` when absent.
    ///
    /// ```swift
    /// let tags = try params.value("tags", as: [String].self, default: [])
    /// ```
    ///
    /// - Parameters:
    ///   - key: the parameter's name.
    ///   - type: the type to read it as; may be left out when the context gives it.
    ///   - defaultValue: the value when the key is absent or holds `nil`.
    /// - Returns: the value (converted from text as ``value(_:as:)`` does), or `defaultValue`.
    /// - Throws: ``MediatorError/Code/invalidParameter`` when a value is present but cannot be
    ///   read as `T`.
    public func value<T>(_ key: String, as type: T.Type = T.self, default defaultValue: T) throws(MediatorError) -> T {
        try valueIfPresent(key, as: T.self) ?? defaultValue
    }

    /// The params on one line, keys sorted, long values cut: `[id: 42, title: "hi"]`.
    public var description: String {
        if isEmpty { return "[:]" }
        let values = self.values
        let items = values.keys.sorted().map { key in "\(key): \(describe(values[key]!, limit: 60))" }
        return "[" + items.joined(separator: ", ") + "]"
    }

    /// Text converted to the types URL and command-line callers ask for most, by comparing
    /// metatypes: much cheaper than the protocol casts of the general path, which still handles
    /// every other case (and gives the same answers for these).
    private func convertText<T>(_ raw: any Sendable, to _: T.Type) -> T? {
        // The bit cast is exact, as T is Int (a dynamic cast cost ~200).
        if T.self == Int.self { return Self.int(fromText: raw).map { unsafeBitCast($0, to: T.self) } }
        guard let text = raw as? String else { return nil }
        // Each force cast follows a check that T is exactly that type, so it cannot fail.
        if T.self == Double.self { return Double.convert(from: text).map { $0 as! T } }
        if T.self == Bool.self { return Bool.convert(from: text).map { $0 as! T } }
        if T.self == [String].self { return ([text] as! T) }
        return nil
    }

    /// Called after the caller's own `as? T` failed, so it goes straight to the text rules.
    private func convert<T>(_ raw: any Sendable, key: String, to _: T.Type) throws(MediatorError) -> T {
        if let convertible = T.self as? any TextConvertible.Type,
            let converted = convertible.convert(from: raw) as? T
        {
            return converted
        }
        throw MediatorError(
            .invalidParameter, parameter: key,
            reason:
                "invalid parameter \"\(MediatorError.shortened(key))\": expected \(typeName(T.self)), got \(typeName(type(of: raw))) \(describe(raw, limit: 60))"
        )
    }
}
