import Mediator
import TestSupport
import Testing

// Degradation: the calls of a failing or missing target sent to a fallback with the original names,
// params and the reason; once per call, never for the caller's own mistakes.

/// What `Web/open` answers to a degraded typed call, read back through a key.
struct DegradedCall: Codable, Sendable {
    var target: String
    var action: String
    var params: EchoTitle
    var reason: String
}

@Suite("Degradation", hangLimit)
struct DegradationTests {
    /// A world whose `Notes` and `Shop` degrade to `Web/open` (which answers with its params).
    func degradedWorld(to fallback: String = "Web/open") throws -> InterceptionWorld {
        let world = try InterceptionWorld()
        var table = RedirectTable()
        try table.degrade("Notes", to: fallback)
        try table.degrade("Shop", to: fallback)
        world.mediator.setRedirects(table)
        return world
    }

    /// The error a plain mediator (no table) gives for the same call: the reason a fallback gets.
    func plainError(target: String, action: String) throws -> MediatorError? {
        let world = try InterceptionWorld()
        return mediatorError { try world.mediator.callNow(target: target, action: action, params: ["id": 1]) }
    }

    /// The fallback's params, as `Web/open` echoed them.
    func fallbackParams(_ value: (any Sendable)?) throws -> [String: any Sendable] {
        try #require(value as? [String: any Sendable])
    }

    @Test(
        "A failing call goes to the fallback with the target, action, params and reason",
        arguments: [("Shop", "buy", "targetNotFound"), ("Notes", "missing", "actionNotFound"), ("Notes", "fail", "actionFailed")])
    func degrades(_ target: String, _ action: String, _ code: String) throws {
        let world = try degradedWorld()
        let params = try fallbackParams(try world.mediator.callNow(target: target, action: action, params: ["id": 1]))
        #expect(params["target"] as? String == target)
        #expect(params["action"] as? String == action)
        #expect((params["params"] as? Params)?["id"] as? Int == 1)
        let expected = try #require(try plainError(target: target, action: action))
        #expect(expected.code.rawValue == code)
        #expect(params["reason"] as? String == expected.description)
        #expect(params.count == 4)
        #expect(world.ran("Web/open") == 1)
    }

    @Test("Names given in full reach the fallback as short names")
    func fullNames() throws {
        let world = try degradedWorld()
        let params = try fallbackParams(try world.mediator.callNow(target: "Target_Notes", action: "Action_fail:"))
        #expect(params["target"] as? String == "Notes")
        #expect(params["action"] as? String == "fail")
    }

    @Test("The record and the result tell where a degraded call ended")
    func recordTellsWhere() throws {
        let world = try degradedWorld()
        let record = world.mediator.tracedCallNow(target: "Shop", action: "buy")
        #expect(record.succeeded)
        #expect(record.name == "Web/open")
        #expect(record.redirectedFrom == ["Shop/buy"])
        #expect(record.request?.name == "Shop/buy")
    }

    @Test("A call that fails for the caller's own mistake is not degraded: invalid params")
    func notForInvalidParameter() throws {
        let world = try degradedWorld()
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Notes", action: "create", params: ["count": "many"]) })
        #expect(error.code == .invalidParameter)
        #expect(world.ran("Web/open") == 0)
    }

    @Test("A URL call refused by the policy is not degraded")
    func notForForbidden() throws {
        let world = try degradedWorld()
        #expect(mediatorError { try world.mediator.callNow(url: "app://Notes/wipeAll") }?.code == .forbidden)
        world.mediator.urlPolicy = URLPolicy(allowedTargets: ["Web"])
        #expect(mediatorError { try world.mediator.callNow(url: "app://Shop/buy") }?.code == .forbidden)
        #expect(world.ran("Web/open") == 0)
    }

    @Test("A call an interceptor rejected is not degraded")
    func notForRejected() throws {
        let world = try degradedWorld()
        world.mediator.addInterceptor(PlainGate(), scope: .target("Notes"))
        #expect(mediatorError { try world.mediator.callNow(target: "Notes", action: "fail") }?.code == .rejected)
        #expect(world.ran("Web/open") == 0)
    }

    @Test("A call answered by the target's notFound is not degraded")
    func notWhenAnswered() throws {
        let world = try degradedWorld()
        try world.mediator.register(target: "Shop", actions: [], notFound: { _, action, _ in "no \(action) here" })
        #expect(try world.mediator.callNow(target: "Shop", action: "buy") as? String == "no buy here")
        #expect(world.ran("Web/open") == 0)
    }

    @Test("A call is degraded once: a failing fallback's own degradation is not followed")
    func onlyOnce() throws {
        let world = try InterceptionWorld()
        var table = RedirectTable()
        try table.degrade("Notes", to: "Shop/buy")
        try table.degrade("Shop", to: "Web/open")
        world.mediator.setRedirects(table)
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Notes", action: "fail") })
        #expect(error.code == .targetNotFound)
        #expect(error.target == "Shop")
        #expect(error.redirectedFrom == ["Notes/fail"])
        #expect(world.ran("Notes/fail") == 1)
        #expect(world.ran("Web/open") == 0)
    }

