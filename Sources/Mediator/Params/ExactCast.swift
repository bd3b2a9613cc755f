// MARK: - Reading a value of exactly the type asked for

/// `value` as a `T` when the type it was stored as is `T` itself; `nil` otherwise (another type,
/// a value a cast would convert), for a cast (`as? T`) to decide.
///
/// The usual case of every typed read (a param read as the type it was sent as, a result read as
/// the type the action returned) costs a comparison of type metadata and a copy here, where a
/// cast through the runtime costs several hundred instructions (it looks up conformances on the
/// way). The runtime's cast begins with the same comparison, so whenever this answers, its
/// answer is the cast's.
///
/// Relies on Swift 6's implicit opening of existentials: `opened(value)` binds `Value` to the
/// stored type (in the Swift 5 language mode it would bind `any Sendable`, and this would answer
/// only for `T == any Sendable`: slower, never wrong).
@inlinable
func exactValue<T>(_ value: any Sendable, as _: T.Type) -> T? {
    func opened<Value>(_ opened: Value) -> T? {
        guard Value.self == T.self else { return nil }
        // The same type: the bits are a `T` already.
        return unsafeBitCast(opened, to: T.self)
    }
    return opened(value)
}

/// ``exactValue(_:as:)`` for a value that may be absent.
@inlinable
func exactValue<T>(_ value: (any Sendable)?, as type: T.Type) -> T? {
    guard let value else { return nil }
    return exactValue(value, as: type)
}

/// `value` as a `T`: ``exactValue(_:as:)`` when it answers, else the runtime's cast (`as? T`).
/// How every typed read (``Params/value(_:as:)``, a typed result, a typed key's output) reads a
/// value as the type asked for, before any conversion. Inlinable, so that the caller's copy casts
/// to its concrete `T`.
@inlinable @inline(__always)
func castValue<T>(_ value: any Sendable, as type: T.Type) -> T? {
    exactValue(value, as: type) ?? value as? T
}

/// ``castValue(_:as:)`` for a value that may be absent (a result: `nil` when the action returned
/// nothing, which only an optional `T` accepts).
@inlinable @inline(__always)
func castValue<T>(_ value: (any Sendable)?, as type: T.Type) -> T? {
    exactValue(value, as: type) ?? value as? T
}
