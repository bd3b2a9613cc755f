import Mediator
import TestSupport
import Testing

// Redirects at run time: the table's pair and target entries, changes while the program runs,
// interceptors' redirects (through the table too), cycles and long chains made at run time, and the
// dry runs that follow the table.

@Suite("Redirects at run time", hangLimit)
struct RedirectDispatchTests {
    func table(_ body: (inout RedirectTable) throws -> Void) rethrows -> RedirectTable {
        var table = RedirectTable()
        try body(&table)
        return table
    }

    @Test("A target-wide redirect keeps the action's name")
    func targetWide() throws {
        let world = try InterceptionWorld()
        world.mediator.setRedirects(try table { try $0.redirect("Legacy", to: "Web") })
        let result = try world.mediator.callNow(target: "Legacy", action: "open", params: ["x": 1]) as? [String: any Sendable]
        #expect(result?["x"] as? Int == 1)
        #expect(world.ran("Web/open") == 1)
        let record = world.mediator.tracedCallNow(target: "Target_Legacy", action: "Action_open:")
        #expect(record.name == "Web/open")
        #expect(record.redirectedFrom == ["Legacy/open"])
        #expect(record.request?.askedTarget == "Target_Legacy")
    }

    @Test("A pair's redirect comes before its target's")
    func pairBeforeTarget() throws {
        let world = try InterceptionWorld()
        world.mediator.setRedirects(
            try table {
                try $0.redirect("Legacy", to: "Web")
                try $0.redirect("Legacy/show", to: "Profile/show")
            })
        #expect(try world.mediator.callNow(target: "Legacy", action: "show") as? String == "profile")
        #expect(world.mediator.tracedCallNow(target: "Legacy", action: "open").name == "Web/open")
    }

    @Test("Redirects chain: a destination is looked up again")
    func chained() throws {
        let world = try InterceptionWorld()
        world.mediator.setRedirects(
            try table {
                try $0.redirect("A/go", to: "B/go")
                try $0.redirect("B", to: "C")
                try $0.redirect("C/go", to: "Web/open")
            })
        let record = world.mediator.tracedCallNow(target: "A", action: "go")
        #expect(record.succeeded)
        #expect(record.redirectedFrom == ["A/go", "B/go", "C/go"])
        #expect(record.description?.hasPrefix("A/go -> B/go -> C/go -> Web/open ok ") == true)
    }

    @Test("A changed table applies to the next call; an empty one sends calls where they are asked")
    func runTimeChange() throws {
        let world = try InterceptionWorld()
        #expect(mediatorError { try world.mediator.callNow(target: "Legacy", action: "open") }?.code == .targetNotFound)
        let web = try table { try $0.redirect("Legacy", to: "Web") }
        world.mediator.setRedirects(web)
        #expect(world.mediator.redirects == web)
        #expect(world.mediator.perform(target: "Legacy", action: "open") != nil)
        world.mediator.setRedirects(try table { try $0.redirect("Legacy/open", to: "Profile/show") })
        #expect(world.mediator.perform(target: "Legacy", action: "open") as? String == "profile")
        world.mediator.setRedirects(RedirectTable())
        #expect(world.mediator.redirects.isEmpty)
        #expect(mediatorError { try world.mediator.callNow(target: "Legacy", action: "open") }?.code == .targetNotFound)
    }

