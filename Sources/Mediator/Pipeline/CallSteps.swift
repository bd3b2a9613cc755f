// MARK: - The steps that run user code: written once, run now or awaited

// The end of a call by name, once it is resolved: the action on its target's instance; or, for a
// missing action, the target's `notFound`, CTMediator's drop rule and the global fallback. Each
// step is described once (what it runs, on which instance, and what comes after it); two drivers
// run the steps, `run(_:awaiting:)` on the calling thread and `runAwaiting(_:)` awaiting. The
// synchronous driver hands the rest over to the awaiting one at the first step that must await,
// before anything of that step has run: that is the one place a call changes from one to the
// other.

extension Mediator {
    /// A step of a resolved call that runs user code.
    enum CallStep {
        /// The action (its short name, for errors), on the instance of its target.
        case action(ResolvedTarget, String, ActionRun, Params, cache: Bool)
        /// A missing action: the target's `notFound` on its instance. `action` is the name as the
        /// caller wrote it; `target` too, for the global fallback after it.
        case notFound(ResolvedTarget, NotFoundHandler, target: String, action: String, Params, cache: Bool, remote: Bool)
        /// The global fallback: the installed closure, or `NoTargetAction`/`response` on its instance.
        case fallback(FallbackStep, target: String, action: String, Params)
    }

    /// What comes after a step.
    private enum AfterStep {
        case done(Outcome)
        case next(CallStep)
    }

    /// The global fallback as a step, or the end of a call nothing answers.
    func fallbackStep(target: String, action: String, params: Params, remote: Bool) -> CallStep? {
        fallbackStep(remote: remote).map { .fallback($0, target: target, action: action, params) }
    }

    // MARK: What each step is

    /// The names a step's suspension shows.
    @inline(__always)
    private func names(of step: CallStep) -> (target: String, action: String) {
        switch step {
        case .action(let resolved, let name, _, _, _): (resolved.name, name)
        case .notFound(let resolved, _, _, let action, _, _, _): (resolved.name, action)
        case .fallback(_, let target, let action, _): (Names.shown(target, as: .target), Names.shown(action, as: .action))
        }
    }

    /// What a step must await to run on this thread, or `nil` when it can run now (the instance
    /// it runs on aside).
    @inline(__always)
    private func awaitReason(of step: CallStep) -> AwaitReason? {
        switch step {
        case .action(_, _, let run, _, _): run.canRunNow ? nil : run.awaitReason
        case .notFound(_, let handler, _, _, _, _, _): handler.canRunNow ? nil : handler.awaitReason
        case .fallback(.closure(.sync), _, _, _): nil
        case .fallback(.closure(.async), _, _, _): .asyncFallback
        case .fallback(.target(_, let response), _, _, _): response.run.canRunNow ? nil : response.run.awaitReason
        }
    }

    /// Runs a step's user code on this thread (``awaitReason(of:)`` found it can).
    @inline(__always)
    private func runNow(_ step: CallStep, on instance: (any TargetInstance)?) throws -> (any Sendable)? {
        switch step {
        case .action(_, _, let run, let params, _):
            return try run.runNow(on: instance ?? self, params: params)
        case .notFound(_, let handler, _, let action, let params, _, _):
            return try handler.runNow(on: instance ?? self, action: action, params: params)
        case .fallback(.closure(.sync(let fallback)), let target, let action, let params):
            return try fallback(target, action, params)
        case .fallback(.target(_, let response), let target, let action, let params):
            return try response.run.runNow(on: instance ?? self, params: noTargetActionParams(target: target, action: action, params: params))
        case .fallback(.closure(.async), _, _, _):
            preconditionFailure("an async fallback cannot run synchronously")
        }
    }