    @Test("A fallback that fails tells its own error, and where the call came from")
    func failingFallback() throws {
        let world = try degradedWorld(to: "Notes/fail")
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Shop", action: "buy") })
        #expect(error.description == "Notes/fail: the action failed: fixture error: broken (redirected from Shop/buy)")
    }

    @Test("A degraded call's fallback meets the interceptors scoped to it, with the fallback's params")
    func fallbackInterceptors() throws {
        let world = try degradedWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(
            Probe("Web", log) { request in
                request.params["seen"] = true
                return .proceed
            }, scope: .target("Web"))
        let params = try fallbackParams(try world.mediator.callNow(target: "Shop", action: "buy"))
        #expect(params["seen"] as? Bool == true)
        let request = try #require(log.requests.first)
        #expect(request.name == "Web/open")
        #expect(request.redirectedFrom == ["Shop/buy"])
        #expect(request.params["target"] as? String == "Shop")
    }

    @Test("An interceptor that ran before the failure is asked again at the fallback, and told of the end once")
    func globalInterceptorAtFallback() throws {
        let world = try degradedWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("All", log))
        _ = try world.mediator.callNow(target: "Notes", action: "fail")
        #expect(log.events == ["All intercept Notes/fail", "All intercept Web/open", "All finish Web/open"])
    }

    @Test("An interceptor at the fallback may reject the degraded call")
    func fallbackRejects() throws {
        let world = try degradedWorld()
        world.mediator.addInterceptor(PlainGate(), scope: .action("open", of: "Web"))
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Notes", action: "fail") })
        #expect(error.code == .rejected)
        #expect(error.redirectedFrom == ["Notes/fail"])
        #expect(world.ran("Web/open") == 0)
    }

    @Test("The fallback's destination follows the redirect table")
    func fallbackRedirected() throws {
        let world = try InterceptionWorld()
        var table = RedirectTable()
        try table.degrade("Shop", to: "Old/open")
        try table.redirect("Old", to: "Web")
        world.mediator.setRedirects(table)
        let record = world.mediator.tracedCallNow(target: "Shop", action: "buy")
        #expect(record.succeeded)
        #expect(record.name == "Web/open")
        #expect(record.redirectedFrom == ["Shop/buy", "Old/open"])
    }

    @Test("A degradation after an interceptor's redirect is the destination's")
    func afterInterceptorRedirect() throws {
        let world = try InterceptionWorld()
        var table = RedirectTable()
        try table.degrade("Shop", to: "Web/open")
        world.mediator.setRedirects(table)
        world.mediator.addInterceptor(Probe("Move", InterceptionLog()) { _ in .redirect(target: "Shop", action: "buy") }, scope: .target("Profile"))
        let record = world.mediator.tracedCallNow(target: "Profile", action: "show")
        #expect(record.name == "Web/open")
        #expect(record.redirectedFrom == ["Profile/show", "Shop/buy"])
        #expect(world.ran("Profile/show") == 0)
    }

    @Test("A typed key's call is degraded with its input as params")
    func typedKey() throws {
        let world = try degradedWorld()
        let degraded = try world.mediator.callNow(ActionKey<EchoTitle, DegradedCall>(target: "Shop", action: "buy"), EchoTitle(title: "hi"))
        #expect(degraded.target == "Shop")
        #expect(degraded.action == "buy")
        #expect(degraded.params == EchoTitle(title: "hi"))
        #expect(world.ran("Web/open") == 1)
    }

    @Test("An async fallback action is awaited by an async call")
    func asyncFallback() async throws {
        let world = try degradedWorld(to: "Notes/slow")
        #expect(try await world.mediator.call(target: "Shop", action: "buy") as? String == "slow")
        let record = await world.mediator.tracedCall(target: "Shop", action: "buy")
        #expect(record.name == "Notes/slow")
        #expect(record.redirectedFrom == ["Shop/buy"])
        #expect(world.ran("Notes/slow") == 2)
    }

    @Test("A synchronous call degraded to an async fallback fails with asyncAction, reported once")
    func asyncFallbackFromSync() throws {
        let world = try degradedWorld(to: "Notes/slow")
        let log = InterceptionLog()
        world.mediator.addObserver(Watcher("W", log))
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Shop", action: "buy") })
        #expect(error.code == .asyncAction)
        #expect(log.records.map { $0.error?.code } == [.asyncAction])
        #expect(world.ran("Notes/slow") == 0)
    }

    @Test("An async action that fails is degraded after it is awaited")
    func asyncFailureDegrades() async throws {
        let world = try degradedWorld()
        try world.mediator.addActions(
            [
                Action<Mediator>("failLater") { _, _ async throws -> (any Sendable)? in
                    await Task.yield()
                    throw FixtureError(message: "later")
                }
            ], toTarget: "Notes")
        let log = InterceptionLog()
        world.mediator.addObserver(Watcher("W", log))
        let params = try fallbackParams(try await world.mediator.call(target: "Notes", action: "failLater"))
        #expect(params["reason"] as? String == "Notes/failLater: the action failed: fixture error: later")
        #expect(log.records.map(\.name) == ["Web/open"])
        #expect(log.records.first?.redirectedFrom == ["Notes/failLater"])
    }

    @Test("The completion form gets a degraded call's answer")
    func completion() async throws {
        let world = try degradedWorld()
        let result = await withCheckedContinuation { continuation in
            world.mediator.perform(target: "Shop", action: "buy", as: (any Sendable)?.self) { continuation.resume(returning: $0) }
        }
        #expect((try result.get() as? [String: any Sendable])?["target"] as? String == "Shop")
    }

    // MARK: The dry runs follow a degradation as the call does

    @Test("validate, validate(url:), canPerform, canOpen and destination follow a degradation, and run nothing")
    func dryRunsFollow() throws {
        let world = try degradedWorld()
        try world.mediator.validate(target: "Shop", action: "buy", params: ["id": 1])
        try world.mediator.validate(url: "app://Shop/buy?id=1")
        #expect(world.mediator.canPerform(target: "Shop", action: "buy"))
        #expect(world.mediator.canPerform(target: "Shop", action: "buy", params: ["id": 1]))
        #expect(world.mediator.canOpen("app://Shop/buy"))
        let route = try world.mediator.destination(target: "Shop", action: "buy")
        #expect(route.target == "Web")
        #expect(route.action == "open")
        #expect(route.redirectedFrom == ["Shop/buy"])
        #expect(world.totalRuns == 0)
        // The call goes where they said.
        #expect(try fallbackParams(try world.mediator.callNow(target: "Shop", action: "buy"))["target"] as? String == "Shop")
    }

    @Test("A degradation onto a local-only action is forbidden to a URL call and to validate(url:) alike, and reachable in-process")
    func dryRunsRefuseLocalOnlyFallback() throws {
        let world = try degradedWorld(to: "Profile/wipeAll")
        let opened = #expect(throws: MediatorError.self) { try world.mediator.callNow(url: "app://Shop/buy") }
        let validated = #expect(throws: MediatorError.self) { try world.mediator.validate(url: "app://Shop/buy") }
        #expect(opened?.code == .forbidden)
        #expect(validated?.code == opened?.code)
        #expect(validated?.target == opened?.target)
        #expect(validated?.action == opened?.action)
        #expect(!world.mediator.canOpen("app://Shop/buy"))
        try world.mediator.validate(target: "Shop", action: "buy", params: [:])
        #expect(try world.mediator.callNow(target: "Shop", action: "buy") as? String == "wiped")
    }

    @Test("A degradation past the longest route: the call and validate both fail with tooManyRedirects, named alike")
    func dryRunsCountTheDegradationHop() throws {
        let world = try InterceptionWorld()
        var table = RedirectTable()
        // Eight redirects (the most a call may take), to a target that is not registered and degrades.
        for hop in 0..<RedirectTable.maximumHops { try table.redirect("Hop\(hop)", to: "Hop\(hop + 1)") }
        try table.degrade("Hop\(RedirectTable.maximumHops)", to: "Web/open")
        world.mediator.setRedirects(table)
        let called = #expect(throws: MediatorError.self) { try world.mediator.callNow(target: "Hop0", action: "go") }
        let validated = #expect(throws: MediatorError.self) { try world.mediator.validate(target: "Hop0", action: "go", params: [:]) }
        let destination = #expect(throws: MediatorError.self) { try world.mediator.destination(target: "Hop0", action: "go") }
        #expect(called?.code == .tooManyRedirects)
        for error in [validated, destination] {
            #expect(error?.code == called?.code)
            #expect(error?.target == called?.target)
            #expect(error?.action == called?.action)
        }
        #expect(validated?.redirectedFrom == called?.redirectedFrom)
        #expect(!world.mediator.canPerform(target: "Hop0", action: "go"))
        #expect(world.totalRuns == 0)
    }

    @Test("A valid target with an action name that is not valid degrades alike for the call and the dry runs")
    func invalidActionNameDegrades() throws {
        let world = try degradedWorld()
        #expect(try fallbackParams(try world.mediator.callNow(target: "Notes", action: "bad name"))["action"] as? String == "bad name")
        #expect(world.mediator.canPerform(target: "Notes", action: "bad name"))
        try world.mediator.validate(target: "Notes", action: "bad name", params: [:])
        let route = try world.mediator.destination(target: "Notes", action: "bad name")
        #expect(route.target == "Web")
        #expect(route.redirectedFrom == ["Notes/bad name"])
    }
}
