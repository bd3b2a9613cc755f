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
    /// at all when the call is refused as `forbidden` (CTMediator's behaviour for `native` actions).
    /// Otherwise it is called exactly once.
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
        let outcome = dispatch(url: url, counted: true)
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
    /// `counted`: as for ``dispatch(target:action:params:shouldCacheTarget:remote:counted:)``.
    /// `extra`: the caller's in-process params (``open(_:params:)``).
    func dispatch(url: String, extra: Params? = nil, counted: Bool = false, awaiting: Bool = false) -> Outcome {
        dispatch(urlCall(url, extra: extra), url: url, counted: counted, awaiting: awaiting)
    }

    /// Runs what a URL asks for.
    private func dispatch(_ call: URLCall, url: String, counted: Bool, awaiting: Bool) -> Outcome {
        switch call {
        case .call(let target, let action, let params):
            return dispatch(
                target: target, action: action, params: params, shouldCacheTarget: false, remote: true, url: url, counted: counted, awaiting: awaiting)
        case .unmatched(let unmatched, let handler, let otherwise):
            switch answer(unmatched, with: handler, counted: counted) {
            case .some(let outcome): return outcome
            case .none: return dispatch(otherwise, url: url, counted: counted, awaiting: awaiting)
            }
        case .failed(let error):
            if error.isURLRefusal { reportRefused(error, url: url, counted: counted) }
            return .failed(error)
        }
    }

    /// The unmatched-URL handler's outcome, or `nil` when it declined. It counts toward the call
    /// depth, as an action would.
    private func answer(_ unmatched: UnmatchedURL, with handler: UnmatchedURLHandler, counted: Bool) -> Outcome? {
        var saved = 0
        if !counted {
            guard let entered = CallDepth.enter(limit: maximumCallDepth) else { return .failed(callDepthExceededError(url: unmatched.url)) }
            saved = entered
        }
        defer { if !counted { CallDepth.restore(saved) } }
        do {
            switch try handler(unmatched) {
            case .answer(let value): return .answered(value)
            case .decline: return nil
            }
        } catch let error as MediatorError {
            return .failed(error)
        } catch {
            return .failed(
                MediatorError(.actionFailed, underlying: error, reason: "the unmatched-URL handler failed for \(describe(unmatched.url, limit: 120)): \(error)")
            )
        }
    }

    /// The names and params a URL asks for, or why it is refused (before the query is even
    /// decoded, when the policy or CTMediator's `native` rule refuses the names). For
    /// ``validate(url:)``: a URL only the unmatched-URL handler could answer is checked as if it
    /// declined.
    func parse(url: String) -> Result<(target: String, action: String, params: Params), MediatorError> {
        var call = urlCall(url, extra: nil)
        if case .unmatched(_, _, let otherwise) = call { call = otherwise }
        switch call {
        case .call(let target, let action, let params): return .success((target, action, params))
        case .failed(let error): return .failure(error)
        case .unmatched: return .failure(MediatorError(.routeNotFound, reason: "\(describe(url, limit: 120)) matches no route"))
        }
    }

    /// What a URL asks for: a call (routed, or of the form `scheme://Target/action`), a question
    /// for the unmatched-URL handler, or why it is refused.
    indirect enum URLCall {
        /// Call `target`/`action` (canonical names) with `params`.
        case call(target: String, action: String, params: Params)
        /// Ask `handler`; if it declines, go on with `otherwise`.
        case unmatched(UnmatchedURL, UnmatchedURLHandler, otherwise: URLCall)
        /// Refused or malformed.
        case failed(MediatorError)
    }

    /// Reads what `url` asks for under the URL rules: routes first, then the form
    /// `scheme://Target/action`, then the unmatched-URL handler. See <doc:DeepLinkRoutes>.
    func urlCall(_ url: String, extra: Params?) -> URLCall {
        let (policy, handler, hasRoutes) = state.withReadLock { registry in (registry.urlPolicy, registry.unmatchedURLHandler, registry.routes.count > 0) }
        if !hasRoutes && handler == nil { return builtInCall(url, extra: extra, policy: policy, handler: nil, link: nil) }

        let byteCount = url.utf8.count
        if byteCount > policy.maximumLength {
            return .failed(URLParser.invalid(url, "it is \(byteCount) bytes long, over the limit of \(policy.maximumLength)"))
        }
        let link: LinkURL
        switch URLParser.parseLink(url, policy: policy) {
        case .success(let parsed): link = parsed
        case .failure(let error): return .failed(error)
        }
        if let schemes = policy.allowedSchemes, !schemes.contains(link.scheme) {
            var error = MediatorError(
                .forbidden,
                reason:
                    "\(describe(url, limit: 120)) refused: the scheme \"\(link.scheme)\" is not allowed (allowed: \(schemes.sorted().joined(separator: ", ")))")
            error.isURLRefusal = true
            return .failed(error)
        }
        if hasRoutes, let segments = link.segments, let snapshot = routeSnapshot() {
            var match = snapshot.match(scheme: link.scheme, segments)
            // A host a mail client or proxy capitalised differently: matched once more in lowercase.
            if match == nil, policy.matchesHostIgnoringCase, !link.isWeb, let host = segments.first,
                host.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
            {
                var lowered = segments
                lowered[0] = Self.asciiLowercased(host)
                match = snapshot.match(scheme: link.scheme, lowered)
            }
            if let match { return routedCall(url, match, link: link, extra: extra, policy: policy) }
        }
        return builtInCall(url, extra: extra, policy: policy, handler: handler, link: link)
    }

    /// The call a route match makes: the URL rules checked for its destination, then the params
    /// merged (query, then path, then in-process, then the mediator's keys).
    private func routedCall(_ url: String, _ match: RouteMatch<RouteDestination>, link: LinkURL, extra: Params?, policy: URLPolicy) -> URLCall {
        let destination = match.payload
        if let why = Self.brokenTargetRule(target: destination.target, action: destination.action, policy: policy) {
            var error = MediatorError(
                .forbidden, target: destination.target, action: destination.action,
                reason: "\(describe(url, limit: 120)) (route \"\(oneLine(match.pattern, limit: 200))\") refused: \(why)")
            error.isURLRefusal = true
            return .failed(error)
        }
        let query: Params
        switch URLParser.parseQuery(url, range: link.query, target: destination.target, action: destination.action, policy: policy) {
        case .success(let parsed): query = parsed
        case .failure(let error): return .failed(error)
        }
        var values = query.values
        for (name, value) in match.parameters { values[name] = value }
        if let rest = match.rest { values[URLRoute.restKey] = rest }
        if let extra { values.merge(extra.values) { _, given in given } }
        values[URLRoute.patternKey] = match.pattern
        values[URLRoute.urlKey] = url
        values[URLRoute.schemeKey] = link.scheme
        return .call(target: destination.target, action: destination.action, params: Params(values))
    }

    /// The call of a URL of the form `scheme://Target/action?query`, or the question for
    /// `handler` when it is not of that form or names nothing registered. `link`: the URL as
    /// routes saw it, when they did (`nil` on the path with neither routes nor handler).
    private func builtInCall(_ url: String, extra: Params?, policy: URLPolicy, handler: UnmatchedURLHandler?, link: LinkURL?) -> URLCall {
        var parsed: CallURL
        switch URLParser.parseHead(url, policy: policy) {
        case .success(let head): parsed = head
        case .failure(let error):
            guard let link else { return .failed(error) }
            let path =
                link.segments == nil
                ? "a path of more than \(RouteTrie<RouteDestination>.maximumSegments) segments" : "\"\(oneLine(link.shownPath, limit: 200))\""
            let notFound = MediatorError(
                .routeNotFound, reason: "\(describe(url, limit: 120)): no route matches \(path) (read as scheme://Target/action, it is an \(error.reason))")
            guard let handler else { return .failed(notFound) }
            return unmatched(url, link: link, extra: extra, policy: policy, handler: handler, otherwise: .failed(notFound))
        }
        if policy.matchesHostIgnoringCase {
            switch registeredTarget(ignoringCaseOf: parsed.target) {
            case .success(let name): parsed = CallURL(scheme: parsed.scheme, target: name, action: parsed.action, query: parsed.query)
            case .failure(let error): return .failed(URLParser.invalid(url, error.reason, target: parsed.target, action: parsed.action))
            }
        }
        if let refusal = refusal(of: parsed, url: url, policy: policy) { return .failed(refusal) }
        let params: Params
        switch URLParser.parseQuery(url, parsed, policy: policy) {
        case .success(let query): params = extra.map { Params(query.values.merging($0.values) { _, given in given }) } ?? query
        case .failure(let error): return .failed(error)
        }
        let call = URLCall.call(target: parsed.target, action: parsed.action, params: params)
        if let handler, let link, !answersURLs(target: parsed.target, action: parsed.action) {
            return unmatched(url, link: link, extra: extra, policy: policy, handler: handler, otherwise: call)
        }
        return call
    }

    /// The question for the unmatched-URL handler, with the query's params and `extra` over them.
    private func unmatched(
        _ url: String, link: LinkURL, extra: Params?, policy: URLPolicy, handler: @escaping UnmatchedURLHandler, otherwise: URLCall
    ) -> URLCall {
        let query: Params
        switch URLParser.parseQuery(url, range: link.query, target: nil, action: nil, policy: policy) {
        case .success(let parsed): query = parsed
        case .failure(let error): return .failed(error)
        }
        let params = extra.map { Params(query.values.merging($0.values) { _, given in given }) } ?? query
        return .unmatched(UnmatchedURL(url: url, scheme: link.scheme, path: link.segments ?? [], params: params), handler, otherwise: otherwise)
    }

    /// Whether a call to `target`/`action` (canonical) reaches something registered: the action
    /// itself, or a redirect or degradation of it. Interceptors are not asked.
    private func answersURLs(target: String, action: String) -> Bool {
        state.withReadLock { registry in
            if registry.slots[target]?.definition.actions[action] != nil { return true }
            return registry.interception?.redirects.redirects(target: target, action: action) ?? false
        }
    }

    /// The registered target `name` means, ignoring ASCII case: `name` itself when registered (or
    /// when nothing matches), the one target equal to it ignoring case, or an error naming them all
    /// when several are.
    private func registeredTarget(ignoringCaseOf name: String) -> Result<String, MediatorError> {
        let matches: [String] = state.withReadLock { registry in
            if registry.slots[name] != nil { return [name] }
            let lowered = Self.asciiLowercased(name)
            return registry.slots.keys.filter { Self.asciiLowercased($0) == lowered }.sorted()
        }
        if matches.count > 1 {
            return .failure(
                MediatorError(
                    .invalidURL,
                    reason: "the target \"\(name)\" matches several targets ignoring case (\(matches.joined(separator: ", "))); name one exactly"))
        }
        return .success(matches.first ?? name)
    }

    /// `text` with ASCII capitals made small, other bytes unchanged.
    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// The `forbidden` error for a URL the policy or CTMediator's `native` rule refuses. The names
    /// are canonical (the parser made them so), the same strings dispatch will resolve.
    private func refusal(of url: CallURL, url text: String, policy: URLPolicy) -> MediatorError? {
        let target = url.target
        let action = url.action
        let why: String
        if let schemes = policy.allowedSchemes, !schemes.contains(url.scheme) {
            why = "the scheme \"\(url.scheme)\" is not allowed (allowed: \(schemes.sorted().joined(separator: ", ")))"
        } else if let broken = Self.brokenTargetRule(target: target, action: action, policy: policy) {
            why = broken
        } else {
            return nil
        }
        var error = MediatorError(.forbidden, target: target, action: action, reason: "\(describe(text, limit: 120)) refused: \(why)")
        error.isURLRefusal = true
        return error
    }

    /// The URL rule a call to `target`/`action` breaks, in words, or `nil`: the policy's target
    /// allow-list, then the `native` prefix. Checked for the URL's own names and for every
    /// destination a redirect or degradation sends a URL call to.
    static func brokenTargetRule(target: String, action: String, policy: URLPolicy) -> String? {
        if let targets = policy.allowedTargets, !targets.contains(target) {
            return "target \"\(target)\" is not open to URL calls (allowed: \(targets.sorted().joined(separator: ", ")))"
        }
        if Names.isNative(action) { return "actions whose name begins with \"native\" cannot be called by URL" }
        return nil
    }
}
