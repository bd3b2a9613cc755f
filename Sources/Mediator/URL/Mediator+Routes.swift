// MARK: - Deep-link routes

extension Mediator {
    /// Routes URLs whose path matches `pattern` to `target`/`action`: JLRoutes' syntax, with
    /// typed placeholders.
    ///
    /// ```swift
    /// try mediator.route("/user/:id<int>(/:tab)", to: "Accounts", action: "profile")
    /// try mediator.route("/files/*", to: "Files", action: "open", scheme: "myapp")
    /// try mediator.route("/item/:id<int>", to: "Shop", action: "item", host: "shop.example.com")
    /// mediator.open("myapp://user/42/posts")   // Accounts/profile, params id "42", tab "posts"
    /// mediator.open("https://Shop.Example.com/item/7")   // Shop/item, id "7"
    /// ```
    ///
    /// For a custom scheme the host is the first segment of the path (`myapp://user/42` is
    /// `/user/42`); for `http` and `https` the host is the server and only the path is matched,
    /// against the routes for that host (`host`) first, then against the others.
    /// A routed call is a URL call: every URL rule applies to the route's destination, and an
    /// action declared local-only is refused when the URL is opened (a route may be added before
    /// its target is registered). The syntax, the precedence between routes and how params are
    /// merged are in <doc:DeepLinkRoutes>.
    ///
    /// - Parameters:
    ///   - pattern: the pattern, such as `/user/:id<int>/profile`.
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    ///   - scheme: the one scheme the route is for (compared ignoring case), or `nil` (the
    ///     default) for every scheme. A scheme's own routes are tried before those for every
    ///     scheme (only its own when ``URLPolicy/isolatedSchemes`` lists it).
    ///   - host: the one server the route is for, such as `shop.example.com` (compared ignoring
    ///     ASCII case), or `nil` (the default): see ``URLRoute/host``. Letters, digits, `-` and
    ///     `.`, with no port.
    ///   - priority: decides between routes of the same host and scheme group that match the same
    ///     URL: the higher wins, before any precedence between segment kinds (default 0).
    ///   - replacing: replace a route of the same scheme and host that matches exactly the same URLs,
    ///     instead of refusing it as `duplicateRoute`.
    /// - Throws: ``MediatorError`` with code `invalidRoute` (naming the pattern and what is wrong
    ///   with it), `duplicateRoute` (naming the route already there), `invalidName`, or
    ///   `forbidden` (an action named `native...`, which no URL may reach).
    public func route(
        _ pattern: String, to target: String, action: String, scheme: String? = nil, host: String? = nil, priority: Int = 0,
        replacing: Bool = false
    ) throws(MediatorError) {
        try addRoutes([URLRoute(pattern, target: target, action: action, scheme: scheme, host: host, priority: priority)], replacing: replacing)
    }

    /// Adds routes, all or none: when one is refused, none is added and the error names it.
    ///
    /// ```swift
    /// try mediator.addRoutes([
    ///     URLRoute("/notes/:id<int>", target: "Notes", action: "get"),
    ///     URLRoute("/notes/tag/:tag", target: "Notes", action: "list"),
    /// ])
    /// ```
    ///
    /// - Parameters:
    ///   - routes: the routes, as ``route(_:to:action:scheme:host:priority:replacing:)`` takes them.
    ///   - replacing: replace routes that match exactly the same URLs, instead of refusing them.
    /// - Throws: as ``route(_:to:action:scheme:host:priority:replacing:)``; the reason begins with the
    ///   route's position when there are several (`route 3 of 12: ...`). Route errors name the
    ///   pattern, not a call: their ``MediatorError/target`` and ``MediatorError/action`` are `nil`.
    public func addRoutes(_ routes: [URLRoute], replacing: Bool = false) throws(MediatorError) {
        try addRoutes(routes, replacing: replacing) { index in routes.count > 1 ? "route \(index + 1) of \(routes.count): " : "" }
    }

