import Mediator
import Testing

// Which routes a link's scheme is matched against: JLRoutes' namespaces, isolated from the global
// routes (its testNamespaces and testFallbackToGlobal cases, with this package's calls), here
// for the schemes a policy names.

/// JLRoutes' fixture: a route for every scheme, and `/test` for two schemes of their own, the
/// first isolated (JLRoutes' default), the second not (its `shouldFallbackToGlobalRoutes`).
private func namespaces() throws -> Mediator {
    let mediator = try urlTestMediator()
    mediator.urlPolicy.isolatedSchemes = ["NamespaceTest1"]
    try mediator.route("/user/view/:userID", to: "Echo", action: "echo")
    try mediator.route("/test", to: "Other", action: "ping", scheme: "namespaceTest1")
    try mediator.route("/test", to: "Other", action: "ping", scheme: "namespaceTest2")
    return mediator
}

@Suite("Deep links: each scheme's routes and the routes for every scheme")
struct RouteSchemeTests {
    @Test("An isolated scheme with routes of its own is matched against them alone")
    func isolated() throws {
        let mediator = try namespaces()
        #expect(mediator.open("namespaceTest1://test") as? String == "pong")
        // The route for every scheme is not namespaceTest1's: no route matches, and the path is
        // too long for scheme://Target/action.
        #expect(mediator.open("namespaceTest1://user/view/joeldev") == nil)
        #expect(!mediator.canOpen("namespaceTest1://user/view/joeldev"))
        let error = #expect(throws: MediatorError.self) { try mediator.validate(url: "namespaceTest1://user/view/joeldev") }
        #expect(error?.code == .routeNotFound)
    }

    @Test("A scheme not isolated goes on to the routes for every scheme when its own do not match; one without routes uses those")
    func notIsolated() throws {
        let mediator = try namespaces()
        #expect(mediator.open("namespaceTest2://test") as? String == "pong")
        let reached = echoed(mediator, "namespaceTest2://user/view/joeldev")
        #expect(reached?["userID"] as? String == "joeldev")
        #expect(reached?[URLRoute.patternKey] as? String == "/user/view/:userID")
        #expect(reached?[URLRoute.schemeKey] as? String == "namespacetest2")
        #expect(mediator.canOpen("namespaceTest2://user/view/joeldev"))
        #expect(throws: Never.self) { try mediator.validate(url: "namespaceTest2://user/view/joeldev") }
        // `tests` has no routes of its own.
        #expect(echoed(mediator, "tests://user/view/joeldev")?["userID"] as? String == "joeldev")
    }

    @Test("An isolated scheme with no routes of its own is matched against the routes for every scheme")
    func isolatedWithoutRoutes() throws {
        let mediator = try namespaces()
        mediator.urlPolicy.isolatedSchemes.insert("tests")
        #expect(echoed(mediator, "tests://user/view/joeldev")?["userID"] as? String == "joeldev")
    }

    @Test("A scheme's own route wins over the route for every scheme of the same pattern, isolated or not")
    func ownFirst() throws {
        for isolated: Set<String> in [[], ["first"]] {
            let mediator = try urlTestMediator()
            mediator.urlPolicy.isolatedSchemes = isolated
            try mediator.route("/only/:x", to: "Echo", action: "echo")
            try mediator.route("/only/:x", to: "Other", action: "ping", scheme: "first")
            #expect(mediator.open("first://only/1") as? String == "pong")
            #expect(echoed(mediator, "second://only/1")?["x"] as? String == "1")
        }
    }

    @Test("The policy keeps the schemes lowercased, whichever way they were given")
    func lowercased() {
        var policy = URLPolicy()
        policy.isolatedSchemes = ["MyApp", "other"]
        #expect(policy.isolatedSchemes == ["myapp", "other"])
        policy.isolatedSchemes.insert("THIRD")
        #expect(policy.isolatedSchemes == ["myapp", "other", "third"])
    }
}

@Suite("Deep links: a custom-scheme host read as a server")
struct RouteServerHostTests {
    /// JLRoutes' fixture for its host-handling cases.
    private func signIn() throws -> Mediator {
        let mediator = try urlTestMediator()
        mediator.urlPolicy.readsDottedHostsAsServers = true
        try mediator.route("/sign_in", to: "Other", action: "ping")
        try mediator.route("/path/:pathid", to: "Echo", action: "echo")
        return mediator
    }

    @Test("With readsDottedHostsAsServers, a host with a dot or localhost (any case) is a server: routes match the path alone")
    func dottedHostsAreServers() throws {
        let mediator = try signIn()
        #expect(mediator.open("myapp://www.mydomain.com/sign_in") as? String == "pong")
        #expect(echoed(mediator, "myapp://www.mydomain.com/path/3")?["pathid"] as? String == "3")
        #expect(echoed(mediator, "myapp://www.mydomain.com/path/3/")?["pathid"] as? String == "3")
        #expect(echoed(mediator, "myapp://localhost/path/4")?["pathid"] as? String == "4")
        #expect(echoed(mediator, "myapp://LocalHost/path/5")?["pathid"] as? String == "5")
        #expect(mediator.canOpen("myapp://example.com/sign_in"))
        #expect(throws: Never.self) { try mediator.validate(url: "myapp://example.com/path/6") }
        // A host that is neither stays the first segment.
        #expect(echoed(mediator, "myapp://path/7")?["pathid"] as? String == "7")
        #expect(!mediator.canOpen("myapp://intranet/sign_in"))
        #expect(!mediator.canOpen("myapp://localhostx/sign_in"))
    }

    @Test("Without it (the default), the host is the first segment whatever it holds")
    func hostIsSegmentByDefault() throws {
        let mediator = try signIn()
        mediator.urlPolicy.readsDottedHostsAsServers = false
        #expect(!mediator.canOpen("myapp://www.mydomain.com/sign_in"))
        #expect(!mediator.canOpen("myapp://localhost/path/4"))
        #expect(mediator.open("myapp://sign_in") as? String == "pong")
    }

    @Test("A host read as a server is not lowercased and matched again by matchesHostIgnoringCase")
    func serverHostNotLowered() throws {
        let mediator = try signIn()
        mediator.urlPolicy.matchesHostIgnoringCase = true
        try mediator.route("/www.example.com/x", to: "Other", action: "ping")
        // The host is a server: the path /x alone is matched, and no route takes it.
        #expect(!mediator.canOpen("myapp://WWW.Example.com/x"))
        mediator.urlPolicy.readsDottedHostsAsServers = false
        #expect(mediator.canOpen("myapp://WWW.Example.com/x"))
    }
}
