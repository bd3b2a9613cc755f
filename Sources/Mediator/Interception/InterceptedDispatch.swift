// MARK: - The pipeline with interceptors, observers and redirects

extension Mediator {
    /// Everything one intercepted call carries from stage to stage.
    private struct InterceptedCall {
        let interception: Interception
        /// The call as asked (what observers see as `request`), kept as its parts: the names as
        /// resolved before any redirect and the params before any interceptor changed them (a
        /// copy of the whole request per call cost more than building it again at the end).
        let firstTarget: String
        let firstAction: String
        let askedParams: Params
        /// The call as it goes on: names after redirects, params as interceptors left them.
        var request: CallRequest
        /// A typed key's input that has no plain form (the call then goes on with it as it is).
        var input: TypedInput?
        let shouldCacheTarget: Bool
        /// What no interceptor may change in the request (its origin is where the call came from).
        let fixed: CallRequest.Fixed
        var origin: CallOrigin { fixed.origin }
        /// Whether the rest of the call is awaited (a degradation after an await is).
        var awaiting: Bool
        /// The interceptors whose `intercept` ran, in order: the first `ranCount` of `ranChain` (the
        /// chain of the call's first stop, shared, not copied), then, after a redirect, `ranLater`.
        let ranChain: [Interception.Entry]
        let ranCount: Int
        var ranLater: [Interception.Entry] = []
        /// Whether an interceptor that ran observes the end of the call (else, with no observers,
        /// no record is made).
        var observed: Bool
        let start: UInt64
        /// The pairs the call left, oldest first.
        var route: [String] = []
        var hasDegraded = false

        /// Puts back what an interceptor may not change in the request at a later stop (as at the
        /// first): only the params are the interceptor's to change.
        mutating func keepOwn(target: String, action: String) {
            request.target = target
            request.action = action
            request.fixed = fixed
            request.redirectedFrom = route
        }

        /// Whether the interceptor with this ID has seen the call (it is told of the end once).
        func hasRun(_ id: UInt64) -> Bool {
            ranChain.prefix(ranCount).contains { $0.id == id } || ranLater.contains { $0.id == id }
        }
    }

    /// A call when the registry has interceptors, observers or redirects (DESIGN's stages 2 to 6
    /// around the plain pipeline): the redirect table, the URL rules at each destination, the
    /// destination's interceptor chain, the plain pipeline (resolution, validation, instance, run,
    /// fallbacks), then a degradation, and at the end the interceptors' and observers' reports.
    /// The call is already counted in ``CallDepth``; `resolved` is its first stop, resolved.
    ///
    /// The first stop runs here, with no state beyond the request: a call that no redirect moves,
    /// that cannot degrade and that no one observes costs its interceptors and nothing more. The
    /// rest (redirects, later stops, a degradation, the records) goes on in an ``InterceptedCall``.
    func interceptedDispatch(
        _ interception: Interception, target: String, action: String, shown: (target: String, action: String), params: Params, input: TypedInput?,
        shouldCacheTarget: Bool, origin: CallOrigin, awaiting: Bool,
        first resolved: Resolution
    ) -> Outcome {
        // The frame of this function stays on the stack while the action runs (and nests calls),
        // so the work before and after `runResolved` is done in functions of their own: in a debug
        // build every temporary of a function takes stack room for the whole call.
        var stop = firstStop(
            interception, target: target, action: action, shown: shown, params: params, input: input, origin: origin
        )
        guard let next = interceptFirstStop(interception, &stop, asked: (target, action), shown: shown, origin: origin, resolved: resolved) else {
            // The names as the caller wrote them, as the plain pipeline passes them: its errors, a
            // target's notFound and the global fallback see what was asked.
            return afterFirstStop(
                runResolved(
                    resolved, target: target, action: action, params: stop.request.params, input: stop.input, shouldCacheTarget: shouldCacheTarget,
                    origin: origin, awaiting: awaiting),
                interception, &stop, shown: shown, params: params, options: (shouldCacheTarget, awaiting))
        }
        return runRest(next, interception, stop, shown: shown, params: params, options: (shouldCacheTarget, awaiting))
    }

