// MARK: - Remote calls by URL

extension Mediator {
    /// What URL calls may reach and how much input they may bring. Read and set from any thread.
    public var urlPolicy: URLPolicy {
        get { state.withReadLock { $0.urlPolicy } }
        set { state.withLock { $0.urlPolicy = newValue } }
    }

    /// CTMediator's `performActionWithUrl:`: calls the action a URL names and returns its result,
    /// or `nil` when it returned nothing or the call failed or was refused.
    ///
    /// ```swift
    /// mediator.open("app://Notes/get?id=42")   // the note, or nil
    /// ```
    ///
    /// The URL is `scheme://Target/action?key=value&...` (short or full names). Query values
    /// arrive as strings, percent-decoded; a repeated key gives an array of strings. A URL call
    /// never reaches an action named `native...` or declared local-only, honours ``urlPolicy``,
    /// and never creates a cached target (an existing cached instance is used; targets
    /// registered as always cached are cached). The full rules are in <doc:RemoteCallsByURL>.
    /// Use ``call(url:)-85t6t`` to learn why a call failed.
    ///
    /// - Parameter url: the URL, as text; it comes from outside the program and is checked as such.
    /// - Returns: the action's result, or `nil` when it returned nothing or the call failed or was
    ///   refused.
    @discardableResult
    public func open(_ url: String) -> (any Sendable)? {
        switch dispatch(url: url) {
        case .answered(let value): return value
        case .suspended(let suspension):
            suspension.abandon(self)
            return nil
        default: return nil
        }
    }

    /// Like ``open(_:)-7epki``, but throws the reason a call failed.
    ///
    /// ```swift
    /// try mediator.call(url: "app://Notes/get?id=4x")
    /// // throws: Notes/get: invalid parameter "id": expected Int, got String "4x"
    /// ```
    ///
    /// - Parameter url: the URL, as text.
    /// - Returns: the action's result (`nil` when the action returned nothing).
    /// - Throws: ``MediatorError`` with code `invalidURL` (quoting the URL and saying what is
    ///   wrong), `forbidden` (nothing ran), or any code ``call(target:action:params:shouldCacheTarget:)-8qzr1``
    ///   throws.
    @discardableResult
    public func call(url: String) throws(MediatorError) -> (any Sendable)? {
        try dispatch(url: url).value(self)
    }

    /// Like ``call(url:)-85t6t``, awaiting async actions (and main-actor ones) as the async
    /// ``call(target:action:params:shouldCacheTarget:)-6k8m1`` does. Every URL rule applies.
    ///
    /// ```swift
    /// let page = try await mediator.call(url: "app://Feed/load?page=1")
    /// ```
    ///
    /// - Parameter url: the URL, as text.
    /// - Returns: the action's result (`nil` when the action returned nothing).
    /// - Throws: as ``call(url:)-85t6t``, except `asyncAction`; and ``MediatorError/Code/cancelled``.
    @discardableResult
    public func call(url: String) async throws(MediatorError) -> (any Sendable)? {
        try await dispatchAwaiting(url: url).value(self)
    }

    /// Like ``open(_:)-7epki``, awaiting async actions: the result, or `nil` when the action
    /// returned nothing or the call failed or was refused.
    ///
    /// - Parameter url: the URL, as text.
    /// - Returns: the action's result, or `nil`.
    @discardableResult
    public func open(_ url: String) async -> (any Sendable)? {
        if case .answered(let value) = await dispatchAwaiting(url: url) { return value }
        return nil
    }

    /// Like ``open(_:)-7epki``, with in-process params passed along with the link: JLRoutes'
    /// `routeURL:withParameters:`, URLNavigator's `context`. They may be any `Sendable` value (a
    /// callback, an object the destination needs) and never come from the URL's text.
    ///
    /// ```swift
    /// mediator.open("myapp://user/42/profile", params: ["onClose": { @Sendable in dismiss() }])
    /// ```
    ///
    /// They are merged over the query's params and a route's path params (in-process params win;
    /// see <doc:DeepLinkRoutes>). Every URL rule still applies: the call is a remote call, and an
    /// action that declares its params refuses undeclared ones, these included.
    ///
    /// - Parameters:
    ///   - url: the URL, as text.
    ///   - params: params from the calling code.
    /// - Returns: the action's result, or `nil` when it returned nothing or the call failed or was
    ///   refused.
    @discardableResult
    public func open(_ url: String, params: Params) -> (any Sendable)? {
        switch dispatch(url: url, extra: params) {
        case .answered(let value): return value
        case .suspended(let suspension):
            suspension.abandon(self)
            return nil
        default: return nil
        }
    }

    /// Like ``open(_:params:)-1rq5c``, but throws the reason a call failed, as ``call(url:)-85t6t``.
    ///
    /// - Parameters:
    ///   - url: the URL, as text.
    ///   - params: params from the calling code, merged over the URL's.
    /// - Returns: the action's result (`nil` when the action returned nothing).
    /// - Throws: as ``call(url:)-85t6t``, and `routeNotFound`.
    @discardableResult
    public func call(url: String, params: Params) throws(MediatorError) -> (any Sendable)? {
        try dispatch(url: url, extra: params).value(self)
    }

    /// Like ``call(url:params:)-1wg20``, awaiting async actions (and main-actor ones).
    ///
    /// - Parameters:
    ///   - url: the URL, as text.
    ///   - params: params from the calling code, merged over the URL's.
    /// - Returns: the action's result (`nil` when the action returned nothing).
    /// - Throws: as ``call(url:)-2cshb``.
    @discardableResult
    public func call(url: String, params: Params) async throws(MediatorError) -> (any Sendable)? {
        try await dispatchAwaiting(url: url, extra: params).value(self)
    }

