import Mediator
import Testing

// Routes for one server: the universal links of several domains in one mediator
// (`https://example.com/user/:id` beside `https://shop.example.com/item/:id`), the host matched
// ignoring ASCII case, user and port.

/// Two domains' routes, and a route for every server that shares a pattern with one of them.
private func domains() throws -> Mediator {
    let mediator = try urlTestMediator()
    try mediator.route("/user/:id", to: "Echo", action: "echo", host: "example.com")
    try mediator.route("/item/:id<int>", to: "Echo", action: "echo", scheme: "https", host: "Shop.Example.com")
    try mediator.route("/item/:id<int>", to: "Other", action: "ping")
    return mediator
}

@Suite("Deep links: routes for one server")
struct RouteHostTests {
    @Test("A link to a server is matched against that server's routes first, ignoring case, user and port")
    func universalLinks() throws {
        let mediator = try domains()
        #expect(echoed(mediator, "https://example.com/user/7")?["id"] as? String == "7")
        #expect(echoed(mediator, "http://EXAMPLE.com/user/8")?["id"] as? String == "8")
        #expect(echoed(mediator, "https://shop.example.com/item/3")?["id"] as? String == "3")
        #expect(echoed(mediator, "https://SHOP.example.COM:8443/item/4")?["id"] as? String == "4")
        #expect(echoed(mediator, "https://ada@shop.example.com/item/5")?["@route"] as? String == "/item/:id<int>")
        // A scheme's route for the host is not another scheme's; the route for every server is.
        #expect(mediator.open("http://shop.example.com/item/3") as? String == "pong")
        // Another server: only the route without a host.
        #expect(mediator.open("https://example.com/item/3") as? String == "pong")
        #expect(mediator.open("https://example.org/item/3") as? String == "pong")
        #expect(!mediator.canOpen("https://example.org/user/7"))
        #expect(!mediator.canOpen("https://shop.example.com/user/7"))
    }

    @Test("Every door agrees: open, canOpen, validate(url:) and call(url:)")
    func doorsAgree() async throws {
        let mediator = try domains()
        #expect(mediator.canOpen("https://Example.com/user/7"))
        #expect(throws: Never.self) { try mediator.validate(url: "https://Example.com/user/7") }
        let called = try await mediator.call(url: "https://Example.com:443/user/9") as? [String: any Sendable]
        #expect(called?["id"] as? String == "9")
        let error = #expect(throws: MediatorError.self) { try mediator.validate(url: "https://example.net/user/7") }
        #expect(error?.code == .routeNotFound)
    }