    /// The end of a first stop that ran the plain pipeline: its outcome as it is when nothing more
    /// is to be done (no degradation, no one recording), else the rest of the call. The outcome is
    /// not wrapped in a `Continuation` on this, the usual, way (each wrap and unwrap copied it).
    /// Inlined in optimized builds; a frame of its own in debug builds.
    @inline(__always)
    private func afterFirstStop(
        _ outcome: Outcome, _ interception: Interception, _ stop: inout FirstStop, shown: (target: String, action: String), params: Params,
        options: (shouldCacheTarget: Bool, awaiting: Bool)
    ) -> Outcome {
        // A failed call may still degrade, and a suspended one is recorded when it ends.
        if interception.redirects.hasFallbacks { return runRest(.end(outcome), interception, stop, shown: shown, params: params, options: options) }
        guard interception.records && (!interception.observers.isEmpty || stop.chain.prefix(stop.ran).contains { $0.observer != nil }) else {
            return outcome
        }
        if outcome.isSuspended { return runRest(.end(outcome), interception, stop, shown: shown, params: params, options: options) }
        // Nothing more can happen to the call: its record goes out now, from the stop itself.
        reportFirstStop(outcome, &stop, interception, shown: shown, params: params)
        return outcome
    }

    /// The record of a call that ended at its first stop, with nothing left to do.
    @inline(never)
    private func reportFirstStop(
        _ outcome: Outcome, _ stop: inout FirstStop, _ interception: Interception, shown: (target: String, action: String), params: Params
    ) {
        // With no interceptor run, the request is still the call as asked; the stop ends here, so
        // the record takes it over.
        report(
            outcome,
            asked: stop.ran == 0
                ? CallRequest.taken(from: &stop.request) : stop.request.asAsked(target: shown.target, action: shown.action, params: stop.plainParams ?? params),
            destination: nil, start: stop.start,
            told: (later: [], chain: stop.chain, ran: stop.ran), interception.observers)
    }

    /// The first stop of an intercepted call, before its interceptors run.
    ///
    /// What the caller passed stays with the caller: the names as shown (canonical when valid) and
    /// the params as asked are passed to each step, not copied into the stop.
    private struct FirstStop {
        /// The request as interceptors see and change it.
        var request: CallRequest
        /// A typed key's input as plain values, when it has a plain form: the params as asked,
        /// instead of the caller's.
        let plainParams: Params?
        /// A typed key's input that has no plain form.
        let input: TypedInput?
        /// The interceptors of the stop, and how many of them ran.
        let chain: [Interception.Entry]
        var ran = 0
        /// When the call started, if it may be recorded.
        let start: UInt64
        /// The depth the call runs at (as its request says, unless an interceptor replaced it).
        let depth: Int
    }

    /// The first stop's request, chain and clock. Inlined in optimized builds; a frame of its own
    /// in debug builds (which do not inline), off the stack before the action runs.
    @inline(__always)
    private func firstStop(
        _ interception: Interception, target: String, action: String, shown: (target: String, action: String), params: Params, input: TypedInput?,
        origin: CallOrigin
    ) -> FirstStop {
        var plain: Params?
        var typedInput = input
        if input != nil, case .success(let converted) = plainParams(params, input: input) {
            // Interceptors see a typed key's input as plain values; the action decodes them.
            plain = converted
            typedInput = nil
        }
        let request = CallRequest(
            askedTarget: target, askedAction: action, target: shown.target, action: shown.action, params: plain ?? params,
            origin: origin, depth: CallDepth.current)
        // The clock is read only if the call may be recorded.
        return FirstStop(
            request: request, plainParams: plain, input: typedInput,
            chain: interception.chain(target: shown.target, action: shown.action),
            start: interception.records ? monotonicNanoseconds() : 0, depth: request.depth)
    }

