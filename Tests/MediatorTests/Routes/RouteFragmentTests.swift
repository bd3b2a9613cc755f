import Mediator
import TestSupport
import Testing

// Fragment routes as JLRoutes reads them (`/user#/view/:id`), with URLPolicy.readsFragmentsAsRoutes:
// JLRoutes' testFragmentRouting cases, then what the option leaves alone.

/// The params a URL reached `Echo/echo` with, without the mediator's `@` keys, or `nil` when it
/// reached something else.
private func echoedText(_ mediator: Mediator, _ url: String) -> [String: String]? {
    guard let values = echoed(mediator, url) else { return nil }
    var shown: [String: String] = [:]
    for (key, value) in values where !key.hasPrefix("@") { shown[key] = value as? String ?? "\(value)" }
    return shown
}

/// JLRoutes' fragment routes, to `Echo/echo`, with fragments read.
private func fragmentMediator() throws -> Mediator {
    let mediator = try urlTestMediator()
    mediator.urlPolicy.readsFragmentsAsRoutes = true
    for pattern in [
        "/user#/view/:userID", "/:object#/:action/:primaryKey", "/interleaving/:param1#/foo/:param2", "/xyz/wildcard#/*", "/route#/:param/*",
        "/required#/:requiredParam(/optional/:optionalParam)(/moreOptional/:moreOptionalParam)",
    ] {
        try mediator.route(pattern, to: "Echo", action: "echo")
    }
    return mediator
}