    @Test("A host route is tried before the scheme's own routes, isolated or not")
    func beforeSchemeRoutes() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/a", to: "Other", action: "ping", scheme: "https")
        try mediator.route("/a", to: "Echo", action: "echo", host: "example.com")
        #expect(echoed(mediator, "https://example.com/a")?["@route"] as? String == "/a")
        mediator.urlPolicy.isolatedSchemes = ["https"]
        #expect(echoed(mediator, "https://example.com/a")?["@route"] as? String == "/a")
        #expect(mediator.open("https://example.org/a") as? String == "pong")
    }

    @Test("A custom scheme's host is a segment, never a server, unless readsDottedHostsAsServers reads it so")
    func customSchemes() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/sign_in", to: "Other", action: "ping", host: "www.mydomain.com")
        #expect(!mediator.canOpen("myapp://www.mydomain.com/sign_in"))
        #expect(!mediator.canOpen("myapp://sign_in"))
        mediator.urlPolicy.readsDottedHostsAsServers = true
        #expect(mediator.open("myapp://www.MyDomain.com/sign_in") as? String == "pong")
        #expect(!mediator.canOpen("myapp://localhost/sign_in"))
        mediator.urlPolicy.allowsEmptyAuthority = true
        #expect(!mediator.canOpen("myapp:///sign_in"))
    }

    @Test("Routes with a host are listed first, by host, with [scheme://host] or [//host]; JSON tables take a host")
    func listing() throws {
        let mediator = try urlTestMediator()
        try mediator.addRoutes(
            json: #"""
                [{"pattern": "/a", "target": "Echo", "action": "echo"},
                 {"pattern": "/a", "target": "Echo", "action": "echo", "host": "Example.COM"},
                 {"pattern": "/a", "target": "Other", "action": "ping", "scheme": "HTTPS", "host": "example.com"},
                 {"pattern": "/b", "target": "Echo", "action": "echo", "host": "b.example.com"}]
                """#)
        #expect(
            mediator.routes.map(\.description) == [
                "[//b.example.com] /b -> Echo/echo",
                "[https://example.com] /a -> Other/ping",
                "[//example.com] /a -> Echo/echo",
                "/a -> Echo/echo",
            ])
        #expect(mediator.routes.map(\.host) == ["b.example.com", "example.com", "example.com", nil])
        #expect(mediator.open("https://example.com/a") as? String == "pong")
        #expect(echoed(mediator, "http://example.com/a")?["@route"] as? String == "/a")
    }

    @Test("A route of the same pattern for the same host is a duplicate; removeRoute takes the scheme and host it was added for")
    func duplicatesAndRemoval() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/a/:x", to: "Echo", action: "echo", host: "example.com")
        let duplicate = #expect(throws: MediatorError.self) { try mediator.route("/a/:y", to: "Other", action: "ping", host: "EXAMPLE.com") }
        #expect(duplicate?.code == .duplicateRoute)
        #expect(duplicate?.reason.contains(#"(host "example.com")"#) == true)
        try mediator.route("/a/:y", to: "Other", action: "ping", scheme: "https", host: "example.com")
        #expect(!mediator.removeRoute("/a/:x"))
        #expect(!mediator.removeRoute("/a/:x", host: ""))
        #expect(mediator.removeRoute("/a/:z", host: "Example.com"))
        #expect(!mediator.removeRoute("/a/:z", host: "example.com"))
        #expect(mediator.removeRoute("/a/:z", scheme: "HTTPS", host: "example.com"))
        #expect(mediator.routes.isEmpty)
    }

    @Test("A host that is not a server's name is refused as invalidRoute, naming it")
    func invalidHosts() throws {
        let mediator = try urlTestMediator()
        for host in [
            "", ".", "..", ".example.com", "example..com", "example.com:443", "exa mple.com", "ex_ample.com", "user@example.com", "[::1]", "caf\u{E9}.com",
            String(repeating: "a", count: 254),
        ] {
            let error = #expect(throws: MediatorError.self) { try mediator.route("/a", to: "Echo", action: "echo", host: host) }
            #expect(error?.code == .invalidRoute, "\(host)")
            #expect(error?.reason.contains("the host") == true, "\(host)")
        }
        let json = #expect(throws: MediatorError.self) {
            try mediator.addRoutes(json: #"[{"pattern": "/a", "target": "Echo", "action": "echo", "host": 5}]"#)
        }
        #expect(json?.reason == #"route 1: "host" must be a string"#)
        try mediator.route("/a", to: "Echo", action: "echo", host: String(repeating: "a", count: 253))
        #expect(mediator.routes.count == 1)
    }
}

@Suite("Deep links: the server a link names, read as written")
struct RouteServerNameTests {
    /// A route for `example.com` alone.
    private func paying() throws -> Mediator {
        let mediator = try urlTestMediator()
        try mediator.route("/pay/:id", to: "Other", action: "ping", host: "example.com")
        return mediator
    }

    @Test(
        "An encoded @ or :, a backslash or an IP literal names no server a route has; user and port are cut as written",
        .bug(id: "host-route-encoded-userinfo", "a link to another server reached a host's routes"))
    func userAndPortAsWritten() throws {
        let mediator = try paying()
        for url in [
            "https://evil.test%40example.com/pay/1", "https://example.com%3Aevil.test/pay/1", "https://evil.test\\@example.com/pay/1",
            "https://example.com%2Fx/pay/1", "https://[::1]/pay/1", "https://:443/pay/1", "https://example.com@/pay/1", "https://./pay/1",
            "https://example..com/pay/1",
        ] {
            #expect(!mediator.canOpen(url), "\(url)")
            #expect(mediator.open(url) == nil, "\(url)")
            #expect(throws: MediatorError.self, "\(url)") { try mediator.validate(url: url) }
        }
        for url in ["https://ada:secret@example.com:8443/pay/1", "https://ex%61mple.com/pay/1", "https://EXAMPLE.com./pay/1"] {
            #expect(mediator.open(url) as? String == "pong", "\(url)")
        }
    }

    @Test("A route's host loses one trailing dot; removeRoute refuses a scheme or host no route can have")
    func routeHostNormalised() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/pay/:id", to: "Other", action: "ping", scheme: "https", host: "Example.com.")
        #expect(mediator.routes.map(\.description) == ["[https://example.com] /pay/:id -> Other/ping"])
        #expect(!mediator.removeRoute("/pay/:id", scheme: "https//example.com"))
        #expect(!mediator.removeRoute("/pay/:id", scheme: "//example.com"))
        #expect(!mediator.removeRoute("/pay/:id", scheme: "https", host: "example.com:443"))
        #expect(mediator.removeRoute("/pay/:id", scheme: "HTTPS", host: "example.COM."))
    }

    @Test("readsDottedHostsAsServers reads the host without user and port")
    func dottedHostWithoutUserAndPort() throws {
        let mediator = try urlTestMediator()
        mediator.urlPolicy.readsDottedHostsAsServers = true
        try mediator.route("/x", to: "Other", action: "ping", host: "localhost")
        try mediator.route("/x", to: "Echo", action: "echo", host: "profile")
        #expect(mediator.open("myapp://localhost:8080/x") as? String == "pong")
        #expect(mediator.open("myapp://user@localhost/x") as? String == "pong")
        // A dot in the user does not make the host a server: "profile" is the first segment.
        #expect(!mediator.canOpen("myapp://a.b@profile/x"))
    }

    @Test("The routes listing, as JSON entries with null for what a route lacks, is a route table")
    func listingIsATable() throws {
        let mediator = try urlTestMediator()
        try mediator.addRoutes(
            json: #"[{"action":"ping","host":null,"pattern":"/a","priority":0,"scheme":null,"target":"Other"},"#
                + #"{"action":"echo","host":"example.com","pattern":"/b","priority":2,"scheme":"https","target":"Echo"}]"#)
        #expect(mediator.routes.map(\.description) == ["[https://example.com] /b -> Echo/echo (priority 2)", "/a -> Other/ping"])
    }
}
