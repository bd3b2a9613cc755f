// MARK: - Typed results

extension Mediator {
    /// Calls an action, awaiting it if need be, and returns its result as a `T`: the building
    /// block of typed wrappers.
    ///
    /// ```swift
    /// let names = try await mediator.call(target: "Users", action: "names", as: [String].self)
    /// ```
    ///
    /// A result that already is a `T` is returned as is. Otherwise, when `T` is `Decodable`,
    /// plain values (dictionaries, arrays, strings, numbers, `Bool`, ``Params``) are decoded into
    /// `T`, with text coerced as ``Params`` does. This lets a typed extension module define its
    /// own result types without importing the provider, which returns plain values:
    ///
    /// ```swift
    /// public struct Note: Decodable, Sendable { public let id: Int; public let title: String }
    /// extension Mediator {
    ///     public func note(id: Int) async throws(MediatorError) -> Note {
    ///         try await call(target: "Notes", action: "get", params: ["id": id], as: Note.self)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    ///   - params: the call's params.
    ///   - shouldCacheTarget: keep the target instance for later calls.
    ///   - type: the type of the result.
    /// - Returns: the result as a `T`.
    /// - Throws: what ``call(target:action:params:shouldCacheTarget:)`` throws, or
    ///   ``MediatorError/Code/resultTypeMismatch`` when the result is not a `T` and cannot be
    ///   decoded into one (naming the path that did not fit; a `nil` result is a mismatch unless
    ///   `T` is an `Optional`).
    public func call<T>(
        target: String,
        action: String,
        params: Params = [:],
        shouldCacheTarget: Bool = false,
        as type: T.Type
    ) async throws(MediatorError) -> T {
        let result = try await call(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget)
        return try converted(result, as: T.self, target: target, action: action)
    }

    /// Calls an action on the calling thread, without awaiting, and returns its result as a `T`,
    /// converted as ``call(target:action:params:shouldCacheTarget:as:)`` converts it: for code
    /// that cannot `await`.
    ///
    /// ```swift
    /// let screen = try mediator.callNow(target: "Profile", action: "screen", as: ProfileScreen.self)
    /// ```
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    ///   - params: the call's params.
    ///   - shouldCacheTarget: keep the target instance for later calls.
    ///   - type: the type of the result.
    /// - Returns: the result as a `T`.
    /// - Throws: what ``callNow(target:action:params:shouldCacheTarget:)`` throws, or
    ///   ``MediatorError/Code/resultTypeMismatch``.
    @inlinable
    public func callNow<T>(
        target: String,
        action: String,
        params: Params = [:],
        shouldCacheTarget: Bool = false,
        as type: T.Type
    ) throws(MediatorError) -> T {
        let result = try callNow(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget)
        // Inlinable, so that the caller's copy casts to its concrete `T` (run generically, the
        // cast looked up `T`'s metadata on every call); the conversion stays out of line.
        if let value = castValue(result, as: T.self) { return value }
        return try converted(result, as: T.self, target: target, action: action)
    }

    /// A result as a `T`: as it is when it is one, else decoded into one when `T` is `Decodable`;
    /// else the mismatch error. The one reading of a result as a type, for every typed form.
    @usableFromInline
    func converted<T>(_ result: (any Sendable)?, as type: T.Type, target: String, action: String) throws(MediatorError) -> T {
        if let value = castValue(result, as: T.self) { return value }
        guard let decodable = T.self as? any Decodable.Type else { throw mismatch(result, as: T.self, target: target, action: action) }
        let decoded = try decoded(result, as: decodable, target: target, action: action)
        guard let value = decoded as? T else { throw mismatch(result, as: T.self, target: target, action: action) }
        return value
    }

    /// The error for a `result` that is not a `T`.
    @usableFromInline
    func mismatch<T>(_ result: (any Sendable)?, as type: T.Type, target: String, action: String) -> MediatorError {
        resultMismatch(result, expected: T.self, target: target, action: action, detail: nil)
    }

    /// `result` as a `T`: cast when it is one, else decoded from plain values; else the mismatch error.
    @usableFromInline
    func decoded<T: Decodable>(_ result: (any Sendable)?, as type: T.Type, target: String, action: String) throws(MediatorError) -> T {
        if let value = result as? T { return value }
        do {
            return try ValueDecoder.decode(T.self, from: result)
        } catch {
            throw resultMismatch(result, expected: T.self, target: target, action: action, detail: error.description)
        }
    }

    private func resultMismatch(
        _ result: (any Sendable)?, expected: Any.Type, target: String, action: String, detail: String?
    ) -> MediatorError {
        let found = result.map { "\(typeName(type(of: $0))) \(describe($0, limit: 80))" } ?? "nothing"
        var reason = "expected a result of type \(typeName(expected)), got \(found)"
        if let detail { reason += " (\(detail))" }
        return MediatorError(
            .resultTypeMismatch, target: Names.shown(target, as: .target), action: Names.shown(action, as: .action),
            reason: reason
        )
    }
}
