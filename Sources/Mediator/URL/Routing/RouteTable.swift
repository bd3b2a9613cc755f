/// One route as it was added to a ``RouteTable``: removing it by its key parses nothing, and
/// removes nothing if that route was removed or replaced since. Orders come from one counter per
/// table that nothing resets (``RouteTable/removeAll()`` carries it over), so another route never
/// takes a key.
package struct RouteKey: Sendable {
    /// The key of the route's scheme and host in the table (``RouteTable/key(scheme:host:)``).
    let tableKey: String
    /// The route's registration order.
    let order: Int
}

/// Where a route sends a URL: canonical names, as the registry stores them.
struct RouteDestination: Sendable, Equatable {
    /// The target's canonical name.
    let target: String
    /// The action's canonical name.
    let action: String
}

/// The registered routes, by scheme, as the registry keeps them: builders that take additions
/// and removals, and the tries built from them, rebuilt lazily on the first match after a change
/// (so that registering 10,000 routes one by one costs one build, not 10,000).
struct RouteTable {
    /// The key of the routes for every scheme.
    static let anyScheme = ""
    /// The key in the table of the routes for `scheme` (lowercased, or ``anyScheme``) and `host`
    /// (lowercased, or `nil` for routes without a host): the scheme alone, or the scheme and the
    /// host joined by `//`, which no scheme contains.
    static func key(scheme: String, host: String?) -> String {
        guard let host else { return scheme }
        return scheme + "//" + host
    }

    /// The scheme (`nil` for every scheme) and host of a table key, as ``key(scheme:host:)`` made it.
    static func parts(of key: String) -> (scheme: String?, host: String?) {
        let bytes = Array(key.utf8)
        guard let at = bytes.indices.dropLast().first(where: { bytes[$0] == UInt8(ascii: "/") && bytes[$0 + 1] == UInt8(ascii: "/") }) else {
            return (key.isEmpty ? nil : key, nil)
        }
        let scheme = String(decoding: bytes[..<at], as: UTF8.self)
        return (scheme.isEmpty ? nil : scheme, String(decoding: bytes[(at + 2)...], as: UTF8.self))
    }

    /// The routes of each scheme and host (``key(scheme:host:)``), and of every scheme under
    /// ``anyScheme``.
    private(set) var builders: [String: RouteTrieBuilder<RouteDestination>] = [:]
    /// The tries of the routes as they are now; `nil` after a change until the next match.
    private(set) var snapshot: RouteSnapshot?
    /// How many routes there are, over all schemes.
    private(set) var count = 0
    /// The room the routes take (see ``maximumSize``), over all schemes.
    private(set) var size = 0
    /// Counts the changes: a snapshot built from the builders of one generation is installed
    /// only if the table is still at that generation.
    private(set) var generation = 0
    /// The registration order the next route gets, in whichever scheme.
    private var nextOrder = 0

    /// A route ready to add: names canonical, scheme and host lowercased and keyed
    /// (``key(scheme:host:)``), pattern parsed.
    struct Entry {
        let route: URLRoute
        let destination: RouteDestination
        let tableKey: String
        let pattern: RoutePattern
    }

    /// The most room the routes of one mediator may take: ``RoutePattern/size`` summed over the
    /// routes (one unit a route, one per segment of each variant, one per 32 bytes of a variant's
    /// text), and ``schemeSize`` for each scheme, and each host, that has routes (its own trie). It bounds what the
    /// routes cost to store and to build into tries, whatever their shape: the DocC article
    /// DeepLinkRoutes has the measured costs.
    static let maximumSize = 500_000
    /// The room a scheme with routes takes for its builder and trie.
    static let schemeSize = 2

