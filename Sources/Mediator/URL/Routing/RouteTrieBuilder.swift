/// Collects routes, rejecting duplicates, and builds a ``RouteTrie`` from them.
///
/// Two routes are duplicates when they match exactly the same URLs: their sets of variants are
/// equal once parameter names are ignored (`/user/:id` and `/user/:uid`, or `/a(/b)` and
/// `/a(/b)`). A route that shares only some variants with another (`/a(/b)` and `/a`), or whose
/// URLs are a subset of another's (`/user/:id<int>` and `/user/:id`), is not a duplicate: it is
/// registered, and ``add(_:payload:priority:replacing:)`` returns the patterns it shares a variant
/// with, for a caller that wants to warn.
struct RouteTrieBuilder<Payload: Sendable> {
    /// The routes, by registration order.
    private var routes: [Int: RouteTrie<Payload>.Route] = [:]
    /// The registration order of the route with each shape (set of variant shapes).
    private var byShape: [Set<[RouteVariant.Shape]>: Int] = [:]
    /// The registration orders of the routes with each variant shape, for overlap reports.
    private var byVariant: [[RouteVariant.Shape]: Set<Int>] = [:]
    /// The order the next route gets.
    private var nextOrder = 0

    /// An empty builder.
    init() {}

    /// Adds a route for `pattern`. Throws a ``RouteError`` if the pattern is malformed, or if it
    /// duplicates a route (``RouteError/Problem/duplicateRoute(existing:)``) unless `replacing` is
    /// `true`: then the old route is removed and the new one added, last in registration order.
    /// Returns the patterns of the routes that remain and share at least one variant with it
    /// (partial overlaps, not errors), in registration order.
    @discardableResult
    mutating func add(_ pattern: String, payload: Payload, priority: Int = 0, replacing: Bool = false) throws -> [String] {
        try add(RoutePattern(parsing: pattern), payload: payload, priority: priority, replacing: replacing)
    }

    /// The pattern, as registered, of the route that matches exactly the URLs of `shape`, if any.
    func existing(_ shape: Set<[RouteVariant.Shape]>) -> String? {
        byShape[shape].flatMap { routes[$0]?.pattern.text }
    }

    /// ``add(_:payload:priority:replacing:)`` for a pattern already parsed.
    @discardableResult
    mutating func add(_ parsed: RoutePattern, payload: Payload, priority: Int = 0, replacing: Bool = false) throws -> [String] {
        let pattern = parsed.text
        let shape = parsed.shape
        if let existing = byShape[shape] {
            guard replacing, let old = routes[existing] else {
                throw RouteError(pattern: pattern, problem: .duplicateRoute(existing: routes[existing]?.pattern.text ?? ""))
            }
            remove(old)
        }
        let order = nextOrder
        nextOrder += 1
        var overlapping = Set<Int>()
        for variant in shape {
            overlapping.formUnion(byVariant[variant, default: []])
            byVariant[variant, default: []].insert(order)
        }
        routes[order] = RouteTrie<Payload>.Route(pattern: parsed, payload: payload, priority: priority, order: order)
        byShape[shape] = order
        return overlapping.sorted().compactMap { routes[$0]?.pattern.text }
    }

    /// The number of routes added and not removed.
    var count: Int { routes.count }

    /// Removes the route that matches exactly the URLs `pattern` matches (whatever its parameter
    /// names); `false` when there is none or `pattern` is malformed.
    mutating func remove(_ pattern: String) -> Bool {
        guard let parsed = try? RoutePattern(parsing: pattern), let order = byShape[parsed.shape], let route = routes[order] else { return false }
        remove(route)
        return true
    }

    /// Forgets `route`.
    private mutating func remove(_ route: RouteTrie<Payload>.Route) {
        let shape = route.pattern.shape
        routes[route.order] = nil
        byShape[shape] = nil
        for variant in shape { byVariant[variant]?.remove(route.order) }
    }

    /// The trie of the routes added so far.
    func build() -> RouteTrie<Payload> {
        RouteTrie(routes: routes.keys.sorted().compactMap { routes[$0] })
    }
}