    /// The redirect table, the URL rules (a refused call never reaches an interceptor), then each
    /// interceptor in turn; `nil` when the call goes on to the plain pipeline. Inlined as
    /// ``firstStop(_:target:action:shown:params:input:origin:)`` is.
    @inline(__always)
    private func interceptFirstStop(
        _ interception: Interception, _ stop: inout FirstStop, asked: (target: String, action: String), shown: (target: String, action: String),
        origin: CallOrigin, resolved: Resolution
    ) -> Continuation? {
        let remote = origin.isRemote
        if let destination = interception.redirects.destination(target: shown.target, action: shown.action) {
            return .redirect(destination.target, destination.action)
        }
        if case .action(let resolvedTarget, let found) = resolved, let refusal = found.refusal(target: resolvedTarget.name, remote: remote) {
            return .end(.failed(refusal))
        }
        while stop.ran < stop.chain.count {
            stop.ran += 1
            let decision: InterceptorDecision
            do {
                decision = try stop.chain[stop.ran - 1].interceptor.intercept(&stop.request)
            } catch {
                // The rejection and the record name the call itself, whatever request was left.
                keepOwn(&stop, asked: asked, shown: shown, origin: origin)
                return .end(.failed(rejectedError(error, by: stop.chain[stop.ran - 1].interceptor, stop.request)))
            }
            keepOwn(&stop, asked: asked, shown: shown, origin: origin)
            // Consumed, not copied: a decision is an enum with payloads, copied through its
            // value witnesses.
            switch consume decision {
            case .proceed:
                continue
            case .answer(let value):
                return .end(.answered(value))
            case .redirect(let newTarget, let newAction):
                return .redirect(Names.shown(newTarget, as: .target), Names.shown(newAction, as: .action))
            }
        }
        return nil
    }

    /// Puts back what an interceptor may not change in the first stop's request. It may not rename
    /// the call (it cannot set the names, but it can put another request in its place): only by a
    /// redirect. Nor may it change the names as asked, where the call came from or how deep it is.
    /// Each goes back unless it is, bit for bit, the call's own (comparing costs less than storing
    /// them again; a string of the same bytes in another storage is put back, which is harmless).
    @inline(__always)
    private func keepOwn(
        _ stop: inout FirstStop, asked: (target: String, action: String), shown: (target: String, action: String), origin: CallOrigin
    ) {
        stop.request.keepFixed(askedTarget: asked.target, askedAction: asked.action, origin: origin, depth: stop.depth)
        if !sameBits(stop.request.target, shown.target) || !sameBits(stop.request.action, shown.action) {
            stop.request.target = shown.target
            stop.request.action = shown.action
        }
    }

    /// How the first stop of an intercepted call ended: with an outcome, or moved on to another
    /// target and action.
    private enum Continuation {
        case end(Outcome)
        case redirect(String, String)
    }

    /// The rest of an intercepted call that needs more than its first stop: the later stops, a
    /// degradation, the records. Its own function, so that the state it carries takes no room in
    /// the first stop's frame, which stays on the stack while the action runs and nests calls.
    @inline(never)
    private func runRest(
        _ next: Continuation, _ interception: Interception, _ stop: FirstStop, shown: (target: String, action: String), params: Params,
        options: (shouldCacheTarget: Bool, awaiting: Bool)
    ) -> Outcome {
        var call = InterceptedCall(
            interception: interception, firstTarget: shown.target, firstAction: shown.action, askedParams: stop.plainParams ?? params,
            request: stop.request, input: stop.input, shouldCacheTarget: options.shouldCacheTarget, fixed: stop.request.fixed,
            awaiting: options.awaiting, ranChain: stop.chain, ranCount: stop.ran, observed: stop.chain.prefix(stop.ran).contains { $0.observer != nil },
            start: stop.start)
        switch next {
        case .end(let outcome):
            return degradeAndReport(&call, outcome)
        case .redirect(let target, let action):
            if let refusal = takeHop(&call, to: target, action) { return degradeAndReport(&call, .failed(refusal)) }
            return degradeAndReport(&call, runLaterStops(&call))
        }
    }

