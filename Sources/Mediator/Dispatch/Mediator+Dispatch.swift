// MARK: - Dispatch

extension Mediator {
    /// Calls an action on the calling thread, without awaiting, and throws the reason a call
    /// failed: the form for code that cannot `await` (a UIKit callback, a synchronous
    /// wrapper). Code that can `await` uses ``call(target:action:params:shouldCacheTarget:)``.
    ///
    /// ```swift
    /// do {
    ///     let note = try mediator.callNow(target: "Notes", action: "get", params: ["id": "seven"])
    /// } catch {
    ///     print(error)   // Notes/get: invalid parameter "id": expected Int, got String "seven"
    /// }
    /// ```
    ///
    /// Its name differs from the awaiting `call` on purpose: with two overloads of one name, Swift
    /// picks the synchronous one in top-level code even where `await` is written.
    ///
    /// - Parameters:
    ///   - target: the target's short (`Notes`) or full (`Target_Notes`) name.
    ///   - action: the action's short (`get`) or full (`Action_get`) name.
    ///   - params: the call's params; every value is `Sendable`.
    ///   - shouldCacheTarget: keep the target instance for later calls. A cached instance
    ///     is reused by every later call, whatever its flag, until released.
    /// - Returns: the action's result (`nil` when the action returned nothing).
    /// - Throws: ``MediatorError`` with code `targetNotFound` or `actionNotFound` (with the names
    ///   that exist and a "did you mean"), `invalidParameter` (the key and what was wrong),
    ///   `actionFailed` (the action's, factory's or fallback's error in
    ///   ``MediatorError/underlying``), `cyclicTargetCreation`, `callDepthExceeded` (calls nested
    ///   deeper than ``maximumCallDepth``: runaway recursion), or `asyncAction` (the call needs
    ///   `await`: an async action or factory, or main-actor code called off the main actor; nothing
    ///   of it ran).
    @discardableResult
    public func callNow(
        target: String,
        action: String,
        params: Params = [:],
        shouldCacheTarget: Bool = false
    ) throws(MediatorError) -> (any Sendable)? {
        try dispatch(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget).value(self)
    }

    /// Whether a call to `target`/`action` (short or full names) would reach a registered action:
    /// the action itself, or where the redirect table (and, when nothing is registered there, the
    /// target's degradation) sends the call. Runs nothing, checks no params, and does not ask a
    /// `notFound` or the global fallback (they might still answer).
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    /// - Returns: `true` when the call would reach a registered action, whether or not URL calls
    ///   may reach it.
    public func canPerform(target: String, action: String) -> Bool {
        if case .action = plan(target: target, action: action, remote: false).end { return true }
        return false
    }

    // MARK: Internals

    /// What the registry holds for a (target, action) pair, copied out of the lock.
    enum Resolution {
        /// The hot path: the action and an instance to run it on (cached, or the mediator for a
        /// closure target), copied out with as few retains as possible.
        case ready(ActionRun, any TargetInstance)
        /// The same for an action with a contract (declared params, a typed key).
        case readyDeclared(ActionRun, any TargetInstance, ActionContract)
        case action(ResolvedTarget, RegisteredAction)
        case missingAction(ResolvedTarget, NotFoundHandler?)
        case missingTarget
    }

    /// Whether a call is still to be counted in ``CallDepth`` when it is dispatched.
    enum DepthCount {
        /// The dispatch counts it (and refuses it past ``maximumCallDepth``).
        case enter
        /// The caller has counted it already.
        case counted
    }

    /// The resolution of `action` in a target's slot (under the read lock).
    @inline(__always)
    private func resolve(in slot: TargetSlot, action: NameKey?, remote: Bool) -> Resolution {
        // A remote call to a local-only action resolves to `.action`, for the caller to refuse.
        if let found = slot.definition.actions[action] {
            if found.admits(remote: remote) {
                let instance: any TargetInstance
                if let cached = slot.cached {
                    instance = cached
                } else if slot.definition.make == nil {
                    instance = self
                } else {
                    return .action(slot.resolved, found)
                }
                if let contract = found.contract { return .readyDeclared(found.run, instance, contract) }
                return .ready(found.run, instance)
            }
            return .action(slot.resolved, found)
        }
        return .missingAction(slot.resolved, slot.definition.notFound)
    }

