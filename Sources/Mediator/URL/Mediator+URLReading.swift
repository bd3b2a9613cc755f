// MARK: - Reading what a URL asks for

extension Mediator {
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
    enum URLCall {
        /// Call `target`/`action` (canonical names) with `params`.
        case call(target: String, action: String, params: Params)
        /// Ask `handler`; if it declines, go on with `otherwise`. The one boxed case: a plain
        /// call allocates nothing for it.
        indirect case unmatched(UnmatchedURL, UnmatchedURLHandler, otherwise: URLCall)
        /// Refused or malformed.
        case failed(MediatorError)
    }

    /// Reads what `url` asks for under the URL rules: routes first, then the form
    /// `scheme://Target/action`, then the unmatched-URL handler. See <doc:DeepLinkRoutes>.
    /// `capturing`: `false` for a dry run (``canOpen(_:)``), which needs the destination, not the
    /// params: a routed call then carries only the query's.
    func urlCall(_ url: String, extra: Params?, capturing: Bool = true) -> URLCall {
        // The common case, no routes and no handler, copies neither out of the lock.
        let (policy, hasHandler, hasRoutes) = state.withReadLock { registry in
            (registry.urlPolicy, registry.unmatchedURLHandler != nil, registry.routes.count > 0)
        }
        if !hasRoutes && !hasHandler {
            if policy.readsFragmentsAsRoutes, let problem = URLParser.fragmentProblem(url, policy: policy) {
                return .failed(URLParser.invalid(url, problem))
            }
            return builtInCall(url, extra: extra, policy: policy, handler: nil, link: nil)
        }
        let handler = hasHandler ? unmatchedURLHandler : nil

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
        // Refused whatever it names, as with no routes: skipping the routes for the form
        // scheme://Target/action would let a link get past a route by its fragment.
        if let problem = link.fragmentProblem { return .failed(URLParser.invalid(url, problem)) }
        if hasRoutes, let segments = link.segments, let snapshot = routeSnapshot() {
            // A host a mail client or proxy capitalised differently is matched once more in lowercase.
            let lowered = { () -> [String]? in
                // Only a host: with an empty authority the first segment is a path segment.
                // The host alone: a fragment read as a route may follow it in the first segment.
                guard policy.matchesHostIgnoringCase, link.hostIsSegment, let first = segments.first,
                    link.host.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
                else { return nil }
                var lowered = segments
                lowered[0] = Self.asciiLowercased(link.host) + String(decoding: first.utf8.dropFirst(link.host.utf8.count), as: UTF8.self)
                return lowered
            }
            // The link's server, read only when a route has a host.
            let server = snapshot.hasHostRoutes ? link.server(in: url) : nil
            if capturing {
                if let match = snapshot.match(scheme: link.scheme, server: server, segments, isolated: policy.isolatedSchemes)
                    ?? lowered().flatMap({ snapshot.match(scheme: link.scheme, $0, isolated: policy.isolatedSchemes) })
                {
                    return routedCall(url, match, link: link, extra: extra, policy: policy)
                }
            } else if let found = snapshot.destination(scheme: link.scheme, server: server, segments, isolated: policy.isolatedSchemes)
                ?? lowered().flatMap({ snapshot.destination(scheme: link.scheme, $0, isolated: policy.isolatedSchemes) })
            {
                let match = RouteMatch(payload: found.payload, pattern: found.pattern, priority: 0, captures: [], rest: nil)
                return routedCall(url, match, link: link, extra: nil, policy: policy, capturing: false)
            }
        }
        // Once routes are registered, the host of a web link is a server, never a target.
        if hasRoutes && link.isWeb { return notRouted(url, link: link, extra: extra, policy: policy, handler: handler, detail: nil) }
        return builtInCall(url, extra: extra, policy: policy, handler: handler, link: link)
    }

    /// The call a route match makes: the URL rules checked for its destination, then the params
    /// merged (query, then path, then in-process, then the mediator's keys).
    /// `capturing`: `false` when only the destination matters (a dry run): the query is checked,
    /// and nothing is merged.
    private func routedCall(
        _ url: String, _ match: RouteMatch<RouteDestination>, link: LinkURL, extra: Params?, policy: URLPolicy, capturing: Bool = true
    ) -> URLCall {
        let destination = match.payload
        if let why = Self.brokenTargetRule(target: destination.target, action: destination.action, policy: policy) {
            var error = MediatorError(
                .forbidden, target: destination.target, action: destination.action,
                reason: "\(describe(url, limit: 120)) (route \"\(oneLine(match.pattern, limit: 200))\") refused: \(why)")
            error.isURLRefusal = true
            return .failed(error)
        }
        let query: Params
        switch URLParser.parseQuery(url, range: link.query, more: link.fragmentQuery, target: destination.target, action: destination.action, policy: policy) {
        case .success(let parsed): query = parsed
        case .failure(let error): return .failed(error)
        }
        guard capturing else { return .call(target: destination.target, action: destination.action, params: query) }
        var values = query.values
        // Sized once: growing a dictionary rehashes what it holds.
        values.reserveCapacity(values.count + match.captures.count + (extra?.count ?? 0) + 4)
        for (name, value) in match.captures { values[name] = value }
        if let extra { values.merge(extra.values) { _, given in given } }
        // Every one of the mediator's keys is its own: `@rest` is absent when the route has no `*`.
        values[URLRoute.restKey] = match.rest
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
            return notRouted(url, link: link, extra: extra, policy: policy, handler: handler, detail: error.reason)
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

    /// A URL no route matches and that names no call: `routeNotFound`, or first the question for
    /// `handler`. `detail`: why the URL is not of the form `scheme://Target/action`, if it was read so.
    private func notRouted(_ url: String, link: LinkURL, extra: Params?, policy: URLPolicy, handler: UnmatchedURLHandler?, detail: String?) -> URLCall {
        let path =
            link.segments == nil
            ? "a path of more than \(RouteTrie<RouteDestination>.maximumSegments) segments" : "\"\(oneLine(link.shownPath, limit: 200))\""
        // Why it is not `scheme://Target/action`, without the URL the parser's reason quotes again.
        let quoted = "invalid URL \(describe(url, limit: 120)): "
        let asBuiltIn = detail.map { " (and as scheme://Target/action: \($0.hasPrefix(quoted) ? String($0.dropFirst(quoted.count)) : $0))" } ?? ""
        let notFound = MediatorError(.routeNotFound, reason: "\(describe(url, limit: 120)): no route matches \(path)\(asBuiltIn)")
        guard let handler else { return .failed(notFound) }
        return unmatched(url, link: link, extra: extra, policy: policy, handler: handler, otherwise: .failed(notFound))
    }

    /// The question for the unmatched-URL handler, with the query's params and `extra` over them.
    private func unmatched(
        _ url: String, link: LinkURL, extra: Params?, policy: URLPolicy, handler: @escaping UnmatchedURLHandler, otherwise: URLCall
    ) -> URLCall {
        // A path too long to split (more than the segments a route can have) is not shown to the
        // handler: it would see no path at all, the home link's.
        guard let segments = link.segments else { return otherwise }
        let query: Params
        switch URLParser.parseQuery(url, range: link.query, more: link.fragmentQuery, target: nil, action: nil, policy: policy) {
        case .success(let parsed): query = parsed
        case .failure(let error): return .failed(error)
        }
        let params = extra.map { Params(query.values.merging($0.values) { _, given in given }) } ?? query
        return .unmatched(UnmatchedURL(url: url, scheme: link.scheme, path: segments, params: params), handler, otherwise: otherwise)
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