@Suite("Deep links: fragment routes, as JLRoutes reads them")
struct RouteFragmentTests {
    @Test("JLRoutes' fragment cases: the fragment's path joins the path after a #, its query items join the query")
    func jlroutesCases() throws {
        let mediator = try fragmentMediator()
        #expect(echoedText(mediator, "tests://user#/view/joeldev") == ["userID": "joeldev"])
        #expect(echoedText(mediator, "tests://user#/view/joeldev/") == ["userID": "joeldev"])
        #expect(echoedText(mediator, "tests://user#/view/joel%20levin") == ["userID": "joel levin"])
        #expect(echoedText(mediator, "tests://user#/view/joeldev?foo=bar&thing=stuff") == ["userID": "joeldev", "foo": "bar", "thing": "stuff"])
        #expect(echoedText(mediator, "tests://user#/view/joeldev?userID=evilPerson") == ["userID": "joeldev"])
        #expect(
            echoedText(mediator, "tests://user#/view/joeldev?userID=evilPerson&search=evilSearch&evilThing=evil")
                == ["userID": "joeldev", "search": "evilSearch", "evilThing": "evil"])
        #expect(
            echoedText(mediator, "tests://user?search=niceSearch&go=home#/view/joeldev?userID=evilPerson&&evilThing=evil")
                == ["userID": "joeldev", "search": "niceSearch", "go": "home", "evilThing": "evil"])
        #expect(echoedText(mediator, "tests://post#/edit/123") == ["object": "post", "action": "edit", "primaryKey": "123"])
        #expect(echoedText(mediator, "tests://interleaving/paramvalue1#/foo/paramvalue2") == ["param1": "paramvalue1", "param2": "paramvalue2"])
        let bare = mediator.open("tests://xyz/wildcard#") as? [String: any Sendable]
        #expect(bare?[URLRoute.restKey] as? [String] == [])
        let rest = mediator.open("tests://xyz/wildcard#/matches/with/extra/path/components") as? [String: any Sendable]
        #expect(rest?[URLRoute.restKey] as? [String] == ["matches", "with", "extra", "path", "components"])
        let both = mediator.open("tests://route#/matches/with/wildcard") as? [String: any Sendable]
        #expect(both?["param"] as? String == "matches")
        #expect(both?[URLRoute.restKey] as? [String] == ["with", "wildcard"])
        #expect(!mediator.canOpen("tests://doesnt/exist#/and/wont/match"))
        #expect(echoedText(mediator, "tests://required#/mustExist") == ["requiredParam": "mustExist"])
        #expect(
            echoedText(mediator, "tests://required#/mustExist/optional/mightExist") == ["requiredParam": "mustExist", "optionalParam": "mightExist"])
        #expect(
            echoedText(mediator, "tests://required#/mustExist/optional/mightExist/moreOptional/mightExistToo")
                == ["requiredParam": "mustExist", "optionalParam": "mightExist", "moreOptionalParam": "mightExistToo"])
    }

    @Test("A fragment of query items only adds params, not a segment; an empty path takes the # as a segment of its own")
    func queryOnlyFragment() throws {
        let mediator = try urlTestMediator()
        mediator.urlPolicy.readsFragmentsAsRoutes = true
        try mediator.route("/user/:id", to: "Echo", action: "echo")
        try mediator.route("/#/view/:id", to: "Echo", action: "echo")
        try mediator.route("/note#draft", to: "Other", action: "ping")
        #expect(echoedText(mediator, "myapp://user/7#tab=posts&x=1") == ["id": "7", "tab": "posts", "x": "1"])
        #expect(echoedText(mediator, "myapp://user/7?tab=a#tab=b") == ["id": "7", "tab": "[\"a\", \"b\"]"])
        #expect(echoedText(mediator, "https://example.com/#/view/9") == ["id": "9"])
        #expect(mediator.open("myapp://note#draft") as? String == "pong")
        // A first item without a value is a path, as JLRoutes reads it.
        #expect(echoedText(mediator, "myapp://user/7#tab=") == ["id": "7#tab="])
    }

    @Test("After a trailing / the # begins a segment of its own, as JLRoutes splits the path with the fragment appended")
    func trailingSlash() throws {
        let mediator = try urlTestMediator()
        mediator.urlPolicy.readsFragmentsAsRoutes = true
        try mediator.route("/user/#/view/:id", to: "Echo", action: "echo")
        try mediator.route("/user#/view/:id", to: "Other", action: "ping")
        #expect(echoedText(mediator, "https://example.com/user/#/view/1") == ["id": "1"])
        #expect(echoedText(mediator, "myapp://user/#/view/1") == ["id": "1"])
        #expect(mediator.open("https://example.com/user#/view/1") as? String == "pong")
        #expect(mediator.open("myapp://user#/view/1") as? String == "pong")
    }

    @Test("matchesHostIgnoringCase lowers the host alone, not a fragment joined to it")
    func hostLoweredAlone() throws {
        let mediator = try urlTestMediator()
        mediator.urlPolicy.readsFragmentsAsRoutes = true
        mediator.urlPolicy.matchesHostIgnoringCase = true
        try mediator.route("/user#:code", to: "Echo", action: "echo")
        try mediator.route("/note#abc", to: "Other", action: "ping")
        #expect(echoedText(mediator, "myapp://User#XyZ") == ["code": "XyZ"])
        #expect(!mediator.canOpen("myapp://Note#ABC"))
        #expect(mediator.open("myapp://Note#abc") as? String == "pong")
    }

    @Test("A link whose fragment cannot be decoded is invalidURL whatever it names, routes or not, and no handler sees it")
    func undecodableFragment() throws {
        let asked = Counter()
        for routed in [false, true] {
            let mediator = try urlTestMediator()
            mediator.urlPolicy.readsFragmentsAsRoutes = true
            mediator.unmatchedURLHandler = { _ in
                asked.increment()
                return .answer("handled")
            }
            // A route that covers Other/ping: a fragment must not get a link past it.
            if routed { try mediator.route("/Other/:x", to: "Echo", action: "echo") }
            // The last is longer than routes can match: refused all the same.
            let long = "myapp://user" + String(repeating: "/a", count: 70) + "#%zz"
            for url in ["myapp://Other/ping#100%", "myapp://Legacy/x#%zz", "myapp://user#/view/100%", "https://example.com/Other/ping#%zz", long] {
                #expect(mediator.open(url) == nil, "\(url)")
                #expect(!mediator.canOpen(url), "\(url)")
                let refused = #expect(throws: MediatorError.self, "\(url)") { try mediator.validate(url: url) }
                #expect(refused?.code == .invalidURL, "\(url)")
                #expect(refused?.reason.contains("the fragment's segment") == true, "\(url)")
            }
            #expect(mediator.open("myapp://Other/ping#ok") as? String == (routed ? nil : "pong"))
            mediator.urlPolicy.readsFragmentsAsRoutes = false
            #expect(mediator.open("myapp://Other/ping#100%") != nil)
        }
        #expect(asked.value == 0)
    }

    @Test("The unmatched-URL handler is never shown more than 64 segments, with a fragment or without")
    func segmentLimitWithFragment() throws {
        let mediator = try urlTestMediator()
        mediator.urlPolicy.readsFragmentsAsRoutes = true
        try mediator.route("/x", to: "Other", action: "ping")
        let longest = Counter()
        mediator.unmatchedURLHandler = { unmatched in
            if unmatched.path.count > longest.value { longest.set(unmatched.path.count) }
            return .decline
        }
        _ = mediator.open("https://example.com#" + String(repeating: "/a", count: 64))
        _ = mediator.open("https://example.com#" + String(repeating: "/a", count: 63))
        _ = mediator.open("myapp://h#" + String(repeating: "/a", count: 64))
        #expect(longest.value == 64)
    }

    @Test("Off by default: the fragment is ignored, and a # in a pattern is matched by %23 only")
    func offByDefault() throws {
        let mediator = try fragmentMediator()
        mediator.urlPolicy.readsFragmentsAsRoutes = false
        try mediator.route("/user", to: "Other", action: "ping")
        #expect(mediator.open("tests://user#/view/joeldev") as? String == "pong")
        #expect(echoedText(mediator, "tests://user%23/view/joeldev") == ["userID": "joeldev"])
    }

    @Test("A fragment's malformed escape is invalidURL naming it; its items count toward the query limit; Target/action URLs ignore it")
    func hostileFragments() throws {
        let mediator = try fragmentMediator()
        let malformed = #expect(throws: MediatorError.self) { try mediator.validate(url: "tests://user#/view/%zz") }
        #expect(malformed?.code == .invalidURL)
        #expect(malformed?.reason.contains(#"the fragment's segment "%zz""#) == true)
        mediator.urlPolicy.maximumQueryItems = 2
        let many = #expect(throws: MediatorError.self) { try mediator.validate(url: "tests://user?a=1&b=2#/view/x?c=3") }
        #expect(many?.code == .invalidURL)
        let reserved = #expect(throws: MediatorError.self) { try mediator.validate(url: "tests://user#/view/x?@route=/evil") }
        #expect(reserved?.code == .invalidURL)
        #expect(mediator.open("tests://Other/ping#/view/x") as? String == "pong")
        let deep = "tests://user#" + String(repeating: "/a", count: 64)
        #expect(!mediator.canOpen(deep))
    }
}
