/// An immutable trie of deep-link routes (``RoutePattern``s), built once from a list of routes
/// (see `RouteTrie+Building.swift` and ``RouteTrieBuilder``) and matched against paths many times,
/// from any thread.
///
/// Each node has at most one child per kind: literal children keyed by the segment's bytes, one
/// child per placeholder with literal text around it (its type and texts), one child per
/// placeholder type (`int`, `uuid`, `alpha`, `float`, in that order), one untyped placeholder
/// child and one wildcard child. Matching a path is one walk down the trie; it never looks at the
/// list of routes, so its cost does not grow with the number of routes (except that the children
/// of one node with text around their placeholder, as many as the routes that put one there, are
/// compared one by one).
///
/// The trie is stored flat: nodes, literal edges, typed edges and terminals are plain integers in
/// arrays, and every literal's bytes sit in one byte array. Reading a node therefore copies a few
/// words and retains nothing (a node holding arrays of its own would retain and release them
/// on every step of every walk, which was a sixth of a match's cost).
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

    /// A trie node. Every index is into one of the trie's arrays; children always come after
    /// their parent in ``nodes``; `-1` means none.
    ///
    /// The indices are stored as 32-bit integers (a node takes 48 bytes rather than 88: most of a
    /// large route table's memory is its nodes); ``RouteTable/maximumSize`` keeps every index far
    /// below their range (at most about 500,000 nodes, edges or terminals and 2 million hash
    /// slots over all schemes). They read and write as `Int` (``Index32``).
    struct Node: Sendable {
        // First, so that the nine 32-bit indices pack after it (48 bytes; after them, 56).

        /// The highest priority of a terminal in this node's subtree, `nil` if it has none: the
        /// walk skips subtrees that cannot beat what it already found.
        var bestPriority: Int?

        /// The literal children: `edges[literalStart ..< literalStart + literalCount]`.
        @Index32 var literalStart = 0
        /// How many literal children there are.
        @Index32 var literalCount = 0
        /// The node's hash table of its literal children, `slots[slotStart ... slotStart +
        /// slotMask]`, when it has more than ``linearLiteralCount`` of them; `-1` when it has
        /// fewer, which are compared one by one (cheaper than hashing the segment for so few).
        @Index32 var slotMask = -1
        /// Where the node's hash table starts in ``slots``.
        @Index32 var slotStart = 0
        /// The typed placeholder children, `typedEdges[typedStart ..< typedStart + typedCount]`,
        /// in the order of ``RoutePlaceholderType/allCases``.
        @Index32 var typedStart = 0
        /// How many typed placeholder children there are.
        @Index32 var typedCount = 0
        /// The untyped placeholder child.
        @Index32 var parameter = -1
        /// The wildcard child: it only has a terminal, as `*` is always last.
        @Index32 var wildcard = -1
        /// The best variant that ends here, in ``terminals`` (the others that end here are never
        /// chosen: they all have the same shape, and this one beats them on priority or order).
        @Index32 var terminal = -1
    }

    /// An index kept in 32 bits, read and written as `Int` (see ``Node``).
    @propertyWrapper
    struct Index32: Sendable {
        private var stored: Int32

        init(wrappedValue: Int) {
            stored = Int32(wrappedValue)
        }

        var wrappedValue: Int {
            @inline(__always) get { Int(stored) }
            set { stored = Int32(newValue) }
        }
    }

    /// A literal child: its text (in ``bytes``) and where it leads.
    struct LiteralEdge: Sendable {
        /// Where the literal's UTF-8 bytes start in ``bytes``.
        let start: Int
        /// How many bytes the literal has.
        let count: Int
        /// The literal's ``hash(_:)``, compared before the bytes in hashed nodes.
        let hash: Int
        /// The child's index in ``nodes``.
        let node: Int
    }

    /// A placeholder child that checks the segment: a typed placeholder (`:id<int>`), or one with
    /// literal text around it (`:name.json`, typed or not).
    struct TypedEdge: Sendable {
        /// The type the value must have to go down this child, if any (always one when the edge
        /// has no affixes: an untyped placeholder without them is the node's `parameter`).
        let type: RoutePlaceholderType?
        /// Where the text before the value and then the text after it start in ``bytes``.
        let affixStart: Int
        /// How many bytes the text before the value has.
        let prefixCount: Int
        /// How many bytes the text after the value has.
        let suffixCount: Int
        /// The child's index in ``nodes``.
        let node: Int
    }

    /// A placeholder of a terminal: the segment it captures, less the literal text around it.
    struct Capture: Sendable {
        /// The segment's index in the path.
        let segment: Int
        /// The bytes of literal text before the value.
        let prefixCount: Int
        /// The bytes of literal text after the value.
        let suffixCount: Int
    }

    /// The best variant of a route ending at a node, with where its captures are in the path.
    struct Terminal: Sendable {
        /// Index into ``table``.
        let route: Int
        /// The route's priority (copied here for the walk).
        let priority: Int
        /// The variant's captures: `captureNames[captureStart ..< captureStart + captureCount]`,
        /// the segment each one takes at the same place in ``captures``. Names live here,
        /// not in the nodes, because `/user/:id` and `/user/:uid` share one node.
        let captureStart: Int
        /// How many placeholders the variant has.
        let captureCount: Int
        /// The index of the first segment the wildcard matched, or `-1` if the variant has none.
        let restStart: Int
    }

    /// The best terminal found so far by a walk.
    private struct Best {
        /// The node whose terminal it is.
        var node: Int
        /// That terminal's priority.
        var priority: Int
    }

    /// The routes, in registration order.
    let table: [Route]
    /// The nodes; the root is the first.
    let nodes: [Node]
    /// Every node's literal children, each node's together.
    let edges: [LiteralEdge]
    /// The UTF-8 bytes of every literal, one after another.
    let bytes: [UInt8]
    /// The hash tables of nodes with many literal children: indices into ``edges``, `-1` for an
    /// empty slot (open addressing, linear probing, at most half full).
    let slots: [Int]
    /// Every node's checking placeholder children (typed, or with text around them), each
    /// node's together.
    let typedEdges: [TypedEdge]
    /// The terminals of the nodes that have one.
    let terminals: [Terminal]
    /// The placeholder names of every terminal, each terminal's together.
    let captureNames: [String]
    /// What each of ``captureNames`` captures.
    let captures: [Capture]
    /// The highest priority of any route: a walk stops at the first match with it.
    let topPriority: Int?
    /// Whether literal text was stored ASCII-lowercased, so that a path is walked lowercased
    /// (its values captured as given): ``URLPolicy/matchesRoutesIgnoringCase``.
    let foldsCase: Bool

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
    ///    literal before placeholder with text around it (more text first, then more text
    ///    before it, then typed by rank before untyped) before typed placeholder (by
    ///    ``RoutePlaceholderType/rank``: `int` before `float`) before untyped placeholder before
    ///    wildcard, and a path that ends before a wildcard (which then matches nothing) before the
    ///    wildcard;
    /// 3. then the earliest registered;
    /// 4. then, between two variants of one route, the earlier in expansion order.
    ///
    /// The walk tries, at each segment, the literal child, then the children with text around
    /// their placeholder, then the typed children, then the untyped one, then the wildcard,
    /// backtracking when a branch fails deeper. Two branches that both match differ first at a
    /// segment where their kinds differ (one literal child can match a segment; two children with
    /// text that both match differ in the length of their texts or in their type's rank, and are
    /// tried in that order; typed children are tried in the order of their ranks), so the walk meets
    /// matches in the order of rule 2: with all priorities equal the first match found is the
    /// best. With priorities, it keeps the best priority found, skips subtrees whose best priority
    /// is not higher, and stops at a match with the highest priority of all. Each node is entered
    /// at most once, so the work is bounded by the nodes along the path's possible matches (the
    /// children with text around their placeholder are as many as the routes registered there).
    func match<Text: RouteSegmentText>(_ segments: [Text]) -> RouteMatch<Payload>? {
        // Values are captured from the segments as given: ASCII folding keeps every byte's place.
        guard let best = bestNode(for: segments) else { return nil }
        let terminal = terminals[nodes[best].terminal]
        let route = table[terminal.route]
        // No captures: the empty literal. `Array(unsafeUninitializedCapacity: 0)` stores its count
        // into the shared empty-array singleton, a write that races between threads (seen by
        // ThreadSanitizer when routes without params are matched on several threads at once).
        let captures: [(name: String, value: String)] =
            terminal.captureCount == 0
            ? []
            : .init(unsafeUninitializedCapacity: terminal.captureCount) { buffer, initialized in
                for offset in 0..<terminal.captureCount {
                    let capture = self.captures[terminal.captureStart + offset]
                    let segment = segments[capture.segment]
                    let value =
                        capture.prefixCount == 0 && capture.suffixCount == 0
                        ? String(segment)
                        // The cuts fall between UTF-8 sequences: the texts are whole ones.
                        : String(decoding: segment.utf8.dropFirst(capture.prefixCount).dropLast(capture.suffixCount), as: UTF8.self)
                    (buffer.baseAddress! + offset).initialize(to: (captureNames[terminal.captureStart + offset], value))
                    initialized = offset + 1
                }
            }
        let rest = terminal.restStart < 0 ? nil : segments[terminal.restStart...].map { String($0) }
        return RouteMatch(payload: route.payload, pattern: route.pattern.text, priority: route.priority, captures: captures, rest: rest)
    }

    /// The payload and pattern of the route ``match(_:)`` would return, capturing nothing.
    func destination<Text: RouteSegmentText>(_ segments: [Text]) -> (payload: Payload, pattern: String)? {
        guard let best = bestNode(for: segments) else { return nil }
        let route = table[terminals[nodes[best].terminal].route]
        return (route.payload, route.pattern.text)
    }

    /// Whether some route matches `segments` (a dry run of ``match(_:)``: nothing is captured).
    func canMatch<Text: RouteSegmentText>(_ segments: [Text]) -> Bool {
        bestNode(for: segments) != nil
    }

    /// The node whose terminal is the best match, if any: the segments walked as given, or
    /// ASCII-lowercased when the trie ``foldsCase`` and one of them has a capital.
    private func bestNode<Text: RouteSegmentText>(for segments: [Text]) -> Int? {
        guard topPriority != nil, segments.count <= Self.maximumSegments else { return nil }
        if foldsCase, segments.contains(where: { $0.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") } }) {
            return walk(segments.map { Mediator.asciiLowercased(String($0)) })
        }
        return walk(segments)
    }

    /// The node whose terminal is the best match for `segments` as given, if any.
    private func walk<Text: RouteSegmentText>(_ segments: [Text]) -> Int? {
        var best: Best?
        _ = search(0, depth: 0, segments, &best)
        return best?.node
    }

    /// Walks `index`'s subtree for `segments[depth...]`, updating `best`; `true` when the walk can
    /// stop (`best` has the highest priority there is).
    private func search<Text: RouteSegmentText>(_ index: Int, depth: Int, _ segments: [Text], _ best: inout Best?) -> Bool {
        let node = nodes[index]
        guard let subtreeBest = node.bestPriority else { return false }
        if let best, subtreeBest <= best.priority { return false }
        guard depth < segments.count else {
            if consider(index, &best) { return true }
            return node.wildcard >= 0 && consider(node.wildcard, &best)
        }
        let done = withBytes(of: segments[depth]) { segment in
            if let literal = literalChild(of: node, segment), search(literal, depth: depth + 1, segments, &best) { return true }
            guard !segment.isEmpty else { return false }
            // Indices rather than a slice of the array: a slice would retain its storage.
            for index in node.typedStart..<node.typedStart + node.typedCount where accepts(typedEdges[index], segment) {
                if search(typedEdges[index].node, depth: depth + 1, segments, &best) { return true }
            }
            return node.parameter >= 0 && search(node.parameter, depth: depth + 1, segments, &best)
        }
        return done || (node.wildcard >= 0 && consider(node.wildcard, &best))
    }

    /// Calls `body` with `text`'s UTF-8 bytes: in place when the text is stored contiguously
    /// (always, for the segments a URL is split into), else from a copy.
    @inline(__always)
    private func withBytes<Text: RouteSegmentText, Result>(of text: Text, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// Whether `segment` goes down `edge`: it begins and ends with the edge's texts around a
    /// non-empty value of the edge's type.
    @inline(__always)
    private func accepts(_ edge: TypedEdge, _ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        if edge.prefixCount == 0, edge.suffixCount == 0 { return edge.type?.accepts(bytes: segment) ?? true }
        guard segment.count > edge.prefixCount + edge.suffixCount else { return false }
        for offset in 0..<edge.prefixCount where bytes[edge.affixStart + offset] != segment[offset] { return false }
        let valueEnd = segment.count - edge.suffixCount
        let suffixStart = edge.affixStart + edge.prefixCount
        for offset in 0..<edge.suffixCount where bytes[suffixStart + offset] != segment[valueEnd + offset] { return false }
        guard let type = edge.type else { return true }
        return type.accepts(bytes: segment[edge.prefixCount..<valueEnd])
    }

    /// The most literal children a node compares one by one rather than through its hash table.
    static var linearLiteralCount: Int { 4 }

    /// `node`'s literal child for `segment`, if any.
    @inline(__always)
    private func literalChild(of node: Node, _ segment: UnsafeBufferPointer<UInt8>) -> Int? {
        if node.slotMask < 0 {
            for index in node.literalStart..<node.literalStart + node.literalCount where spells(edges[index], segment) {
                return edges[index].node
            }
            return nil
        }
        // Only registered literals are in the table, so a path cannot choose what collides; a
        // hostile segment costs at most one probe sequence of a table that is at most half full.
        let hash = Self.hash(segment)
        var slot = hash & node.slotMask
        while true {
            let index = slots[node.slotStart + slot]
            if index < 0 { return nil }
            let edge = edges[index]
            if edge.hash == hash, spells(edge, segment) { return edge.node }
            slot = (slot + 1) & node.slotMask
        }
    }

    /// Whether `segment` has exactly `edge`'s bytes.
    @inline(__always)
    private func spells(_ edge: LiteralEdge, _ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        guard edge.count == segment.count else { return false }
        for offset in 0..<edge.count where bytes[edge.start + offset] != segment[offset] { return false }
        return true
    }

    /// FNV-1a over `bytes`: cheap for short segments, and good enough for a table of registered
    /// literals (see ``literalChild(of:_:)`` for why flooding is not a concern).
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }

    /// Takes `index`'s terminal if it beats `best`; `true` when nothing can beat `best` now.
    private func consider(_ index: Int, _ best: inout Best?) -> Bool {
        let terminal = nodes[index].terminal
        guard terminal >= 0 else { return false }
        let priority = terminals[terminal].priority
        if best.map({ priority > $0.priority }) ?? true { best = Best(node: index, priority: priority) }
        return best?.priority == topPriority
    }

    // MARK: - Listing

    /// Every route, in the order matching prefers them: highest priority first, then by the best
    /// sequence of segment kinds among each route's variants (as in ``match(_:)``), then by
    /// registration order. For `routes` and `mediate routes`.
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

    /// A variant's segments as ranks, in the order ``match(_:)`` prefers them.
    private static func kindRanks(_ variant: RouteVariant) -> [SegmentRank] {
        variant.segments.map(SegmentRank.init)
    }
}

