/// An immutable trie of deep-link routes (``RoutePattern``s), built once by a
/// ``RouteTrieBuilder`` and matched against paths many times, from any thread.
///
/// Each node has at most one child per kind: literal children in a dictionary keyed by the
/// segment's bytes, one child per placeholder type (`int`, `uuid`, `alpha`, in that order), one
/// untyped placeholder child and one wildcard child. Matching a path is one walk down the trie; it
/// never looks at the list of routes, so its cost does not grow with the number of routes.
struct RouteTrie<Payload: Sendable>: Sendable {
    /// Paths with more segments than this never match (and are not walked): it bounds the work
    /// and the recursion depth of one match.
    static var maximumSegments: Int { 64 }

    /// One registered route.
    struct Route: Sendable {
        /// The parsed pattern, with the text as registered.
        let pattern: RoutePattern
        /// What the route leads to.
        let payload: Payload
        /// Higher wins when several routes match one path.
        let priority: Int
        /// Registration order: earlier wins when everything else is equal.
        let order: Int
    }

    /// A route as listed by ``routes``.
    struct Listing: Sendable {
        /// The pattern as registered.
        let pattern: String
        /// The route's payload.
        let payload: Payload
        /// The route's priority.
        let priority: Int
    }

    /// A trie node. Children are indices into ``nodes``, always greater than the parent's.
    private struct Node: Sendable {
        /// Literal children, by the segment's bytes.
        var literals: [RouteLiteral: Int] = [:]
        /// The same children when there are at most ``linearLiteralCount``: compared one by one,
        /// which for so few costs less than hashing the segment.
        var fewLiterals: [(literal: RouteLiteral, node: Int)]?
        /// Typed placeholder children, in the order of ``RoutePlaceholderType/allCases``;
        /// precomputed so that matching does not build a list of candidates.
        var typed: [TypedChild] = []
        /// The untyped placeholder child.
        var parameter: Int?
        /// The wildcard child: it only has terminals, as `*` is always last.
        var wildcard: Int?
        /// The variants that end here, best first (priority, then registration order, then
        /// variant order). They all have the same shape, so the first is the best of them.
        var terminals: [Terminal] = []
        /// The highest priority of a terminal in this node's subtree, `nil` if it has none: the
        /// walk skips subtrees that cannot beat what it already found.
        var bestPriority: Int?
    }

    /// A typed placeholder child.
    private struct TypedChild: Sendable {
        /// The type a segment must have to go down this child.
        let type: RoutePlaceholderType
        /// The child's index.
        let node: Int
    }

    /// A variant of a route ending at a node, with where its captures are in the path.
    private struct Terminal: Sendable {
        /// Index into ``table``.
        let route: Int
        /// The route's priority (copied here for the walk).
        let priority: Int
        /// The route's registration order.
        let order: Int
        /// The variant's index in its pattern's expansion order.
        let variant: Int
        /// Placeholder names by segment index: names live here, not in the nodes, because
        /// `/user/:id` and `/user/:uid` share one node.
        let captures: [(index: Int, name: String)]
        /// The index of the first segment the wildcard matched, if the variant ends with `*`.
        let restStart: Int?
    }

    /// The best terminal found so far by a walk.
    private struct Best {
        /// The node whose first terminal it is.
        var node: Int
        /// That terminal's priority.
        var priority: Int
    }

    /// The routes, in registration order.
    private let table: [Route]
    /// The nodes; the root is the first.
    private let nodes: [Node]
    /// The highest priority of any route: a walk stops at the first match with it.
    private let topPriority: Int?

