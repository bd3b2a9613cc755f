// MARK: - Resolved typed handles

/// A typed key's action resolved once and called many times: no name lookup and no params per
/// call, the input and output passed as they are.
///
/// ```swift
/// let create = try mediator.handle(.notesCreate, shouldCacheTarget: true)
/// for title in titles { _ = try create.callNow(CreateNote(token: token, title: title)) }
/// ```
///
/// It is an ``ActionHandle`` with the key's types: it keeps the action and (when caching) the
/// target instance it resolved, does not see later registry changes, and does not go through
/// fallbacks (resolving a missing action throws). When the provider registered the action against
/// a key of the same input and output types, the target's instance is ready and nothing intercepts
/// calls, a call is the body itself plus the call-depth count. Otherwise it goes the way of
/// ``Mediator/call(_:_:shouldCacheTarget:)`` from the handle's resolution: the input encoded
/// to params for an action registered by name, the result decoded into `Output`, interceptors and
/// observers told.
public struct TypedActionHandle<Input: Codable & Sendable, Output: Codable & Sendable>: Sendable {
    /// The key the handle was resolved from.
    public let key: ActionKey<Input, Output>
    /// The action resolved by name, for every call that does not take the fast path.
    @usableFromInline let handle: ActionHandle
    /// The body registered against a key of exactly these types, bound to the instance the
    /// handle holds: the fast path, `nil` when there is none.
    @usableFromInline let direct: (@Sendable (Input) throws -> Output)?
    /// The handle's mediator, kept apart: the fast path reads only it and ``direct``.
    @usableFromInline let mediator: Mediator

    /// A handle of `handle`'s action for `key`.
    init(key: ActionKey<Input, Output>, handle: ActionHandle) {
        self.key = key
        self.handle = handle
        self.mediator = handle.mediator
        if let body = handle.registered.contract?.keyed?.direct(Input.self, Output.self), let instance = handle.instance {
            direct = { input in try body.body(instance, input) }
        } else {
            direct = nil
        }
    }

    /// Runs the action with `input` on the calling thread, without awaiting, and returns its
    /// output: for code that cannot `await`.
    ///
    /// - Parameter input: the action's input.
    /// - Returns: the action's output.
    /// - Throws: ``MediatorError``: what ``ActionHandle/callNow(_:)`` throws, and
    ///   ``MediatorError/Code/resultTypeMismatch`` when the result cannot be read as `Output`.
    @inlinable
    public func callNow(_ input: Input) throws(MediatorError) -> Output {
        // Inlinable so that the caller's copy is specialized for its types: run generically, the
        // fast path spent ~1,800 instructions per call looking up the generic types' metadata.
        guard let direct, let saved = mediator.enterFastCall() else { return try generalCall(input) }
        defer { Mediator.leaveFastCall(saved) }
        do {
            return try direct(input)
        } catch {
            throw handle.fastCallFailed(error)
        }
    }

    /// ``callNow(_:)`` through the pipeline: the input boxed, interceptors and observers told.
    @usableFromInline
    func generalCall(_ input: Input) throws(MediatorError) -> Output {
        let mediator = handle.mediator
        let typed = TypedInput(input)
        let outcome: Outcome
        if let interception = mediator.currentInterception {
            outcome = handle.intercepted(interception, [:], input: typed, awaiting: false)
        } else {
            outcome = handle.outcome([:], input: typed)
        }
        return try mediator.output(try outcome.value(mediator), of: key)
    }

    /// Runs the action with `input`, awaiting it if it is async (or on the main actor, or its
    /// target's factory is async), and returns its output.
    ///
    /// ```swift
    /// let export = try mediator.handle(.notesExport)
    /// let markdown = try await export.call(ExportNotes(token: token))
    /// ```
    ///
    /// - Parameter input: the action's input.
    /// - Returns: the action's output.
    /// - Throws: as ``callNow(_:)``, except `asyncAction`; and
    ///   ``MediatorError/Code/cancelled``.
    public func call(_ input: Input) async throws(MediatorError) -> Output {
        let mediator = handle.mediator
        let typed = TypedInput(input)
        let outcome: Outcome
        if let interception = mediator.currentInterception {
            outcome = await handle.intercepted(interception, [:], input: typed, awaiting: true).awaited()
        } else {
            outcome = await handle.outcome([:], input: typed, awaiting: true).awaited()
        }
        return try mediator.output(try outcome.value(mediator), of: key)
    }
}

extension Mediator {
    /// Resolves the action `key` names once, for many typed calls.
    ///
    /// ```swift
    /// let create = try mediator.handle(.notesCreate, shouldCacheTarget: true)
    /// let note = try await create.call(CreateNote(token: token, title: "hi"))
    /// ```
    ///
    /// - Parameters:
    ///   - key: the action and its types.
    ///   - shouldCacheTarget: resolve (and keep) the cached instance now, as
    ///     ``handle(target:action:shouldCacheTarget:)`` does; a target that is always cached is
    ///     resolved either way.
    /// - Returns: the handle.
    /// - Throws: what ``handle(target:action:shouldCacheTarget:)`` throws.
    public func handle<Input, Output>(
        _ key: ActionKey<Input, Output>, shouldCacheTarget: Bool = false
    ) throws(MediatorError) -> TypedActionHandle<Input, Output> {
        TypedActionHandle(key: key, handle: try handle(target: key.target, action: key.action, shouldCacheTarget: shouldCacheTarget))
    }
}

// MARK: - The fast path's steps

extension Mediator {
    /// Starts a fast-path call: the saved call depth for ``leaveFastCall(_:)``, or `nil` when the
    /// call must go the general way (something intercepts calls, or the depth limit is reached,
    /// which the general way reports).
    @usableFromInline
    func enterFastCall() -> Int? {
        guard currentInterception == nil else { return nil }
        return CallDepth.enter(limit: maximumCallDepth)
    }

    /// Ends a call started by ``enterFastCall()``.
    @usableFromInline
    static func leaveFastCall(_ saved: Int) {
        CallDepth.restore(saved)
    }
}

extension ActionHandle {
    /// The error of a fast-path call whose body threw `error`.
    @usableFromInline
    func fastCallFailed(_ error: any Error) -> MediatorError {
        mediator.actionFailedError(from: error, target: target, action: action, context: "the action failed")
    }
}