    @Test("An action that calls the mediator follows a table changed by an earlier call")
    func changedByAction() throws {
        let world = try InterceptionWorld()
        try world.mediator.register(
            target: "Config",
            actions: [
                Action("apply") { mediator, params in
                    mediator.setRedirects(try RedirectTable(json: try params.value("json", as: String.self)))
                    return try mediator.callNow(target: "Legacy", action: "open")
                }
            ])
        let result = try world.mediator.callNow(target: "Config", action: "apply", params: ["json": #"{"redirects": {"Legacy": "Web"}}"#])
        #expect(result != nil)
        #expect(world.ran("Web/open") == 1)
    }

    @Test("The error of a redirected call tells where it ended and where it came from")
    func errorTellsWhere() throws {
        let world = try InterceptionWorld()
        world.mediator.setRedirects(try table { try $0.redirect("Legacy/open", to: "Gone/open") })
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Legacy", action: "open") })
        #expect(error.code == .targetNotFound)
        #expect(error.target == "Gone")
        #expect(error.redirectedFrom == ["Legacy/open"])
        #expect(error.description.hasSuffix(" (redirected from Legacy/open)"))
        #expect(world.mediator.perform(target: "Legacy", action: "open") == nil)
    }

    @Test("An interceptor's redirect goes through the table too")
    func interceptorThroughTable() throws {
        let world = try InterceptionWorld()
        world.mediator.setRedirects(try table { try $0.redirect("Old", to: "Web") })
        world.mediator.addInterceptor(Probe("Move", InterceptionLog()) { _ in .redirect(target: "Old", action: "open") }, scope: .target("Notes"))
        let record = world.mediator.tracedCallNow(target: "Notes", action: "echo")
        #expect(record.name == "Web/open")
        #expect(record.redirectedFrom == ["Notes/echo", "Old/open"])
        #expect(world.ran("Web/open") == 1)
    }

    @Test("Every stop of a redirected call runs its chain again (a guard is asked about each destination); each interceptor is told of the end once")
    func everyStopRunsItsChain() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.setRedirects(try table { try $0.redirect("Legacy", to: "Notes") })
        world.mediator.addInterceptor(Probe("All", log))
        world.mediator.addInterceptor(Probe("Move", log) { _ in .redirect(target: "Web", action: "open") }, scope: .target("Notes"))
        world.mediator.addInterceptor(Probe("Web", log), scope: .target("Web"))
        _ = world.mediator.perform(target: "Legacy", action: "echo")
        #expect(
            log.events.filter { $0.contains("intercept") } == [
                "All intercept Notes/echo", "Move intercept Notes/echo", "All intercept Web/open", "Web intercept Web/open",
            ])
        #expect(log.events.filter { $0.contains("finish") } == ["Web finish Web/open", "Move finish Web/open", "All finish Web/open"])
    }

    @Test("Interceptors redirecting round in a cycle end in redirectCycle, naming the chain")
    func interceptorCycle() throws {
        let world = try InterceptionWorld()
        world.mediator.addInterceptor(Probe("ToWeb", InterceptionLog()) { _ in .redirect(target: "Web", action: "open") }, scope: .target("Notes"))
        world.mediator.addInterceptor(Probe("ToNotes", InterceptionLog()) { _ in .redirect(target: "Notes", action: "echo") }, scope: .target("Web"))
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Notes", action: "echo") })
        #expect(error.code == .redirectCycle)
        #expect(error.target == "Web")
        #expect(error.action == "open")
        #expect(error.redirectedFrom == ["Notes/echo"])
        #expect(error.description == "Web/open: redirect cycle: Notes/echo -> Web/open -> Notes/echo (redirected from Notes/echo)")
        #expect(world.totalRuns == 0)
    }

    @Test("An interceptor redirecting a call to where it is is a cycle")
    func interceptorSelfCycle() throws {
        let world = try InterceptionWorld()
        world.mediator.addInterceptor(Probe("Stay", InterceptionLog()) { _ in .redirect(target: "Target_Notes", action: "Action_echo") })
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Notes", action: "echo") })
        #expect(error.description == "Notes/echo: redirect cycle: Notes/echo -> Notes/echo")
        #expect(error.redirectedFrom.isEmpty)
    }

    @Test("An interceptor redirecting into the table and back is a cycle")
    func interceptorAndTableCycle() throws {
        let world = try InterceptionWorld()
        world.mediator.setRedirects(try table { try $0.redirect("Legacy/open", to: "Web/open") })
        world.mediator.addInterceptor(Probe("Back", InterceptionLog()) { _ in .redirect(target: "Legacy", action: "open") }, scope: .target("Web"))
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Legacy", action: "open") })
        #expect(error.code == .redirectCycle)
        #expect(error.description == "Web/open: redirect cycle: Legacy/open -> Web/open -> Legacy/open (redirected from Legacy/open)")
    }