/// Where a kind of segment stands in the order matching prefers (see ``RouteTrie/match(_:)``):
/// compared kind first, then, between placeholders with text around them, more text first, more
/// text before the value first, then the type's rank.
struct SegmentRank: Comparable, Sendable {
    /// Literal 0, with text around it 1, typed 2 or 3 by ``RoutePlaceholderType/rank``, untyped 4,
    /// wildcard 5.
    private let kind: Int
    /// The bytes of text around the placeholder, negated (more text ranks first).
    private let affixes: Int
    /// The bytes of text before the placeholder, negated.
    private let prefix: Int
    /// The type's rank, 3 for none.
    private let type: Int

    /// The rank of `segment`.
    init(_ segment: RouteVariant.Segment) {
        switch segment {
        case .literal: self.init(kind: 0)
        case .affixed(_, let type, let prefix, let suffix): self.init(type: type, prefixCount: prefix.utf8.count, suffixCount: suffix.utf8.count)
        case .parameter(_, let type): self.init(type: type, prefixCount: 0, suffixCount: 0)
        case .wildcard: self.init(kind: 5)
        }
    }

    /// The rank of a placeholder of `type` with that many bytes of text before and after it.
    init(type: RoutePlaceholderType?, prefixCount: Int, suffixCount: Int) {
        if prefixCount + suffixCount > 0 {
            self.init(kind: 1, affixes: -(prefixCount + suffixCount), prefix: -prefixCount, type: type?.rank ?? 3)
        } else {
            self.init(kind: type.map { 1 + $0.rank } ?? 4)
        }
    }

    /// A rank of these parts.
    private init(kind: Int, affixes: Int = 0, prefix: Int = 0, type: Int = 0) {
        (self.kind, self.affixes, self.prefix, self.type) = (kind, affixes, prefix, type)
    }

    /// Whether `lhs` is preferred to `rhs`.
    static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.kind, lhs.affixes, lhs.prefix, lhs.type) < (rhs.kind, rhs.affixes, rhs.prefix, rhs.type)
    }
}
