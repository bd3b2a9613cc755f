// MARK: - Dispatch

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
    /// then the global fallback may answer (see ``setFallback(_:)``).
    /// Use ``call(target:action:params:shouldCacheTarget:)`` to learn why a call failed.
    ///
    /// - Parameters:
    ///   - target: the target's short (`Notes`) or full (`Target_Notes`) name.
    ///   - action: the action's short (`get`) or full (`Action_get`) name.
    ///   - params: the call's params; every value is `Sendable`.
    ///   - shouldCacheTarget: keep the target instance for later calls. A cached instance
    ///     is reused by every later call, whatever its flag, until released.
    /// - Returns: the action's result (or the answer of `notFound` or a fallback); `nil` when it
    ///   returned nothing, or when the call failed for any reason.
    @discardableResult
    public func perform(
        target: String,
        action: String,
        params: Params = [:],
        shouldCacheTarget: Bool = false
    ) -> (any Sendable)? {
        if case .answered(let value) = dispatch(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget) {
            return value
        }
        return nil
    }

    /// Like ``perform(target:action:params:shouldCacheTarget:)``, but throws the reason a call failed.
    ///
    /// ```swift
    /// do {
    ///     let note = try mediator.call(target: "Notes", action: "get", params: ["id": "seven"])
    /// } catch {
    ///     print(error)   // Notes/get: invalid parameter "id": expected Int, got String "seven"
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - target: the target's short (`Notes`) or full (`Target_Notes`) name.
    ///   - action: the action's short (`get`) or full (`Action_get`) name.
    ///   - params: the call's params; every value is `Sendable`.
    ///   - shouldCacheTarget: keep the target instance for later calls (see
    ///     ``perform(target:action:params:shouldCacheTarget:)``).
    /// - Returns: the action's result (`nil` when the action returned nothing).
    /// - Throws: ``MediatorError`` with code `targetNotFound` or `actionNotFound` (with the names
    ///   that exist and a "did you mean"), `invalidParameter` (the key and what was wrong),
    ///   `actionFailed` (the action's, factory's or fallback's error in
    ///   ``MediatorError/underlying``), `cyclicTargetCreation`, or `callDepthExceeded` (calls nested
    ///   deeper than ``maximumCallDepth``: runaway recursion).
    @discardableResult
    public func call(
        target: String,
        action: String,
        params: Params = [:],
        shouldCacheTarget: Bool = false
    ) throws(MediatorError) -> (any Sendable)? {
        switch dispatch(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget) {
        case .answered(let value): return value
        case .failed(let error): throw error
        case .unanswered(let target, let action): throw notAnsweredError(target: target, action: action)
        }
    }

    /// Whether `target` is registered and has `action` (short or full names). Runs nothing and
    /// ignores fallbacks.
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    /// - Returns: `true` when the action is registered, whether or not URL calls may reach it.
    public func canPerform(target: String, action: String) -> Bool {
        state.withReadLock { $0.slot(named: target)?.definition.action(named: action) != nil }
    }

    // MARK: Internals

    /// What the registry holds for a (target, action) pair, copied out of the lock.
    enum Resolution {
        /// The hot path: the action and an instance to run it on (cached, or the mediator for a
        /// closure target), copied out with as few retains as possible.
        case ready(@Sendable (any TargetInstance, Params) throws -> (any Sendable)?, any TargetInstance)
        case action(ResolvedTarget, RegisteredAction)
        case missingAction(ResolvedTarget, NotFoundHandler?)
        case missingTarget
    }

    /// Runs a call through resolution, the cache and the fallbacks. A `remote` call is refused
    /// (`forbidden`) when it resolves to a local-only action, before anything runs.
    ///
    /// - Parameter counted: the caller has already counted this call in ``CallDepth`` (an entry
    ///   point that runs user code of its own around the dispatch, such as a completion).
    func dispatch(target: String, action: String, params: Params, shouldCacheTarget: Bool, remote: Bool = false, counted: Bool = false) -> Outcome {
        var depth = 0
        if !counted {
            guard let entered = CallDepth.enter(limit: maximumCallDepth) else {
                return .failed(callDepthExceededError(target: target, action: action))
            }
            depth = entered
        }
        defer { if !counted { CallDepth.restore(depth) } }

        let resolution: Resolution = state.withReadLock { registry in
            guard let slot = registry.slot(named: target) else { return .missingTarget }
            if let found = slot.definition.action(named: action) {
                if !(remote && found.isLocalOnly) {
                    if let cached = slot.cached { return .ready(found.run, cached) }
                    if slot.definition.make == nil { return .ready(found.run, self) }
                }
                return .action(slot.resolved, found)
            }
            return .missingAction(slot.resolved, slot.definition.notFound)
        }

        switch resolution {
        case .ready(let run, let instance):
            do {
                return .answered(try run(instance, params))
            } catch {
                return .failed(
                    actionFailedError(
                        from: error, target: Names.shown(target, as: .target), action: Names.shown(action, as: .action), context: "the action failed"))
            }

        case .action(let resolved, let found):
            if remote && found.isLocalOnly {
                return .failed(
                    MediatorError(
                        .forbidden, target: resolved.name, action: found.name,
                        reason:
                            "action \"\(found.name)\" is local-only\(Names.isNative(found.name) ? " (its name begins with \"native\")" : ""); URL calls cannot reach it"
                    ))
            }
            let instance: any TargetInstance
            switch makeInstance(of: resolved, cache: shouldCacheTarget, action: found.name) {
            case .success(let made): instance = made
            case .failure(let error): return .failed(error)
            }
            do {
                return .answered(try found.run(instance, params))
            } catch {
                return .failed(actionFailedError(from: error, target: resolved.name, action: found.name, context: "the action failed"))
            }

        case .missingAction(let resolved, let notFound):
            var hasNotFound = false
            if let notFound {
                let instance: any TargetInstance
                switch makeInstance(of: resolved, cache: shouldCacheTarget, action: action) {
                case .success(let made): instance = made
                case .failure(let error): return .failed(error)
                }
                do {
                    if let answer = try notFound(instance, action, params) { return .answered(answer) }
                    hasNotFound = true
                } catch is NoNotFoundHandler {
                    // `MediatorTarget`'s default: the target has no notFound of its own.
                } catch {
                    return .failed(
                        actionFailedError(from: error, target: resolved.name, action: action, context: "no such action, and the target's notFound failed"))
                }
            }
            // CTMediator's rule: a target without a notFound handler is dropped from the cache when
            // an action is missing; one with a handler never is, whatever it returned. Never for
            // an always-cached target nor for a URL call: a remote caller must not reset state.
            if !hasNotFound && !remote && !resolved.alwaysCached {
                dropCachedInstance(of: resolved)
            }
            return fallback(target: target, action: action, params: params, remote: remote)

        case .missingTarget:
            return fallback(target: target, action: action, params: params, remote: remote)
        }
    }

    /// The global fallback's answer: the installed closure, else a registered
    /// `NoTargetAction`/`response`, called as CTMediator calls it: once, with the class name and
    /// selector string asked for. A call to a missing action of `NoTargetAction` itself ends in one
    /// `response` call too; a missing `response` finds nothing here, so nothing recurses. A remote
    /// call never reaches a `response` declared local-only: it counts as absent.
    private func fallback(target: String, action: String, params: Params, remote: Bool) -> Outcome {
        enum Handler {
            case closure(Fallback)
            case target(ResolvedTarget, RegisteredAction)
            case none
        }
        let handler: Handler = state.withReadLock { registry in
            if let fallback = registry.fallback { return .closure(fallback) }
            guard let slot = registry.slots[Self.noTargetActionName],
                let response = slot.definition.action(named: Self.noTargetActionResponse),
                !(remote && response.isLocalOnly)
            else { return .none }
            return .target(slot.resolved, response)
        }
        do {
            let answer: (any Sendable)?
            switch handler {
            case .none:
                return .unanswered(target: target, action: action)
            case .closure(let fallback):
                answer = try fallback(target, action, params)
            case .target(let resolved, let response):
                let instance = try makeInstance(of: resolved, cache: false, action: response.name).get()
                answer = try response.run(
                    instance,
                    [
                        "targetString": Names.className(ofTarget: target),
                        "selectorString": Names.selector(ofAction: action),
                        "actionString": action,
                        "originParams": params,
                    ])
            }
            if let answer { return .answered(answer) }
            return .unanswered(target: target, action: action)
        } catch {
            return .failed(actionFailedError(from: error, target: target, action: action, context: "not found, and the fallback failed"))
        }
    }

    /// The target CTMediator calls when nothing else answers, and its action.
    static let noTargetActionName = "NoTargetAction"
    static let noTargetActionResponse = "response"

    /// The instance for a call, or the error to fail it with (``creationFailedError(from:target:action:)``).
    func makeInstance(of target: ResolvedTarget, cache: Bool, action: String) -> Result<any TargetInstance, MediatorError> {
        do {
            return .success(try instance(of: target, cache: cache))
        } catch {
            return .failure(creationFailedError(from: error, target: target.name, action: action))
        }
    }
}
