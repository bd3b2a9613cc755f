import Mediator
import TestSupport
import Testing

// Deep-link routes at their edges: URL edge cases, threads and re-entrancy, the unmatched-URL
// handler, the URL policy, precedence and duplicates, and error messages, each test asserting the
// documented behaviour.

/// The params of a routed call to `Echo/echo`, or `nil` when the call failed or went elsewhere.
private func routedEcho(_ mediator: Mediator, _ url: String, params: Params? = nil) -> [String: any Sendable]? {
    let result: (any Sendable)?
    if let params {
        result = try? mediator.callNow(url: url, params: params)
    } else {
        result = try? mediator.callNow(url: url)
    }
    return result as? [String: any Sendable]
}

/// Whether `text` is one line free of anything a terminal would interpret: no scalar that
/// error messages promise to escape.
private func isOneSafeLine(_ text: String) -> Bool {
    !text.unicodeScalars.contains { $0.isEscapedForTerminals }
}

/// What a test's closures record, shared across threads.
private final class EdgeCaseLog: Sendable {
    /// The recorded lines.
    private let lines = ReadWriteLock<[String]>([])

    /// An empty log.
    init() {}

    /// Records `line`.
    func note(_ line: String) { lines.withLock { $0.append(line) } }

    /// Everything recorded, in order.
    var all: [String] { lines.withReadLock { $0 } }
}

// MARK: - URL edge cases

