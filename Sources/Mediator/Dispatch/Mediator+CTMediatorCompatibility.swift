// MARK: - CTMediator compatibility

// The two forms CTMediator's users know, kept as it shaped them: a result or `nil`, and a URL
// call whose completion gets a dictionary. Everything else calls `call` (awaiting) or `callNow`.

extension Mediator {
    /// CTMediator's `performTarget:action:params:shouldCacheTarget:`: runs the action and returns
    /// its result, or `nil` when it returned nothing or the call failed in any way.
    ///
    /// ```swift
    /// let note = mediator.perform(target: "Notes", action: "get", params: ["id": 1])
    /// ```
    ///
    /// CTMediator's name is kept because it is what its users know; the names it takes may be
    /// short as well as full: `perform(target: "Notes", action: "get")` and
    /// `perform(target: "Target_Notes", action: "Action_get")` are the same call (so is the
    /// selector string `Action_get:`). When the action is missing, the target's `notFound` and
    /// then the global fallback may answer (see ``setFallback(_:)-(Fallback?)``).
    /// It is `try? callNow(...)`: use ``callNow(target:action:params:shouldCacheTarget:)`` to learn
    /// why a call failed, and ``call(target:action:params:shouldCacheTarget:)`` to await async actions.
    ///
    /// - Parameters:
    ///   - target: the target's short (`Notes`) or full (`Target_Notes`) name.
    ///   - action: the action's short (`get`) or full (`Action_get`) name.
    ///   - params: the call's params; every value is `Sendable`.
    ///   - shouldCacheTarget: keep the target instance for later calls. A cached instance
    ///     is reused by every later call, whatever its flag, until released.
    /// - Returns: the action's result (or the answer of `notFound` or a fallback); `nil` when it
    ///   returned nothing, or when the call failed for any reason (including an action that must
    ///   be awaited: see ``MediatorError/Code/asyncAction``; it is not run).
    @discardableResult
    public func perform(
        target: String,
        action: String,
        params: Params = [:],
        shouldCacheTarget: Bool = false
    ) -> (any Sendable)? {
        // A switch on the call itself moves the value out (binding from a stored outcome copied it).
        switch dispatch(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget) {
        case .answered(let value): return value
        case .suspended(let suspension):
            suspension.abandon(self)
            return nil
        default: return nil
        }
    }

