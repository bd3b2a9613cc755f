// MARK: - Building a trie

extension RouteTrie {
    /// A trie of `routes` (their `order`s must be distinct). Use ``RouteTrieBuilder``, which
    /// rejects duplicates, rather than this directly.
    ///
    /// Builds the trie with nodes that own their children (easy to grow), then lays it out flat.
    init(routes: [Route]) {
        var nodes = [GrowingNode()]
        for (routeIndex, route) in routes.enumerated() {
            for (variantIndex, variant) in route.pattern.variants.enumerated() {
                var current = 0
                var captures: [(index: Int, name: String)] = []
                var restStart = -1
                for (index, segment) in variant.segments.enumerated() {
                    current = GrowingNode.child(of: current, for: segment, in: &nodes)
                    switch segment {
                    case .literal: break
                    case .parameter(let name, _): captures.append((index, name))
                    case .wildcard: restStart = index
                    }
                }
                let terminal = GrowingNode.Terminal(
                    route: routeIndex, priority: route.priority, order: route.order, variant: variantIndex, captures: captures,
                    restStart: restStart)
                nodes[current].terminals.append(terminal)
            }
        }
        // Children come after their parents, so one backward pass sees every child first.
        for index in nodes.indices.reversed() {
            nodes[index].terminals.sort { ($0.priority, -$0.order, -$0.variant) > ($1.priority, -$1.order, -$1.variant) }
            var best = nodes[index].terminals.first?.priority
            for child in nodes[index].children {
                if let priority = nodes[child].bestPriority, best.map({ priority > $0 }) ?? true { best = priority }
            }
            nodes[index].bestPriority = best
        }
        var layout = FlatLayout()
        for node in nodes { layout.append(node) }
        self.table = routes
        self.nodes = layout.nodes
        self.edges = layout.edges
        self.bytes = layout.bytes
        self.slots = layout.slots
        self.typedEdges = layout.typedEdges
        self.terminals = layout.terminals
        self.captureNames = layout.captureNames
        self.captureSegments = layout.captureSegments
        self.topPriority = layout.nodes.first?.bestPriority
    }

    /// A node while the trie is being built.
    private struct GrowingNode {
        /// A variant of a route ending at a node.
        struct Terminal {
            /// Index into the routes.
            let route: Int
            /// The route's priority.
            let priority: Int
            /// The route's registration order.
            let order: Int
            /// The variant's index in its pattern's expansion order.
            let variant: Int
            /// Placeholder names by segment index.
            let captures: [(index: Int, name: String)]
            /// The index of the first segment the wildcard matched, or `-1`.
            let restStart: Int
        }

        /// Literal children, by the segment's bytes.
        var literals: [RouteLiteral: Int] = [:]
        /// Typed placeholder children, in the order of ``RoutePlaceholderType/allCases``.
        var typed: [TypedEdge] = []
        /// The untyped placeholder child.
        var parameter: Int?
        /// The wildcard child.
        var wildcard: Int?
        /// The variants that end here, best first once sorted (priority, then registration order,
        /// then variant order).
        var terminals: [Terminal] = []
        /// The highest priority of a terminal in this node's subtree.
        var bestPriority: Int?

        /// Every child's index.
        var children: [Int] {
            Array(literals.values) + typed.map(\.node) + [parameter, wildcard].compactMap { $0 }
        }

        /// The child of `parent` for `segment`, created if needed.
        static func child(of parent: Int, for segment: RouteVariant.Segment, in nodes: inout [GrowingNode]) -> Int {
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
                nodes[parent].typed.append(TypedEdge(type: type, node: created))
                let order = RoutePlaceholderType.allCases
                nodes[parent].typed.sort { order.firstIndex(of: $0.type)! < order.firstIndex(of: $1.type)! }
            case .wildcard:
                if let existing = nodes[parent].wildcard { return existing }
                nodes[parent].wildcard = created
            }
            nodes.append(GrowingNode())
            return created
        }
    }

    /// The trie's flat arrays, filled node by node in index order.
    private struct FlatLayout {
        var nodes: [Node] = []
        var edges: [LiteralEdge] = []
        var bytes: [UInt8] = []
        var slots: [Int] = []
        var typedEdges: [TypedEdge] = []
        var terminals: [Terminal] = []
        var captureNames: [String] = []
        var captureSegments: [Int] = []

        /// Lays out `node` as the next node.
        mutating func append(_ node: GrowingNode) {
            var flat = Node(
                literalStart: edges.count, literalCount: node.literals.count, typedStart: typedEdges.count, typedCount: node.typed.count,
                parameter: node.parameter ?? -1, wildcard: node.wildcard ?? -1, bestPriority: node.bestPriority)
            for (literal, child) in node.literals {
                let text = Array(literal.text.utf8)
                edges.append(LiteralEdge(start: bytes.count, count: text.count, hash: text.withUnsafeBufferPointer(RouteTrie.hash), node: child))
                bytes += text
            }
            if node.literals.count > RouteTrie.linearLiteralCount {
                // At most half full, so that a miss ends after a few probes.
                var size = 1
                while size < 2 * node.literals.count { size *= 2 }
                flat.slotStart = slots.count
                flat.slotMask = size - 1
                slots.append(contentsOf: repeatElement(-1, count: size))
                for index in flat.literalStart..<edges.count {
                    var slot = edges[index].hash & flat.slotMask
                    while slots[flat.slotStart + slot] >= 0 { slot = (slot + 1) & flat.slotMask }
                    slots[flat.slotStart + slot] = index
                }
            }
            typedEdges += node.typed
            if let best = node.terminals.first {
                flat.terminal = terminals.count
                terminals.append(
                    Terminal(
                        route: best.route, priority: best.priority, captureStart: captureNames.count, captureCount: best.captures.count,
                        restStart: best.restStart))
                captureNames += best.captures.map(\.name)
                captureSegments += best.captures.map(\.index)
            }
            nodes.append(flat)
        }
    }
}
