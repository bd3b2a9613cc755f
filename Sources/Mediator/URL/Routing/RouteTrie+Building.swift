// MARK: - Building a trie

extension RouteTrie {
    /// A trie of `routes` (their `order`s must be distinct). Use ``RouteTrieBuilder``, which
    /// rejects duplicates, rather than this directly. `foldingCase`: literal text is stored
    /// ASCII-lowercased and matched against lowercased segments (``foldsCase``).
    ///
    /// Builds the trie with nodes that own their children (easy to grow), then lays it out flat.
    init(routes: [Route], foldingCase: Bool = false) {
        // At most one node per segment of each variant, plus the root: reserved at once, so that
        // the array never holds two copies of itself while it grows (the peak of a large table).
        var nodes = [GrowingNode()]
        nodes.reserveCapacity(1 + routes.reduce(0) { $0 + $1.pattern.size })
        for (routeIndex, route) in routes.enumerated() {
            for (variantIndex, variant) in route.pattern.variants.enumerated() {
                var current = 0
                var captures: [(capture: Capture, name: String)] = []
                var restStart = -1
                for (index, segment) in variant.segments.enumerated() {
                    current = GrowingNode.child(of: current, for: foldingCase ? Self.folded(segment) : segment, in: &nodes)
                    switch segment {
                    case .literal: break
                    case .parameter(let name, _): captures.append((Capture(segment: index, prefixCount: 0, suffixCount: 0), name))
                    case .affixed(let name, _, let prefix, let suffix):
                        captures.append((Capture(segment: index, prefixCount: prefix.utf8.count, suffixCount: suffix.utf8.count), name))
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
            if nodes[index].terminals.count > 1 {
                nodes[index].terminals.sort { ($0.priority, -$0.order, -$0.variant) > ($1.priority, -$1.order, -$1.variant) }
            }
            // Sorted once, when every child is there: the order the walk tries them in.
            if nodes[index].typed.count > 1 {
                nodes[index].typed.sort { $0.key.order < $1.key.order }
            }
            nodes[index].typedIndex = nil
            var best = nodes[index].terminals.first?.priority
            // The children read in place, without a list of them per node.
            func consider(_ child: Int?) {
                if let child, let priority = nodes[child].bestPriority, best.map({ priority > $0 }) ?? true { best = priority }
            }
            for position in nodes[index].literals.indices { consider(nodes[index].literals[position].node) }
            for position in nodes[index].typed.indices { consider(nodes[index].typed[position].node) }
            consider(nodes[index].parameter)
            consider(nodes[index].wildcard)
            nodes[index].bestPriority = best
        }
        var layout = FlatLayout(reservingFor: nodes)
        for index in nodes.indices {
            layout.append(nodes[index])
            // Each node's own storage goes as soon as it is laid out.
            nodes[index] = GrowingNode()
        }
        self.table = routes
        self.nodes = layout.nodes
        self.edges = layout.edges
        self.bytes = layout.bytes
        self.slots = layout.slots
        self.typedEdges = layout.typedEdges
        self.terminals = layout.terminals
        self.captureNames = layout.captureNames
        self.captures = layout.captures
        self.topPriority = layout.nodes.first?.bestPriority
        self.foldsCase = foldingCase
    }

    /// `segment` with its literal text ASCII-lowercased.
    private static func folded(_ segment: RouteVariant.Segment) -> RouteVariant.Segment {
        switch segment {
        case .literal(let text): return .literal(Mediator.asciiLowercased(text))
        case .affixed(let name, let type, let prefix, let suffix):
            return .affixed(name: name, type: type, prefix: Mediator.asciiLowercased(prefix), suffix: Mediator.asciiLowercased(suffix))
        case .parameter, .wildcard: return segment
        }
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
            /// Placeholder names with what they capture.
            let captures: [(capture: Capture, name: String)]
            /// The index of the first segment the wildcard matched, or `-1`.
            let restStart: Int
        }

        /// Literal children with the segment's bytes, in the order they were added.
        var literals: [(literal: RouteLiteral, node: Int)] = []
        /// The positions in ``literals`` by literal, once there are more than
        /// ``indexedLiteralCount`` (most nodes have one or two literal children: a dictionary
        /// each would be most of a large table's memory while its trie is built).
        var literalIndex: [RouteLiteral: Int]?
        /// The most literal children a node searches one by one.
        static var indexedLiteralCount: Int { 8 }

        /// The literal child for `literal`, if any.
        func literalChild(_ literal: RouteLiteral) -> Int? {
            if let literalIndex { return literalIndex[literal].map { literals[$0].node } }
            return literals.first { $0.literal == literal }?.node
        }

        /// Adds a literal child.
        mutating func addLiteral(_ literal: RouteLiteral, node: Int) {
            literals.append((literal, node))
            if literalIndex != nil {
                literalIndex?[literal] = literals.count - 1
            } else if literals.count > Self.indexedLiteralCount {
                var index: [RouteLiteral: Int] = [:]
                index.reserveCapacity(literals.count)
                for (position, entry) in literals.enumerated() { index[entry.literal] = position }
                literalIndex = index
            }
        }
        /// What makes two checking children the same child: the type and the texts.
        struct CheckedKey: Hashable {
            /// The type the value must have, if any.
            let type: RoutePlaceholderType?
            /// The text before the value.
            let prefix: RouteLiteral
            /// The text after the value.
            let suffix: RouteLiteral

            /// The order the walk tries children in: the rank matching gives such a segment
            /// (``SegmentRank``), then, between types of one rank (disjoint, so never deciding a
            /// match), the order of ``RoutePlaceholderType/allCases``.
            var order: (SegmentRank, Int) {
                let rank = SegmentRank(type: type, prefixCount: prefix.text.utf8.count, suffixCount: suffix.text.utf8.count)
                return (rank, type.map { RoutePlaceholderType.allCases.firstIndex(of: $0)! } ?? RoutePlaceholderType.allCases.count)
            }
        }

        /// A checking placeholder child (typed, or with text around it) while the trie is built.
        struct CheckedEdge {
            /// Its type and texts.
            let key: CheckedKey
            /// The child.
            let node: Int
        }
        /// Checking placeholder children: in the order they were added while the trie is built,
        /// then in the order the walk tries them (``CheckedKey/order``).
        var typed: [CheckedEdge] = []
        /// The positions in ``typed`` by type and texts, once there are more than
        /// ``indexedLiteralCount`` (a node may hold as many children with text around their
        /// placeholder as there are routes).
        var typedIndex: [CheckedKey: Int]?
        /// The untyped placeholder child.
        var parameter: Int?
        /// The wildcard child.
        var wildcard: Int?
        /// The variants that end here, best first once sorted (priority, then registration order,
        /// then variant order).
        var terminals: [Terminal] = []
        /// The highest priority of a terminal in this node's subtree.
        var bestPriority: Int?

        /// The child of `parent` for `segment`, created if needed.
        static func child(of parent: Int, for segment: RouteVariant.Segment, in nodes: inout [GrowingNode]) -> Int {
            let created = nodes.count
            switch segment {
            case .literal(let text):
                let literal = RouteLiteral(text)
                if let existing = nodes[parent].literalChild(literal) { return existing }
                nodes[parent].addLiteral(literal, node: created)
            case .parameter(_, nil):
                if let existing = nodes[parent].parameter { return existing }
                nodes[parent].parameter = created
            case .parameter(_, let type?):
                return checkedChild(of: parent, CheckedKey(type: type, prefix: RouteLiteral(""), suffix: RouteLiteral("")), created: created, in: &nodes)
            case .affixed(_, let type, let prefix, let suffix):
                return checkedChild(
                    of: parent, CheckedKey(type: type, prefix: RouteLiteral(prefix), suffix: RouteLiteral(suffix)), created: created, in: &nodes)
            case .wildcard:
                if let existing = nodes[parent].wildcard { return existing }
                nodes[parent].wildcard = created
            }
            nodes.append(GrowingNode())
            return created
        }

        /// The child of `parent` for `key` (an edge of the same type and texts), created if
        /// needed as `created`.
        private static func checkedChild(of parent: Int, _ key: CheckedKey, created: Int, in nodes: inout [GrowingNode]) -> Int {
            if let index = nodes[parent].typedIndex {
                if let position = index[key] { return nodes[parent].typed[position].node }
            } else if let existing = nodes[parent].typed.first(where: { $0.key == key }) {
                return existing.node
            }
            nodes[parent].typed.append(CheckedEdge(key: key, node: created))
            let position = nodes[parent].typed.count - 1
            if nodes[parent].typedIndex != nil {
                nodes[parent].typedIndex?[key] = position
            } else if nodes[parent].typed.count > indexedLiteralCount {
                var index: [CheckedKey: Int] = [:]
                for (position, child) in nodes[parent].typed.enumerated() { index[child.key] = position }
                nodes[parent].typedIndex = index
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
        var captures: [Capture] = []

        /// An empty layout with room for `nodes` (each array allocated once, at its final size,
        /// except the captures').
        init(reservingFor nodes: [GrowingNode]) {
            var literalCount = 0
            var literalBytes = 0
            var slotCount = 0
            var typedCount = 0
            var terminalCount = 0
            for node in nodes {
                literalCount += node.literals.count
                for entry in node.literals { literalBytes += entry.literal.text.utf8.count }
                for edge in node.typed { literalBytes += edge.key.prefix.text.utf8.count + edge.key.suffix.text.utf8.count }
                if node.literals.count > RouteTrie.linearLiteralCount { slotCount += Self.slotCount(for: node.literals.count) }
                typedCount += node.typed.count
                if !node.terminals.isEmpty { terminalCount += 1 }
            }
            self.nodes.reserveCapacity(nodes.count)
            edges.reserveCapacity(literalCount)
            bytes.reserveCapacity(literalBytes)
            slots.reserveCapacity(slotCount)
            typedEdges.reserveCapacity(typedCount)
            terminals.reserveCapacity(terminalCount)
        }

        /// The size of the hash table of a node with `literalCount` literal children: at most
        /// half full, so that a miss ends after a few probes.
        static func slotCount(for literalCount: Int) -> Int {
            var size = 1
            while size < 2 * literalCount { size *= 2 }
            return size
        }

        /// Lays out `node` as the next node.
        mutating func append(_ node: GrowingNode) {
            // No terminal or hash table yet (their defaults, -1).
            var flat = Node(
                bestPriority: node.bestPriority, literalStart: edges.count, literalCount: node.literals.count, typedStart: typedEdges.count,
                typedCount: node.typed.count, parameter: node.parameter ?? -1, wildcard: node.wildcard ?? -1)
            for (literal, child) in node.literals {
                let text = Array(literal.text.utf8)
                edges.append(LiteralEdge(start: bytes.count, count: text.count, hash: text.withUnsafeBufferPointer(RouteTrie.hash), node: child))
                bytes += text
            }
            if node.literals.count > RouteTrie.linearLiteralCount {
                let size = Self.slotCount(for: node.literals.count)
                flat.slotStart = slots.count
                flat.slotMask = size - 1
                slots.append(contentsOf: repeatElement(-1, count: size))
                for index in flat.literalStart..<edges.count {
                    var slot = edges[index].hash & flat.slotMask
                    while slots[flat.slotStart + slot] >= 0 { slot = (slot + 1) & flat.slotMask }
                    slots[flat.slotStart + slot] = index
                }
            }
            for edge in node.typed {
                let (prefix, suffix) = (edge.key.prefix.text.utf8, edge.key.suffix.text.utf8)
                typedEdges.append(
                    TypedEdge(type: edge.key.type, affixStart: bytes.count, prefixCount: prefix.count, suffixCount: suffix.count, node: edge.node))
                bytes += prefix
                bytes += suffix
            }
            if let best = node.terminals.first {
                flat.terminal = terminals.count
                terminals.append(
                    Terminal(
                        route: best.route, priority: best.priority, captureStart: captureNames.count, captureCount: best.captures.count,
                        restStart: best.restStart))
                captureNames += best.captures.map(\.name)
                captures += best.captures.map(\.capture)
            }
            nodes.append(flat)
        }
    }
}
