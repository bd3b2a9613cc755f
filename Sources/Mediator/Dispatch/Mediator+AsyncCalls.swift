// MARK: - Calls by name

extension Mediator {
    /// Calls an action and awaits its result: sync and async actions alike, main-actor ones after
    /// one hop to the main actor. Throws the reason a call failed.
    ///
    /// ```swift
    /// let page = try await mediator.call(target: "Feed", action: "load", params: ["page": 1])
    /// ```
    ///
    /// The primary way to call: the same names, fallbacks, cache and errors as
    /// ``callNow(target:action:params:shouldCacheTarget:)`` (the form for code that cannot
    /// `await`); an async action's error is wrapped with the target and action names exactly as a
    /// synchronous one's. Code that is not async but wants the result later starts a task, which
    /// runs the call and what follows it on the main actor:
    ///
    /// ```swift
    /// Task { @MainActor in
    ///     do { show(try await mediator.call(target: "Feed", action: "load")) } catch { showError(error) }
    /// }
    /// ```
    ///
    /// The call runs in the calling
    /// task: cancelling the task reaches the action (`Task.isCancelled`, `CancellationError`), and
    /// nothing the call started is left running when it returns. A call that ends in
    /// `CancellationError` throws ``MediatorError/Code/cancelled``; an action that returns
    /// normally although the task was cancelled has its result returned. See <doc:AsyncCalls>.
    ///
    /// - Parameters:
    ///   - target: the target's short (`Feed`) or full (`Target_Feed`) name.
    ///   - action: the action's short (`load`) or full (`Action_load`) name.
    ///   - params: the call's params; every value is `Sendable`.
    ///   - shouldCacheTarget: keep the target instance for later calls. Concurrent callers of a
    ///     cached target get one instance; its factory runs once, and waiting callers suspend.
    /// - Returns: the action's result (`nil` when the action returned nothing).
    /// - Throws: ``MediatorError``: every code ``callNow(target:action:params:shouldCacheTarget:)`` throws except
    ///   `asyncAction`, and `cancelled`.
    @discardableResult
    public func call(
        target: String,
        action: String,
        params: Params = [:],
        shouldCacheTarget: Bool = false
    ) async throws(MediatorError) -> (any Sendable)? {
        try await dispatchAwaiting(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget).value(self)
    }

    /// For callers that are not async and want a callback: runs the action (sync or async) in a
    /// new task and calls `completion` exactly once with the outcome: on success, on failure, on
    /// cancellation, and when a fallback throws.
    ///
    /// ```swift
    /// mediator.perform(target: "Feed", action: "load", params: ["page": 1]) { result in
    ///     switch result {
    ///     case .success(let page): show(page)
    ///     case .failure(let error): print(error)
    ///     }
    /// }
    /// ```
    ///
    /// The completion is called from that task (which may run before or after `perform` has
    /// returned), not on the main actor unless you hop there (`Task { @MainActor in ... }`). It
    /// counts as one call nested in the call it completes, as ``open(_:params:completion:)``'s does, so a
    /// completion that starts the same call again ends, ``maximumCallDepth`` levels down, in
    /// ``MediatorError/Code/callDepthExceeded``, told to the completion one level deeper; a
    /// completion that calls again from there is not called back, which is where the recursion
    /// stops (the one exception to "exactly once"). Calls started one after another from
    /// completions, or from tasks a completion starts, nest the same way: a chain of more than
    /// ``maximumCallDepth`` of them meets the limit too. Cancel the returned task to
    /// cancel the call: the completion then gets what the action made of it (a
    /// ``MediatorError/Code/cancelled`` error if it stopped with `CancellationError`).
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    ///   - params: the call's params.
    ///   - shouldCacheTarget: keep the target instance for later calls.
    ///   - completion: gets the result, or the ``MediatorError`` the call failed with.
    /// - Returns: the task running the call; cancel it to cancel the call.
    @discardableResult
    public func perform(
        target: String,
        action: String,
        params: Params = [:],
        shouldCacheTarget: Bool = false,
        completion: @escaping @Sendable (Result<(any Sendable)?, MediatorError>) -> Void
    ) -> Task<Void, Never> {
        // The task's calls nest under the caller's: runaway recursion through completion forms
        // still ends in `callDepthExceeded`.
        let depth = CallDepth.current
        return Task {
            let outcome = await CallDepth.$taskDepth.withValue(depth) {
                await self.dispatchAwaiting(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget)
            }
            // One level deeper than the call; no deeper than one past the limit, as for a URL
            // completion: a completion that restarts its call without end stops here.
            guard depth <= self.maximumCallDepth else { return }
            CallDepth.$taskDepth.withValue(depth + 1) { completion(outcome.result(self)) }
        }
    }

    /// The whole call, awaiting what must be awaited: the synchronous pipeline first (most
    /// calls end there), then, if it stopped, the rest with the call's depth in the task.
    func dispatchAwaiting(
        target: String, action: String, params: Params, input: TypedInput? = nil, shouldCacheTarget: Bool, origin: CallOrigin = .inProcess
    ) async -> Outcome {
        let outcome = dispatch(
            target: target, action: action, params: params, input: input, shouldCacheTarget: shouldCacheTarget, origin: origin, awaiting: true)
        return await outcome.awaited()
    }
}

extension Outcome {
    /// A finished call's result, for the completion forms.
    func result(_ mediator: Mediator) -> Result<(any Sendable)?, MediatorError> {
        do throws(MediatorError) {
            return .success(try value(mediator))
        } catch {
            return .failure(error)
        }
    }
}