    /// CTMediator's `performActionWithUrl:completion:`: calls the action a URL names on the calling
    /// thread and returns its result, or `nil` when it returned nothing or the call failed or was
    /// refused.
    ///
    /// ```swift
    /// mediator.open("app://Notes/get?id=42")   // the note, or nil
    /// mediator.open("myapp://user/42/profile", params: ["onClose": { @Sendable in dismiss() }])
    /// ```
    ///
    /// Every URL rule of ``call(url:params:)`` applies, and `params` are in-process params passed
    /// along with the link as there. Without a completion, a call that must await (an async
    /// action, factory, `notFound` or fallback, or main-actor code off the main actor) is not run:
    /// `open` returns `nil`. Code that can `await` uses ``call(url:params:)``, which runs such
    /// calls and throws the reason a call failed.
    ///
    /// With a `completion`:
    ///
    /// `completion` gets `["result": value]` when the action returned a value, `[:]` when it
    /// returned nothing, and `["error": MediatorError]` when the call failed; it is not called
    /// at all when the mediator refuses the call as `forbidden` (CTMediator's behaviour for
    /// `native` actions): by the URL rules or at a local-only action, where the URL leads or where
    /// a redirect or degradation sends it (also when the URL's own action ran and failed before its
    /// degradation was refused: watch such calls with an observer, or use ``call(url:params:)``).
    /// Otherwise (a `forbidden` error an action, handler or fallback throws or passes on included)
    /// it is called exactly once.
    ///
    /// A call that can finish without awaiting calls `completion` before `open` returns, as
    /// CTMediator does. One that must await (an async action, factory, `notFound` or fallback, or
    /// main-actor code off the main actor) goes on in a new task: `open` returns `nil` at once and
    /// `completion` is called from that task when the call ends.
    ///
    /// The completion runs inside the call, so it counts toward ``maximumCallDepth`` like the
    /// action: a completion that opens a URL again is runaway recursion too. A call refused as
    /// `callDepthExceeded` still calls its completion, one level deeper; a completion that calls
    /// again from there is not called back, which is where the recursion stops.
    ///
    /// ```swift
    /// mediator.open("app://Notes/get?id=1") { outcome in
    ///     if let error = outcome["error"] { print("failed:", error) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - url: the URL, as text; it comes from outside the program and is checked as such.
    ///   - params: params from the calling code, merged over the URL's.
    ///   - isolation: the actor the call is started on, where a completion that must wait for
    ///     the call runs; leave it out (the caller's, `#isolation`).
    ///   - completion: gets the outcome: on the calling thread before `open` returns, or, when the
    ///     call must await, from a task on the actor the call was started on (the main actor for
    ///     a call from the main actor; a thread of the shared pool for a call outside any actor).
    /// - Returns: the action's result, or `nil` when it returned nothing or the call failed or was
    ///   refused.
    @discardableResult
    public func open(
        _ url: String, params: Params = [:], isolation: isolated (any Actor)? = #isolation,
        completion: (([String: any Sendable]) -> Void)? = nil
    ) -> (any Sendable)? {
        let extra = params.isEmpty ? nil : params
        guard let completion else {
            switch dispatch(url: url, extra: extra) {
            case .answered(let value): return value
            case .suspended(let suspension):
                suspension.abandon(self)
                return nil
            default: return nil
            }
        }
        guard let saved = CallDepth.enter(limit: maximumCallDepth) else {
            if let deeper = CallDepth.enter(limit: maximumCallDepth + 1) {
                defer { CallDepth.restore(deeper) }
                completion(["error": callDepthExceededError(url: url)])
            }
            return nil
        }
        defer { CallDepth.restore(saved) }
        let depth = CallDepth.current
        let outcome = dispatch(url: url, extra: extra, depth: .counted)
        if case .suspended = outcome {
            Task {
                // Captured, so that the task (and with it the completion) runs on the caller's actor.
                _ = isolation
                let finished = await outcome.finished(depth: depth)
                // The completion counts toward the depth, as on the synchronous path.
                CallDepth.$taskDepth.withValue(depth) { Self.complete(finished, completion: completion, mediator: self) }
            }
            return nil
        }
        return Self.complete(outcome, completion: completion, mediator: self)
    }

    /// Calls `completion` for a finished URL call, as ``open(_:params:isolation:completion:)`` documents, and
    /// returns the call's result.
    @discardableResult
    private static func complete(_ outcome: Outcome, completion: ([String: any Sendable]) -> Void, mediator: Mediator) -> (any Sendable)? {
        switch outcome {
        case .answered(let value):
            completion(value.map { ["result": $0] } ?? [:])
            return value
        case .failed(let error):
            if !error.isURLRefusal { completion(["error": error]) }
            return nil
        case .unanswered(let target, let action):
            completion(["error": mediator.notAnsweredError(target: target, action: action)])
            return nil
        case .suspended(let suspension):
            completion(["error": mediator.asyncActionError(suspension)])
            return nil
        }
    }

    // MARK: Not in async code

    /// Unavailable: in async code, write `try? await call(target:action:params:shouldCacheTarget:)`.
    /// Without this, `await mediator.perform(...)` would compile (with a warning) and run the
    /// synchronous `perform`, which returns `nil` for an action that must be awaited.
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    ///   - params: the call's params.
    ///   - shouldCacheTarget: keep the target instance for later calls.
    /// - Returns: the action's result, or `nil`.
    @available(*, unavailable, message: "perform never awaits; in async code write try? await call(target:action:params:shouldCacheTarget:)")
    @discardableResult
    public func perform(target: String, action: String, params: Params = [:], shouldCacheTarget: Bool = false) async -> (any Sendable)? {
        try? await call(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget)
    }

    /// Unavailable: in async code, write `try? await call(url:params:)`. Without this,
    /// `await mediator.open(url)` would compile (with a warning) and run the synchronous `open`,
    /// which returns `nil` for an action that must be awaited.
    ///
    /// - Parameters:
    ///   - url: the URL, as text.
    ///   - params: params from the calling code, merged over the URL's.
    /// - Returns: the action's result, or `nil`.
    @available(*, unavailable, message: "open never awaits; in async code write try? await call(url:params:)")
    @discardableResult
    public func open(_ url: String, params: Params = [:]) async -> (any Sendable)? {
        try? await call(url: url, params: params)
    }
}