    /// Runs a step's user code, awaiting it.
    private func runAwaiting(_ step: CallStep, on instance: (any TargetInstance)?) async throws -> (any Sendable)? {
        switch step {
        case .action(_, _, let run, let params, _):
            return try await run.runAwaiting(on: instance ?? self, params: params)
        case .notFound(_, let handler, _, let action, let params, _, _):
            return try await handler.runAwaiting(on: instance ?? self, action: action, params: params)
        case .fallback(.closure(.sync(let fallback)), let target, let action, let params):
            return try fallback(target, action, params)
        case .fallback(.closure(.async(let fallback)), let target, let action, let params):
            return try await fallback(target, action, params)
        case .fallback(.target(_, let response), let target, let action, let params):
            return try await response.run.runAwaiting(on: instance ?? self, params: noTargetActionParams(target: target, action: action, params: params))
        }
    }

    /// What follows a step that gave `result`: the call's outcome, or the next step.
    @inline(__always)
    private func after(_ step: CallStep, gave result: Result<(any Sendable)?, any Error>) -> AfterStep {
        switch step {
        case .action(let resolved, let name, _, _, _):
            switch result {
            case .success(let value): return .done(.answered(value))
            case .failure(let error):
                return .done(.failed(actionFailedError(from: error, target: resolved.name, action: name, context: "the action failed")))
            }
        case .notFound(let resolved, _, let target, let action, let params, _, let remote):
            var hasNotFound = false
            switch result {
            case .success(.some(let answer)): return .done(.answered(answer))
            case .success(.none): hasNotFound = true
            case .failure(is NoNotFoundHandler): break  // the target has no notFound of its own
            case .failure(let error):
                return .done(
                    .failed(actionFailedError(from: error, target: resolved.name, action: action, context: "no such action, and the target's notFound failed")))
            }
            applyDropRule(resolved, hasNotFound: hasNotFound, remote: remote)
            guard let fallback = fallbackStep(target: target, action: action, params: params, remote: remote) else {
                return .done(.unanswered(target: target, action: action))
            }
            return .next(fallback)
        case .fallback(_, let target, let action, _):
            switch result {
            case .success(.some(let answer)): return .done(.answered(answer))
            case .success(.none): return .done(.unanswered(target: target, action: action))
            case .failure(let error):
                return .done(.failed(actionFailedError(from: error, target: target, action: action, context: "not found, and the fallback failed")))
            }
        }
    }

    /// The outcome of a step whose instance could not be made: the creation error is the call's,
    /// except for `NoTargetAction`, whose failure is the fallback's.
    @inline(__always)
    private func outcome(of step: CallStep, instanceFailed error: MediatorError) -> Outcome {
        guard case .fallback = step, case .done(let outcome) = after(step, gave: .failure(error)) else { return .failed(error) }
        return outcome
    }

    // MARK: The two drivers

    /// Runs `step` and the steps after it on this thread, as far as it can without awaiting; at a
    /// step that must await it stops before running anything of it, and returns `.suspended` with
    /// the rest (see ``dispatch(target:action:params:input:shouldCacheTarget:origin:depth:awaiting:)``
    /// for `awaiting`).
    ///
    /// The user code runs in ``invoke(_:on:)``, called from this small frame: what comes before
    /// it (``prepare(_:awaiting:)``) and after it (``outcomeAfter(_:gave:awaiting:)``) has frames of its
    /// own, off the stack while the code runs, and a nested call runs inside it. (A step after
    /// this one, at most one, runs from `outcomeAfter`.)
    func run(_ step: CallStep, awaiting: Bool) -> Outcome {
        let instance: (any TargetInstance)?
        switch prepare(step, awaiting: awaiting) {
        case .ready(let made): instance = made
        case .notRunnable(let outcome): return outcome
        }
        // The instance is let go before what follows runs, as it was before this step existed.
        return outcomeAfter(step, gave: invoke(step, on: consume instance), awaiting: awaiting)
    }

    /// What a step needs before its code runs on this thread.
    private enum Prepared {
        /// The instance it runs on (`nil` for a fallback closure).
        case ready((any TargetInstance)?)
        /// It cannot run: the call's outcome (a suspension, or the instance's creation error).
        case notRunnable(Outcome)
    }