    /// The end of an intercepted call: a degradation, if the call failed and its target degrades,
    /// then the records; for a call that must await, all of that after the await.
    private func degradeAndReport(_ call: inout InterceptedCall, _ outcome: Outcome) -> Outcome {
        var outcome = outcome
        if !outcome.isSuspended {
            if call.interception.redirects.hasFallbacks { outcome = applyDegradation(&call, outcome, awaiting: call.awaiting) }
            if !outcome.isSuspended { return recordEnd(call, outcome) }
        }
        guard case .suspended(let suspension) = outcome else { return recordEnd(call, outcome) }
        // The rest of the call awaits: its end (a degradation, the reports) goes with it; a
        // synchronous caller that gives up on it reports it as failed.
        let finishing = call
        return .suspended(
            Suspension(
                reason: suspension.reason, target: suspension.target, action: suspension.action,
                resume: {
                    var call = finishing
                    var outcome = await suspension.resume()
                    outcome = self.applyDegradation(&call, outcome, awaiting: true)
                    if case .suspended = outcome { outcome = await outcome.finished(depth: CallDepth.current) }
                    return self.recordEnd(call, outcome)
                },
                abandoned: { error in _ = self.recordEnd(finishing, .failed(error)) }
            ))
    }

    /// The stops after the first, hop after hop: the redirect table, then the stop.
    ///
    /// Counted as one more nested call when there is room: a later stop runs on top of the frames
    /// of the first (a degradation's fallback inside the failed call's end, a redirected call
    /// inside the pipeline that moved it), so a recursion through redirects or degradations takes
    /// about twice the stack of a plain one per call, and the depth limit must see that to keep
    /// bounding the stack. A call already at the limit runs its later stop at its own depth (it
    /// may still be redirected or degrade; the calls its action makes are refused as usual).
    private func runLaterStops(_ call: inout InterceptedCall) -> Outcome {
        let saved = CallDepth.enter(limit: maximumCallDepth)
        defer { if let saved { CallDepth.restore(saved) } }
        while true {
            if let next = call.interception.redirects.destination(target: call.request.target, action: call.request.action) {
                if let refusal = takeHop(&call, to: next.target, next.action) { return .failed(refusal) }
                continue
            }
            var ignored: Interception?
            let resolved = resolve(target: call.request.target, action: call.request.action, remote: call.origin.isRemote, interception: &ignored)
            if let outcome = runLaterStop(&call, resolved) { return outcome }
        }
    }

    /// A stop after the first, resolved: the URL rules, the stop's interceptors (each is told of
    /// the end once, however many stops it saw), then the plain pipeline; `nil` when an
    /// interceptor moved the call on.
    private func runLaterStop(_ call: inout InterceptedCall, _ resolved: Resolution) -> Outcome? {
        // The names of this stop, copied alone (a copy of the whole request retains all it holds).
        let target = call.request.target
        let action = call.request.action
        if case .action(let resolvedTarget, let found) = resolved, let refusal = found.refusal(target: resolvedTarget.name, remote: call.origin.isRemote) {
            return .failed(refusal)
        }
        let chain = call.interception.chain(target: target, action: action)
        var decision = InterceptorDecision.proceed
        for index in chain.indices {
            // Every stop runs its whole chain: a guard is asked about each destination.
            if !call.hasRun(chain[index].id) {
                call.ranLater.append(chain[index])
                if chain[index].observer != nil { call.observed = true }
            }
            do {
                decision = try chain[index].interceptor.intercept(&call.request)
            } catch {
                call.keepOwn(target: target, action: action)
                return .failed(rejectedError(error, by: chain[index].interceptor, call.request))
            }
            call.keepOwn(target: target, action: action)
            guard case .proceed = decision else { break }
        }
        switch decision {
        case .proceed:
            return runResolved(
                resolved, target: target, action: action, params: call.request.params, input: call.input, shouldCacheTarget: call.shouldCacheTarget,
                origin: call.origin, awaiting: call.awaiting)
        case .answer(let value):
            return .answered(value)
        case .redirect(let newTarget, let newAction):
            if let refusal = takeHop(&call, to: Names.shown(newTarget, as: .target), Names.shown(newAction, as: .action)) { return .failed(refusal) }
            return nil
        }
    }