@Suite("Deep-link URL edge cases")
struct RouteURLEdgeCaseTests {
    @Test("%2F inside a segment is part of the value, never a separator, in the host as in the path")
    func encodedSlash() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/files/a/b", to: "Other", action: "ping")
        try mediator.route("/files/:name", to: "Echo", action: "echo")
        try mediator.route("/wild/*", to: "Echo", action: "echo")
        #expect(routedEcho(mediator, "myapp://files/a%2Fb")?["name"] as? String == "a/b")
        #expect(routedEcho(mediator, "myapp://files/a%2fb")?["name"] as? String == "a/b")
        #expect(routedEcho(mediator, "myapp://wild/a%2Fb/c")?["@rest"] as? [String] == ["a/b", "c"])
        // The host "files/a" is one segment: /files/a/b is not reached.
        #expect(mediator.open("myapp://files%2Fa/b") as? String != "pong")
        #expect(!mediator.canOpen("myapp://files%2Fa/b"))
    }

    @Test("An empty segment before the trailing slash is still a segment: myapp://user// is not /user")
    func doubleTrailingSlash() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/user", to: "Other", action: "ping")
        try mediator.route("/user/:id", to: "Echo", action: "echo")
        try mediator.route("/", to: "Other", action: "ping", scheme: "https")
        // The consistent cases: "x//" is x then an empty segment, which no placeholder matches.
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://user/x//") }?.code == .routeNotFound)
        #expect(mediator.open("myapp://user/") as? String == "pong")
        // "//" after the host is an empty segment and the ignored trailing "/": /user/"" is not /user.
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://user//") }?.code == .routeNotFound)
        #expect(!mediator.canOpen("myapp://user//"))
        #expect(mediatorError { _ = try mediator.callNow(url: "https://example.com//") }?.code == .routeNotFound)
    }

    @Test("Dot segments are not resolved: /files/../admin never reaches /admin, encoded or not, web or custom")
    func dotSegments() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/admin", to: "Other", action: "ping")
        try mediator.route("/files/*", to: "Echo", action: "echo")
        for url in ["myapp://files/../admin", "myapp://files/%2E%2E/admin", "https://example.com/files/../admin", "myapp://files/./../admin"] {
            let values = routedEcho(mediator, url)
            #expect(values?["@route"] as? String == "/files/*", "\(url)")
            #expect((values?["@rest"] as? [String])?.last == "admin", "\(url)")
        }
        #expect(mediator.open("myapp://admin/.") as? String != "pong")
    }

    @Test("A fragment is ignored whatever it holds; @url is the URL as given")
    func fragments() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/user/:id", to: "Echo", action: "echo")
        let values = try #require(routedEcho(mediator, "myapp://user/42#/x?tab=1&@route=forged"))
        #expect(values["id"] as? String == "42")
        #expect(values["tab"] == nil)
        #expect(values["@route"] as? String == "/user/:id")
        #expect(values["@url"] as? String == "myapp://user/42#/x?tab=1&@route=forged")
        #expect(routedEcho(mediator, "myapp://user/42?tab=1#frag")?["tab"] as? String == "1")
        #expect(routedEcho(mediator, "myapp://user/42#")?["id"] as? String == "42")
    }

    @Test("Web links: userinfo, ports and IPv6 hosts are the server, never the path; scheme case does not matter")
    func webAuthorities() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/notes/:id", to: "Echo", action: "echo")
        try mediator.route("/", to: "Other", action: "ping")
        for url in [
            "https://u:p@example.com:8443/notes/7", "http://[::1]:8080/notes/7", "http://[fe80::1%25en0]/notes/7", "HTTPS://EXAMPLE.COM/notes/7",
            "https://example.com/notes/7/?x=1",
        ] {
            #expect(routedEcho(mediator, url)?["id"] as? String == "7", "\(url)")
        }
        #expect(mediator.open("http://[::1]") as? String == "pong")
        #expect(mediator.open("https://example.com?x=1") as? String == "pong")
        #expect(routedEcho(mediator, "HTTPS://EXAMPLE.COM/notes/7")?["@scheme"] as? String == "https")
    }

    @Test("A scheme-specific route matches its scheme in any case; @scheme is lowercased")
    func schemeCase() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/user/:id", to: "Echo", action: "echo", scheme: "MyApp")
        #expect(routedEcho(mediator, "MYAPP://user/1")?["@scheme"] as? String == "myapp")
        #expect(routedEcho(mediator, "myApp://user/1")?["id"] as? String == "1")
        #expect(routedEcho(mediator, "other://user/1") == nil)
        #expect(mediator.routes.map(\.scheme) == ["myapp"])
    }

    @Test("A repeated query key gives [String]; a path param beats a query param of the same name; + is form-decoded only in the query")
    func queryMerging() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/tag/:tag", to: "Echo", action: "echo")
        let values = try #require(routedEcho(mediator, "myapp://tag/path?tag=q1&tag=q2&other=1&other=2&other=3"))
        #expect(values["tag"] as? String == "path")
        #expect(values["other"] as? [String] == ["1", "2", "3"])
        let extra = try #require(routedEcho(mediator, "myapp://tag/path?tag=q", params: ["tag": 5]))
        #expect(extra["tag"] as? Int == 5)
        mediator.urlPolicy.decodesPlusAsSpace = true
        let plus = try #require(routedEcho(mediator, "myapp://tag/a+b%2B?x=a+b%2B&y+z=1"))
        #expect(plus["tag"] as? String == "a+b+")
        #expect(plus["x"] as? String == "a b+")
        #expect(plus["y z"] as? String == "1")
    }

    @Test("Literals are compared by their bytes: NFC and NFD spellings, and the Kelvin sign, are different routes", arguments: [false, true])
    func bytesNotCanonicalEquivalence(manyLiterals: Bool) throws {
        let mediator = try urlTestMediator()
        try mediator.route("/caf\u{E9}", to: "Echo", action: "echo")
        try mediator.route("/cafe\u{301}", to: "Other", action: "ping")
        try mediator.route("/K", to: "Other", action: "ping")
        if manyLiterals {
            // More than four literal children: the node looks them up by hash, not one by one.
            for index in 0..<6 { try mediator.route("/filler\(index)", to: "Other", action: "ping") }
        }
        #expect(routedEcho(mediator, "myapp://caf%C3%A9")?["@route"] as? String == "/caf\u{E9}")
        #expect(mediator.open("myapp://cafe%CC%81") as? String == "pong")
        #expect(mediator.open("myapp://K") as? String == "pong")
        // U+212A KELVIN SIGN is canonically equivalent to "K", but not the same bytes.
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://%E2%84%AA") }?.code == .routeNotFound)
        #expect(mediator.routes.count == (manyLiterals ? 9 : 3))
    }

    @Test("Bytes that are not UTF-8 once decoded (invalid, overlong, surrogates) are invalidURL, quoted on one safe line")
    func invalidUTF8() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/user/:id", to: "Echo", action: "echo")
        try mediator.route("/files/*", to: "Echo", action: "echo")
        for url in [
            "myapp://user/%FF", "myapp://files/a%C0%AFb", "myapp://files/%ED%A0%80", "myapp://user/1?x=%C0%AF", "myapp://us%FFer/1",
            "myapp://user/%E2%80%AE%1B%5B31m%FF",
        ] {
            let error = mediatorError { _ = try mediator.callNow(url: url) }
            #expect(error?.code == .invalidURL, "\(url)")
            #expect(error.map { isOneSafeLine($0.description) } == true, "\(String(describing: error))")
            #expect(!mediator.canOpen(url))
        }
        // NUL is valid UTF-8: it arrives as a value, and the messages that quote it escape it.
        #expect(routedEcho(mediator, "myapp://user/%00")?["id"] as? String == "\u{0}")
        let missing = mediatorError { _ = try mediator.callNow(url: "myapp://nothing/%00/%1B%5B2J/%E2%80%AE") }
        #expect(missing?.code == .routeNotFound)
        #expect(missing.map { isOneSafeLine($0.description) } == true, "\(String(describing: missing))")
    }

    @Test("The length limit is exact, applies to canOpen, and comes before the unmatched-URL handler")
    func lengthLimit() throws {
        let mediator = try urlTestMediator()
        let asked = Counter()
        try mediator.route("/files/*", to: "Echo", action: "echo")
        mediator.unmatchedURLHandler = { _ in
            asked.increment()
            return .answer("handled")
        }
        let prefix = "myapp://files/"
        mediator.urlPolicy.maximumLength = 64
        let exact = prefix + String(repeating: "a", count: 64 - prefix.utf8.count)
        #expect(routedEcho(mediator, exact) != nil)
        #expect(mediator.canOpen(exact))
        #expect(mediatorError { _ = try mediator.callNow(url: exact + "a") }?.code == .invalidURL)
        #expect(!mediator.canOpen(exact + "a"))
        let unmatched = "myapp://legacy/" + String(repeating: "b", count: 64)
        #expect(mediatorError { _ = try mediator.callNow(url: unmatched) }?.code == .invalidURL)
        mediator.urlPolicy = URLPolicy(maximumQueryItems: 2)
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://legacy/x?a=1&b=2&c=3") }?.code == .invalidURL)
        #expect(mediator.open("myapp://legacy/x?a=1&&b=2&") as? String == "handled")
        #expect(asked.value == 1)
    }

    @Test("A path longer than routes can match is not shown to the unmatched-URL handler as an empty path")
    func longPathReachesHandlerWhole() throws {
        let mediator = try urlTestMediator()
        let seen = EdgeCaseLog()
        try mediator.route("/home", to: "Other", action: "ping")
        mediator.unmatchedURLHandler = { url in
            seen.note("\(url.path.count)")
            // A handler that reads an empty path as the home page.
            return url.path.isEmpty ? .answer("home") : .decline
        }
        let long = "myapp://legacy/" + Array(repeating: "a", count: 70).joined(separator: "/")
        #expect(mediator.open(long) as? String != "home")
        // Either the handler is not asked, or it sees every segment (the host and 70 more).
        #expect(seen.all.allSatisfy { $0 == "71" }, "\(seen.all)")
    }

    @Test("With an empty authority there is no host: matchesHostIgnoringCase does not fold the first path segment")
    func emptyAuthorityHasNoHostToFold() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/user/:id", to: "Echo", action: "echo")
        mediator.urlPolicy.matchesHostIgnoringCase = true
        mediator.urlPolicy.allowsEmptyAuthority = true
        // The host is folded: documented.
        #expect(routedEcho(mediator, "myapp://USER/1")?["id"] as? String == "1")
        // No host here: "User" is a path segment, compared byte for byte like every other one.
        #expect(routedEcho(mediator, "myapp:///User/1") == nil)
        #expect(!mediator.canOpen("myapp:///User/1"))
        #expect(routedEcho(mediator, "myapp:///user/1")?["id"] as? String == "1")
    }
}