    /// Like ``open(_:params:)-1rq5c``, awaiting async actions.
    ///
    /// - Parameters:
    ///   - url: the URL, as text.
    ///   - params: params from the calling code, merged over the URL's.
    /// - Returns: the action's result, or `nil`.
    @discardableResult
    public func open(_ url: String, params: Params) async -> (any Sendable)? {
        if case .answered(let value) = await dispatchAwaiting(url: url, extra: params) { return value }
        return nil
    }

    private func dispatchAwaiting(url: String, extra: Params? = nil) async -> Outcome {
        let outcome = dispatch(url: url, extra: extra, awaiting: true)
        guard case .suspended = outcome else { return outcome }
        return await outcome.finished(depth: CallDepth.current + 1)
    }

    /// CTMediator's `performActionWithUrl:completion:`, with the same result as ``open(_:)-7epki``.
    ///
    /// `completion` gets `["result": value]` when the action returned a value, `[:]` when it
    /// returned nothing, and `["error": MediatorError]` when the call failed; it is not called
    /// at all when the mediator refuses the call as `forbidden` (CTMediator's behaviour for
    /// `native` actions): by the URL rules or at a local-only action, where the URL leads or where
    /// a redirect or degradation sends it (also when the URL's own action ran and failed before its
    /// degradation was refused: watch such calls with an observer, or use ``call(url:)-85t6t``).
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
    ///   - url: the URL, as text.
    ///   - completion: gets the outcome: on the calling thread before `open` returns, or from a
    ///     task when the call must await.
    /// - Returns: the action's result, or `nil` when it returned nothing or the call failed or was
    ///   refused.
    @discardableResult
    public func open(_ url: String, completion: @escaping @Sendable ([String: any Sendable]) -> Void) -> (any Sendable)? {
        guard let saved = CallDepth.enter(limit: maximumCallDepth) else {
            if let deeper = CallDepth.enter(limit: maximumCallDepth + 1) {
                defer { CallDepth.restore(deeper) }
                completion(["error": callDepthExceededError(url: url)])
            }
            return nil
        }
        defer { CallDepth.restore(saved) }
        let depth = CallDepth.current
        let outcome = dispatch(url: url, depth: .counted)
        if case .suspended = outcome {
            Task {
                let finished = await outcome.finished(depth: depth)
                // The completion counts toward the depth, as on the synchronous path.
                CallDepth.$taskDepth.withValue(depth) { Self.complete(finished, completion: completion, mediator: self) }
            }
            return nil
        }
        return Self.complete(outcome, completion: completion, mediator: self)
    }

    /// Calls `completion` for a finished URL call, as ``open(_:completion:)`` documents, and
    /// returns the call's result.
    @discardableResult
    private static func complete(_ outcome: Outcome, completion: @Sendable ([String: any Sendable]) -> Void, mediator: Mediator) -> (any Sendable)? {
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

    /// Parse, refuse what the rules forbid (before the query is even decoded), then dispatch.
    /// `depth`: as for ``dispatch(target:action:params:input:shouldCacheTarget:origin:depth:awaiting:)``.
    /// `extra`: the caller's in-process params (``open(_:params:)``).
    func dispatch(url: String, extra: Params? = nil, depth: DepthCount = .enter, awaiting: Bool = false) -> Outcome {
        guard depth == .enter else { return dispatch(urlCall(url, extra: extra), url: url, awaiting: awaiting) }
        // Counted before the URL is read: a URL that fails as it is read is reported to
        // observers, whose code may open a URL again.
        guard let saved = CallDepth.enter(limit: maximumCallDepth) else { return .failed(callDepthExceededError(url: url)) }
        defer { CallDepth.restore(saved) }
        return dispatch(urlCall(url, extra: extra), url: url, awaiting: awaiting)
    }

    /// Runs what a URL asks for, the call already counted in ``CallDepth``.
    private func dispatch(_ call: URLCall, url: String, awaiting: Bool) -> Outcome {
        switch call {
        case .call(let target, let action, let params):
            return dispatch(
                target: target, action: action, params: params, shouldCacheTarget: false, origin: .url(url), depth: .counted,
                awaiting: awaiting)
        case .unmatched(let unmatched, let handler, let otherwise):
            switch answer(unmatched, with: handler) {
            case .some(let outcome): return outcome
            case .none: return dispatch(otherwise, url: url, awaiting: awaiting)
            }
        case .failed(let error):
            reportUndispatched(error, url: url)
            return .failed(error)
        }
    }

    /// The unmatched-URL handler's outcome, or `nil` when it declined. It runs inside the URL
    /// call's own depth count, as an action would.
    private func answer(_ unmatched: UnmatchedURL, with handler: UnmatchedURLHandler) -> Outcome? {
        do {
            switch try handler(unmatched) {
            case .answer(let value): return .answered(value)
            case .decline: return nil
            }
        } catch var error as MediatorError {
            // The handler ran: what it passes on is its failure, not a refusal before anything ran.
            error.isURLRefusal = false
            return .failed(error)
        } catch {
            return .failed(
                MediatorError(.actionFailed, underlying: error, reason: "the unmatched-URL handler failed for \(describe(unmatched.url, limit: 120)): \(error)")
            )
        }
    }
}
