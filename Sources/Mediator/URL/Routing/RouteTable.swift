/// One route as it was added to a ``RouteTable``: removing it by its key parses nothing, and
/// removes nothing if that route was removed or replaced since (another route never takes its key).
package struct RouteKey: Sendable {
    /// The scheme's key in the table.
    let schemeKey: String
    /// The route's registration order in that scheme's builder.
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
    /// The routes of each scheme (lowercased), and of every scheme under ``anyScheme``.
    private(set) var builders: [String: RouteTrieBuilder<RouteDestination>] = [:]
    /// The tries of the routes as they are now; `nil` after a change until the next match.
    private(set) var snapshot: RouteSnapshot?
    /// How many routes there are, over all schemes.
    private(set) var count = 0

    /// A route ready to add: names canonical, scheme lowercased (or ``anyScheme``), pattern parsed.
    struct Entry {
        let route: URLRoute
        let destination: RouteDestination
        let schemeKey: String
        let pattern: RoutePattern
    }

    /// The most room the routes of one mediator may take, in segments (``RoutePattern/size``:
    /// each variant's segments, at least one per variant, summed over the routes of every scheme).
    /// It bounds what a table costs to store and to build into tries: see the README's route table
    /// limits for what this much costs.
    static let maximumSize = 400_000

    /// The error that refuses adding `entries` (in order, after the routes already here), or
    /// `nil`: a route that matches exactly the URLs of one already here (unless `replacing`) or of
    /// an earlier entry for the same scheme, with that entry's index; or routes that would take
    /// more than ``maximumSize`` (with the index of the first entry past it). Nothing is changed.
    func refusal(of entries: [Entry], replacing: Bool) -> (index: Int, error: MediatorError)? {
        // The entries of each scheme by shape hash, compared shape to shape when a hash repeats.
        var seen: [String: [Int: [Int]]] = [:]
        var size = self.size
        for (index, entry) in entries.enumerated() {
            var existing: String?
            for earlier in seen[entry.schemeKey]?[entry.pattern.shapeHash] ?? [] where entries[earlier].pattern.shape == entry.pattern.shape {
                existing = entries[earlier].route.pattern
                break
            }
            if existing == nil, let old = builders[entry.schemeKey]?.existing(entry.pattern) {
                if replacing {
                    size -= old.pattern.size
                } else {
                    existing = old.pattern.text
                }
            }
            if let existing {
                return (index, Self.error(RouteError(pattern: entry.route.pattern, problem: .duplicateRoute(existing: existing)), scheme: entry.route.scheme))
            }
            seen[entry.schemeKey, default: [:]][entry.pattern.shapeHash, default: []].append(index)
            size += entry.pattern.size
            if size > Self.maximumSize {
                return (index, Self.tooLarge(entry.route, size: size))
            }
        }
        return nil
    }

    /// The error for routes that would take more than ``maximumSize``, found at `route`.
    static func tooLarge(_ route: URLRoute, size: Int) -> MediatorError {
        MediatorError(
            .invalidRoute,
            reason:
                "route \"\(oneLine(route.pattern, limit: 200))\": the routes would take \(size) segments or more (each variant's segments, optional groups expanded), over the limit of \(maximumSize) for one mediator"
        )
    }

    /// The room the routes take, in segments (see ``maximumSize``).
    var size: Int { builders.values.reduce(0) { $0 + $1.size } }

    /// Adds `entries`, which ``refusal(of:replacing:)`` accepted, in place: each scheme's builder
    /// is taken out of the table while it changes, so that it is not copied (adding routes one by
    /// one stays linear).
    /// Returns a key for each route added, for ``remove(_:)``.
    @discardableResult
    mutating func add(_ entries: [Entry], replacing: Bool) -> [RouteKey] {
        var keys: [RouteKey] = []
        keys.reserveCapacity(entries.count)
        for entry in entries {
            var builder = builders.removeValue(forKey: entry.schemeKey) ?? RouteTrieBuilder()
            let before = builder.count
            if let order = try? builder.add(entry.pattern, payload: entry.destination, priority: entry.route.priority, replacing: replacing) {
                keys.append(RouteKey(schemeKey: entry.schemeKey, order: order))
            }
            count += builder.count - before
            builders[entry.schemeKey] = builder
        }
        snapshot = nil
        return keys
    }

    /// Removes the routes of `keys` that are still here; how many it removed.
    @discardableResult
    mutating func remove(_ keys: [RouteKey]) -> Int {
        var removed = 0
        for key in keys {
            guard var builder = builders.removeValue(forKey: key.schemeKey) else { continue }
            if builder.remove(order: key.order) { removed += 1 }
            if builder.count > 0 { builders[key.schemeKey] = builder }
        }
        count -= removed
        if removed > 0 { snapshot = nil }
        return removed
    }

    /// The `MediatorError` for a pattern the engine refused.
    static func error(_ error: RouteError, scheme: String?) -> MediatorError {
        let forScheme = scheme.map { " (scheme \"\(oneLine($0, limit: 60))\")" } ?? ""
        if case .duplicateRoute = error.problem {
            return MediatorError(.duplicateRoute, reason: "\(error)\(forScheme)")
        }
        return MediatorError(.invalidRoute, reason: "\(error)\(forScheme)")
    }

    /// Removes the route of `schemeKey` that matches exactly the URLs `pattern` matches; `false`
    /// when there is none (or the pattern is malformed, so that no route can have it).
    mutating func remove(_ pattern: String, schemeKey: String) -> Bool {
        guard var builder = builders.removeValue(forKey: schemeKey) else { return false }
        let removed = builder.remove(pattern)
        if builder.count > 0 { builders[schemeKey] = builder }
        guard removed else { return false }
        count -= 1
        snapshot = nil
        return true
    }

    /// The tries of the routes as they are now, built if a change made them stale.
    mutating func built() -> RouteSnapshot {
        if let snapshot { return snapshot }
        let made = RouteSnapshot(tries: builders.mapValues { $0.build() })
        snapshot = made
        return made
    }
}

