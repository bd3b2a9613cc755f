// MARK: - Calls that tell where they ended up

extension Mediator {
    /// Makes a call as ``call(target:action:params:shouldCacheTarget:)-8qzr1`` does and returns its
    /// record: the result or error, where the call ended up after redirects and a degradation, and
    /// how long it took. Interceptors and observers see it as any other call.
    ///
    /// ```swift
    /// let record = mediator.traceCall(target: "Legacy", action: "open")
    /// print(record.name, record.redirectedFrom)   // Modern/open ["Legacy/open"]
    /// let value = try record.result.get()
    /// ```
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    ///   - params: the call's params.
    ///   - shouldCacheTarget: keep the target instance for later calls.
    /// - Returns: the call's record (a call that needs `await` fails with `asyncAction`, as with
    ///   the synchronous `call`).
    public func traceCall(target: String, action: String, params: Params = [:], shouldCacheTarget: Bool = false) -> CallRecord {
        let box = ReadWriteLock<CallRecord?>(nil)
        let outcome = tracedDispatch(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget, awaiting: false) { record in
            box.withLock { $0 = record }
        }
        if case .suspended(let suspension) = outcome { suspension.abandon(self) }
        // Every dispatched call is reported (a suspended one when it is given up); one that was not
        // dispatched (nested too deeply) gets its record here.
        return box.withLock { $0 } ?? CallRecord.unreported(target: target, action: action, result: outcome.result(self))
    }

    /// The async form of ``traceCall(target:action:params:shouldCacheTarget:)-21710``: awaits the
    /// call if need be.
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    ///   - params: the call's params.
    ///   - shouldCacheTarget: keep the target instance for later calls.
    /// - Returns: the call's record.
    public func traceCall(target: String, action: String, params: Params = [:], shouldCacheTarget: Bool = false) async -> CallRecord {
        let box = ReadWriteLock<CallRecord?>(nil)
        let outcome = tracedDispatch(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget, awaiting: true) { record in
            box.withLock { $0 = record }
        }
        if case .suspended = outcome { _ = await outcome.finished(depth: CallDepth.current + 1) }
        return box.withLock { $0 } ?? CallRecord.unreported(target: target, action: action, result: outcome.result(self))
    }

    private func tracedDispatch(
        target: String, action: String, params: Params, shouldCacheTarget: Bool, awaiting: Bool, report: @escaping @Sendable (CallRecord) -> Void
    ) -> Outcome {
        guard let saved = CallDepth.enter(limit: maximumCallDepth) else {
            return .failed(callDepthExceededError(target: target, action: action))
        }
        defer { CallDepth.restore(saved) }
        var interception: Interception?
        let resolution = resolve(target: target, action: action, remote: false, interception: &interception)
        return interceptedDispatch(
            interception ?? Self.noInterception, target: target, action: action, params: params, input: nil, shouldCacheTarget: shouldCacheTarget,
            origin: .inProcess, awaiting: awaiting, report: report, first: resolution)
    }

    /// What a traced call goes through when nothing intercepts calls.
    private static let noInterception = Interception(entries: [], observers: [], redirects: RedirectTable())
}

extension CallRecord {
    /// The record of a call that was not dispatched: nested too deeply, or a URL the URL rules
    /// refused as it was read.
    static func unreported(
        target: String, action: String, result: Result<(any Sendable)?, MediatorError>, origin: CallOrigin = .inProcess, depth: Int = CallDepth.current
    ) -> CallRecord {
        let request = CallRequest(
            askedTarget: target, askedAction: action, target: Names.shown(target, as: .target), action: Names.shown(action, as: .action), params: [:],
            origin: origin, depth: depth)
        return CallRecord(
            request: request, target: request.target, action: request.action, redirectedFrom: [], result: result, startTime: wallClockSeconds(),
            durationNanoseconds: 0)
    }
}