    /// The error that refuses adding `entries` (in order, after the routes already here), or
    /// `nil`: a route that matches exactly the URLs of one already here (unless `replacing`) or of
    /// an earlier entry for the same scheme, with that entry's index; or routes that would take
    /// more than ``maximumSize`` once all are added (and those they replace removed), with the
    /// index of the first entry at which the sum passes it. Nothing is changed.
    func refusal(of entries: [Entry], replacing: Bool) -> (index: Int, error: MediatorError)? {
        // The entries of each scheme by shape hash, compared shape to shape when a hash repeats.
        var seen: [String: [Int: [Int]]] = [:]
        var size = self.size
        // Where the sum first passed the limit: only the sum after the whole batch decides, so
        // that the order of a batch that replaces routes does not.
        var firstPast: (index: Int, size: Int)?
        var newSchemes = Set<String>()
        for (index, entry) in entries.enumerated() {
            if builders[entry.tableKey] == nil, newSchemes.insert(entry.tableKey).inserted { size += Self.schemeSize }
            var existing: String?
            for earlier in seen[entry.tableKey]?[entry.pattern.shapeHash] ?? [] where entries[earlier].pattern.shape == entry.pattern.shape {
                existing = entries[earlier].route.pattern
                break
            }
            if existing == nil, let old = builders[entry.tableKey]?.existing(entry.pattern) {
                if replacing {
                    size -= old.pattern.size
                } else {
                    existing = old.pattern.text
                }
            }
            if let existing {
                return (
                    index,
                    Self.error(
                        RouteError(pattern: entry.route.pattern, problem: .duplicateRoute(existing: existing)), scheme: entry.route.scheme,
                        host: entry.route.host)
                )
            }
            seen[entry.tableKey, default: [:]][entry.pattern.shapeHash, default: []].append(index)
            size += entry.pattern.size
            if size > Self.maximumSize, firstPast == nil {
                // Without replacing, the sum only grows: refused at once.
                if !replacing { return (index, Self.tooLarge(entry.route, size: size)) }
                firstPast = (index, size)
            }
        }
        if size > Self.maximumSize, let firstPast {
            return (firstPast.index, Self.tooLarge(entries[firstPast.index].route, size: size))
        }
        return nil
    }

    /// The error for routes that would take `size`, more than ``maximumSize``, found at `route`.
    static func tooLarge(_ route: URLRoute, size: Int) -> MediatorError {
        MediatorError(
            .invalidRoute,
            reason:
                "route \"\(oneLine(route.pattern, limit: 200))\": the routes would take \(size) units of room or more (a unit per route, per segment of each variant once optional groups are expanded, per 32 bytes of a variant's text, and two per scheme or host), over the limit of \(maximumSize) for one mediator"
        )
    }

    /// Adds `entries`, which ``refusal(of:replacing:)`` accepted, in place: each scheme's builder
    /// is taken out of the table while it changes, so that it is not copied (adding routes one by
    /// one stays linear). Returns a key for each route added, for ``remove(_:)``.
    @discardableResult
    mutating func add(_ entries: [Entry], replacing: Bool) -> [RouteKey] {
        if entries.isEmpty { return [] }
        var keys: [RouteKey] = []
        keys.reserveCapacity(entries.count)
        for entry in entries {
            var builder = builders.removeValue(forKey: entry.tableKey) ?? RouteTrieBuilder()
            if builder.count == 0 { size += Self.schemeSize }
            let before = (count: builder.count, size: builder.size)
            if let order = try? builder.add(entry.pattern, payload: entry.destination, priority: entry.route.priority, replacing: replacing, order: nextOrder) {
                keys.append(RouteKey(tableKey: entry.tableKey, order: order))
                nextOrder += 1
            }
            count += builder.count - before.count
            size += builder.size - before.size
            if builder.count == 0 {
                size -= Self.schemeSize
                continue
            }
            builders[entry.tableKey] = builder
        }
        changed()
        return keys
    }