/// The routes' tries at one moment: immutable, shared by every match until the routes change.
final class RouteSnapshot: Sendable {
    /// The trie of each scheme's routes, and of every scheme's under ``RouteTable/anyScheme``.
    let tries: [String: RouteTrie<RouteDestination>]
    /// The trie of the routes for every scheme, kept apart: every match that the URL's own scheme
    /// does not answer reads it, and a lookup by the empty string costs a hash.
    private let anyScheme: RouteTrie<RouteDestination>?
    /// Whether any scheme has routes of its own (when none has, its lookup is skipped).
    private let hasSchemeRoutes: Bool

    init(tries: [String: RouteTrie<RouteDestination>]) {
        self.tries = tries
        anyScheme = tries[RouteTable.anyScheme]
        hasSchemeRoutes = tries.keys.contains { !$0.isEmpty }
    }

    /// The route `segments` match for `scheme` (lowercased): the scheme's own routes first, then
    /// the routes for every scheme.
    func match<Text: RouteSegmentText>(scheme: String, _ segments: [Text]) -> RouteMatch<RouteDestination>? {
        if hasSchemeRoutes, let own = tries[scheme], let match = own.match(segments) { return match }
        return anyScheme?.match(segments)
    }

    /// The destination and pattern of the route ``match(scheme:_:)`` would return, capturing nothing.
    func destination<Text: RouteSegmentText>(scheme: String, _ segments: [Text]) -> (payload: RouteDestination, pattern: String)? {
        if hasSchemeRoutes, let own = tries[scheme], let found = own.destination(segments) { return found }
        return anyScheme?.destination(segments)
    }

    /// Every route in match order: each scheme's (schemes sorted), then those for every scheme.
    var listing: [URLRoute] {
        var listed: [URLRoute] = []
        for scheme in tries.keys.sorted(by: { ($0.isEmpty ? 1 : 0, $0) < ($1.isEmpty ? 1 : 0, $1) }) {
            for route in tries[scheme]?.routes ?? [] {
                listed.append(
                    URLRoute(
                        route.pattern, target: route.payload.target, action: route.payload.action, scheme: scheme.isEmpty ? nil : scheme,
                        priority: route.priority))
            }
        }
        return listed
    }
}
