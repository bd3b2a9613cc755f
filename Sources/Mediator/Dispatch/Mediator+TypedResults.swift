// MARK: - Typed results

extension Mediator {
    /// Calls an action and returns its result as a `T`; the building block of typed wrappers.
    ///
    /// ```swift
    /// let names = try mediator.call(target: "Users", action: "names", as: [String].self)
    /// ```
    ///
    /// The result is cast, not converted: a `T` that is `Decodable` uses
    /// ``call(target:action:params:shouldCacheTarget:as:)-3vl9j``, which also decodes plain values.
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    ///   - params: the call's params.
    ///   - shouldCacheTarget: keep the target instance for later calls.
    ///   - type: the type of the result.
    /// - Returns: the result as a `T`.
    /// - Throws: what ``call(target:action:params:shouldCacheTarget:)-8qzr1`` throws, or
    ///   ``MediatorError/Code/resultTypeMismatch`` when the result is not a `T` (a `nil` result
    ///   is a mismatch unless `T` is an `Optional`).
    @inlinable
    public func call<T>(
        target: String,
        action: String,
        params: Params = [:],
        shouldCacheTarget: Bool = false,
        as type: T.Type
    ) throws(MediatorError) -> T {
        let result = try call(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget)
        // Inlinable, so that the caller's copy casts to its concrete `T` (run generically, the
        // cast looked up `T`'s metadata on every call).
        if let value = result as? T { return value }
        throw mismatch(result, as: T.self, target: target, action: action)
    }

    /// Calls an action and converts its result to a `Decodable` `T`: a result that already is a
    /// `T` is returned as is; otherwise plain values (dictionaries, arrays, strings, numbers,
    /// `Bool`, ``Params``) are decoded into `T`, with text coerced as ``Params`` does.
    ///
    /// This lets a typed extension module define its own result types without importing the
    /// provider, which returns plain values:
    ///
    /// ```swift
    /// public struct Note: Decodable { public let id: Int; public let title: String }
    /// extension Mediator {
    ///     public func note(id: Int) throws(MediatorError) -> Note {
    ///         try call(target: "Notes", action: "get", params: ["id": id], as: Note.self)
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
    /// - Returns: the result as a `T`, decoded from plain values when needed.
    /// - Throws: as the generic form; a decoding failure is ``MediatorError/Code/resultTypeMismatch``
    ///   naming the path that did not fit.
    @inlinable
    public func call<T: Decodable>(
        target: String,
        action: String,
        params: Params = [:],
        shouldCacheTarget: Bool = false,
        as type: T.Type
    ) throws(MediatorError) -> T {
        let result = try call(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget)
        // The cast inlined, as in the generic form; decoding stays out of line.
        if let value = result as? T { return value }
        return try decoded(result, as: T.self, target: target, action: action)
    }

    /// `perform` with the result as a `T`, or `nil` when the call failed or the result is not a `T`.
    ///
    /// ```swift
    /// let count = mediator.perform(target: "Notes", action: "count", as: Int.self) ?? 0
    /// ```
    ///
    /// The result is cast, never converted or decoded.
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    ///   - params: the call's params.
    ///   - shouldCacheTarget: keep the target instance for later calls.
    ///   - type: the type of the result.
    /// - Returns: the result as a `T`, or `nil`.
    public func perform<T>(
        target: String,
        action: String,
        params: Params = [:],
        shouldCacheTarget: Bool = false,
        as type: T.Type
    ) -> T? {
        perform(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget) as? T
    }

    /// Calls an action, awaiting it if need be, and returns its result as a `T`.
    ///
    /// ```swift
    /// let titles = try await mediator.call(target: "Feed", action: "titles", as: [String].self)
    /// ```
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    ///   - params: the call's params.
    ///   - shouldCacheTarget: keep the target instance for later calls.
    ///   - type: the type of the result.
    /// - Returns: the result as a `T`.
    /// - Throws: what the async ``call(target:action:params:shouldCacheTarget:)-6k8m1`` throws,
    ///   or ``MediatorError/Code/resultTypeMismatch``.
    public func call<T>(
        target: String,
        action: String,
        params: Params = [:],
        shouldCacheTarget: Bool = false,
        as type: T.Type
    ) async throws(MediatorError) -> T {
        let result = try await call(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget)
        if let value = result as? T { return value }
        throw mismatch(result, as: T.self, target: target, action: action)
    }

    /// Calls an action, awaiting it if need be, and converts its result to a `Decodable` `T`
    /// as the synchronous form does.
    ///
    /// ```swift
    /// let page = try await mediator.call(target: "Feed", action: "load", params: ["page": 1], as: FeedPage.self)
    /// ```
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    ///   - params: the call's params.
    ///   - shouldCacheTarget: keep the target instance for later calls.
    ///   - type: the type of the result.
    /// - Returns: the result as a `T`, decoded from plain values when needed.
    /// - Throws: as the generic form; a decoding failure is ``MediatorError/Code/resultTypeMismatch``.
    public func call<T: Decodable>(
        target: String,
        action: String,
        params: Params = [:],
        shouldCacheTarget: Bool = false,
        as type: T.Type
    ) async throws(MediatorError) -> T {
        let result = try await call(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget)
        return try decoded(result, as: T.self, target: target, action: action)
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

    /// The async `perform` with the result as a `T`, or `nil` when the call failed or the result
    /// is not a `T`; runs async actions too.
    ///
    /// ```swift
    /// let count = await mediator.perform(target: "Feed", action: "count", as: Int.self) ?? 0
    /// ```
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    ///   - params: the call's params.
    ///   - shouldCacheTarget: keep the target instance for later calls.
    ///   - type: the type of the result.
    /// - Returns: the result as a `T`, or `nil`.
    public func perform<T>(
        target: String,
        action: String,
        params: Params = [:],
        shouldCacheTarget: Bool = false,
        as type: T.Type
    ) async -> T? {
        await perform(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget) as? T
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