    /// Looks the names up under the read lock; `interception` is set to what intercepts calls
    /// (interceptors, observers, redirects), read under the same lock, or `nil`.
    @inline(__always)
    func resolve(target: String, action: String, remote: Bool, interception: inout Interception?) -> Resolution {
        resolve(
            target: NameKey(lookingUp: target, as: .target), action: NameKey(lookingUp: action, as: .action), remote: remote, interception: &interception)
    }

    /// The same from the names' keys (`nil` for a name that is not valid).
    @inline(__always)
    func resolve(target: NameKey?, action: NameKey?, remote: Bool, interception: inout Interception?) -> Resolution {
        // The names are made canonical and hashed before the lock, and the registry's fields are
        // read through the pointer one by one: a method call on the registry copied it, retaining
        // all it holds.
        state.withReadLockInPlace { registry in
            interception = registry.pointee.interception
            guard let slot = registry.pointee.slots[target] else { return .missingTarget }
            return resolve(in: slot, action: action, remote: remote)
        }
    }

    /// Runs a call through resolution, the cache and the fallbacks, as far as it can go without
    /// awaiting; at a step that must await it stops before running that step, and returns
    /// `.suspended` with the rest of the call. A URL call is refused (`forbidden`) when it
    /// resolves to a local-only action, before anything runs.
    ///
    /// - Parameters:
    ///   - depth: `.counted` when the caller has already counted this call in ``CallDepth`` (an
    ///     entry point that runs user code of its own around the dispatch, such as a completion).
    ///   - origin: where the call came from: a URL call meets the URL rules (local-only actions
    ///     refused); its undeclared params are passed on, dropped or refused as the policy says for
    ///     that origin (``UndeclaredParameterPolicy``).
    ///   - awaiting: the caller will await the rest of the call if it suspends, so it must not
    ///     block a thread either: it suspends rather than wait for another call's creation of the
    ///     cached instance, even by a synchronous factory.
    ///   - input: a typed key's input: passed as is to an action registered against a key of its
    ///     type, else encoded to params (which `params` then stands in for).
    func dispatch(
        target: String, action: String, params: Params, input: TypedInput? = nil, shouldCacheTarget: Bool, origin: CallOrigin = .inProcess,
        depth: DepthCount = .enter, awaiting: Bool = false
    ) -> Outcome {
        let counted = depth == .counted
        var saved = 0
        if !counted {
            guard let entered = CallDepth.enter(limit: maximumCallDepth) else {
                return .failed(callDepthExceededError(target: target, action: action))
            }
            saved = entered
        }
        defer { if !counted { CallDepth.restore(saved) } }

        let targetKey = NameKey(lookingUp: target, as: .target)
        let actionKey = NameKey(lookingUp: action, as: .action)
        var interception: Interception?
        let resolution = resolve(target: targetKey, action: actionKey, remote: origin.isRemote, interception: &interception)
        if let interception {
            // The resolution stands for the call's first stop unless a redirect moves it.
            return interceptedDispatch(
                interception, target: target, action: action, shown: (targetKey?.name ?? target, actionKey?.name ?? action), params: params, input: input,
                shouldCacheTarget: shouldCacheTarget, origin: origin, awaiting: awaiting, first: resolution)
        }
        return runResolved(
            resolution, target: target, action: action, params: params, input: input, shouldCacheTarget: shouldCacheTarget, origin: origin,
            awaiting: awaiting)
    }

    /// The plain pipeline from a resolution on: arguments, instance, action, fallbacks.
    @inline(__always)
    func runResolved(
        _ resolution: Resolution, target: String, action: String, params: Params, input: TypedInput?, shouldCacheTarget: Bool, origin: CallOrigin,
        awaiting: Bool
    ) -> Outcome {
        switch resolution {
        case .ready(let run, let instance):
            if input == nil, case .sync(let body) = run {
                do {
                    return .answered(try body(instance, params))
                } catch {
                    return .failed(actionFailedError(from: error, asked: target, action))
                }
            }
            return runOnReadyInstance(run, on: instance, contract: nil, params: params, input: input, origin: origin, target: target, action: action)

        case .readyDeclared(let run, let instance, let contract):
            // Declared params, all already of their types: checked in place, no copy.
            if input == nil, case .sync(let body) = run,
                contract.acceptsQuickly(params, passUndeclared: undeclaredHandling(contract, origin: origin) == .passed)
            {
                do {
                    return .answered(try body(instance, params))
                } catch {
                    return .failed(actionFailedError(from: error, asked: target, action))
                }
            }
            return runOnReadyInstance(run, on: instance, contract: contract, params: params, input: input, origin: origin, target: target, action: action)

        case .action(let resolved, let found):
            return runAction(
                resolved, found, params: params, input: input, shouldCacheTarget: shouldCacheTarget, origin: origin, awaiting: awaiting)

        case .missingAction(let resolved, let notFound):
            return missingAction(
                resolved, notFound, target: target, action: action, params: params, input: input, shouldCacheTarget: shouldCacheTarget,
                origin: origin, awaiting: awaiting)

        case .missingTarget:
            return missingTarget(target: target, action: action, params: params, input: input, remote: origin.isRemote, awaiting: awaiting)
        }
    }