    /// Whether the step can run now, and the instance it runs on.
    @inline(__always)
    private func prepare(_ step: CallStep, awaiting: Bool) -> Prepared {
        if let reason = awaitReason(of: step) { return .notRunnable(suspended(at: step, reason)) }
        let made: Immediate<Result<any TargetInstance, MediatorError>>
        switch step {
        case .action(let resolved, let name, _, _, let cache): made = instanceNow(of: resolved, cache: cache, action: name, awaiting: awaiting)
        case .notFound(let resolved, _, _, let action, _, let cache, _):
            made = instanceNow(of: resolved, cache: cache, action: action, awaiting: awaiting)
        case .fallback(.target(let resolved, let response), _, _, _):
            made = instanceNow(of: resolved, cache: false, action: response.name, awaiting: awaiting)
        case .fallback: return .ready(nil)
        }
        switch made {
        case .done(.success(let instance)): return .ready(instance)
        case .done(.failure(let error)): return .notRunnable(outcome(of: step, instanceFailed: error))
        case .mustAwait(let reason): return .notRunnable(suspended(at: step, reason))
        }
    }

    /// The instance a step runs on, awaiting whatever it takes (`nil` for a fallback closure).
    private func instanceAwaiting(for step: CallStep) async -> Result<(any TargetInstance)?, MediatorError> {
        let made: Result<any TargetInstance, MediatorError>
        switch step {
        case .action(let resolved, let name, _, _, let cache): made = await instanceAwaiting(of: resolved, cache: cache, action: name)
        case .notFound(let resolved, _, _, let action, _, let cache, _): made = await instanceAwaiting(of: resolved, cache: cache, action: action)
        case .fallback(.target(let resolved, let response), _, _, _): made = await instanceAwaiting(of: resolved, cache: false, action: response.name)
        case .fallback: return .success(nil)
        }
        return made.map { $0 }
    }

    /// Runs the step's code now, its error caught.
    @inline(__always)
    private func invoke(_ step: CallStep, on instance: (any TargetInstance)?) -> Result<(any Sendable)?, any Error> {
        do {
            return .success(try runNow(step, on: instance))
        } catch {
            return .failure(error)
        }
    }

    /// The outcome after a step's code ran, running the next step if there is one.
    @inline(__always)
    private func outcomeAfter(_ step: CallStep, gave result: Result<(any Sendable)?, any Error>, awaiting: Bool) -> Outcome {
        switch after(step, gave: result) {
        case .done(let outcome): return outcome
        case .next(let next): return run(next, awaiting: awaiting)
        }
    }

    /// The rest of a call from a step that must await, built only then (a closure allocates).
    private func suspended(at step: CallStep, _ reason: AwaitReason) -> Outcome {
        let shown = names(of: step)
        return suspend(reason, target: shown.target, action: shown.action) { await self.runAwaiting(step) }
    }

    /// Runs `step` and the steps after it, awaiting whatever they need: an async or main-actor
    /// factory, action, `notFound` or fallback, or another call's creation of a cached instance.
    func runAwaiting(_ step: CallStep) async -> Outcome {
        var step = step
        while true {
            let instance: (any TargetInstance)?
            switch await instanceAwaiting(for: step) {
            case .success(let made): instance = made
            case .failure(let error): return outcome(of: step, instanceFailed: error)
            }
            let result: Result<(any Sendable)?, any Error>
            do {
                result = .success(try await runAwaiting(step, on: instance))
            } catch {
                result = .failure(error)
            }
            switch after(step, gave: result) {
            case .done(let outcome): return outcome
            case .next(let next): step = next
            }
        }
    }
}

extension Outcome {
    /// The outcome of a whole call made by an async entry point: a call that stopped at a step
    /// that must await goes on, awaiting, counted one level deeper than the code around it (as
    /// the synchronous dispatch counted it). The one place an async entry point hands over.
    @inline(__always)
    consuming func awaited() async -> Outcome {
        // Consumed, not copied: the outcome of a finished call is returned as it is.
        switch consume self {
        case .suspended(let suspension): return await Outcome.suspended(suspension).finished(depth: CallDepth.current + 1)
        case let finished: return finished
        }
    }
}