    /// ``addRoutes(_:replacing:)``, with the error of route `index` prefixed by `position(index)`;
    /// returns the keys of the routes added.
    @discardableResult
    private func addRoutes(_ routes: [URLRoute], replacing: Bool, position: (Int) -> String) throws(MediatorError) -> [RouteKey] {
        // Names and patterns are checked before the lock; duplicates under it, before any change.
        var entries: [RouteTable.Entry] = []
        entries.reserveCapacity(routes.count)
        // Routes that could not be added even to a mediator without any are refused as soon as
        // they are too many, before more of them are expanded into memory.
        var size = 0
        var schemes = Set<String>()
        for (index, route) in routes.enumerated() {
            do throws(MediatorError) {
                let entry = try Self.entry(for: route)
                size += entry.pattern.size
                if schemes.insert(entry.tableKey).inserted { size += RouteTable.schemeSize }
                if size > RouteTable.maximumSize { throw RouteTable.tooLarge(route, size: size) }
                entries.append(entry)
            } catch {
                throw error.prefixed(position(index))
            }
        }
        var old: RouteSnapshot?
        var keys: [RouteKey] = []
        let refusal: (index: Int, error: MediatorError)? = state.withLock { registry in
            if let refusal = registry.routes.refusal(of: entries, replacing: replacing) { return refusal }
            old = registry.routes.snapshot
            keys = registry.routes.add(entries, replacing: replacing)
            return nil
        }
        _ = old
        if let refusal {
            throw refusal.error.prefixed(position(refusal.index))
        }
        return keys
    }

    /// Adds the routes of a JSON route table, all or none: an array of objects with `pattern`,
    /// `target` and `action` strings, and optional `scheme` and `host` (strings; `null` is the same
    /// as leaving one out) and `priority` (an integer), as ``routes`` and `mediate routes --json`
    /// list them.
    ///
    /// ```json
    /// [{"pattern": "/notes/:id<int>", "target": "Notes", "action": "get", "priority": 0}]
    /// ```
    ///
    /// - Parameters:
    ///   - json: the table's text.
    ///   - replacing: replace routes that match exactly the same URLs, instead of refusing them.
    /// - Throws: ``MediatorError`` with code `invalidRoute` naming the entry at fault (`route 3:
    ///   "action" is missing`, an unknown member, a value of the wrong type, not JSON), or any
    ///   error ``addRoutes(_:replacing:)`` throws, with the entry's position as `route 3: `.
    public func addRoutes(json: String, replacing: Bool = false) throws(MediatorError) {
        try addedRoutes(json: json, replacing: replacing)
    }

    /// ``addRoutes(json:replacing:)``, returning the keys of the routes added, for
    /// ``removeRoutes(_:)`` (`mediate --routes` removes them again at the end of a run).
    @discardableResult
    package func addedRoutes(json: String, replacing: Bool = false) throws(MediatorError) -> [RouteKey] {
        // Entries are numbered as the table's reader numbers them, from 1, even when alone.
        try addRoutes(URLRoute.table(json: json), replacing: replacing) { index in "route \(index + 1): " }
    }

    /// Removes the routes that ``addedRoutes(json:replacing:)`` added and that are still here
    /// (none that was replaced or removed since, and no other), in one change.
    package func removeRoutes(_ keys: [RouteKey]) {
        var old: RouteSnapshot?
        state.withLock { registry in
            old = registry.routes.snapshot
            registry.routes.remove(keys)
        }
        _ = old
    }

    /// Removes the route of `scheme` and `host` (`nil`: the routes for every scheme, and those
    /// without a host) that matches exactly the URLs `pattern` matches, whatever its parameter
    /// names.
    ///
    /// - Parameters:
    ///   - pattern: the route's pattern.
    ///   - scheme: the scheme it was added for, or `nil`.
    ///   - host: the host it was added for, or `nil`.
    /// - Returns: `true` when a route was removed.
    @discardableResult
    public func removeRoute(_ pattern: String, scheme: String? = nil, host: String? = nil) -> Bool {
        // The empty scheme or host is none a route can be added for (and inside, the empty scheme
        // is the key of the routes for every scheme, which only `nil` names).
        if let scheme, !URLParser.isSchemeName(scheme.utf8) { return false }
        var server: String?
        if let host {
            guard let name = URLParser.serverName(host) else { return false }
            server = name
        }
        let key = RouteTable.key(scheme: scheme?.lowercased() ?? RouteTable.anyScheme, host: server)
        var old: RouteSnapshot?
        let removed = state.withLock { registry in
            old = registry.routes.snapshot
            return registry.routes.remove(pattern, tableKey: key)
        }
        _ = old
        return removed
    }

