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
        case .unanswered: throw missError(target: target, action: action)
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

    /// How a dispatch ended. `unanswered` carries no details: the `nil`-returning path must not pay
    /// for building an error it throws away.
    enum Outcome {
        case answered((any Sendable)?)
        case failed(MediatorError)
        case unanswered
    }

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
                return .failed(callDepthError(target: target, action: action))
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
                return .failed(wrap(error, target: Names.shown(target, as: .target), action: Names.shown(action, as: .action), doing: "the action failed"))
            }

        case .action(let resolved, let found):
            if remote && found.isLocalOnly {
                return .failed(MediatorError(
                    .forbidden, target: resolved.name, action: found.name,
                    reason: "action \"\(found.name)\" is local-only\(Names.isNative(found.name) ? " (its name begins with \"native\")" : ""); URL calls cannot reach it"
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
                return .failed(wrap(error, target: resolved.name, action: found.name, doing: "the action failed"))
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
                    return .failed(wrap(error, target: resolved.name, action: action, doing: "no such action, and the target's notFound failed"))
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
                return .unanswered
            case .closure(let fallback):
                answer = try fallback(target, action, params)
            case .target(let resolved, let response):
                let instance = try makeInstance(of: resolved, cache: false, action: response.name).get()
                answer = try response.run(instance, [
                    "targetString": Names.className(ofTarget: target),
                    "selectorString": Names.selector(ofAction: action),
                    "actionString": action,
                    "originParams": params,
                ])
            }
            if let answer { return .answered(answer) }
            return .unanswered
        } catch {
            return .failed(wrap(error, target: target, action: action, doing: "not found, and the fallback failed"))
        }
    }

    /// The target CTMediator calls when nothing else answers, and its action.
    static let noTargetActionName = "NoTargetAction"
    static let noTargetActionResponse = "response"

    /// The instance for a call, or the error to fail it with: a factory's error wrapped as
    /// `actionFailed`, except a creation cycle, which passes up unwrapped through every factory it
    /// crossed (as `callDepthExceeded` does through actions): the cycle is the reason, and it
    /// names every target in it.
    func makeInstance(of target: ResolvedTarget, cache: Bool, action: String) -> Result<any TargetInstance, MediatorError> {
        do {
            return .success(try instance(of: target, cache: cache))
        } catch var error as MediatorError where error.code == .cyclicTargetCreation {
            if error.action == nil { error.action = action }
            return .failure(error)
        } catch {
            return .failure(creationFailure(error, target: target.name, action: action))
        }
    }

    /// The error for a factory that threw.
    func creationFailure(_ error: any Error, target: String, action: String) -> MediatorError {
        MediatorError(.actionFailed, target: target, action: action, underlying: error, reason: "could not create the target: \(error)")
    }

    /// `error` with the call's names attached. A parameter error thrown by ``Params`` is the
    /// caller's fault and keeps its code; anything else (including errors of nested calls) is
    /// the action's failure.
    func wrap(_ error: any Error, target: String, action: String, doing: String) -> MediatorError {
        // Passed up unchanged: wrapping it once per nesting level would bury the recursing call
        // under hundreds of layers.
        if let mediatorError = error as? MediatorError, mediatorError.code == .callDepthExceeded {
            return mediatorError
        }
        if var mediatorError = error as? MediatorError, mediatorError.target == nil {
            mediatorError.target = target
            mediatorError.action = action
            return mediatorError
        }
        return MediatorError(.actionFailed, target: target, action: action, underlying: error, reason: "\(doing): \(error)")
    }

    /// The refusal of a call nested deeper than ``maximumCallDepth``.
    func callDepthError(target: String, action: String) -> MediatorError {
        MediatorError(
            .callDepthExceeded, target: target, action: action,
            reason: "not run: \(maximumCallDepth) mediator calls are already nested on this thread (maximumCallDepth); does an action call itself without end?"
        )
    }

    /// The refusal of a URL call nested deeper than ``maximumCallDepth``, before its URL is parsed.
    func callDepthError(url: String) -> MediatorError {
        MediatorError(
            .callDepthExceeded,
            reason: "\(describe(url, limit: 120)) not run: \(maximumCallDepth) mediator calls are already nested on this thread (maximumCallDepth); does a completion or an action call itself without end?"
        )
    }

    /// The precise error for a call nothing answered. Computed only on the throwing path, with
    /// bounded work (see ``Suggestions`` and ``NameListing``), after the lock is released: only
    /// the names are copied out under it.
    func missError(target: String, action: String) -> MediatorError {
        enum Found {
            case target(name: String, actionNames: [String])
            case none(targetNames: [String])
        }
        let found: Found = state.withReadLock { registry in
            guard let slot = registry.slot(named: target) else { return .none(targetNames: Array(registry.slots.keys)) }
            return .target(name: slot.definition.name, actionNames: Array(slot.definition.actions.keys))
        }
        switch found {
        case .none(let names):
            return targetNotFoundError(target: target, action: action, registeredNames: names)
        case .target(let name, let names):
            let listing = NameListing(names)
            var reason = "target \"\(name)\" has no action \"\(MediatorError.shortened(action))\""
            if let problem = Names.problem(with: action, as: .action) { reason += " (\(problem))" }
            return MediatorError(
                .actionNotFound, target: name, action: action,
                availableNames: listing.names, omittedNameCount: listing.omittedCount,
                suggestion: Suggestions.closest(to: Names.stripped(action, as: .action), in: names),
                reason: reason
            )
        }
    }
}

extension Mediator {
    /// The error for an unknown target name, for this package's command-line layer.
    package func unknownTargetError(_ name: String) -> MediatorError {
        targetNotFoundError(target: name, action: nil, registeredNames: state.withReadLock { Array($0.slots.keys) })
    }
}

/// The error for an unknown target name, with the first registered names and a suggestion.
/// Call it without the registry's lock held: the suggestion costs time in a large registry.
func targetNotFoundError(target: String, action: String?, registeredNames names: [String]) -> MediatorError {
    let listing = NameListing(names)
    var reason = "no target named \"\(MediatorError.shortened(target))\" is registered"
    if let problem = Names.problem(with: target, as: .target) { reason += " (\(problem))" }
    return MediatorError(
        .targetNotFound, target: target, action: action,
        availableNames: listing.names, omittedNameCount: listing.omittedCount,
        suggestion: Suggestions.closest(to: Names.stripped(target, as: .target), in: names),
        reason: reason
    )
}
