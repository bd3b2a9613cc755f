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

    /// Adds `route` (its names already canonical, its scheme lowercased or ``anyScheme``).
    mutating func add(_ route: URLRoute, destination: RouteDestination, schemeKey: String, replacing: Bool) throws(MediatorError) {
        var builder = builders[schemeKey, default: RouteTrieBuilder()]
        do {
            let before = builder.count
            try builder.add(route.pattern, payload: destination, priority: route.priority, replacing: replacing)
            count += builder.count - before
        } catch let error as RouteError {
            throw Self.error(error, scheme: route.scheme)
        } catch {
            throw MediatorError(.invalidRoute, reason: "route \"\(oneLine(route.pattern, limit: 200))\": \(error)")
        }
        builders[schemeKey] = builder
        snapshot = nil
    }

    /// Removes the route of `schemeKey` that matches exactly the URLs `pattern` matches; `false`
    /// when there is none (or the pattern is malformed, so that no route can have it).
    mutating func remove(_ pattern: String, schemeKey: String) -> Bool {
        guard var builder = builders[schemeKey], builder.remove(pattern) else { return false }
        builders[schemeKey] = builder.count == 0 ? nil : builder
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

    /// The `MediatorError` for a route the engine refused.
    private static func error(_ error: RouteError, scheme: String?) -> MediatorError {
        let forScheme = scheme.map { " (scheme \"\(oneLine($0, limit: 60))\")" } ?? ""
        if case .duplicateRoute = error.problem {
            return MediatorError(.duplicateRoute, reason: "\(error)\(forScheme)")
        }
        return MediatorError(.invalidRoute, reason: "\(error)\(forScheme)")
    }
}

/// The routes' tries at one moment: immutable, shared by every match until the routes change.
final class RouteSnapshot: Sendable {
    /// The trie of each scheme's routes, and of every scheme's under ``RouteTable/anyScheme``.
    let tries: [String: RouteTrie<RouteDestination>]

    init(tries: [String: RouteTrie<RouteDestination>]) {
        self.tries = tries
    }

    /// The route `segments` match for `scheme` (lowercased): the scheme's own routes first, then
    /// the routes for every scheme.
    func match<Text: RouteSegmentText>(scheme: String, _ segments: [Text]) -> RouteMatch<RouteDestination>? {
        if let own = tries[scheme], let match = own.match(segments) { return match }
        return tries[RouteTable.anyScheme]?.match(segments)
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