    /// Removes the routes of `keys` that are still here; how many it removed.
    @discardableResult
    mutating func remove(_ keys: [RouteKey]) -> Int {
        var removed = 0
        for key in keys {
            guard var builder = builders.removeValue(forKey: key.tableKey) else { continue }
            let before = builder.size
            if builder.remove(order: key.order) { removed += 1 }
            size -= before - builder.size
            if builder.count > 0 { builders[key.tableKey] = builder } else { size -= Self.schemeSize }
        }
        count -= removed
        if removed > 0 { changed() }
        return removed
    }

    /// Removes every route, keeping the counter of registration orders (so that no key handed
    /// out before matches a route added after); returns the table as it was, to be released by
    /// the caller outside its lock.
    mutating func removeAll() -> RouteTable {
        var emptied = RouteTable()
        emptied.nextOrder = nextOrder
        emptied.generation = generation + 1
        swap(&self, &emptied)
        return emptied
    }

    /// Marks a change: the snapshot is stale.
    private mutating func changed() {
        snapshot = nil
        generation &+= 1
    }

    /// The `MediatorError` for a pattern the engine refused.
    static func error(_ error: RouteError, scheme: String?, host: String? = nil) -> MediatorError {
        var forScheme = scheme.map { " (scheme \"\(oneLine($0, limit: 60))\")" } ?? ""
        if let host { forScheme += " (host \"\(oneLine(host, limit: 100))\")" }
        if case .duplicateRoute = error.problem {
            return MediatorError(.duplicateRoute, reason: "\(error)\(forScheme)")
        }
        return MediatorError(.invalidRoute, reason: "\(error)\(forScheme)")
    }

    /// Removes the route of `tableKey` that matches exactly the URLs `pattern` matches; `false`
    /// when there is none (or the pattern is malformed, so that no route can have it).
    mutating func remove(_ pattern: String, tableKey: String) -> Bool {
        guard var builder = builders.removeValue(forKey: tableKey) else { return false }
        let before = builder.size
        let removed = builder.remove(pattern)
        size -= before - builder.size
        if builder.count > 0 { builders[tableKey] = builder } else { size -= Self.schemeSize }
        guard removed else { return false }
        count -= 1
        changed()
        return true
    }

    /// Installs `made`, built from the builders of `generation`, unless the table changed since
    /// or a snapshot folded the same way is already there; returns the snapshot the table has then
    /// (or `made`, which stays right for the match it was built for).
    /// A snapshot folded otherwise than `made` is replaced, and handed back (`replaced`) to be
    /// released by the caller outside its locks.
    mutating func install(_ made: RouteSnapshot, builtAt generation: Int) -> (snapshot: RouteSnapshot, replaced: RouteSnapshot?) {
        if let snapshot, snapshot.foldsCase == made.foldsCase { return (snapshot, nil) }
        guard generation == self.generation else { return (made, nil) }
        let replaced = snapshot
        snapshot = made
        return (made, replaced)
    }
}

/// The routes' tries at one moment: immutable, shared by every match until the routes change.
final class RouteSnapshot: Sendable {
    /// The trie of each scheme's and host's routes (``RouteTable/key(scheme:host:)``), and of
    /// every scheme's under ``RouteTable/anyScheme``.
    let tries: [String: RouteTrie<RouteDestination>]
    /// The trie of the routes for every scheme, kept apart: every match that the URL's own scheme
    /// does not answer reads it, and a lookup by the empty string costs a hash.
    private let anyScheme: RouteTrie<RouteDestination>?
    /// Whether any scheme has routes of its own (when none has, its lookup is skipped).
    private let hasSchemeRoutes: Bool
    /// Whether any route has a host (when none has, a link's host is not even read).
    let hasHostRoutes: Bool
    /// Whether the tries match literal text ignoring ASCII case
    /// (``URLPolicy/matchesRoutesIgnoringCase``).
    let foldsCase: Bool