    /// Moves the call one hop, to `target`/`action`: the error when that makes a cycle or too
    /// long a chain, or when a URL call may not go there (the destination meets the same URL rules
    /// as the original; local-only actions are refused once resolved).
    private func takeHop(_ call: inout InterceptedCall, to target: String, _ action: String) -> MediatorError? {
        // A cycle or too long a route leaves the call where it is: its route (the error's
        // `redirectedFrom`) is the pairs before it, and the reason names the whole chain.
        let hops = call.route.count
        let problem = Self.hop(
            &call.route, from: (call.request.target, call.request.action), to: (target, action), remotePolicy: call.origin.isRemote ? urlPolicy : nil)
        // A hop the URL rules refuse is taken (the refusal names its destination).
        if call.route.count > hops {
            call.request.target = target
            call.request.action = action
            call.request.redirectedFrom = call.route
        }
        return problem
    }

    /// Where a failed call goes next, by the degradation table.
    private enum Degradation {
        case none
        case refused(MediatorError)
        /// The call was moved to the fallback, with the fallback's params.
        case toFallback
    }

    /// Whether a failed call degrades (once per call, and only for a missing target or action or
    /// a failure in the target), moving the call to the fallback with the params it is given.
    private func degradation(of call: inout InterceptedCall, _ outcome: Outcome) -> Degradation {
        guard !call.hasDegraded, let fallback = call.interception.redirects.fallback(of: call.request.target) else { return .none }
        let reason: String
        switch outcome {
        case .failed(let error) where error.code == .targetNotFound || error.code == .actionNotFound || error.code == .actionFailed:
            reason = error.description
        case .unanswered(let target, let action):
            reason = notAnsweredError(target: target, action: action).description
        default:
            return .none
        }
        call.hasDegraded = true
        let failed = call.request
        if let refusal = takeHop(&call, to: fallback.target, fallback.action) { return .refused(refusal) }
        call.request.params = Self.degradationParams(target: failed.target, action: failed.action, params: failed.params, reason: reason)
        call.input = nil
        return .toFallback
    }

    /// A failed call's outcome after its degradation, if any (synchronously, up to a suspension).
    /// The fallback is a hop like a redirect's: it goes through the table, the URL rules and the
    /// interceptors in its scope.
    private func applyDegradation(_ call: inout InterceptedCall, _ outcome: Outcome, awaiting: Bool) -> Outcome {
        switch degradation(of: &call, outcome) {
        case .none: return outcome
        case .refused(let error): return .failed(error)
        case .toFallback:
            call.awaiting = awaiting
            return runLaterStops(&call)
        }
    }

    /// The end of a call: its error told where the call ended, then the record to the interceptors
    /// that ran (last first) and the observers (in order).
    private func recordEnd(_ call: InterceptedCall, _ given: consuming Outcome) -> Outcome {
        let interception = call.interception
        guard call.observed || !interception.observers.isEmpty || !call.route.isEmpty else {
            return given
        }
        var outcome = given
        if !call.route.isEmpty {
            // The error says where the call ended.
            switch outcome {
            case .failed(var error) where error.redirectedFrom.isEmpty:
                error.redirectedFrom = call.route
                outcome = .failed(error)
            case .unanswered(let target, let action):
                var error = notAnsweredError(target: target, action: action)
                error.redirectedFrom = call.route
                outcome = .failed(error)
            default:
                break
            }
        }
        guard call.observed || !interception.observers.isEmpty else { return outcome }
        report(
            outcome, asked: call.request.asAsked(target: call.firstTarget, action: call.firstAction, params: call.askedParams),
            destination: call.route.isEmpty ? nil : CallRecord.Destination(target: call.request.target, action: call.request.action, route: call.route),
            start: call.start,
            told: (later: call.ranLater, chain: call.ranChain, ran: call.ranCount), interception.observers)
        return outcome
    }

