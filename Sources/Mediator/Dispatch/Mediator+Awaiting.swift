// MARK: - The steps that may await

// The rest of a call once the synchronous pipeline (`dispatch`) stopped at a step that must
// await. Each mirrors the synchronous step it continues; the stages before it (names, policy,
// resolution) are not repeated.

extension Mediator {
    /// A resolved action: its instance (awaiting a factory or another call's creation if need
    /// be), then the action.
    func runActionAwaiting(_ resolved: ResolvedTarget, _ found: RegisteredAction, _ run: ActionRun, params: Params, cache: Bool) async -> Outcome {
        let instance: any TargetInstance
        switch await instanceAwaiting(of: resolved, cache: cache, action: found.name) {
        case .success(let made): instance = made
        case .failure(let error): return .failed(error)
        }
        do {
            return .answered(try await run.runAwaiting(on: instance, params: params))
        } catch {
            return .failed(actionFailedError(from: error, target: resolved.name, action: found.name, context: "the action failed"))
        }
    }

    /// A missing action with a `notFound` handler: the handler, CTMediator's drop rule, then the
    /// global fallback.
    func missingActionAwaiting(
        _ resolved: ResolvedTarget, _ notFound: NotFoundHandler, target: String, action: String, params: Params, cache: Bool, remote: Bool
    ) async -> Outcome {
        let instance: any TargetInstance
        switch await instanceAwaiting(of: resolved, cache: cache, action: action) {
        case .success(let made): instance = made
        case .failure(let error): return .failed(error)
        }
        var hasNotFound = false
        do {
            if let answer = try await notFound.runAwaiting(on: instance, action: action, params: params) { return .answered(answer) }
            hasNotFound = true
        } catch is NoNotFoundHandler {
            // The target has no notFound of its own.
        } catch {
            return .failed(actionFailedError(from: error, target: resolved.name, action: action, context: "no such action, and the target's notFound failed"))
        }
        applyDropRule(resolved, hasNotFound: hasNotFound, remote: remote)
        return await fallbackAwaiting(fallbackStep(remote: remote), target: target, action: action, params: params)
    }

    /// The global fallback, awaited: see `fallback(target:action:params:remote:)`.
    func fallbackAwaiting(_ step: FallbackStep, target: String, action: String, params: Params) async -> Outcome {
        do {
            let answer: (any Sendable)?
            switch step {
            case .none:
                return .unanswered(target: target, action: action)
            case .closure(.sync(let fallback)):
                answer = try fallback(target, action, params)
            case .closure(.async(let fallback)):
                answer = try await fallback(target, action, params)
            case .target(let resolved, let response):
                let instance = try await instanceAwaiting(of: resolved, cache: false, action: response.name).get()
                answer = try await response.run.runAwaiting(on: instance, params: noTargetActionParams(target: target, action: action, params: params))
            }
            if let answer { return .answered(answer) }
            return .unanswered(target: target, action: action)
        } catch {
            return .failed(actionFailedError(from: error, target: target, action: action, context: "not found, and the fallback failed"))
        }
    }

    /// The whole call, awaiting what must be awaited: the synchronous pipeline first (most
    /// calls end there), then, if it stopped, the rest with the call's depth in the task.
    func dispatchAwaiting(
        target: String, action: String, params: Params, input: TypedInput? = nil, shouldCacheTarget: Bool, origin: CallOrigin = .inProcess
    ) async -> Outcome {
        let outcome = dispatch(
            target: target, action: action, params: params, input: input, shouldCacheTarget: shouldCacheTarget, origin: origin, awaiting: true)
        guard case .suspended = outcome else { return outcome }
        // `dispatch` counted the call one deeper than the code around it.
        return await outcome.finished(depth: CallDepth.current + 1)
    }
}