    // Each step below is its own function, so that the frame of `dispatch` (the hot path, and one
    // frame per nesting level) stays small: debug builds give every local of a function a slot.

    /// A resolved action on a ready instance: arguments checked, then ``runBody(_:on:params:target:action:)``.
    private func runOnReadyInstance(
        _ run: ActionRun, on instance: any TargetInstance, contract: ActionContract?, params: Params, input: TypedInput?, origin: CallOrigin,
        target: String, action: String
    ) -> Outcome {
        if contract == nil && input == nil { return runBody(run, on: instance, params: params, target: target, action: action) }
        let prepared = arguments(
            run, contract, params: params, input: input, origin: origin, target: Names.shown(target, as: .target), action: Names.shown(action, as: .action))
        guard case .success(let (run, params)) = prepared else { return .failed(prepared.failure) }
        return runBody(run, on: instance, params: params, target: target, action: action)
    }

    /// A resolved action whose instance must be made or found: arguments, instance, action.
    private func runAction(
        _ resolved: ResolvedTarget, _ found: RegisteredAction, params given: Params, input: TypedInput?, shouldCacheTarget: Bool, origin: CallOrigin,
        awaiting: Bool
    ) -> Outcome {
        if let refusal = found.refusal(target: resolved.name, remote: origin.isRemote) { return .failed(refusal) }
        let body: ActionRun
        let params: Params
        if found.contract == nil && input == nil {
            (body, params) = (found.run, given)
        } else {
            let prepared = arguments(
                found.run, found.contract, params: given, input: input, origin: origin, target: resolved.name, action: found.name)
            guard case .success(let arguments) = prepared else { return .failed(prepared.failure) }
            (body, params) = arguments
        }
        return run(.action(resolved, found.name, body, params, cache: shouldCacheTarget), awaiting: awaiting)
    }

    /// A missing action: the target's `notFound`, CTMediator's drop rule, then the global fallback.
    private func missingAction(
        _ resolved: ResolvedTarget, _ notFound: NotFoundHandler?, target: String, action: String, params given: Params, input: TypedInput?,
        shouldCacheTarget: Bool, origin: CallOrigin, awaiting: Bool
    ) -> Outcome {
        let params: Params
        if input == nil {
            params = given
        } else {
            let plain = plainParams(given, input: input)
            guard case .success(let encoded) = plain else {
                return .failed(plain.failure.named(target: resolved.name, action: Names.shown(action, as: .action)))
            }
            params = encoded
        }
        if let notFound {
            return run(
                .notFound(resolved, notFound, target: target, action: action, params, cache: shouldCacheTarget, remote: origin.isRemote),
                awaiting: awaiting)
        }
        applyDropRule(resolved, hasNotFound: false, remote: origin.isRemote)
        return fallback(target: target, action: action, params: params, remote: origin.isRemote, awaiting: awaiting)
    }

    /// A missing target: the global fallback.
    private func missingTarget(target: String, action: String, params: Params, input: TypedInput?, remote: Bool, awaiting: Bool) -> Outcome {
        guard input != nil else { return fallback(target: target, action: action, params: params, remote: remote, awaiting: awaiting) }
        switch plainParams(params, input: input) {
        case .success(let plain): return fallback(target: target, action: action, params: plain, remote: remote, awaiting: awaiting)
        case .failure(let error): return .failed(error.named(target: Names.shown(target, as: .target), action: Names.shown(action, as: .action)))
        }
    }