// MARK: - Threads and re-entrancy

@Suite("Deep-link routes across threads and re-entrant calls")
struct RouteConcurrencyTests {
    @Test("Threads adding and removing routes while others open and ask canOpen: every answer is right, and each thread reads its own writes")
    func addRemoveWhileMatching() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/stable/:id<int>", to: "Echo", action: "echo")
        try mediator.route("/stable/me", to: "Other", action: "ping")
        let wrong = Counter()
        let log = EdgeCaseLog()
        onThreads(8) { thread in
            var random = SeededGenerator(seed: UInt64(thread) &* 0x1234_5678 &+ 1)
            for step in 0..<400 {
                if thread < 4 {
                    let pattern = "/t\(thread)/n\(step % 25)/:x"
                    let url = "myapp://t\(thread)/n\(step % 25)/v"
                    if mediator.removeRoute(pattern) {
                        if mediator.canOpen(url) {
                            wrong.increment()
                            log.note("removed \(pattern) still opens")
                        }
                    } else {
                        do {
                            try mediator.route(pattern, to: "Echo", action: "echo", priority: Int(random.next() % 3))
                        } catch {
                            wrong.increment()
                            log.note("route \(pattern): \(error)")
                        }
                        if routedEcho(mediator, url)?["@route"] as? String != pattern {
                            wrong.increment()
                            log.note("added \(pattern) not reached")
                        }
                    }
                } else {
                    let id = Int(random.next() % 1_000)
                    if routedEcho(mediator, "myapp://stable/\(id)?s=\(step)")?["id"] as? String != "\(id)" {
                        wrong.increment()
                        log.note("stable \(id)")
                    }
                    if mediator.open("myapp://stable/me") as? String != "pong" || !mediator.canOpen("myapp://stable/\(id)") {
                        wrong.increment()
                        log.note("stable me")
                    }
                    if mediator.canOpen("myapp://stable/x") { wrong.increment() }
                    _ = mediator.routes.count
                }
            }
        }
        #expect(wrong.value == 0, "\(log.all.prefix(5))")
        let listed = mediator.routes
        #expect(listed.filter { $0.pattern.hasPrefix("/stable") }.count == 2)
        #expect(Set(listed.map(\.pattern)).count == listed.count)
    }

    @Test("An action that adds, removes, lists and opens routes while its own routed call is in flight neither deadlocks nor sees a stale table")
    func reentrantAction() throws {
        let mediator = Mediator()
        let log = EdgeCaseLog()
        try mediator.register(
            target: "Links",
            actions: [
                Action("outer") { (mediator: Mediator, params: Params) in
                    try mediator.route("/inner/:x", to: "Links", action: "inner")
                    log.note("inner: \(String(describing: mediator.open("myapp://inner/1")))")
                    log.note("can: \(mediator.canOpen("myapp://inner/2"))")
                    // A route that would now match the very URL being served, with a higher priority.
                    try mediator.route("/outer/:id<int>", to: "Links", action: "inner", priority: 5)
                    log.note("listed: \(mediator.routes.count)")
                    log.note("removed: \(mediator.removeRoute("/inner/:y"))")
                    log.note("after: \(String(describing: mediator.open("myapp://inner/1")))")
                    return "outer \(try params.value("id", as: String.self))"
                },
                Action("inner") { (_: Mediator, params: Params) in "inner \(try params.value("@route", as: String.self))" },
            ])
        try mediator.route("/outer/:id", to: "Links", action: "outer")
        #expect(mediator.open("myapp://outer/7") as? String == "outer 7")
        #expect(log.all == ["inner: Optional(\"inner /inner/:x\")", "can: true", "listed: 3", "removed: true", "after: nil"])
        #expect(mediator.open("myapp://outer/7") as? String == "inner /outer/:id<int>")
    }

    @Test("The unmatched-URL handler may call back into the mediator: open, route, removeRoute, canOpen, routes, even replace itself")
    func reentrantHandler() throws {
        let mediator = try urlTestMediator()
        let log = EdgeCaseLog()
        mediator.unmatchedURLHandler = { url in
            guard url.path.first == "legacy" else { return .decline }
            log.note("ping: \(String(describing: mediator.open("myapp://Other/ping")))")
            do {
                try mediator.route("/legacy/*", to: "Echo", action: "echo")
            } catch {
                log.note("route failed: \(error)")
            }
            log.note("can: \(mediator.canOpen("myapp://legacy/a"))")
            log.note("count: \(mediator.routes.count)")
            log.note("removed: \(mediator.removeRoute("/legacy/*"))")
            mediator.unmatchedURLHandler = { _ in .answer("second") }
            return .answer("first")
        }
        #expect(mediator.open("myapp://legacy/a") as? String == "first")
        #expect(log.all == ["ping: Optional(\"pong\")", "can: true", "count: 1", "removed: true"])
        #expect(mediator.open("myapp://legacy/b") as? String == "second")
    }

    @Test("A handler that opens the URL it was asked about ends in callDepthExceeded, not a stack overflow")
    func recursiveHandlerIsBounded() throws {
        let mediator = try urlTestMediator()
        let asked = Counter()
        mediator.unmatchedURLHandler = { url in
            asked.increment()
            return .answer(try mediator.callNow(url: url.url))
        }
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://loop/forever") }?.code == .callDepthExceeded)
        #expect(asked.value <= mediator.maximumCallDepth + 1)
        #expect(mediator.open("myapp://loop/forever") == nil)
    }
}

// MARK: - The unmatched-URL handler and canOpen

@Suite("The unmatched-URL handler and canOpen")
struct RouteUnmatchedHandlerTests {
    @Test("A route added after the handler answered wins from then on; removing it gives the URL back to the handler")
    func routeAddedAfterHandler() throws {
        let mediator = try urlTestMediator()
        mediator.unmatchedURLHandler = { _ in .answer("handler") }
        #expect(mediator.open("myapp://user/1") as? String == "handler")
        try mediator.route("/user/:id", to: "Other", action: "ping")
        #expect(mediator.open("myapp://user/1") as? String == "pong")
        #expect(mediator.removeRoute("/user/:uid"))
        #expect(mediator.open("myapp://user/1") as? String == "handler")
        mediator.unmatchedURLHandler = { _ in .decline }
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://user/1") }?.code == .targetNotFound)
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://user/1/2") }?.code == .routeNotFound)
        mediator.unmatchedURLHandler = nil
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://user/1/2") }?.code == .invalidURL)
    }

    @Test("canOpen runs no handler, action, interceptor, notFound or fallback, whatever the URL")
    func canOpenRunsNothing() throws {
        let mediator = try urlTestMediator()
        let ran = Counter()
        try mediator.register(
            target: "Counted",
            actions: [
                Action("go") { (_: Mediator, _: Params) in ran.increment() }
            ])
        _ = mediator.addInterceptor(
            Probe("P", InterceptionLog()) { _ in
                ran.increment()
                return .proceed
            })
        mediator.setFallback { _, _, _ in
            ran.increment()
            return nil
        }
        try mediator.route("/go/:x", to: "Counted", action: "go")
        try mediator.route("/ghost/:x", to: "Ghost", action: "go")
        mediator.unmatchedURLHandler = { _ in
            ran.increment()
            return .answer(nil)
        }
        let urls = [
            "myapp://go/1", "myapp://ghost/1", "myapp://Counted/missing", "myapp://Counted/go", "myapp://Nobody/go", "myapp://a/b/c/d", "https://example.com/x",
            "myapp://go/1?@url=x", "bad",
        ]
        let answers = urls.map { mediator.canOpen($0) }
        #expect(answers == [true, false, false, true, false, false, false, false, false])
        #expect(ran.value == 0)
    }

    @Test("A handler's error passes through: a MediatorError keeps its code, any other is actionFailed; a decline reaches the global fallback")
    func handlerErrors() throws {
        let mediator = try urlTestMediator()
        mediator.unmatchedURLHandler = { url in
            if url.path.first == "rejected" { throw MediatorError(.rejected, reason: "no") }
            if url.path.first == "other" { throw EdgeCaseBoom() }
            return .decline
        }
        mediator.setFallback { target, action, _ in "fallback \(target)/\(action)" }
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://rejected/x") }?.code == .rejected)
        let other = mediatorError { _ = try mediator.callNow(url: "myapp://other/x") }
        #expect(other?.code == .actionFailed && other?.underlying is EdgeCaseBoom)
        #expect(mediator.open("myapp://Nothing/here") as? String == "fallback Nothing/here")
    }
}

/// An error that is not a `MediatorError`.
private struct EdgeCaseBoom: Error {}

// MARK: - The URL policy

@Suite("Routes and the URL policy")
struct RoutePolicyTests {
    @Test("A local-only action is refused when a route reaches it, even when registered after the route")
    func localOnlyLate() throws {
        let mediator = Mediator()
        try mediator.route("/vault/:id", to: "Vault", action: "open")
        try mediator.register(target: "Vault", actions: [Action("open", localOnly: true) { (_: Mediator, _: Params) in "opened" }])
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://vault/1") }?.code == .forbidden)
        #expect(!mediator.canOpen("myapp://vault/1"))
        #expect(try mediator.callNow(target: "Vault", action: "open") as? String == "opened")
    }

    @Test("No way of adding a route reaches a native action: route, replacing, addRoutes, JSON, full names; nothing is added")
    func nativeEverywhere() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/x", to: "Echo", action: "echo")
        for action in ["nativeEcho", "Action_nativeEcho", "Action_nativeEcho:", "nativeAnything"] {
            #expect(mediatorError { try mediator.route("/n", to: "Echo", action: action) }?.code == .forbidden, "\(action)")
            #expect(mediatorError { try mediator.route("/x", to: "Target_Echo", action: action, replacing: true) }?.code == .forbidden, "\(action)")
            #expect(
                mediatorError {
                    try mediator.addRoutes([URLRoute("/ok", target: "Echo", action: "echo"), URLRoute("/n", target: "Echo", action: action)])
                }?.code == .forbidden)
            let json = #"[{"pattern": "/ok", "target": "Echo", "action": "echo"}, {"pattern": "/n", "target": "Echo", "action": "\#(action)"}]"#
            let error = mediatorError { try mediator.addRoutes(json: json) }
            #expect(error?.code == .forbidden && error?.reason.hasPrefix("route 2: ") == true, "\(String(describing: error))")
        }
        #expect(mediator.routes.map(\.description) == ["/x -> Echo/echo"])
        #expect(routedEcho(mediator, "myapp://x") != nil)
    }

    @Test("A routed call that a redirect sends to a local-only, native or disallowed action is refused")
    func redirectsRefused() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/to-secret", to: "Echo", action: "echo")
        try mediator.route("/to-native/:x", to: "Old", action: "echo")
        try mediator.route("/to-other", to: "Legacy", action: "ping")
        var table = RedirectTable()
        try table.redirect("Echo/echo", to: "Echo/secret")
        try table.redirect("Old/echo", to: "Echo/nativeEcho")
        try table.redirect("Legacy", to: "Other")
        mediator.setRedirects(table)
        mediator.urlPolicy.allowedTargets = ["Echo", "Old", "Legacy"]
        for url in ["myapp://to-secret", "myapp://to-native/1", "myapp://to-other"] {
            #expect(mediatorError { _ = try mediator.callNow(url: url) }?.code == .forbidden, "\(url)")
        }
        #expect(try mediator.callNow(target: "Echo", action: "echo") as? String == "secret")
    }

    @Test("canOpen agrees with open about redirected destinations: a redirect to a refused action cannot be opened")
    func canOpenFollowsRedirectRules() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/to-secret", to: "Echo", action: "echo")
        try mediator.route("/to-native/:x", to: "Old", action: "echo")
        try mediator.route("/to-other", to: "Legacy", action: "ping")
        try mediator.route("/to-nowhere", to: "Gone", action: "ping")
        var table = RedirectTable()
        try table.redirect("Echo/echo", to: "Echo/secret")
        try table.redirect("Old/echo", to: "Echo/nativeEcho")
        try table.redirect("Legacy", to: "Other")
        try table.redirect("Gone", to: "Nowhere")
        mediator.setRedirects(table)
        mediator.urlPolicy.allowedTargets = ["Echo", "Old", "Legacy", "Gone", "Nowhere"]
        for url in ["myapp://to-secret", "myapp://to-native/1", "myapp://to-other", "myapp://to-nowhere", "myapp://Echo/echo"] {
            let opens = (try? mediator.callNow(url: url)) != nil
            #expect(!opens, "\(url)")
            #expect(mediator.canOpen(url) == opens, "canOpen(\(url)) says \(mediator.canOpen(url)), open \(opens ? "succeeds" : "fails")")
        }
    }

    @Test("The target allow-list applies to a route's destination, for open and canOpen, whatever the name's spelling")
    func allowList() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/p/:x", to: "Target_Other", action: "Action_ping:")
        mediator.urlPolicy.allowedTargets = ["Target_Echo"]
        #expect(mediatorError { _ = try mediator.callNow(url: "myapp://p/1") }?.code == .forbidden)
        #expect(!mediator.canOpen("myapp://p/1"))
        mediator.urlPolicy.allowedTargets = ["Other"]
        #expect(mediator.open("myapp://p/1") as? String == "pong")
        #expect(mediator.canOpen("myapp://p/1"))
    }
}

// MARK: - Precedence and duplicates

@Suite("Route precedence and duplicates")
struct RoutePrecedenceEdgeTests {
    @Test(
        "Patterns that match exactly the same URLs are duplicates, however their optional parts are written",
        arguments: [
            ("/x(/:a)", "/x(/:b)"), ("/x(/:a(/:b))", "/x(/:c)(/:d)"), ("/u/:id<int>", "/u/:n<int>"), ("/a/*", "/a(/*)"), ("/a/*", "/a(/:x)/*"),
            ("(/:a)", "(/:b)"), ("/a(/b)", "/a(/b)(/)"),
        ])
    func duplicatesAfterExpansion(first: String, second: String) throws {
        let mediator = try urlTestMediator()
        try mediator.route(first, to: "Echo", action: "echo")
        let error = mediatorError { try mediator.route(second, to: "Other", action: "ping") }
        #expect(error?.code == .duplicateRoute, "\(second) after \(first): \(String(describing: error))")
        #expect(mediator.routes.count == 1)
    }

    @Test("Patterns that only overlap are both kept and decided by precedence", arguments: [("/u/:id<int>", "/u/:id"), ("/a(/b)", "/a"), ("/a/*", "/a/:x")])
    func overlapsKept(first: String, second: String) throws {
        let mediator = try urlTestMediator()
        try mediator.route(first, to: "Echo", action: "echo")
        try mediator.route(second, to: "Other", action: "ping")
        #expect(mediator.routes.count == 2)
    }

    @Test("removeRoute removes a whole route, never one of its expansions")
    func removeOneExpansion() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/a(/b)", to: "Other", action: "ping")
        #expect(!mediator.removeRoute("/a"))
        #expect(!mediator.removeRoute("/a/b"))
        #expect(mediator.open("myapp://a") as? String == "pong")
        #expect(mediator.open("myapp://a/b") as? String == "pong")
        #expect(mediator.removeRoute("/a(/b)(/)"))
        #expect(mediator.routes.isEmpty)
    }

    @Test("removeRoute with a scheme no route can have (\"\") removes nothing, not the routes for every scheme")
    func removeWithEmptyScheme() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/x", to: "Other", action: "ping")
        #expect(mediatorError { try mediator.route("/y", to: "Other", action: "ping", scheme: "") }?.code == .invalidRoute)
        #expect(!mediator.removeRoute("/x", scheme: ""))
        #expect(mediator.open("myapp://x") as? String == "pong")
    }

    @Test("Priority first (extremes included), then kinds segment by segment, then registration order; a scheme's own routes first")
    func precedence() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/n/:x", to: "Echo", action: "echo", priority: Int.min)
        try mediator.route("/n/*", to: "Other", action: "ping", priority: Int.max)
        #expect(mediator.open("myapp://n/1") as? String == "pong")
        try mediator.route("/t/:x", to: "Echo", action: "echo")
        try mediator.route("/t(/:y)", to: "Other", action: "ping")
        #expect(routedEcho(mediator, "myapp://t/1")?["@route"] as? String == "/t/:x")
        #expect(mediator.open("myapp://t") as? String == "pong")
        try mediator.route("/k/me", to: "Echo", action: "echo", priority: 10)
        try mediator.route("/k/:x", to: "Other", action: "ping", scheme: "myapp")
        #expect(mediator.open("myapp://k/me") as? String == "pong")
        #expect(routedEcho(mediator, "other://k/me") != nil)
        try mediator.route("/:a/b", to: "Echo", action: "echo")
        try mediator.route("/q/*", to: "Other", action: "ping")
        #expect(mediator.open("myapp://q/b") as? String == "pong")
    }

    @Test("A batch is all or none even with replacing: a refused entry leaves the replaced route in place")
    func batchReplacingAllOrNone() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/x/:id", to: "Echo", action: "echo")
        let bad = mediatorError {
            try mediator.addRoutes([URLRoute("/x/:other", target: "Other", action: "ping"), URLRoute("/y(", target: "Echo", action: "echo")], replacing: true)
        }
        #expect(bad?.code == .invalidRoute && bad?.reason.hasPrefix("route 2 of 2: ") == true)
        let twice = mediatorError {
            try mediator.addRoutes([URLRoute("/x/:a", target: "Other", action: "ping"), URLRoute("/x/:b", target: "Other", action: "ping")], replacing: true)
        }
        #expect(twice?.code == .duplicateRoute)
        #expect(routedEcho(mediator, "myapp://x/1")?["id"] as? String == "1")
        #expect(mediator.routes.count == 1)
    }

    @Test("Seeded property: the mediator's choice equals a brute-force reading of the documented precedence", arguments: [11, 12, 13] as [UInt64])
    func precedenceAgainstReference(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let pieces = [":p", ":q<int>", ":r<alpha>", "a", "b", "7"]
        for _ in 0..<60 {
            let mediator = try urlTestMediator()
            var routes: [(pattern: String, segments: [String], priority: Int, order: Int)] = []
            for _ in 0..<Int(random.next() % 6 + 2) {
                var segments = (0..<Int(random.next() % 3 + 1)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
                if random.next() % 4 == 0 { segments.append("*") }
                var seenNames = Set<String>()
                segments = segments.map { segment in
                    guard segment.hasPrefix(":") else { return segment }
                    let name = "v\(seenNames.count)"
                    seenNames.insert(name)
                    return ":" + name + (segment.contains("<") ? String(segment[segment.firstIndex(of: "<")!...]) : "")
                }
                let pattern = "/" + segments.joined(separator: "/")
                let priority = Int(random.next() % 3)
                if (try? mediator.route(pattern, to: "Echo", action: "echo", priority: priority)) != nil {
                    routes.append((pattern, segments, priority, routes.count))
                }
            }
            for _ in 0..<30 {
                let path = (0..<Int(random.next() % 4)).map { _ in ["a", "b", "7", "xy", "-3"][Int(random.next() % 5)] }
                let url = "myapp://" + (path.isEmpty ? "" : path.joined(separator: "/"))
                guard !path.isEmpty else { continue }
                let expected = Self.reference(routes, path)
                let got = routedEcho(mediator, url)?["@route"] as? String
                #expect(got == expected, "\(routes.map(\.pattern)) priorities \(routes.map(\.priority)) on \(url)")
            }
        }
    }

    /// The documented winner for `path` among `routes`, by brute force: the highest priority,
    /// then the best kinds segment by segment (literal 0, typed 1, untyped 2, wildcard 3; a path
    /// ending before a wildcard beats it), then the first registered.
    private static func reference(_ routes: [(pattern: String, segments: [String], priority: Int, order: Int)], _ path: [String]) -> String? {
        var best: (priority: Int, kinds: [Int], order: Int, pattern: String)?
        for route in routes {
            guard let kinds = kinds(route.segments, path) else { continue }
            let candidate = (route.priority, kinds, route.order, route.pattern)
            guard let current = best else {
                best = candidate
                continue
            }
            if candidate.0 != current.priority {
                if candidate.0 > current.priority { best = candidate }
            } else if candidate.1 != current.kinds {
                if candidate.1.lexicographicallyPrecedes(current.kinds) { best = candidate }
            } else if candidate.2 < current.order {
                best = candidate
            }
        }
        return best?.pattern
    }

    /// The kinds of the segments `pattern` matches `path` with, or `nil` when it does not match.
    private static func kinds(_ pattern: [String], _ path: [String]) -> [Int]? {
        var kinds: [Int] = []
        for (index, piece) in pattern.enumerated() {
            if piece == "*" { return kinds + [3] }
            guard index < path.count else { return nil }
            let segment = path[index]
            if !piece.hasPrefix(":") {
                guard piece == segment else { return nil }
                kinds.append(0)
            } else if piece.hasSuffix("<int>") {
                guard Int64(segment) != nil, !segment.hasPrefix("+") else { return nil }
                kinds.append(1)
            } else if piece.hasSuffix("<alpha>") {
                guard !segment.isEmpty, segment.utf8.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }) else { return nil }
                kinds.append(1)
            } else {
                kinds.append(2)
            }
        }
        return pattern.count == path.count ? kinds : nil
    }
}

// MARK: - Error messages

@Suite("Route error messages")
struct RouteErrorEdgeTests {
    @Test(
        "Every registration error is one safe line naming the route or entry",
        arguments: [
            ("/a\n(", "/a\\n("), ("/x/:id<fl\u{1B}[31moat>", "/x/:id<fl\\u{1B}[31moat>"), ("/\u{202E}evil/:\u{7}", "/\\u{202E}evil/:\\u{7}"),
            ("/a*\r", "/a*\\r"), ("/a/\u{85}:b:c", "/a/\\u{85}:b:c"),
        ])
    func patternErrors(pattern: String, shown: String) {
        let mediator = Mediator()
        let error = mediatorError { try mediator.route(pattern, to: "Echo", action: "echo") }
        #expect(error?.code == .invalidRoute)
        #expect(error.map { isOneSafeLine($0.description) } == true, "\(String(describing: error))")
        #expect(error?.reason.contains(shown) == true, "\(String(describing: error))")
    }

    @Test("Names, schemes, duplicates and JSON entries with hostile text give one safe line that names the entry")
    func otherErrors() throws {
        let mediator = Mediator()
        try mediator.route("/dup/\u{7}", to: "Echo", action: "echo")
        let cases: [(error: MediatorError?, names: String)] = [
            (mediatorError { try mediator.route("/n\u{1B}", to: "Bad\nName", action: "echo") }, "/n\\u{1B}"),
            (mediatorError { try mediator.route("/n", to: "Echo", action: "e\u{202E}cho") }, "e\\u{202E}cho"),
            (mediatorError { try mediator.route("/n", to: "Echo", action: "echo", scheme: "my\napp") }, "my\\napp"),
            (mediatorError { try mediator.route("/dup/\u{7}", to: "Echo", action: "echo") }, "/dup/\\u{7}"),
            (
                mediatorError { try mediator.addRoutes(json: "[{\"pattern\": \"/a\", \"target\": \"Echo\", \"action\": \"echo\", \"x\\u001b\": 1}]") },
                "route 1: "
            ),
            (
                mediatorError { try mediator.addRoutes(json: "[{\"pattern\": \"/a\", \"pattern\": \"/b\\n\", \"target\": \"Echo\", \"action\": \"echo\"}]") },
                "JSON"
            ),
            (
                mediatorError {
                    try mediator.addRoutes(
                        json:
                            "[{\"pattern\": \"/ok\", \"target\": \"Echo\", \"action\": \"echo\"}, {\"pattern\": \"/a\\u001b(\", \"target\": \"Echo\", \"action\": \"echo\"}]"
                    )
                }, "route 2: "
            ),
            (
                mediatorError { try mediator.addRoutes(json: "[{\"pattern\": \"/a\", \"target\": \"Echo\", \"action\": \"echo\", \"priority\": 1.0}]") },
                "route 1: "
            ),
            (mediatorError { try mediator.addRoutes(json: "[\"\\u001b[2J\"]") }, "route 1: "),
            (mediatorError { try mediator.addRoutes(json: "\u{1B}[2J") }, "JSON"),
        ]
        for (index, entry) in cases.enumerated() {
            let error = try #require(entry.error, "case \(index)")
            #expect(isOneSafeLine(error.description), "case \(index): \(error)")
            #expect(error.description.contains(entry.names), "case \(index): \(error)")
            #expect(error.target == nil && error.action == nil, "case \(index): \(error)")
        }
        #expect(mediator.routes.count == 1)
    }
}

// MARK: - More promises

@Suite("Routed calls' params and completions")
struct RouteParamsEdgeTests {
    @Test("A declared action reached through * gets @rest without declaring it; a forged @ key is refused even percent-encoded")
    func declaredRestAndForgedKeys() throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Files",
            actions: [
                Action("open", params: [.required("x", .string)]) { (_: Mediator, params: Params) in
                    try params.value("@rest", as: [String].self).joined(separator: "|")
                }
            ])
        try mediator.route("/d/:x/*", to: "Files", action: "open")
        #expect(try mediator.callNow(url: "myapp://d/1/a/b") as? String == "a|b")
        #expect(try mediator.callNow(url: "myapp://d/1") as? String == "")
        for url in ["myapp://d/1?%40rest=x", "myapp://d/1?@route=x", "myapp://d/1?%40url", "myapp://d/1?@scheme=a&x=1"] {
            #expect(mediatorError { _ = try mediator.callNow(url: url) }?.code == .invalidURL, "\(url)")
            #expect(!mediator.canOpen(url), "\(url)")
        }
    }

    @Test("open(_:completion:) on routed URLs: a result, a routeNotFound error, the handler's answer, and no call at all when refused as forbidden")
    func completions() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/user/:id", to: "Echo", action: "echo")
        try mediator.route("/s/:x", to: "Echo", action: "secret")
        let outcomes = EdgeCaseLog()
        mediator.open("myapp://user/3") { outcome in
            outcomes.note("result \((outcome["result"] as? [String: any Sendable])?["id"] as? String ?? "-")")
        }
        mediator.open("myapp://no/such/route") { outcome in outcomes.note("error \((outcome["error"] as? MediatorError)?.code.rawValue ?? "-")") }
        mediator.open("myapp://s/1") { _ in outcomes.note("forbidden called") }
        mediator.unmatchedURLHandler = { _ in .answer("handled") }
        mediator.open("myapp://no/such/route") { outcome in outcomes.note("handler \(outcome["result"] as? String ?? "-")") }
        #expect(outcomes.all == ["result 3", "error routeNotFound", "handler handled"])
    }
}

@Suite("Hostile pattern sizes")
struct RouteDeepNestingEdgeTests {
    @Test("A deeply nested pattern (as a remote JSON route table can carry) is refused as invalidRoute, not a crash")
    func deeplyNestedGroups() {
        let mediator = Mediator()
        // Within the pattern length limit, so that the nesting guard itself is what refuses it.
        let pattern = String(repeating: "(", count: 2_000) + "/a" + String(repeating: ")", count: 2_000)
        let error = mediatorError { try mediator.route(pattern, to: "Echo", action: "echo") }
        #expect(error?.code == .invalidRoute)
        #expect(error.map { $0.description.utf8.count < 1_000 } == true)
    }
}