    /// A trie of `routes` (their `order`s must be distinct). Use ``RouteTrieBuilder``, which
    /// rejects duplicates, rather than this directly.
    init(routes: [Route]) {
        var nodes = [Node()]
        for (routeIndex, route) in routes.enumerated() {
            for (variantIndex, variant) in route.pattern.variants.enumerated() {
                var current = 0
                var captures: [(index: Int, name: String)] = []
                var restStart: Int?
                for (index, segment) in variant.segments.enumerated() {
                    current = Self.child(of: current, for: segment, in: &nodes)
                    switch segment {
                    case .literal: break
                    case .parameter(let name, _): captures.append((index, name))
                    case .wildcard: restStart = index
                    }
                }
                let terminal = Terminal(
                    route: routeIndex, priority: route.priority, order: route.order, variant: variantIndex, captures: captures, restStart: restStart)
                nodes[current].terminals.append(terminal)
            }
        }
        // Children come after their parents, so one backward pass sees every child first.
        for index in nodes.indices.reversed() {
            nodes[index].terminals.sort { ($0.priority, -$0.order, -$0.variant) > ($1.priority, -$1.order, -$1.variant) }
            var best = nodes[index].terminals.first?.priority
            var children = Array(nodes[index].literals.values) + nodes[index].typed.map(\.node)
            children += [nodes[index].parameter, nodes[index].wildcard].compactMap { $0 }
            for child in children {
                if let priority = nodes[child].bestPriority, best.map({ priority > $0 }) ?? true { best = priority }
            }
            nodes[index].bestPriority = best
            if nodes[index].literals.count <= Self.linearLiteralCount {
                nodes[index].fewLiterals = nodes[index].literals.map { ($0.key, $0.value) }
            }
        }
        self.table = routes
        self.nodes = nodes
        self.topPriority = nodes[0].bestPriority
    }

    /// The child of `parent` for `segment`, created if needed.
    private static func child(of parent: Int, for segment: RouteVariant.Segment, in nodes: inout [Node]) -> Int {
        let created = nodes.count
        switch segment {
        case .literal(let text):
            if let existing = nodes[parent].literals[RouteLiteral(text)] { return existing }
            nodes[parent].literals[RouteLiteral(text)] = created
        case .parameter(_, nil):
            if let existing = nodes[parent].parameter { return existing }
            nodes[parent].parameter = created
        case .parameter(_, let type?):
            if let existing = nodes[parent].typed.first(where: { $0.type == type }) { return existing.node }
            nodes[parent].typed.append(TypedChild(type: type, node: created))
            let order = RoutePlaceholderType.allCases
            nodes[parent].typed.sort { order.firstIndex(of: $0.type)! < order.firstIndex(of: $1.type)! }
        case .wildcard:
            if let existing = nodes[parent].wildcard { return existing }
            nodes[parent].wildcard = created
        }
        nodes.append(Node())
        return created
    }

    // MARK: - Matching

    /// The best route for a path, with its captures; `nil` if none matches.
    ///
    /// `segments` are the path's segments already split on `/` and already percent-decoded (the
    /// caller drops one trailing empty segment, from a trailing `/`; this takes them as given, and
    /// an empty segment matches no placeholder). Literals are compared byte for byte. More than
    /// ``maximumSegments`` segments never match.
    ///
    /// Which route wins when several match:
    /// 1. the highest priority;
    /// 2. then the best sequence of segment kinds, compared segment by segment from the left:
    ///    literal before typed placeholder before untyped placeholder before wildcard, and a path
    ///    that ends before a wildcard (which then matches nothing) before the wildcard;
    /// 3. then the earliest registered;
    /// 4. then, between two variants of one route, the earlier in expansion order.
    ///
    /// The walk tries, at each segment, the literal child, then the typed children, then the
    /// untyped one, then the wildcard, backtracking when a branch fails deeper. Two branches that
    /// both match differ first at a segment where their kinds differ (one literal child can match
    /// a segment, and the types are disjoint), so the walk meets matches in the order of rule 2:
    /// with all priorities equal the first match found is the best. With priorities, it keeps the
    /// best priority found, skips subtrees whose best priority is not higher, and stops at a match
    /// with the highest priority of all. Each node is entered at most once, so the work is bounded
    /// by the nodes along the path's possible matches, with at most six children tried per node.
    func match<Text: RouteSegmentText>(_ segments: [Text]) -> RouteMatch<Payload>? {
        guard let best = bestNode(for: segments) else { return nil }
        let terminal = nodes[best].terminals[0]
        let route = table[terminal.route]
        var parameters: [String: String] = Dictionary(minimumCapacity: terminal.captures.count)
        for capture in terminal.captures { parameters[capture.name] = String(segments[capture.index]) }
        let rest = terminal.restStart.map { segments[$0...].map { String($0) } }
        return RouteMatch(payload: route.payload, pattern: route.pattern.text, priority: route.priority, parameters: parameters, rest: rest)
    }

