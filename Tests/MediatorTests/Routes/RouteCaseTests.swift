import Testing

@testable import Mediator

// URLPolicy.matchesRoutesIgnoringCase: route literals matched ignoring ASCII case, as routing-kit's
// caseInsensitive option matches constant segments.

@Suite("Deep links: route literals matched ignoring case")
struct RouteCaseTests {
    @Test("Literals and the text around placeholders match ignoring ASCII case; values keep theirs; every door agrees")
    func literalsFold() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/Profile/:id", to: "Echo", action: "echo")
        try mediator.route("/files/:name.JSON", to: "Echo", action: "echo")
        #expect(!mediator.canOpen("myapp://profile/AbC"))
        mediator.urlPolicy.matchesRoutesIgnoringCase = true
        #expect(echoed(mediator, "myapp://PROFILE/AbC")?["id"] as? String == "AbC")
        #expect(echoed(mediator, "myapp://profile/AbC")?[URLRoute.patternKey] as? String == "/Profile/:id")
        #expect(echoed(mediator, "myapp://Files/Report.json")?["name"] as? String == "Report")
        for url in ["myapp://pRoFiLe/1", "myapp://FILES/x.Json"] {
            #expect(mediator.canOpen(url), "\(url)")
            try mediator.validate(url: url)
        }
        // Only A-Z fold: other text is still compared byte for byte.
        try mediator.route("/caf\u{E9}", to: "Other", action: "ping")
        #expect(mediator.open("myapp://CAF%C3%A9") as? String == "pong")
        #expect(!mediator.canOpen("myapp://CAF%C3%89"))
        mediator.urlPolicy.matchesRoutesIgnoringCase = false
        #expect(!mediator.canOpen("myapp://PROFILE/AbC"))
        #expect(mediator.canOpen("myapp://Profile/AbC"))
    }

    @Test("Of routes whose literals differ only in case, the higher priority, then the first registered, is matched; both are listed")
    func collisions() throws {
        let mediator = try urlTestMediator()
        mediator.urlPolicy.matchesRoutesIgnoringCase = true
        try mediator.route("/User", to: "Other", action: "ping")
        try mediator.route("/user", to: "Echo", action: "echo")
        #expect(mediator.open("myapp://user") as? String == "pong")
        #expect(mediator.open("myapp://USER") as? String == "pong")
        #expect(mediator.routes.map(\.pattern) == ["/User", "/user"])
        try mediator.route("/user", to: "Echo", action: "echo", priority: 1, replacing: true)
        #expect(echoed(mediator, "myapp://User") != nil)
    }

    @Test("Routes for a host and a scheme fold too")
    func hostAndSchemeRoutes() throws {
        let mediator = try urlTestMediator()
        mediator.urlPolicy.matchesRoutesIgnoringCase = true
        try mediator.route("/Item/:id", to: "Echo", action: "echo", scheme: "https", host: "shop.example.com")
        try mediator.route("/Help", to: "Other", action: "ping", scheme: "myapp")
        #expect(echoed(mediator, "https://SHOP.example.com/ITEM/Z9")?["id"] as? String == "Z9")
        #expect(mediator.open("MyApp://HELP") as? String == "pong")
    }

    @Test("Listing the routes builds the tries the policy asks for, so the next match does not build them again")
    func listingKeepsTheFold() throws {
        let mediator = try urlTestMediator()
        mediator.urlPolicy.matchesRoutesIgnoringCase = true
        try mediator.route("/Help", to: "Other", action: "ping")
        _ = mediator.routes
        let listed = try #require(mediator.routeSnapshot())
        #expect(listed.foldsCase)
        #expect(mediator.open("myapp://HELP") as? String == "pong")
        #expect(mediator.routeSnapshot() === listed)
    }
}
