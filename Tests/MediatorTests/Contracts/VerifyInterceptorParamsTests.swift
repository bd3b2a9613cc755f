import Testing

@testable import Mediator

/// Adds a session token to every call in its scope, as an app's login interceptor does.
private struct AddsToken: Interceptor {
    func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
        request.params["token"] = "session"
        return .proceed
    }
}

/// Watches calls and changes nothing.
private struct Audit: Interceptor {
    var name: String { "audit" }
    func intercept(_ request: inout CallRequest) throws -> InterceptorDecision { .proceed }
}

@Suite("verify(): params an interceptor may add on the way")
struct VerifyInterceptorParamsTests {
    @Test(
        "A required param the requirement does not send, with interceptors in the call's way: reported, naming them and the way to say it",
        .bug(id: "verify-interceptor-params", "a param an interceptor supplies was reported as not sent, with no word of the interceptor")
    )
    func namesTheInterceptors() throws {
        let world = try VerifyWorld()
        world.mediator.addInterceptor(AddsToken(), scope: .target("Notes"))
        world.mediator.addInterceptor(Audit(), priority: 5)
        world.mediator.require([.action(target: "Notes", action: "count", params: [])], by: "Feed")
        let problems = world.mediator.verify()
        #expect(
            problems.map(\.description) == [
                #"Notes/count: Feed does not send "token" (string), which the action requires; send it, or, if interceptor "audit" or "AddsToken" adds it on the way, list it in the requirement's params (verify cannot read interceptors)"#
            ])
        #expect(problems.map(\.code) == [.invalidParameter])
        #expect(world.runs.value == 0)
    }

    @Test("A param an interceptor adds, listed in the requirement's params: no problem, and its type is checked")
    func listedInTheRequirement() throws {
        let world = try VerifyWorld()
        world.mediator.addInterceptor(AddsToken(), scope: .target("Notes"))
        world.mediator.require([.action(target: "Notes", action: "count", params: [.required("token", .string)])], by: "Feed")
        #expect(world.mediator.verify().map(\.description) == [])

        world.mediator.require([.action(target: "Notes", action: "count", params: [.required("token", .integer)])], by: "Inbox")
        #expect(world.descriptions == [#"Notes/count: Inbox sends "token" as integer, but the action declares string; make them agree"#])
    }

    @Test("With no interceptor in the call's way, a param not sent is reported plainly: nothing else can add it")
    func noInterceptorInTheWay() throws {
        let world = try VerifyWorld()
        world.mediator.addInterceptor(AddsToken(), scope: .action("list", of: "Notes"))
        world.mediator.require([.action(target: "Notes", action: "count", params: [])], by: "Feed")
        #expect(world.descriptions == [#"Notes/count: Feed does not send "token" (string), which the action requires; send it"#])
    }

    @Test("The interceptors named are those at the destination of a redirect, where the action runs")
    func interceptorsOfTheDestination() throws {
        let world = try VerifyWorld()
        var table = RedirectTable()
        try table.redirect("Old/tally", to: "Notes/count")
        world.mediator.setRedirects(table)
        world.mediator.addInterceptor(AddsToken(), scope: .target("Notes"))
        world.mediator.addInterceptor(Audit(), scope: .target("Old"))
        world.mediator.require([.action(target: "Old", action: "tally", params: [])], by: "Feed")
        #expect(
            world.descriptions == [
                #"Old/tally: redirected to Notes/count: Feed does not send "token" (string), which the action requires; send it, or, if interceptor "AddsToken" adds it on the way, list it in the requirement's params (verify cannot read interceptors)"#
            ])
    }
}
