// MARK: - Calls through typed keys

extension Mediator {
    /// Calls the action `key` names with a typed input on the calling thread, without awaiting,
    /// and returns its typed output: the form for code that cannot `await`; the awaiting
    /// ``call(_:_:shouldCacheTarget:)`` is the primary one.
    ///
    /// ```swift
    /// let note = try mediator.callNow(.notesCreate, CreateNote(token: token, title: "hi"))
    /// ```
    ///
    /// When the provider registered the action against a key of the same input type, `input` is
    /// passed to it as is and its output returned as is, unless the input declares more than its
    /// type can say (a bound such as `.integer(minimum: 1, maximum: 10)`, or a default): then it is
    /// checked first as params, defaults filled in, whether or not anything observes the mediator.
    /// Otherwise (an action registered by name,
    /// `notFound`, a fallback) `input` is encoded to params, checked like any in-process call's, and
    /// the result decoded into `Output` (``call(target:action:params:shouldCacheTarget:as:)``).
    ///
    /// - Parameters:
    ///   - key: the action and its types.
    ///   - input: the action's input.
    ///   - shouldCacheTarget: keep the target instance for later calls (as for the calls by name).
    /// - Returns: the action's output.
    /// - Throws: what ``callNow(target:action:params:shouldCacheTarget:)`` throws, or
    ///   ``MediatorError/Code/resultTypeMismatch`` when the result cannot be read as `Output`.
    public func callNow<Input, Output>(_ key: ActionKey<Input, Output>, _ input: Input, shouldCacheTarget: Bool = false) throws(MediatorError) -> Output {
        guard let saved = CallDepth.enter(limit: maximumCallDepth) else { throw callDepthExceededError(target: key.target, action: key.action) }
        defer { CallDepth.restore(saved) }
        // The hot path: a ready instance and a synchronous body registered against a key of these
        // very types. Everything else goes through the pipeline with the input boxed.
        var interception: Interception?
        if case .readyDeclared(_, let instance, let contract) = resolve(target: key.target, action: key.action, remote: false, interception: &interception),
            interception == nil, let direct = contract.keyed?.direct(Input.self, Output.self)
        {
            do {
                return try direct.body(instance, input)
            } catch {
                throw actionFailedError(from: error, asked: key.target, key.action)
            }
        }
        return try dispatchedNow(key, input, shouldCacheTarget: shouldCacheTarget)
    }

    /// ``callNow(_:_:shouldCacheTarget:)`` through the pipeline, with the input boxed. A function of
    /// its own: its `Output?` locals, in code not specialized for the caller's types, would make
    /// the hot path look up that optional type's metadata on every call (about 300 instructions).
    @inline(never)
    private func dispatchedNow<Input, Output>(_ key: ActionKey<Input, Output>, _ input: Input, shouldCacheTarget: Bool) throws(MediatorError) -> Output {
        let result = try dispatch(
            target: key.target, action: key.action, params: [:], input: TypedInput(input), shouldCacheTarget: shouldCacheTarget, depth: .counted
        ).value(self)
        return try output(result, of: key)
    }

    /// Calls the action `key` names with a typed input, awaiting it if need be (an async action,
    /// an async factory, main-actor code off the main actor), and returns its typed output.
    ///
    /// When the provider registered the action against a key of the same input type, `input` is
    /// passed to it as is and its output returned as is, unless the input declares more than its
    /// type can say (a bound such as `.integer(minimum: 1, maximum: 10)`, or a default): then it is
    /// checked first as params, defaults filled in, whether or not anything observes the mediator.
    /// Otherwise (an action registered by name, `notFound`, a fallback) `input` is encoded to
    /// params, checked like any in-process call's, and the result decoded into `Output`
    /// (``call(target:action:params:shouldCacheTarget:as:)``).
    ///
    /// ```swift
    /// let markdown = try await mediator.call(.notesExport, ExportNotes(token: token))
    /// ```
    ///
    /// - Parameters:
    ///   - key: the action and its types.
    ///   - input: the action's input.
    ///   - shouldCacheTarget: keep the target instance for later calls (as for the calls by name).
    /// - Returns: the action's output.
    /// - Throws: what ``call(target:action:params:shouldCacheTarget:)`` throws, or
    ///   ``MediatorError/Code/resultTypeMismatch``.
    public func call<Input, Output>(_ key: ActionKey<Input, Output>, _ input: Input, shouldCacheTarget: Bool = false) async throws(MediatorError) -> Output {
        let result = try await dispatchAwaiting(
            target: key.target, action: key.action, params: [:], input: TypedInput(input), shouldCacheTarget: shouldCacheTarget
        )
        .value(self)
        return try output(result, of: key)
    }

    /// The result as the key's output: as is when it is one, else decoded from plain values.
    @inline(__always)
    func output<Input, Output>(_ result: (any Sendable)?, of key: ActionKey<Input, Output>) throws(MediatorError) -> Output {
        if let output = castValue(result, as: Output.self) { return output }
        return try decoded(result, as: Output.self, target: key.target, action: key.action)
    }
}
