/// Collects routes, rejecting duplicates, and builds a ``RouteTrie`` from them.
///
/// Two routes are duplicates when they match exactly the same URLs: their sets of variants are
/// equal once parameter names are ignored (`/user/:id` and `/user/:uid`, or `/a(/b)` and
/// `/a(/b)`). A route that shares only some variants with another (`/a(/b)` and `/a`), or whose
/// URLs are a subset of another's (`/user/:id<int>` and `/user/:id`), is not a duplicate.
///
/// Routes are found by a hash of their shape (``RoutePattern/shapeHash``), and two routes with
/// the same hash are compared shape to shape, so that the builder keeps one integer per route for
/// finding duplicates rather than a set of arrays.
struct RouteTrieBuilder<Payload: Sendable> {
    /// The routes, by registration order.
    private var routes: [Int: RouteTrie<Payload>.Route] = [:]
    /// The registration order of the first route with each shape hash still here.
    private var byShape: [Int: Int] = [:]
    /// The registration orders of the other routes whose shape hash is taken (a hash collision
    /// between different shapes: nearly never).
    private var sharingShapeHash: [Int: [Int]] = [:]
    /// The order the next route gets.
    private var nextOrder = 0
    /// The ``RoutePattern/size`` of the routes, summed.
    private(set) var size = 0

    /// An empty builder.
    init() {}

    /// Adds a route for `pattern`. Throws a ``RouteError`` if the pattern is malformed, or if it
    /// duplicates a route (``RouteError/Problem/duplicateRoute(existing:)``) unless `replacing` is
    /// `true`: then the old route is removed and the new one added, last in registration order.
    mutating func add(_ pattern: String, payload: Payload, priority: Int = 0, replacing: Bool = false) throws {
        try add(RoutePattern(parsing: pattern), payload: payload, priority: priority, replacing: replacing)
    }

    /// The route that matches exactly the URLs of `pattern`, if any.
    func existing(_ pattern: RoutePattern) -> RouteTrie<Payload>.Route? {
        guard let first = byShape[pattern.shapeHash] else { return nil }
        let shape = pattern.shape
        if let route = routes[first], route.pattern.shape == shape { return route }
        for order in sharingShapeHash[pattern.shapeHash] ?? [] {
            if let route = routes[order], route.pattern.shape == shape { return route }
        }
        return nil
    }

    /// ``add(_:payload:priority:replacing:)`` for a pattern already parsed; returns the route's
    /// registration order, which ``remove(order:)`` takes: `order` when given (larger than any
    /// given before: a table numbers the routes of all its schemes with one counter), else the
    /// builder's next.
    @discardableResult
    mutating func add(_ parsed: RoutePattern, payload: Payload, priority: Int = 0, replacing: Bool = false, order given: Int? = nil) throws -> Int {
        if let old = existing(parsed) {
            guard replacing else { throw RouteError(pattern: parsed.text, problem: .duplicateRoute(existing: old.pattern.text)) }
            remove(old)
        }
        precondition(given.map { $0 >= nextOrder } ?? true, "route orders must grow")
        let order = given ?? nextOrder
        nextOrder = order + 1
        routes[order] = RouteTrie<Payload>.Route(pattern: parsed, payload: payload, priority: priority, order: order)
        if byShape[parsed.shapeHash] == nil {
            byShape[parsed.shapeHash] = order
        } else {
            sharingShapeHash[parsed.shapeHash, default: []].append(order)
        }
        size += parsed.size
        return order
    }

    /// The number of routes added and not removed.
    var count: Int { routes.count }

    /// Removes the route that matches exactly the URLs `pattern` matches (whatever its parameter
    /// names); `false` when there is none or `pattern` is malformed.
    mutating func remove(_ pattern: String) -> Bool {
        guard let parsed = try? RoutePattern(parsing: pattern), let route = existing(parsed) else { return false }
        remove(route)
        return true
    }

    /// Removes the route that ``add(_:payload:priority:replacing:)`` gave this registration order,
    /// if it is still here (whatever was added or removed since): no pattern is parsed.
    mutating func remove(order: Int) -> Bool {
        guard let route = routes[order] else { return false }
        remove(route)
        return true
    }

    /// Forgets `route`.
    private mutating func remove(_ route: RouteTrie<Payload>.Route) {
        let hash = route.pattern.shapeHash
        routes[route.order] = nil
        if byShape[hash] == route.order {
            // The next route with this hash, if any, takes its place.
            byShape[hash] = sharingShapeHash[hash]?.first
            sharingShapeHash[hash]?.removeFirst()
        } else {
            sharingShapeHash[hash]?.removeAll { $0 == route.order }
        }
        if sharingShapeHash[hash]?.isEmpty == true { sharingShapeHash[hash] = nil }
        size -= route.pattern.size
    }

    /// The trie of the routes added so far; `foldingCase`: their literal text matched ignoring
    /// ASCII case (``URLPolicy/matchesRoutesIgnoringCase``).
    func build(foldingCase: Bool = false) -> RouteTrie<Payload> {
        RouteTrie(routes: routes.keys.sorted().compactMap { routes[$0] }, foldingCase: foldingCase)
    }
}
