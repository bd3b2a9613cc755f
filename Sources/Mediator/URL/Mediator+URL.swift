// MARK: - Remote calls by URL

extension Mediator {
    /// What URL calls may reach and how much input they may bring. Read and set from any thread.
    public var urlPolicy: URLPolicy {
        get { state.withReadLock { $0.urlPolicy } }
        set { state.withLock { $0.urlPolicy = newValue } }
    }

    /// Calls the action a URL names, awaiting it if need be, and throws the reason a call failed.
    ///
    /// ```swift
    /// let note = try await mediator.call(url: "app://Notes/get?id=42")
    /// try await mediator.call(url: "app://Notes/get?id=4x")
    /// // throws: Notes/get: invalid parameter "id": expected Int, got String "4x"
    /// ```
    ///
    /// The URL is `scheme://Target/action?key=value&...` (short or full names) or matches a route
    /// (<doc:DeepLinkRoutes>). Query values arrive as strings, percent-decoded; a repeated key
    /// gives an array of strings. A URL call never reaches an action named `native...` or declared
    /// local-only, honours ``urlPolicy``, and never creates a cached target (an existing cached
    /// instance is used; targets registered as always cached are cached). The full rules are in
    /// <doc:RemoteCallsByURL>. Code that cannot `await` uses ``open(_:params:isolation:completion:)``.
    ///
    /// `params` are in-process params passed along with the link (JLRoutes'
    /// `routeURL:withParameters:`, URLNavigator's `context`): any `Sendable` value (a callback, an
    /// object the destination needs), never from the URL's text. They are merged over the query's
    /// params and a route's path params (in-process params win). Every URL rule still applies: the
    /// call is a remote call, and an action that declares its params gets only those it declares,
    /// from these too (declare a callback as `.value(T.self)`), unless its policy says otherwise
    /// (``UndeclaredParameterPolicy``).
    ///
    /// - Parameters:
    ///   - url: the URL, as text; it comes from outside the program and is checked as such.
    ///   - params: params from the calling code, merged over the URL's.
    /// - Returns: the action's result (`nil` when the action returned nothing).
    /// - Throws: ``MediatorError`` with code `invalidURL` (quoting the URL and saying what is
    ///   wrong), `forbidden` (nothing ran), `routeNotFound`, `cancelled`, or any code
    ///   ``call(target:action:params:shouldCacheTarget:)`` throws.
    @discardableResult
    public func call(url: String, params: Params = [:]) async throws(MediatorError) -> (any Sendable)? {
        try await dispatchAwaiting(url: url, extra: params.isEmpty ? nil : params).value(self)
    }

    /// A URL call on the calling thread, throwing why it failed: for the package's own tools and
    /// tests, which compare it with the other doors.
    package func callNow(url: String, params: Params = [:]) throws(MediatorError) -> (any Sendable)? {
        try dispatch(url: url, extra: params.isEmpty ? nil : params).value(self)
    }

    private func dispatchAwaiting(url: String, extra: Params? = nil) async -> Outcome {
        await dispatch(url: url, extra: extra, awaiting: true).awaited()
    }

    /// Parse, refuse what the rules forbid (before the query is even decoded), then dispatch.
    /// `depth`: as for ``dispatch(target:action:params:input:shouldCacheTarget:origin:depth:awaiting:)``.
    /// `extra`: the caller's in-process params (``open(_:params:isolation:completion:)``).
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