    /// The payload and pattern of the route ``match(_:)`` would return, capturing nothing.
    func destination<Text: RouteSegmentText>(_ segments: [Text]) -> (payload: Payload, pattern: String)? {
        guard let best = bestNode(for: segments) else { return nil }
        let route = table[nodes[best].terminals[0].route]
        return (route.payload, route.pattern.text)
    }

    /// Whether some route matches `segments` (a dry run of ``match(_:)``: nothing is captured).
    func canMatch<Text: RouteSegmentText>(_ segments: [Text]) -> Bool {
        bestNode(for: segments) != nil
    }

    /// The node whose first terminal is the best match, if any.
    private func bestNode<Text: RouteSegmentText>(for segments: [Text]) -> Int? {
        guard topPriority != nil, segments.count <= Self.maximumSegments else { return nil }
        var best: Best?
        _ = search(0, depth: 0, segments, &best)
        return best?.node
    }

    /// Walks `node`'s subtree for `segments[depth...]`, updating `best`; `true` when the walk can
    /// stop (`best` has the highest priority there is).
    private func search<Text: RouteSegmentText>(_ node: Int, depth: Int, _ segments: [Text], _ best: inout Best?) -> Bool {
        guard let subtreeBest = nodes[node].bestPriority else { return false }
        if let best, subtreeBest <= best.priority { return false }
        guard depth < segments.count else {
            if consider(node, &best) { return true }
            if let wildcard = nodes[node].wildcard, consider(wildcard, &best) { return true }
            return false
        }
        let segment = segments[depth]
        if let literal = literalChild(of: node, segment), search(literal, depth: depth + 1, segments, &best) { return true }
        if !segment.isEmpty {
            for typed in nodes[node].typed where typed.type.accepts(segment) {
                if search(typed.node, depth: depth + 1, segments, &best) { return true }
            }
            if let parameter = nodes[node].parameter, search(parameter, depth: depth + 1, segments, &best) { return true }
        }
        if let wildcard = nodes[node].wildcard, consider(wildcard, &best) { return true }
        return false
    }

    /// The most literal children a node compares one by one rather than by hash.
    private static var linearLiteralCount: Int { 4 }

    /// `node`'s literal child for `segment`, if any.
    @inline(__always)
    private func literalChild<Text: RouteSegmentText>(of node: Int, _ segment: Text) -> Int? {
        let key = RouteLiteral(segment)
        if let few = nodes[node].fewLiterals {
            for entry in few where entry.literal == key { return entry.node }
            return nil
        }
        return nodes[node].literals[key]
    }

    /// Takes `node`'s best terminal if it beats `best`; `true` when nothing can beat `best` now.
    private func consider(_ node: Int, _ best: inout Best?) -> Bool {
        guard let priority = nodes[node].terminals.first?.priority else { return false }
        if best.map({ priority > $0.priority }) ?? true { best = Best(node: node, priority: priority) }
        return best?.priority == topPriority
    }

    // MARK: - Listing

    /// Every route, in the order matching prefers them: highest priority first, then by the best
    /// sequence of segment kinds among each route's variants (as in ``match(_:)``), then by
    /// registration order. For listings such as a future `mediate routes`.
    var routes: [Listing] {
        let keyed = table.map { route in
            (route: route, kinds: route.pattern.variants.map(Self.kindRanks).min { $0.lexicographicallyPrecedes($1) } ?? [])
        }
        let sorted = keyed.sorted { lhs, rhs in
            if lhs.route.priority != rhs.route.priority { return lhs.route.priority > rhs.route.priority }
            if lhs.kinds != rhs.kinds { return lhs.kinds.lexicographicallyPrecedes(rhs.kinds) }
            return lhs.route.order < rhs.route.order
        }
        return sorted.map { Listing(pattern: $0.route.pattern.text, payload: $0.route.payload, priority: $0.route.priority) }
    }

    /// A variant's segment kinds as ranks (literal 0, typed 1, untyped 2, wildcard 3).
    private static func kindRanks(_ variant: RouteVariant) -> [Int] {
        variant.segments.map { segment in
            switch segment {
            case .literal: return 0
            case .parameter(_, let type): return type == nil ? 2 : 1
            case .wildcard: return 3
            }
        }
    }
}

// MARK: - Building

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