    /// A ready action that is not plain synchronous: main-actor code runs now when this is the
    /// main thread; anything else goes on awaiting. `target` and `action` are as the caller wrote
    /// them: their shown forms are worked out only for an error.
    private func runBody(_ run: ActionRun, on instance: any TargetInstance, params: Params, target: String, action: String) -> Outcome {
        guard run.canRunNow else {
            return suspend(run.awaitReason, target: target, action: action) {
                do {
                    return .answered(try await run.runAwaiting(on: instance, params: params))
                } catch {
                    return .failed(
                        self.actionFailedError(from: error, asked: target, action))
                }
            }
        }
        do {
            return .answered(try run.runNow(on: instance, params: params))
        } catch {
            return .failed(
                actionFailedError(from: error, asked: target, action)
            )
        }
    }

    /// An action's failure when the call holds the names as the caller wrote them (a ready
    /// instance, found without canonical names): their shown forms are worked out only here.
    func actionFailedError(from error: any Error, asked target: String, _ action: String) -> MediatorError {
        actionFailedError(from: error, target: Names.shown(target, as: .target), action: Names.shown(action, as: .action), context: "the action failed")
    }

    func suspend(_ reason: AwaitReason, target: String, action: String, _ resume: @escaping @Sendable () async -> Outcome) -> Outcome {
        .suspended(Suspension(reason: reason, target: target, action: action, resume: resume))
    }

    /// CTMediator's rule: a target without a notFound handler is dropped from the cache when an
    /// action is missing; one with a handler never is, whatever it returned. Never for an
    /// always-cached target nor for a URL call: a remote caller must not reset state.
    func applyDropRule(_ resolved: ResolvedTarget, hasNotFound: Bool, remote: Bool) {
        if !hasNotFound && !remote && !resolved.alwaysCached {
            dropCachedInstance(of: resolved)
        }
    }

    /// The global fallback: the installed closure, else a registered `NoTargetAction`/`response`.
    enum FallbackStep {
        case closure(FallbackHandler)
        case target(ResolvedTarget, RegisteredAction)
    }

    /// Which fallback answers a call nothing else answered (read under the lock), or `nil` when
    /// there is none. A remote call never reaches a `response` declared local-only: it counts as
    /// absent.
    func fallbackStep(remote: Bool) -> FallbackStep? {
        state.withReadLock { registry -> FallbackStep? in
            if let fallback = registry.fallback { return .closure(fallback) }
            guard let slot = registry.slots[Self.noTargetActionName],
                let response = slot.definition.action(named: Self.noTargetActionResponse),
                response.admits(remote: remote)
            else { return nil }
            return .target(slot.resolved, response)
        }
    }

    /// CTMediator's params for `NoTargetAction`/`response`: the class name and selector string
    /// asked for, the action as written and the original params.
    func noTargetActionParams(target: String, action: String, params: Params) -> Params {
        [
            "targetString": Names.className(ofTarget: target),
            "selectorString": Names.selector(ofAction: action),
            "actionString": action,
            "originParams": params,
        ]
    }

    /// The global fallback's answer: the installed closure, else a registered
    /// `NoTargetAction`/`response`, called as CTMediator calls it: once, with the class name and
    /// selector string asked for. A call to a missing action of `NoTargetAction` itself ends in one
    /// `response` call too; a missing `response` finds nothing here, so nothing recurses.
    private func fallback(target: String, action: String, params: Params, remote: Bool, awaiting: Bool) -> Outcome {
        guard let step = fallbackStep(target: target, action: action, params: params, remote: remote) else {
            return .unanswered(target: target, action: action)
        }
        return run(step, awaiting: awaiting)
    }

    /// The target CTMediator calls when nothing else answers, and its action.
    static let noTargetActionName = "NoTargetAction"
    static let noTargetActionResponse = "response"
}

extension Outcome {
    /// The value of a finished call, or the error it failed with (for the throwing entry points).
    @inline(__always)
    @usableFromInline
    consuming func value(_ mediator: Mediator) throws(MediatorError) -> (any Sendable)? {
        switch self {
        case .answered(let value): return value
        case .failed(let error): throw error
        case .unanswered(let target, let action): throw mediator.notAnsweredError(target: target, action: action)
        case .suspended(let suspension):
            let error = mediator.asyncActionError(suspension)
            suspension.abandoned?(error)
            throw error
        }
    }
}