    /// Removes every route.
    public func removeAllRoutes() {
        // The old routes are released here, outside the lock.
        let old = state.withLock { registry in registry.routes.removeAll() }
        _ = old
    }

    /// Every route, in the order a URL is matched against them: the routes with a host (hosts
    /// sorted; for each, a scheme's before those for every scheme), each scheme's own routes
    /// (schemes sorted), then the routes for every scheme (which a scheme in
    /// ``URLPolicy/isolatedSchemes`` with routes of its own never reaches); within each, by
    /// priority (highest first), then by precedence (literal, typed, untyped placeholder,
    /// wildcard, segment by segment), then by registration order. Names are shown short.
    public var routes: [URLRoute] {
        routeSnapshot()?.listing ?? []
    }

    /// What answers a URL that matches no route and names no registered action (and no redirect),
    /// before the usual not-found path (the target's `notFound`, then the global fallback). JLRoutes'
    /// `unmatchedURLHandler`. `nil` (the default): such a URL goes straight to that path, or fails
    /// as `routeNotFound` when it names no action at all.
    ///
    /// ```swift
    /// mediator.unmatchedURLHandler = { url in
    ///     url.path.first == "legacy" ? .answer(LegacyLinks.open(url.url)) : .decline
    /// }
    /// ```
    ///
    /// The handler's answer is not seen by interceptors or observers. ``canOpen(_:)`` never runs it.
    /// A URL whose path has more than 64 segments (more than a route can match) is not shown to it.
    public var unmatchedURLHandler: UnmatchedURLHandler? {
        get { state.withReadLock { $0.unmatchedURLHandler } }
        set {
            var old = newValue
            state.withLock { registry in swap(&old, &registry.unmatchedURLHandler) }
            old = nil
        }
    }

    /// Whether opening `url` would reach an action: it is well-formed, a route matches it (or it
    /// is `scheme://Target/action`), and after the redirect table's hops (and the target's
    /// degradation, when the action is missing) the destination is a registered action that is
    /// not local-only, every hop allowed by the URL rules. JLRoutes' `canRouteURL:`.
    ///
    /// Runs nothing: no action, factory, interceptor, fallback or ``unmatchedURLHandler`` (so a
    /// URL that only the handler would answer gives `false`).
    ///
    /// - Parameter url: the URL, as text.
    /// - Returns: `true` when opening `url` would call an action.
    public func canOpen(_ url: String) -> Bool {
        guard case .call(let target, let action, _) = urlCall(url, extra: nil, capturing: false) else { return false }
        if case .action = plan(target: target, action: action, remote: true).end { return true }
        return false
    }

    /// The routes' tries, built first when routes changed since the last match, or were built
    /// folding case otherwise than ``URLPolicy/matchesRoutesIgnoringCase`` now says; `nil` when
    /// there are no routes.
    func routeSnapshot() -> RouteSnapshot? {
        let (count, current, folding) = state.withReadLock { registry in
            (registry.routes.count, registry.routes.snapshot, registry.urlPolicy.matchesRoutesIgnoringCase)
        }
        if count == 0 { return nil }
        if let current, current.foldsCase == folding { return current }
        // Built outside the registry's lock (most of a second for a table at its size limit,
        // during which every call would wait), by one thread at a time: the others wait here and
        // find its snapshot. Installed only if nothing changed meanwhile.
        let (snapshot, replaced) = routeBuild.withLock { _ -> (RouteSnapshot?, RouteSnapshot?) in
            let (current, builders, generation) = state.withReadLock { registry in
                (registry.routes.snapshot, registry.routes.builders, registry.routes.generation)
            }
            if let current, current.foldsCase == folding { return (current, nil) }
            if builders.isEmpty { return (nil, nil) }
            let made = RouteSnapshot(tries: builders.mapValues { $0.build(foldingCase: folding) }, foldsCase: folding)
            return state.withLock { registry in registry.routes.install(made, builtAt: generation) }
        }
        // A snapshot folded otherwise is released here, outside both locks.
        withExtendedLifetime(replaced) {}
        return snapshot
    }

