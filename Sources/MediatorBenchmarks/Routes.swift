import Mediator

// Deep-link route matching: one URL with two path params, matched among 10 routes and among
// 10,000. Both tables have the same ten routes around the URL (its neighbours under `user`, a
// search route with nested optional groups, a catch-all); the large one adds 9,990 routes under
// 1,998 generated literal prefixes, so the two cases differ only in how many routes surround the
// path, not in the path's own neighbourhood.

/// The URL every route case opens: the host and three path segments, two of them `int` params.
let routeURL = "myapp://user/42/posts/7"
/// The segments of ``routeURL``'s path, as routes see them (the host first), split once.
let routeSegments = ["user", "42", "posts", "7"]

/// What `open(routeURL)` answers: id + post.
let routeAnswer = 49

/// The ten routes of both tables. The first is the one `routeURL` matches; the others share its
/// first segment, or could match it if better ones did not (the untyped `:slug/*`, the catch-all).
let routeNeighbours: [URLRoute] = [
    URLRoute("/user/:id<int>/posts/:post<int>", target: "BenchRoutes", action: "post"),
    URLRoute("/user/:id<int>", target: "BenchRoutes", action: "profile"),
    URLRoute("/user/:id<int>/posts", target: "BenchRoutes", action: "posts"),
    URLRoute("/user/:id<int>/followers(/:page<int>)", target: "BenchRoutes", action: "followers"),
    URLRoute("/user/:name<alpha>/posts/:post<int>", target: "BenchRoutes", action: "postByName"),
    URLRoute("/user/:uid<uuid>/posts/:post", target: "BenchRoutes", action: "postByUUID"),
    URLRoute("/user/me", target: "BenchRoutes", action: "me"),
    URLRoute("/user/:slug/*", target: "BenchRoutes", action: "userFiles"),
    URLRoute("/search(/:query(/:page<int>))", target: "Search", action: "find"),
    URLRoute("/*", target: "Web", action: "fallback", priority: -1),
]

/// The resources whose names, numbered, make the generated literal prefixes (`shop0`, `order0`, ...,
/// `shop1`, ...).
private let resources = [
    "shop", "order", "product", "cart", "feed", "story", "invoice", "ticket", "team", "project",
    "album", "track", "event", "place", "review", "coupon", "message", "thread", "group", "page",
]

/// `count` distinct routes (at least the ten neighbours): the neighbours, then five routes per
/// generated prefix, as an app declares a resource: `/shop3/:id<int>`,
/// `/shop3/:id<int>/items/:item<int>`, `/shop3/:uid<uuid>(/:tab<alpha>)`, `/shop3/:slug/edit` and
/// `/shop3/*`; each prefix's routes go to a target of its own (`Shop3`), registered or not (a route
/// may name a target registered later; only the matched one is called).
func benchRoutes(count: Int) -> [URLRoute] {
    var routes = routeNeighbours
    var index = 0
    while routes.count < count {
        let resource = resources[(index / 5) % resources.count]
        let prefix = resource + String(index / 5 / resources.count)
        let target = resource.prefix(1).uppercased() + resource.dropFirst() + String(index / 5 / resources.count)
        let pattern: String
        let action: String
        switch index % 5 {
        case 0: (pattern, action) = ("/\(prefix)/:id<int>", "show")
        case 1: (pattern, action) = ("/\(prefix)/:id<int>/items/:item<int>", "item")
        case 2: (pattern, action) = ("/\(prefix)/:uid<uuid>(/:tab<alpha>)", "byUUID")
        case 3: (pattern, action) = ("/\(prefix)/:slug/edit", "edit")
        default: (pattern, action) = ("/\(prefix)/*", "browse")
        }
        routes.append(URLRoute(pattern, target: target, action: action))
        index += 1
    }
    return routes
}

/// A mediator with `count` routes added in one batch (`addRoutes`), the target `routeURL` reaches,
/// and the routes' trie already built (by a first match), so that no case times the build.
/// Throws if `routeURL` does not answer ``routeAnswer``.
func makeRouteMediator(count: Int) throws -> Mediator {
    let mediator = Mediator()
    try mediator.register(
        target: "BenchRoutes",
        actions: [
            Action("post") { _, params in try params.value("id", as: Int.self) &+ params.value("post", as: Int.self) }
        ])
    try mediator.addRoutes(benchRoutes(count: count))
    guard mediator.canOpen(routeURL), mediator.routes.count == count else {
        throw SetupError(message: "\(routeURL) cannot be opened among \(count) routes (\(mediator.routes.count) listed)")
    }
    try expectAnswer(mediator.open(routeURL), answer: routeAnswer, "route cases with \(count) routes")
    return mediator
}

/// The 10,000-route mediator: a global, so it is built on first use, by its cases only (outside
/// their timing in a normal run: the warm-up round builds it; with `--iterations`, subtract a run
/// of 1 iteration, as for every case).
let routes10000: Mediator = {
    do {
        return try makeRouteMediator(count: 10_000)
    } catch {
        fatalError("mediator-bench: \(error)")
    }
}()