    /// The snapshot of `tries`, all built with `foldsCase`.
    init(tries: [String: RouteTrie<RouteDestination>], foldsCase: Bool = false) {
        self.tries = tries
        self.foldsCase = foldsCase
        anyScheme = tries[RouteTable.anyScheme]
        hasHostRoutes = tries.keys.contains { RouteTable.parts(of: $0).host != nil }
        hasSchemeRoutes = tries.keys.contains { !$0.isEmpty && RouteTable.parts(of: $0).host == nil }
    }

    /// The trie for routes with the host `server` (lowercased) and `scheme`, then for routes with
    /// that host and every scheme; `nil` for a link with no server, or when no route has a host.
    @inline(never)
    private func hostTries(scheme: String, server: String?) -> (RouteTrie<RouteDestination>?, RouteTrie<RouteDestination>?) {
        guard hasHostRoutes, let server else { return (nil, nil) }
        return (tries[RouteTable.key(scheme: scheme, host: server)], tries[RouteTable.key(scheme: RouteTable.anyScheme, host: server)])
    }

    /// The route `segments` match for `scheme` (lowercased) and the link's `server` (its host,
    /// lowercased, when it names a server): the routes for that server (of the scheme, then of
    /// every scheme) first, then the scheme's own routes, then the routes for every scheme, unless
    /// the scheme has routes of its own and is one of `isolated` (lowercased).
    func match<Text: RouteSegmentText>(
        scheme: String, server: String? = nil, _ segments: [Text], isolated: Set<String>
    ) -> RouteMatch<RouteDestination>? {
        firstAnswer(scheme: scheme, server: server, isolated: isolated) { $0.match(segments) }
    }

    /// The destination and pattern of the route ``match(scheme:server:_:isolated:)`` would return,
    /// capturing nothing.
    func destination<Text: RouteSegmentText>(
        scheme: String, server: String? = nil, _ segments: [Text], isolated: Set<String>
    ) -> (payload: RouteDestination, pattern: String)? {
        firstAnswer(scheme: scheme, server: server, isolated: isolated) { $0.destination(segments) }
    }

    /// Asks the tries in the order a link is matched in, and returns the first answer: the link's
    /// host's routes for its scheme, then for any scheme; the scheme's own routes, which end the
    /// search when the scheme is one of `isolated`; then the routes for any scheme.
    @inline(__always)
    private func firstAnswer<Answer>(
        scheme: String, server: String?, isolated: Set<String>, _ ask: (RouteTrie<RouteDestination>) -> Answer?
    ) -> Answer? {
        if hasHostRoutes {
            let (own, any) = hostTries(scheme: scheme, server: server)
            if let own, let answer = ask(own) { return answer }
            if let any, let answer = ask(any) { return answer }
        }
        if hasSchemeRoutes, let own = tries[scheme] {
            if let answer = ask(own) { return answer }
            guard !isolated.contains(scheme) else { return nil }
        }
        guard let anyScheme else { return nil }
        return ask(anyScheme)
    }

    /// Every route in match order: the routes with a host (hosts sorted; for each, a scheme's
    /// before those for every scheme), then each scheme's (schemes sorted), then those for every
    /// scheme.
    var listing: [URLRoute] {
        var listed: [URLRoute] = []
        let keys = tries.keys.map { key in (key: key, parts: RouteTable.parts(of: key)) }
        let ordered = keys.sorted { lhs, rhs in
            let left = (lhs.parts.host == nil ? 1 : 0, lhs.parts.host ?? "", lhs.parts.scheme == nil ? 1 : 0, lhs.parts.scheme ?? "")
            let right = (rhs.parts.host == nil ? 1 : 0, rhs.parts.host ?? "", rhs.parts.scheme == nil ? 1 : 0, rhs.parts.scheme ?? "")
            return left < right
        }
        for (key, parts) in ordered {
            for route in tries[key]?.routes ?? [] {
                listed.append(
                    URLRoute(
                        route.pattern, target: route.payload.target, action: route.payload.action, scheme: parts.scheme, host: parts.host,
                        priority: route.priority))
            }
        }
        return listed
    }
}