    /// A route with its names made canonical, its scheme checked and its pattern parsed, or the
    /// error that refuses it.
    private static func entry(for route: URLRoute) throws(MediatorError) -> RouteTable.Entry {
        guard let target = Names.canonical(route.target, as: .target) else {
            throw MediatorError(
                .invalidName,
                reason:
                    "route \"\(oneLine(route.pattern, limit: 200))\": invalid target name \"\(oneLine(route.target, limit: 100))\": \(Names.problem(with: route.target, as: .target) ?? "")"
            )
        }
        guard let action = Names.canonical(route.action, as: .action) else {
            throw MediatorError(
                .invalidName,
                reason:
                    "route \"\(oneLine(route.pattern, limit: 200))\": invalid action name \"\(oneLine(route.action, limit: 100))\": \(Names.problem(with: route.action, as: .action) ?? "")"
            )
        }
        if Names.isNative(action) {
            throw MediatorError(
                .forbidden,
                reason: "route \"\(oneLine(route.pattern, limit: 200))\": actions whose name begins with \"native\" cannot be reached by URL")
        }
        var scheme = RouteTable.anyScheme
        if let given = route.scheme {
            guard URLParser.isSchemeName(given.utf8) else {
                throw MediatorError(
                    .invalidRoute,
                    reason:
                        "route \"\(oneLine(route.pattern, limit: 200))\": the scheme \"\(oneLine(given, limit: 60))\" must be a letter followed by letters, digits, \"+\", \"-\" or \".\""
                )
            }
            scheme = given.lowercased()
        }
        var host: String?
        if let given = route.host {
            guard let name = URLParser.serverName(given) else {
                throw MediatorError(
                    .invalidRoute,
                    reason:
                        "route \"\(oneLine(route.pattern, limit: 200))\": the host \"\(oneLine(given, limit: 100))\" must be a server's name: 1 to 253 letters, digits, \"-\" or \".\", no empty label, no port"
                )
            }
            host = name
        }
        var shown = route
        shown.target = target
        shown.action = action
        shown.scheme = scheme.isEmpty ? nil : scheme
        shown.host = host
        let pattern: RoutePattern
        do {
            pattern = try RoutePattern(parsing: route.pattern)
        } catch let error as RouteError {
            throw RouteTable.error(error, scheme: shown.scheme, host: host)
        } catch {
            throw MediatorError(.invalidRoute, reason: "route \"\(oneLine(route.pattern, limit: 200))\": \(error)")
        }
        return RouteTable.Entry(
            route: shown, destination: RouteDestination(target: target, action: action), tableKey: RouteTable.key(scheme: scheme, host: host),
            pattern: pattern)
    }
}

extension MediatorError {
    /// The same error with `prefix` before its reason.
    func prefixed(_ prefix: String) -> MediatorError {
        var error = self
        error.reason = prefix + error.reason
        return error
    }
}

// MARK: - For the benchmarks

extension Mediator {
    /// The route a pre-split path matches for `scheme` (lowercased), with its captures: the
    /// matcher alone, without parsing a URL or calling anything, as routing-kit's `TrieRouter`
    /// lookup is measured (`routeTrieMatch10` and `routeTrieMatch10000` in `mediator-bench`).
    ///
    /// - Parameters:
    ///   - scheme: the scheme, lowercased (matched as a scheme that is not isolated, whatever
    ///     ``URLPolicy/isolatedSchemes`` says).
    ///   - segments: the path's segments, percent-decoded (for a custom scheme, the host first).
    /// - Returns: the destination's canonical names and the placeholders' captures (name and
    ///   segment, in the pattern's order), or `nil`.
    package func matchRoute(scheme: String, segments: [String]) -> (target: String, action: String, captures: [(name: String, value: String)])? {
        guard let match = routeSnapshot()?.match(scheme: scheme, segments, isolated: []) else { return nil }
        return (match.payload.target, match.payload.action, match.captures)
    }
}