    @Test("Interceptors redirecting further than maximumHops end in tooManyRedirects, naming the chain")
    func interceptorChainTooLong() throws {
        let world = try InterceptionWorld()
        for step in 0...RedirectTable.maximumHops {
            world.mediator.addInterceptor(
                Probe("Step\(step)", InterceptionLog()) { _ in .redirect(target: "S\(step + 1)", action: "go") }, scope: .target("S\(step)"))
        }
        let error = try #require(mediatorError { try world.mediator.callNow(target: "S0", action: "go") })
        #expect(error.code == .tooManyRedirects)
        #expect(
            error.description
                == "S8/go: more than 8 redirects (RedirectTable.maximumHops): S0/go -> S1/go -> S2/go -> S3/go -> S4/go -> S5/go -> S6/go -> S7/go -> S8/go -> S9/go (redirected from S0/go -> S1/go -> S2/go -> S3/go -> S4/go -> S5/go -> S6/go -> S7/go)"
        )
    }

    @Test("A chain the table's check did not see whole still ends in tooManyRedirects at run time")
    func longChainAtRunTime() throws {
        let world = try InterceptionWorld()
        // Target entries T1 -> ... -> T5, then the pair T5/x -> U1/x, then U1 -> ... -> U5: 9 hops for
        // a call to T1/x, although no walk from a single entry is longer than 5.
        world.mediator.setRedirects(
            try table {
                for index in 1..<5 {
                    try $0.redirect("T\(index)", to: "T\(index + 1)")
                    try $0.redirect("U\(index)", to: "U\(index + 1)")
                }
                try $0.redirect("T5/x", to: "U1/x")
            })
        let error = try #require(mediatorError { try world.mediator.callNow(target: "T1", action: "x") })
        #expect(error.code == .tooManyRedirects)
        #expect(mediatorError { () throws(MediatorError) in try world.mediator.destination(target: "T1", action: "x") }?.code == .tooManyRedirects)
    }

    @Test("destination(target:action:) tells where the table sends a call, and runs nothing")
    func destination() throws {
        let world = try InterceptionWorld()
        world.mediator.setRedirects(
            try table {
                try $0.redirect("Legacy", to: "Modern")
                try $0.redirect("Modern/open", to: "Web/open")
            })
        let route = try world.mediator.destination(target: "Target_Legacy", action: "Action_open:")
        #expect(route.target == "Web")
        #expect(route.action == "open")
        #expect(route.redirectedFrom == ["Legacy/open", "Modern/open"])
        let stay = try world.mediator.destination(target: "Target_Notes", action: "Action_echo")
        #expect(stay.target == "Notes")
        #expect(stay.action == "echo")
        #expect(stay.redirectedFrom.isEmpty)
        #expect(world.totalRuns == 0)
    }

    @Test("validate and canPerform follow the table")
    func dryRunsFollowTable() throws {
        let world = try InterceptionWorld()
        world.mediator.setRedirects(
            try table {
                try $0.redirect("Legacy/new", to: "Notes/create")
                try $0.redirect("Legacy/gone", to: "Gone/x")
            })
        #expect(world.mediator.canPerform(target: "Legacy", action: "new", params: ["title": "x"]))
        #expect(!world.mediator.canPerform(target: "Legacy", action: "new", params: [:]))
        let error = try #require(mediatorError { () throws(MediatorError) in try world.mediator.validate(target: "Legacy", action: "new", params: [:]) })
        #expect(error.code == .invalidParameter)
        #expect(error.target == "Notes")
        #expect(error.action == "create")
        try world.mediator.validate(url: "app://Legacy/new?title=x")
        #expect(
            mediatorError { () throws(MediatorError) in try world.mediator.validate(target: "Legacy", action: "gone", params: [:]) }?.code == .targetNotFound)
        #expect(world.totalRuns == 0)
    }

    @Test("An async call follows the table and tells where it ended")
    func asyncCall() async throws {
        let world = try InterceptionWorld()
        world.mediator.setRedirects(try table { try $0.redirect("Legacy/later", to: "Notes/slow") })
        #expect(try await world.mediator.call(target: "Legacy", action: "later") as? String == "slow")
        let record = await world.mediator.tracedCall(target: "Legacy", action: "later")
        #expect(record.name == "Notes/slow")
        #expect(record.redirectedFrom == ["Legacy/later"])
        #expect(try record.result.get() as? String == "slow")
    }
}
