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
    /// cancellation, and when a fallback throws. The result comes as a `T`, converted as
    /// ``call(target:action:params:shouldCacheTarget:as:)`` converts it; pass
    /// `as: (any Sendable)?.self` to take it as the action returned it.
    ///
    /// ```swift
    /// mediator.perform(target: "Notes", action: "get", params: ["id": 1], as: Note.self) { result in
    ///     switch result {
    ///     case .success(let note): titleLabel.text = note.title
    ///     case .failure(let error): print(error)
    ///     }
    /// }
    /// ```
    ///
    /// Where the completion runs: on the actor the call was started on, as the compiler sees it.
    /// A call started in main-actor code (a view controller, a SwiftUI action, the top-level code
    /// of a `main.swift`) completes on the main actor, and the compiler checks the completion as
    /// main-actor code, so it may update the UI; a call started on another actor completes on that
    /// actor; a call started outside any actor (a nonisolated function, a callback of a thread or
    /// queue of its own, even one that happens to run on the main thread) completes on a thread of
    /// the shared pool. Only the completion runs there: the action itself, and a conversion to the
    /// result's type, run where ``call(target:action:params:shouldCacheTarget:)`` runs them (a
    /// main-actor target on the main actor, anything else off it). The completion comes once the
    /// actor is free: never before `perform` has returned when it was started there, and never
    /// while the caller blocks the actor waiting for it (a semaphore on the main thread waits for
    /// ever: await the call instead, or pass `isolation: nil` to complete on the shared pool).
    ///
    /// The completion counts as one call nested in the call it completes, as
    /// ``open(_:params:isolation:completion:)``'s does, so a completion that starts the same call again
    /// ends, ``maximumCallDepth`` levels down, in ``MediatorError/Code/callDepthExceeded``, told to
    /// the completion one level deeper; a completion that calls again from there is not called
    /// back, which is where the recursion stops (the one exception to "exactly once"). Calls
    /// started one after another from completions, or from tasks a completion starts, nest the
    /// same way: a chain of more than ``maximumCallDepth`` of them meets the limit too. Cancel the
    /// returned task to cancel the call: the completion then gets what the action made of it (a
    /// ``MediatorError/Code/cancelled`` error if it stopped with `CancellationError`).
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    ///   - params: the call's params.
    ///   - shouldCacheTarget: keep the target instance for later calls.
    ///   - type: the type of the result.
    ///   - isolation: the actor the call is started on, where the completion runs; leave it out
    ///     (the caller's, `#isolation`).
    ///   - completion: gets the result as a `T`, or the ``MediatorError`` the call failed with
    ///     (``MediatorError/Code/resultTypeMismatch`` when the result cannot be read as a `T`).
    /// - Returns: the task running the call; cancel it to cancel the call.
    @discardableResult
    public func perform<T>(
        target: String,
        action: String,
        params: Params = [:],
        shouldCacheTarget: Bool = false,
        as type: T.Type,
        isolation: isolated (any Actor)? = #isolation,
        completion: @escaping (Result<T, MediatorError>) -> Void
    ) -> Task<Void, Never> {
        // The task's calls nest under the caller's: runaway recursion through completion forms
        // still ends in `callDepthExceeded`.
        let depth = CallDepth.current
        return Task {
            // Captured, so that the task (and with it the completion) runs on the caller's actor:
            // the compiler then checks a main-actor caller's completion as main-actor code.
            _ = isolation
            // One level deeper than the call; no deeper than one past the limit, as for a URL
            // completion: a completion that restarts its call without end stops here.
            guard let result = await self.completed(target: target, action: action, params: params, cache: shouldCacheTarget, as: T.self, depth: depth)
            else { return }
            CallDepth.$taskDepth.withValue(depth + 1) { completion(result) }
        }
    }

    /// A completion form's call and its result as a `T`, run off the caller's actor (a conversion
    /// does not hold it up); `nil` when the call ran one past the depth limit, so that a
    /// completion that restarts its call without end is not called again.
    private func completed<T>(
        target: String, action: String, params: Params, cache: Bool, as type: T.Type, depth: Int
    ) async -> sending Result<T, MediatorError>? {
        let outcome = await CallDepth.$taskDepth.withValue(depth) {
            await self.dispatchAwaiting(target: target, action: action, params: params, shouldCacheTarget: cache)
        }
        guard depth <= maximumCallDepth else { return nil }
        do throws(MediatorError) {
            return .success(try converted(try outcome.value(self), as: T.self, target: target, action: action))
        } catch {
            return .failure(error)
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
