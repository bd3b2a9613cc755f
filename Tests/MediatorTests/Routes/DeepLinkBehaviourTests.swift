import Mediator
import TestSupport
import Testing

@Suite("Deep links: params, rules, options and the unmatched-URL handler")
struct DeepLinkBehaviourTests {
    // MARK: Params

    @Test("Params merge as documented: query, then path params, then in-process params, then the mediator's keys")
    func mergePrecedence() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/user/:id", to: "Echo", action: "echo")
        let result = try mediator.callNow(url: "myapp://user/42?id=query&tab=query&q=1", params: ["tab": "code", "@url": "forged", "extra": 7])
        let values = try #require(result as? [String: any Sendable])
        #expect(values["id"] as? String == "42")
        #expect(values["tab"] as? String == "code")
        #expect(values["q"] as? String == "1")
        #expect(values["extra"] as? Int == 7)
        #expect(values["@url"] as? String == "myapp://user/42?id=query&tab=query&q=1")
        #expect(values["@route"] as? String == "/user/:id")
    }

    @Test("In-process params reach calls of the built-in form too, over the query's, and may be any Sendable value")
    func extraParamsBuiltIn() throws {
        let mediator = try urlTestMediator()
        let counter = Counter()
        let result = try mediator.callNow(url: "myapp://Echo/echo?a=1&b=2", params: ["b": "code", "context": counter])
        let values = try #require(result as? [String: any Sendable])
        #expect(values["a"] as? String == "1" && values["b"] as? String == "code")
        #expect((values["context"] as? Counter) === counter)
        #expect(values["@url"] == nil)
        #expect(mediator.open("myapp://Echo/echo", params: ["x": 1]) != nil)
    }

    @Test(
        "An action that declares its params gets path params coerced and the mediator's keys without declaring them; the query items it does not declare are dropped"
    )
    func declaredParams() throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Notes",
            actions: [
                Action("get", params: [.required("id", .integer)]) { (_: Mediator, params: Params) in
                    // The id doubled, and the keys it was given besides the mediator's own.
                    "\(try params.value("id", as: Int.self) * 2) " + params.values.keys.filter { !$0.hasPrefix("@") }.sorted().joined(separator: ",")
                }
            ])
        try mediator.route("/notes/:id<int>", to: "Notes", action: "get")
        #expect(try mediator.callNow(url: "myapp://notes/21") as? String == "42 id")
        #expect(try mediator.callNow(url: "myapp://notes/21?color=red&utm_source=mail") as? String == "42 id")
        #expect(try mediator.callNow(url: "myapp://notes/21?color=red", params: ["color": "blue", "context": "app"]) as? String == "42 id")
        try mediator.validate(url: "myapp://notes/21")
        try mediator.validate(url: "myapp://notes/21?color=red")
        #expect(mediatorError { try mediator.validate(url: "myapp://notes/x/y") }?.code == .routeNotFound)
    }

    @Test(
        "Found by fuzzing: a pattern splits on the byte /, even before a combining mark; an in-process @rest never survives; a malformed escape is quoted on one line"
    )
    func fuzzFindings() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/user/\u{30D}", to: "Echo", action: "echo")
        try mediator.route("/plain/:x", to: "Echo", action: "echo")
        #expect(mediator.open("myapp://user/%CC%8D") != nil)
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://user%2F%CC%8D") }?.code != nil)
        let values = try #require(try mediator.callNow(url: "myapp://plain/1", params: ["@rest": "forged", "@route": "forged"]) as? [String: any Sendable])
        #expect(values["@rest"] == nil && values["@route"] as? String == "/plain/:x")
        let escape = mediatorError { _ = try mediator.callNow(url: "myapp://Echo/echo?%\nx=1") }
        #expect(escape?.code == .invalidURL)
        #expect(escape.map { !$0.description.contains("\n") } == true, "\(String(describing: escape))")
    }

    // MARK: The URL rules

    @Test("A route never makes a local-only or native action reachable, and the allow-lists apply to its destination")
    func rules() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/s/:x", to: "Echo", action: "secret")
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://s/1") }?.code == .forbidden)
        #expect(!mediator.canOpen("myapp://s/1"))
        let native = mediatorError { try mediator.route("/n/:x", to: "Echo", action: "nativeEcho") }
        #expect(native?.code == .forbidden)
        #expect(native?.reason.contains("/n/:x") == true)
        #expect(mediator.routes.isEmpty == false)

        try mediator.route("/o/:x", to: "Other", action: "ping")
        #expect(mediator.open("myapp://o/1") as? String == "pong")
        mediator.urlPolicy.allowedTargets = ["Echo"]
        let refused = mediatorError { _ = try mediator.callNow(url: "myapp://o/1") }
        #expect(refused?.code == .forbidden)
        #expect(refused?.reason.contains("route \"/o/:x\"") == true)
        mediator.urlPolicy = URLPolicy(allowedSchemes: ["other"])
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://o/1") }?.code == .forbidden)
        #expect(mediator.open("other://o/1") as? String == "pong")
    }

    @Test("The length and query-item limits apply to routed URLs; a path longer than routes can match matches none")
    func limits() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/files/*", to: "Echo", action: "echo")
        mediator.urlPolicy.maximumLength = 40
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://files/" + String(repeating: "a", count: 40)) }?.code == .invalidURL)
        mediator.urlPolicy = URLPolicy(maximumQueryItems: 2)
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://files/a?x=1&y=2&z=3") }?.code == .invalidURL)
        #expect(mediator.open("myapp://files/a?x=1&y=2") != nil)
        let long = "myapp://files/" + Array(repeating: "a", count: 70).joined(separator: "/")
        #expect(mediatorError { _ = try mediator.callNow(url: long) }?.code == .routeNotFound)
        let sixtyThree = "myapp://files/" + Array(repeating: "a", count: 63).joined(separator: "/")
        let values = try #require(try mediator.callNow(url: sixtyThree) as? [String: any Sendable])
        #expect((values["@rest"] as? [String])?.count == 63)
    }

    // MARK: Registration

    @Test("Registration errors name the pattern; duplicates are refused unless replacing; schemes keep their own routes")
    func registration() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/user/:id", to: "Echo", action: "echo")
        let duplicate = mediatorError { try mediator.route("/user/:uid", to: "Other", action: "ping") }
        #expect(duplicate?.code == .duplicateRoute)
        #expect(duplicate?.reason.contains("\"/user/:id\"") == true)
        try mediator.route("/user/:uid", to: "Other", action: "ping", replacing: true)
        #expect(mediator.open("myapp://user/1") as? String == "pong")
        try mediator.route("/user/:id", to: "Echo", action: "echo", scheme: "special")
        #expect(mediator.open("special://user/1") as? [String: any Sendable] != nil)

        #expect(mediatorError { try mediator.route("/user/:id<double>", to: "Echo", action: "echo") }?.code == .invalidRoute)
        #expect(mediatorError { try mediator.route("/a/*/b", to: "Echo", action: "echo") }?.code == .invalidRoute)
        #expect(mediatorError { try mediator.route("/a(", to: "Echo", action: "echo") }?.code == .invalidRoute)
        #expect(mediatorError { try mediator.route("/a", to: "Echo", action: "echo", scheme: "1x") }?.code == .invalidRoute)
        #expect(mediatorError { try mediator.route("/a", to: "Bad Name", action: "echo") }?.code == .invalidName)
        #expect(mediatorError { try mediator.route("/a", to: "Echo", action: "") }?.code == .invalidName)

        #expect(mediator.removeRoute("/user/:anything"))
        #expect(!mediator.removeRoute("/user/:anything"))
        #expect(mediator.removeRoute("/user/:id", scheme: "SPECIAL"))
        #expect(mediator.routes.isEmpty)
        #expect(!mediator.removeRoute("/a("))
    }

    @Test("A <float> placeholder takes a finite decimal number; an integer goes to <int> where both match")
    func floatPlaceholder() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/price/:p<float>", to: "Echo", action: "echo")
        try mediator.route("/price/:p<int>", to: "Other", action: "ping")
        #expect((mediator.open("myapp://price/4.5") as? [String: any Sendable])?["p"] as? String == "4.5")
        #expect((mediator.open("myapp://price/-2.5e3") as? [String: any Sendable])?["p"] as? String == "-2.5e3")
        #expect(mediator.open("myapp://price/42") as? String == "pong")
        #expect(mediator.open("myapp://price/nan") == nil)
        #expect(!mediator.canOpen("myapp://price/1e400"))
    }

    @Test("addRoutes adds all or none, and names the route at fault")
    func allOrNone() throws {
        let mediator = try urlTestMediator()
        let error = mediatorError {
            try mediator.addRoutes([
                URLRoute("/a", target: "Echo", action: "echo"),
                URLRoute("/b", target: "Echo", action: "echo"),
                URLRoute("/a", target: "Other", action: "ping"),
            ])
        }
        #expect(error?.code == .duplicateRoute)
        #expect(error?.reason.hasPrefix("route 3 of 3: ") == true)
        #expect(mediator.routes.isEmpty)
        #expect(
            mediatorError { try mediator.addRoutes([URLRoute("/a", target: "Echo", action: "echo"), URLRoute("/b(", target: "Echo", action: "echo")]) }?.code
                == .invalidRoute)
        #expect(mediator.routes.isEmpty)
    }

    @Test("A JSON route table is read entry by entry, and a bad entry is named")
    func jsonTable() throws {
        let mediator = try urlTestMediator()
        try mediator.addRoutes(
            json:
                #"[{"pattern": "/e/:x", "target": "Echo", "action": "echo"}, {"pattern": "/p", "target": "Other", "action": "ping", "scheme": "x", "priority": 3}]"#
        )
        #expect(mediator.routes.map(\.description) == ["[x] /p -> Other/ping (priority 3)", "/e/:x -> Echo/echo"])
        let cases: [(json: String, reason: String)] = [
            ("{", "the route table is not valid JSON"),
            ("{}", "the route table must be a JSON array"),
            (#"[1]"#, "route 1: an entry must be an object"),
            (#"[{"target": "Echo", "action": "echo"}]"#, #"route 1: "pattern" is missing"#),
            (#"[{"pattern": "/q", "target": "Echo", "action": "echo"}, {"pattern": "/r", "target": "Echo"}]"#, #"route 2: "action" is missing"#),
            (#"[{"pattern": "/q", "target": "Echo", "action": "echo", "prio": 1}]"#, #"route 1: unknown member "prio""#),
            (#"[{"pattern": "/q", "target": "Echo", "action": "echo", "priority": "high"}]"#, #"route 1: "priority" must be an integer"#),
            (#"[{"pattern": 7, "target": "Echo", "action": "echo"}]"#, #"route 1: "pattern" must be a string"#),
        ]
        for (json, reason) in cases {
            let error = mediatorError { try mediator.addRoutes(json: json) }
            #expect(error?.code == .invalidRoute, "\(json)")
            #expect(error?.reason.hasPrefix(reason) == true, "\(json): \(String(describing: error?.reason))")
        }
        #expect(mediatorError { try mediator.addRoutes(json: #"[{"pattern": "/e/:y", "target": "Echo", "action": "echo"}]"#) }?.code == .duplicateRoute)
        #expect(mediator.routes.count == 2)
    }

    @Test("Routes are listed in match order: each scheme's own, then those for every scheme; priority, precedence, registration")
    func listing() throws {
        let mediator = try urlTestMediator()
        try mediator.addRoutes([
            URLRoute("/u/*", target: "Echo", action: "echo"),
            URLRoute("/u/:name", target: "Echo", action: "echo"),
            URLRoute("/u/:id<int>", target: "Echo", action: "echo"),
            URLRoute("/u/me", target: "Echo", action: "echo"),
            URLRoute("/z", target: "Other", action: "ping", priority: 2),
            URLRoute("/b", target: "Other", action: "ping", scheme: "beta"),
            URLRoute("/a", target: "Target_Other", action: "Action_ping", scheme: "Alpha"),
        ])
        #expect(
            mediator.routes.map(\.description) == [
                "[alpha] /a -> Other/ping", "[beta] /b -> Other/ping", "/z -> Other/ping (priority 2)", "/u/me -> Echo/echo", "/u/:id<int> -> Echo/echo",
                "/u/:name -> Echo/echo", "/u/* -> Echo/echo",
            ])
        mediator.removeAllRoutes()
        #expect(mediator.routes.isEmpty)
        #expect(mediator.open("myapp://Other/ping") as? String == "pong")
    }

    @Test("Ten thousand routes added one by one all route, and the last added is found")
    func manyRoutes() throws {
        let mediator = try urlTestMediator()
        for index in 0..<10_000 { try mediator.route("/r\(index)/:id", to: "Echo", action: "echo") }
        for index in [0, 4_999, 9_999] {
            let values = try #require(try mediator.callNow(url: "myapp://r\(index)/x") as? [String: any Sendable])
            #expect(values["@route"] as? String == "/r\(index)/:id")
        }
        #expect(mediator.routes.count == 10_000)
    }

    // MARK: URLPolicy options

    @Test("Form decoding: + is a space in query keys and values only when the option is on; never in the path")
    func formDecoding() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/s/:text", to: "Echo", action: "echo")
        let off = try #require(try mediator.callNow(url: "myapp://s/a+b?q+1=x+y%2B") as? [String: any Sendable])
        #expect(off["q+1"] as? String == "x+y+" && off["text"] as? String == "a+b")
        mediator.urlPolicy.decodesPlusAsSpace = true
        let on = try #require(try mediator.callNow(url: "myapp://s/a+b?q+1=x+y%2B") as? [String: any Sendable])
        #expect(on["q 1"] as? String == "x y+" && on["text"] as? String == "a+b")
        #expect(echoed(try mediator.callNow(url: "myapp://Echo/echo?v=a+b")) == ["v": .one("a b")])
    }

    @Test("Host ignoring case: the built-in form finds the one target equal ignoring case, an exact name first; routes match a lowercased host")
    func hostIgnoringCase() throws {
        let mediator = try urlTestMediator()
        try mediator.register(target: "OTHER", actions: [Action("ping") { (_: Mediator, _: Params) in "PONG" }])
        try mediator.route("/user/:id", to: "Echo", action: "echo")
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://echo/echo") }?.code == .targetNotFound)
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://USER/1") }?.code == .targetNotFound)
        mediator.urlPolicy.matchesHostIgnoringCase = true
        #expect(echoed(try mediator.callNow(url: "myapp://echo/echo?a=1")) == ["a": .one("1")])
        #expect(try mediator.callNow(url: "myapp://OTHER/ping") as? String == "PONG")
        #expect(try mediator.callNow(url: "myapp://Other/ping") as? String == "pong")
        let ambiguous = mediatorError { _ = try mediator.callNow(url: "myapp://other/ping") }
        #expect(ambiguous?.code == .invalidURL)
        #expect(ambiguous?.reason.contains("Other, OTHER") == true || ambiguous?.reason.contains("OTHER, Other") == true)
        let routed = try #require(try mediator.callNow(url: "myapp://USER/Ab") as? [String: any Sendable])
        #expect(routed["id"] as? String == "Ab")
        // The allow-list sees the registered name.
        mediator.urlPolicy.allowedTargets = ["Echo"]
        #expect(mediator.open("myapp://ECHO/echo") != nil)
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://OTHER/ping") }?.code == .forbidden)
    }

    @Test("An empty authority is refused by default and read as the first segment when allowed")
    func emptyAuthority() throws {
        let mediator = try urlTestMediator()
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp:///Other/ping") }?.code == .invalidURL)
        try mediator.route("/user/:id", to: "Echo", action: "echo")
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp:///user/1") }?.code == .invalidURL)
        mediator.urlPolicy.allowsEmptyAuthority = true
        #expect(mediator.open("myapp:///Other/ping") as? String == "pong")
        let values = try #require(try mediator.callNow(url: "myapp:///user/1") as? [String: any Sendable])
        #expect(values["id"] as? String == "1")
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp:///") }?.code == .routeNotFound)
    }

    // MARK: Unmatched URLs

    @Test("The unmatched-URL handler answers URLs no route and no action answers, before the not-found path, and sees the query and in-process params")
    func unmatchedHandler() throws {
        let mediator = try urlTestMediator()
        let asked = InterceptionLog()
        try mediator.route("/user/:id", to: "Echo", action: "echo")
        mediator.unmatchedURLHandler = { url in
            asked.note("\(url.scheme) \(url.path) \(url.params.keys)")
            if url.path.first == "legacy" { return .answer("legacy \(url.path.count)") }
            if url.path.first == "fail" { throw MediatorError(.rejected, reason: "no legacy links") }
            if url.path.first == "boom" { throw Boom() }
            return .decline
        }
        #expect(mediator.open("myapp://legacy/a/b?x=1", params: ["y": 2]) as? String == "legacy 3")
        #expect(mediator.open("myapp://Legacy/thing") == nil)
        #expect(mediator.open("myapp://user/1") != nil)
        #expect(mediator.open("myapp://Other/ping") as? String == "pong")
        #expect(asked.events == ["myapp [\"legacy\", \"a\", \"b\"] [\"x\", \"y\"]", "myapp [\"Legacy\", \"thing\"] []"])
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://fail/x") }?.code == .rejected)
        let boom = mediatorError { _ = try mediator.callNow(url: "myapp://boom") }
        #expect(boom?.code == .actionFailed && boom?.underlying is Boom)
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://nothing/here/at/all") }?.code == .routeNotFound)
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://Nothing/here") }?.code == .targetNotFound)
        #expect(!mediator.canOpen("myapp://legacy/a"))
        #expect(asked.events.count == 6)
    }

    @Test("When the handler declines a URL naming an unregistered target, the global fallback still answers")
    func declineReachesFallback() throws {
        let mediator = try urlTestMediator()
        mediator.unmatchedURLHandler = { _ in .decline }
        mediator.setFallback { target, action, _ in "fallback \(target)/\(action)" }
        #expect(mediator.open("myapp://Nothing/here") as? String == "fallback Nothing/here")
        mediator.unmatchedURLHandler = nil
        #expect(mediator.open("myapp://Nothing/here") as? String == "fallback Nothing/here")
    }

    @Test("canOpen runs nothing: no factory, no action, no handler, no fallback; redirected destinations count")
    func canOpenRunsNothing() throws {
        let mediator = Mediator()
        let runs = Counter()
        try mediator.register(target: "Made", actions: [Action("go") { (_: Mediator, _: Params) in runs.increment() }])
        try mediator.route("/go", to: "Made", action: "go")
        try mediator.route("/moved", to: "Old", action: "go")
        mediator.unmatchedURLHandler = { _ in
            runs.increment()
            return .answer(nil)
        }
        mediator.setFallback { _, _, _ in
            runs.increment()
            return nil
        }
        #expect(mediator.canOpen("myapp://go"))
        #expect(!mediator.canOpen("myapp://moved"))
        var table = RedirectTable()
        try table.redirect("Old", to: "Made")
        mediator.setRedirects(table)
        #expect(mediator.canOpen("myapp://moved"))
        #expect(!mediator.canOpen("myapp://unknown/path/here"))
        #expect(!mediator.canOpen("bad"))
        #expect(runs.value == 0)
    }

    // MARK: Every entry point

    @Test("Routed calls go through interceptors and observers as URL calls, with the mediator's keys in the params")
    func interceptors() throws {
        let mediator = try urlTestMediator()
        let log = InterceptionLog()
        _ = mediator.addInterceptor(Probe("P", log))
        try mediator.route("/user/:id", to: "Echo", action: "echo")
        #expect(mediator.open("myapp://user/7") != nil)
        let request = try #require(log.requests.first)
        #expect(request.origin == .url("myapp://user/7"))
        #expect(request.params["id"] as? String == "7" && request.params["@route"] as? String == "/user/:id")
        #expect(log.events.contains("P intercept Echo/echo"))
    }

    @Test("Awaited and completion forms route too")
    func asyncForms() async throws {
        let mediator = try urlTestMediator()
        try mediator.route("/user/:id", to: "Echo", action: "echo")
        let awaited = try await mediator.call(url: "myapp://user/5", params: ["k": "v"]) as? [String: any Sendable]
        #expect(awaited?["id"] as? String == "5" && awaited?["k"] as? String == "v")
        #expect((try? await mediator.call(url: "myapp://user/6", params: [:])) != nil)
        let answered = ReadWriteLock<[String: any Sendable]?>(nil)
        mediator.open("myapp://user/8") { outcome in answered.withLock { $0 = outcome } }
        let result = answered.withReadLock { $0?["result"] as? [String: any Sendable] }
        #expect(result?["id"] as? String == "8")
        let missing = ReadWriteLock<[String: any Sendable]?>(nil)
        mediator.open("myapp://no/route/here") { outcome in missing.withLock { $0 = outcome } }
        #expect((missing.withReadLock { $0?["error"] } as? MediatorError)?.code == .routeNotFound)
    }
}

/// An error that is not a `MediatorError`.
private struct Boom: Error {}