    /// The record of a finished call, told to the interceptors that ran and observe (the later
    /// stops' first, then the first stop's, last first) and to the observers (in order).
    private func report(
        _ outcome: Outcome, asked: CallRequest, destination: CallRecord.Destination?, start: UInt64,
        told: (later: [Interception.Entry], chain: [Interception.Entry], ran: Int), _ observers: [Interception.Observer]
    ) {
        let elapsed = monotonicNanoseconds() &- start
        let record = CallRecord(
            request: asked, destination: destination, result: recordedResult(of: outcome), startTime: wallClockSeconds() - Double(elapsed) / 1e9,
            durationNanoseconds: elapsed)
        for index in told.later.indices.reversed() { told.later[index].tell(record) }
        for index in (0..<told.ran).reversed() { told.chain[index].tell(record) }
        for index in observers.indices { observers[index].tell(record) }
    }

    /// A finished call's result as its record shows it.
    @inline(__always)
    private func recordedResult(of outcome: Outcome) -> Result<(any Sendable)?, MediatorError> {
        switch outcome {
        case .answered(let value): .success(value)
        case .failed(let error): .failure(error)
        case .unanswered(let target, let action): .failure(notAnsweredError(target: target, action: action))
        case .suspended(let suspension): .failure(asyncActionError(suspension))
        }
    }

    /// The error a throwing interceptor's call fails with.
    private func rejectedError(_ error: any Error, by interceptor: any Interceptor, _ request: CallRequest) -> MediatorError {
        // An interceptor standing in for the action fails the call as the action would.
        switch error as? StandInFailure {
        case .thrown(let thrown): return actionFailedError(from: thrown, target: request.target, action: request.action, context: "the action failed")
        case .refused(let refusal): return refusal
        case nil: break
        }
        // Passed up unchanged, as from an action: an interceptor that calls the mediator without
        // end must stop in callDepthExceeded, not in one rejection wrapped round it per level.
        if let nested = error as? MediatorError, nested.code == .callDepthExceeded { return nested }
        return MediatorError(
            .rejected, target: request.target, action: request.action, underlying: error,
            reason: "rejected by interceptor \"\(oneLine(interceptor.name, limit: 100))\": \(oneLine(String(describing: error), limit: 500))")
    }

    /// Tells the observers of a URL call that failed before it was dispatched (malformed, or
    /// refused by the URL rules: a `native` action, a target outside the allow-list): they hear of
    /// every call. No interceptor sees it. A URL too malformed to name a target and action is
    /// reported with empty names. The call is already counted in ``CallDepth``, so an observer
    /// that opens a URL again nests, and stops at the limit.
    func reportUndispatched(_ error: MediatorError, url: String) {
        guard let interception = state.withReadLock({ $0.interception }), !interception.observers.isEmpty else { return }
        let record = CallRecord.unreported(
            target: error.target ?? "", action: error.action ?? "", result: .failure(error), origin: .url(url),
            depth: CallDepth.current)
        for index in interception.observers.indices { interception.observers[index].tell(record) }
    }
}

extension CallRecord {
    /// The record of a URL call that was not dispatched: the URL rules refused it as it was read.
    static func unreported(
        target: String, action: String, result: Result<(any Sendable)?, MediatorError>, origin: CallOrigin = .inProcess, depth: Int = CallDepth.current
    ) -> CallRecord {
        let request = CallRequest(
            askedTarget: target, askedAction: action, target: Names.shown(target, as: .target), action: Names.shown(action, as: .action), params: [:],
            origin: origin, depth: depth)
        return CallRecord(
            request: request, destination: nil, result: result, startTime: wallClockSeconds(), durationNanoseconds: 0)
    }
}
