import Foundation
import Mediator
import TestSupport
import Testing

// The chain around a call: its order, what interceptors may do to a call (change its params,
// reject, answer, redirect), what they and observers are told afterwards, and their scopes.

@Suite("Interceptors: order and decisions")
struct InterceptionChainTests {
    @Test("Interceptors run by priority, higher first, then in the order they were added")
    func order() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("A", log))
        world.mediator.addInterceptor(Probe("B", log), priority: 10)
        world.mediator.addInterceptor(Probe("C", log))
        world.mediator.addInterceptor(Probe("D", log), priority: 10)
        world.mediator.addInterceptor(Probe("E", log), priority: -5)
        _ = try world.mediator.callNow(target: "Notes", action: "echo")
        #expect(log.events.filter { $0.contains("intercept") }.map { $0.prefix(1) } == ["B", "D", "A", "C", "E"])
    }

    @Test("callDidFinish runs in the reverse order, then the observers in the order they were added")
    func finishOrder() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addObserver(Watcher("Y", log))
        world.mediator.addInterceptor(Probe("A", log))
        world.mediator.addInterceptor(Probe("B", log), priority: 1)
        world.mediator.addObserver(Watcher("X", log))
        _ = try world.mediator.callNow(target: "Notes", action: "echo")
        #expect(
            log.events == [
                "B intercept Notes/echo", "A intercept Notes/echo", "A finish Notes/echo", "B finish Notes/echo", "Y observe Notes/echo",
                "X observe Notes/echo",
            ])
    }

    @Test("An interceptor that is also an observer is told of the calls it intercepted and no others; one that is not is never told")
    func observingInterceptors() throws {
        /// An interceptor only: its `callDidFinish` is not a `CallObserver`'s, so it is never called.
        struct Quiet: Interceptor {
            let log: InterceptionLog
            func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
                log.note("Quiet intercept \(request.name)")
                return .proceed
            }
            func callDidFinish(_ record: CallRecord) { log.note("Quiet finish \(record.name)") }
        }
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("Scoped", log), scope: .target("Notes"))
        world.mediator.addInterceptor(Quiet(log: log))
        _ = try world.mediator.callNow(target: "Notes", action: "echo")
        _ = try world.mediator.callNow(target: "Web", action: "open")
        #expect(
            log.events == [
                "Scoped intercept Notes/echo", "Quiet intercept Notes/echo", "Scoped finish Notes/echo", "Quiet intercept Web/open",
            ])
        #expect(log.records.map(\.name) == ["Notes/echo"])
    }

    @Test("An interceptor's change to the params reaches the action, and the next interceptor sees it")
    func paramsRewritten() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(
            Probe("Token", log) { request in
                request.params["token"] = "t-1"
                request.params["drop"] = nil
                return .proceed
            })
        world.mediator.addInterceptor(Probe("Later", log))
        let echoed = try world.mediator.callNow(target: "Notes", action: "echo", params: ["drop": 1, "keep": 2]) as? [String: any Sendable]
        #expect(echoed?["token"] as? String == "t-1")
        #expect(echoed?["keep"] as? Int == 2)
        #expect(echoed?["drop"] == nil)
        #expect(log.requests.map { $0.params.keys } == [["drop", "keep"], ["keep", "token"]])
    }

    @Test("A value an interceptor adds is checked against the action's declared params: a bad one is invalidParameter")
    func rewrittenParamsValidated() throws {
        let world = try InterceptionWorld()
        world.mediator.addInterceptor(
            Probe("Counter", InterceptionLog()) { request in
                request.params["count"] = [1, 2]
                return .proceed
            })
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Notes", action: "create", params: ["title": "hi"]) })
        #expect(error.code == .invalidParameter)
        #expect(error.parameter == "count")
        #expect(world.ran("Notes/create") == 0)
    }

    @Test("A param an interceptor fills in satisfies a required declared param")
    func rewrittenParamsAccepted() throws {
        let world = try InterceptionWorld()
        world.mediator.addInterceptor(
            Probe("Title", InterceptionLog()) { request in
                request.params["title"] = "from the interceptor"
                return .proceed
            })
        #expect(try world.mediator.callNow(target: "Notes", action: "create") as? String == "from the interceptor")
    }

    @Test("An interceptor that throws rejects the call: code rejected, naming the interceptor, with its error underneath")
    func rejection() throws {
        let world = try InterceptionWorld()
        world.mediator.addInterceptor(Probe("Gate", InterceptionLog()) { _ in throw FixtureError(message: "no entry") })
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Target_Notes", action: "Action_echo:") })
        #expect(error.code == .rejected)
        #expect(error.target == "Notes")
        #expect(error.action == "echo")
        #expect(error.underlying as? FixtureError == FixtureError(message: "no entry"))
        #expect(error.description == #"Notes/echo: rejected by interceptor "Gate": fixture error: no entry"#)
        #expect(world.ran("Notes/echo") == 0)
    }

    @Test("An interceptor without a name of its own is named by its type")
    func defaultName() throws {
        let world = try InterceptionWorld()
        world.mediator.addInterceptor(PlainGate())
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Notes", action: "echo") })
        #expect(error.description == #"Notes/echo: rejected by interceptor "PlainGate": fixture error: closed"#)
    }

    @Test("After a rejection the mediator answers the next call")
    func usableAfterRejection() throws {
        let world = try InterceptionWorld()
        world.mediator.addInterceptor(
            Probe("Gate", InterceptionLog()) { request in
                if request.params["let"] == nil { throw FixtureError(message: "no") }
                return .proceed
            })
        #expect(mediatorError { try world.mediator.callNow(target: "Notes", action: "echo") }?.code == .rejected)
        #expect(mediatorError { try world.mediator.callNow(target: "Notes", action: "echo") }?.code == .rejected)
        #expect(try world.mediator.callNow(target: "Notes", action: "echo", params: ["let": true]) != nil)
        #expect(world.ran("Notes/echo") == 1)
    }

    @Test("A rejection stops the chain: later interceptors do not run, those that ran (the rejecting one too) are told")
    func rejectionStopsChain() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("A", log))
        world.mediator.addInterceptor(Probe("B", log) { _ in throw FixtureError(message: "no") })
        world.mediator.addInterceptor(Probe("C", log))
        _ = world.mediator.perform(target: "Notes", action: "echo")
        #expect(log.events == ["A intercept Notes/echo", "B intercept Notes/echo", "B finish Notes/echo", "A finish Notes/echo"])
        #expect(log.records.first?.error?.code == .rejected)
    }

    @Test("An interceptor's answer is the call's result: no action runs, nor any later interceptor")
    func shortCircuit() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("Cache", log) { _ in .answer("cached") })
        world.mediator.addInterceptor(Probe("Later", log))
        #expect(try world.mediator.callNow(target: "Notes", action: "echo") as? String == "cached")
        #expect(world.totalRuns == 0)
        #expect(log.events == ["Cache intercept Notes/echo", "Cache finish Notes/echo"])
        #expect(try log.records.first?.result.get() as? String == "cached")
    }

    @Test("An interceptor may answer with nothing: the call returns nil and succeeds")
    func answerNothing() throws {
        let world = try InterceptionWorld()
        world.mediator.addInterceptor(Probe("Mute", InterceptionLog()) { _ in .answer(nil) })
        #expect(try world.mediator.callNow(target: "Notes", action: "fail") == nil)
        #expect(world.ran("Notes/fail") == 0)
    }

    @Test("An interceptor may answer a call to a target that does not exist")
    func answerMissing() throws {
        let world = try InterceptionWorld()
        world.mediator.addInterceptor(Probe("Stub", InterceptionLog()) { _ in .answer(7) })
        #expect(try world.mediator.callNow(target: "Payments", action: "pay") as? Int == 7)
    }

    @Test("An interceptor's redirect reaches the other action, and the record tells where the call ended")
    func redirect() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("Move", log) { _ in .redirect(target: "Target_Web", action: "Action_open") }, scope: .target("Notes"))
        world.mediator.addObserver(Watcher("W", log))
        let result = try world.mediator.callNow(target: "Notes", action: "echo", params: ["id": 3]) as? [String: any Sendable]
        #expect(result?["id"] as? Int == 3)
        #expect(world.ran("Web/open") == 1)
        #expect(world.ran("Notes/echo") == 0)
        let record = try #require(log.records.last)
        #expect(record.name == "Web/open")
        #expect(record.redirectedFrom == ["Notes/echo"])
        #expect(record.request.name == "Notes/echo")
        #expect(record.description.hasPrefix("Notes/echo -> Web/open ok "))
    }

    @Test("An error after an interceptor's redirect tells where the call ended")
    func redirectError() throws {
        let world = try InterceptionWorld()
        world.mediator.addInterceptor(Probe("Move", InterceptionLog()) { _ in .redirect(target: "Notes", action: "fail") }, scope: .action("echo", of: "Notes"))
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Notes", action: "echo") })
        #expect(error.code == .actionFailed)
        #expect(error.target == "Notes")
        #expect(error.action == "fail")
        #expect(error.redirectedFrom == ["Notes/echo"])
        #expect(error.description == "Notes/fail: the action failed: fixture error: broken (redirected from Notes/echo)")
    }

    @Test("The record of a call that succeeded: the request as asked, the result, a duration")
    func observesResult() throws {
        let world = try InterceptionWorld()
        let log = observedWithParam(world.mediator, setting: "token", to: "t")
        _ = try world.mediator.callNow(target: "Target_Notes", action: "create", params: ["title": "x"])
        let records = log.records
        #expect(records.count == 2)
        let record = try #require(records.last)
        #expect(record.succeeded)
        #expect(record.error == nil)
        #expect(try record.result.get() as? String == "x")
        #expect(record.request.askedTarget == "Target_Notes")
        #expect(record.request.params.keys == ["title"])
        #expect(record.name == "Notes/create")
        #expect(record.redirectedFrom.isEmpty)
        #expect(record.startTime > 1_600_000_000)
        #expect(record.description.hasPrefix("Notes/create ok "))
    }

    @Test("A record of a call no interceptor saw holds the call as asked, and the wall-clock time it started")
    func observesPlainCall() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addObserver(Watcher("W", log))
        // Foundation's clock, not the mediator's: the same wall clock, read independently.
        let before = Date().timeIntervalSince1970
        _ = try world.mediator.callNow(target: "Target_Notes", action: "create", params: ["title": "x"])
        let after = Date().timeIntervalSince1970
        let record = try #require(log.records.first)
        #expect(record.request.askedTarget == "Target_Notes")
        #expect(record.request.target == "Notes")
        #expect(record.request.params.keys == ["title"])
        #expect(record.name == "Notes/create")
        #expect(record.redirectedFrom.isEmpty)
        // A millisecond either way for the clocks' resolution.
        #expect(record.startTime >= before - 0.001)
        #expect(record.startTime <= after + 0.001)
        // The time is the record's, whenever it is read.
        let first = record.startTime
        _ = try world.mediator.callNow(target: "Notes", action: "create", params: ["title": "y"])
        #expect(record.startTime == first)
    }

    @Test("The record of a call that failed: the error the caller got")
    func observesError() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addObserver(Watcher("W", log))
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Notes", action: "fail") })
        let record = try #require(log.records.first)
        #expect(!record.succeeded)
        #expect(record.error?.description == error.description)
        #expect(record.description.hasPrefix("Notes/fail failed "))
        #expect(record.description.hasSuffix(": Notes/fail: the action failed: fixture error: broken"))
    }

    @Test("Observers see calls nothing answered, with the error the throwing entry point gives")
    func observesUnanswered() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addObserver(Watcher("W", log))
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Notes", action: "missing") })
        #expect(error.code == .actionNotFound)
        #expect(log.records.first?.error?.description == error.description)
    }

    @Test("Each call is reported once to each interceptor that ran and each observer")
    func reportedOnce() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("A", log))
        world.mediator.addObserver(Watcher("W", log))
        for _ in 0..<3 { _ = world.mediator.perform(target: "Notes", action: "echo") }
        #expect(log.records.count == 6)
    }

    @Test("A removed interceptor no longer runs; removing it again finds nothing")
    func removal() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        let id = world.mediator.addInterceptor(Probe("A", log))
        world.mediator.addInterceptor(Probe("B", log))
        _ = world.mediator.perform(target: "Notes", action: "echo")
        #expect(world.mediator.removeInterception(id))
        #expect(!world.mediator.removeInterception(id))
        _ = world.mediator.perform(target: "Notes", action: "echo")
        #expect(log.events.filter { $0.contains("intercept") } == ["A intercept Notes/echo", "B intercept Notes/echo", "B intercept Notes/echo"])
    }

    @Test("A removed observer is no longer told; with nothing left, calls answer as before")
    func observerRemoval() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        let id = world.mediator.addObserver(Watcher("W", log))
        _ = world.mediator.perform(target: "Notes", action: "echo")
        #expect(world.mediator.removeInterception(id))
        #expect(world.mediator.perform(target: "Notes", action: "echo") != nil)
        #expect(log.records.count == 1)
    }
}

@Suite("Interceptors: scopes")
struct InterceptionScopeTests {
    /// Calls every action of the world once by its short names; returns what `log` saw.
    func seen(_ scope: InterceptorScope, calls: [(String, String)] = Self.calls) throws -> [String] {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("P", log), scope: scope)
        for (target, action) in calls { _ = world.mediator.perform(target: target, action: action, params: ["title": "t"]) }
        return log.requests.map(\.name)
    }

    static let calls = [("Notes", "echo"), ("Notes", "create"), ("Profile", "show"), ("Web", "open"), ("Nowhere", "go"), ("Notes", "missing")]

    @Test("A global interceptor sees every call, to missing targets and actions too")
    func global() throws {
        #expect(try seen(.all) == ["Notes/echo", "Notes/create", "Profile/show", "Web/open", "Nowhere/go", "Notes/missing"])
    }

    @Test("A target's interceptor sees that target's calls only, missing actions included")
    func target() throws {
        #expect(try seen(.target("Notes")) == ["Notes/echo", "Notes/create", "Notes/missing"])
    }

    @Test("An interceptor of several targets sees their calls only")
    func targets() throws {
        #expect(try seen(.targets(["Profile", "Web"])) == ["Profile/show", "Web/open"])
    }

    @Test("An action's interceptor sees that action's calls only")
    func action() throws {
        #expect(try seen(.action("create", of: "Notes")) == ["Notes/create"])
        #expect(try seen(.actions(["create", "missing"], of: "Notes")) == ["Notes/create", "Notes/missing"])
    }

    @Test("Scopes given by full names match calls by short names, and the reverse")
    func fullNames() throws {
        #expect(try seen(.target("Target_Notes")) == ["Notes/echo", "Notes/create", "Notes/missing"])
        #expect(try seen(.action("Action_create", of: "Target_Notes")) == ["Notes/create"])
        #expect(try seen(.targets(["Target_Web"])) == ["Web/open"])
        let byFullNames = [("Target_Notes", "Action_create:"), ("Target_Notes", "Action_echo"), ("Target_Web", "open")]
        #expect(try seen(.action("create", of: "Notes"), calls: byFullNames) == ["Notes/create"])
        #expect(try seen(.target("Notes"), calls: byFullNames) == ["Notes/create", "Notes/echo"])
    }

    @Test("Global, target and action interceptors meet in one order: priority, then the order they were added")
    func mixedOrder() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("Action", log), scope: .action("create", of: "Notes"))
        world.mediator.addInterceptor(Probe("Global", log))
        world.mediator.addInterceptor(Probe("Target", log), scope: .target("Notes"))
        world.mediator.addInterceptor(Probe("First", log), scope: .action("create", of: "Notes"), priority: 3)
        world.mediator.addInterceptor(Probe("Other", log), scope: .target("Web"), priority: 9)
        _ = world.mediator.perform(target: "Notes", action: "create", params: ["title": "t"])
        _ = world.mediator.perform(target: "Notes", action: "echo")
        #expect(
            log.events.filter { $0.contains("intercept") } == [
                "First intercept Notes/create", "Action intercept Notes/create", "Global intercept Notes/create", "Target intercept Notes/create",
                "Global intercept Notes/echo", "Target intercept Notes/echo",
            ])
    }

    @Test("A scope matches the call's names after a redirect of the table")
    func afterRedirect() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("Web", log), scope: .target("Web"))
        world.mediator.addInterceptor(Probe("Legacy", log), scope: .target("Legacy"))
        var table = RedirectTable()
        try table.redirect("Legacy", to: "Web")
        world.mediator.setRedirects(table)
        _ = world.mediator.perform(target: "Legacy", action: "open")
        #expect(log.events.filter { $0.contains("intercept") } == ["Web intercept Web/open"])
        #expect(world.ran("Web/open") == 1)
    }

    @Test("Scopes describe themselves")
    func descriptions() {
        #expect(InterceptorScope.all.description == "all")
        #expect(InterceptorScope.targets(["Web", "Target_Notes"]).description == "targets Notes, Web")
        #expect(InterceptorScope.actions(["get", "Action_create"], of: "Notes").description == "Notes/create, Notes/get")
        #expect(InterceptorScope.target("Notes") == InterceptorScope.targets(["Target_Notes"]))
    }
}

@Suite("Interceptors: what a request shows")
struct InterceptionRequestTests {
    @Test("A request shows the names as asked and as resolved, the origin and the depth")
    func fields() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("P", log))
        _ = world.mediator.perform(target: "Target_Notes", action: "Action_echo:", params: ["a": 1])
        let request = try #require(log.requests.first)
        #expect(request.askedTarget == "Target_Notes")
        #expect(request.askedAction == "Action_echo:")
        #expect(request.target == "Notes")
        #expect(request.action == "echo")
        #expect(request.name == "Notes/echo")
        #expect(request.origin == .inProcess)
        #expect(!request.origin.isRemote)
        #expect(request.depth == 1)
        #expect(request.redirectedFrom.isEmpty)
        #expect(request.params.keys == ["a"])
    }

    @Test("A URL call's request shows the URL as its origin")
    func urlOrigin() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("P", log))
        _ = world.mediator.open("app://Notes/echo?a=1")
        let request = try #require(log.requests.first)
        #expect(request.origin == .url("app://Notes/echo?a=1"))
        #expect(request.origin.isRemote)
        #expect(request.params["a"] as? String == "1")
    }

    @Test("Origins describe themselves as log lines show them")
    func originDescriptions() {
        #expect(CallOrigin.inProcess.description == "in-process")
        #expect(CallOrigin.commandLine.description == "command line")
        #expect(CallOrigin.url("app://A/b").description == "url")
        #expect(!CallOrigin.commandLine.isRemote)
    }

    @Test("After a table's redirect, the request shows the names as asked, where it goes, and where it came from")
    func redirectedRequest() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("P", log))
        var table = RedirectTable()
        try table.redirect("Legacy/show", to: "Web/open")
        world.mediator.setRedirects(table)
        _ = world.mediator.perform(target: "Legacy", action: "show")
        let request = try #require(log.requests.first)
        #expect(request.askedTarget == "Legacy")
        #expect(request.askedAction == "show")
        #expect(request.name == "Web/open")
        #expect(request.redirectedFrom == ["Legacy/show"])
    }

    @Test(
        "An interceptor that puts a kept request in place of the call's changes the params only: later interceptors and the record see the call's own names, origin, depth and route"
    )
    func replacedRequest() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        let kept = ReadWriteLock<CallRequest?>(nil)
        world.mediator.addInterceptor(
            Probe("Keeper", log) { request in
                // The first call's request is kept; every later call gets it in place of its own.
                if let earlier = kept.withReadLock({ $0 }) {
                    request = earlier
                } else {
                    kept.withLock { $0 = request }
                }
                return .proceed
            }, priority: 1)
        world.mediator.addInterceptor(Probe("After", log))
        world.mediator.addObserver(Watcher("W", log))
        // The kept request: in process, by full names, not redirected.
        _ = world.mediator.perform(target: "Target_Notes", action: "Action_echo:", params: ["kept": 1])

        // By URL, straight to the action (the first stop's interceptors), then through a table's
        // redirect (the table moves the call before any interceptor runs: a later stop's).
        var table = RedirectTable()
        try table.redirect("Legacy/show", to: "Notes/echo")
        world.mediator.setRedirects(table)
        for (url, asked, route) in [("app://Notes/echo?own=2", "Notes/echo", [String]()), ("app://Legacy/show?own=2", "Legacy/show", ["Legacy/show"])] {
            _ = world.mediator.open(url)
            // Keeper sees the call's own request; After sees it with the kept params.
            let requests = log.requests.suffix(2)
            #expect(requests.count == 2)
            for request in requests {
                #expect(request.origin == .url(url))
                #expect("\(request.askedTarget)/\(request.askedAction)" == asked)
                #expect(request.name == "Notes/echo")
                #expect(request.redirectedFrom == route)
            }
            #expect(requests.first?.params.keys == ["own"])
            #expect(requests.last?.params.keys == ["kept"])

            // Each record is told to Keeper, After and W: the last three are this call's.
            let records = log.records.suffix(3)
            #expect(records.count == 3)
            for record in records {
                #expect(record.request.origin == .url(url))
                #expect("\(record.request.askedTarget)/\(record.request.askedAction)" == asked)
                #expect(record.request.depth == 1)
                #expect(record.name == "Notes/echo")
                #expect(record.redirectedFrom == route)
                #expect(record.request.params.keys == ["own"])
            }
        }
    }

    @Test(
        "An interceptor that puts a kept request in place and then rejects the call: the error and the record name the call itself, at the first stop and at a later one"
    )
    func replacedThenRejected() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        let kept = ReadWriteLock<CallRequest?>(nil)
        world.mediator.addInterceptor(
            Probe("Keeper", log) { request in
                guard let earlier = kept.withReadLock({ $0 }) else {
                    kept.withLock { $0 = request }
                    return .proceed
                }
                request = earlier
                throw FixtureError(message: "no")
            })
        world.mediator.addObserver(Watcher("W", log))
        _ = world.mediator.open("app://Archive/echo?kept=1")
        var table = RedirectTable()
        try table.redirect("Legacy/show", to: "Notes/echo")
        world.mediator.setRedirects(table)
        for (target, route) in [("Notes", [String]()), ("Legacy", ["Legacy/show"])] {
            let action = target == "Notes" ? "echo" : "show"
            let error = #expect(throws: MediatorError.self) { try world.mediator.callNow(target: target, action: action) }
            #expect(error?.code == .rejected)
            #expect(error?.target == "Notes")
            #expect(error?.action == "echo")
            #expect(error?.redirectedFrom == route)
            let record = try #require(log.records.last)
            #expect(record.request.origin == .inProcess)
            #expect(record.request.askedTarget == target)
            #expect(record.request.askedAction == action)
            #expect(record.name == "Notes/echo")
            #expect(record.redirectedFrom == route)
        }
    }

    @Test("A kept request whose names are the same text in other bytes is put back too: later interceptors see the call's own bytes")
    func replacedRequestSameTextOtherBytes() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        // Canonically equivalent, the same length in UTF-8, other bytes: `==` cannot tell them apart.
        let first = "x\u{1E0B}\u{0323}"
        let second = "x\u{1E0D}\u{0307}"
        #expect(first == second && first.utf8.count == second.utf8.count && !first.utf8.elementsEqual(second.utf8))
        let kept = ReadWriteLock<CallRequest?>(nil)
        world.mediator.addInterceptor(
            Probe("Keeper", log) { request in
                if let earlier = kept.withReadLock({ $0 }) { request = earlier } else { kept.withLock { $0 = request } }
                return .proceed
            }, priority: 1)
        world.mediator.addInterceptor(Probe("After", log))
        _ = world.mediator.perform(target: "Notes", action: first)
        _ = world.mediator.perform(target: "Notes", action: second)
        let seen = try #require(log.requests.last)
        #expect(Array(seen.action.utf8) == Array(second.utf8))
        #expect(Array(seen.askedAction.utf8) == Array(second.utf8))
    }

    @Test("An invalid name is shown as it was written, and the call fails as not found")
    func invalidName() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("P", log))
        #expect(mediatorError { try world.mediator.callNow(target: "No such", action: "x") }?.code == .targetNotFound)
        #expect(log.requests.first?.target == "No such")
    }
}

@Suite("Interceptors: changes while a call runs")
struct InterceptionChangeTests {
    @Test("An interceptor that removes itself while running: the call in progress keeps its chain, the next does not meet it")
    func removesItself() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        let mediator = world.mediator
        let id = ReadWriteLock<InterceptionID?>(nil)
        id.withLock {
            $0 = mediator.addInterceptor(
                Probe("Once", log) { _ in
                    if let own = id.withLock({ $0 }) { #expect(mediator.removeInterception(own)) }
                    return .proceed
                })
        }
        mediator.addInterceptor(Probe("Stays", log))
        _ = mediator.perform(target: "Notes", action: "echo")
        _ = mediator.perform(target: "Notes", action: "echo")
        #expect(
            log.events == [
                "Once intercept Notes/echo", "Stays intercept Notes/echo", "Stays finish Notes/echo", "Once finish Notes/echo",
                "Stays intercept Notes/echo", "Stays finish Notes/echo",
            ])
    }

    @Test("An interceptor added while a call runs does not join that call")
    func addedDuringCall() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        let mediator = world.mediator
        let added = Counter()
        mediator.addInterceptor(
            Probe("Adder", log) { _ in
                if added.increment() == 1 { mediator.addInterceptor(Probe("Late", log)) }
                return .proceed
            })
        _ = mediator.perform(target: "Notes", action: "echo")
        #expect(!log.events.contains { $0.hasPrefix("Late") })
        _ = mediator.perform(target: "Notes", action: "echo")
        #expect(log.events.contains("Late intercept Notes/echo"))
    }

    @Test("callDidFinish and observers may call the mediator: those calls are intercepted and reported too")
    func reportsCallMediator() throws {
        let world = try InterceptionWorld()
        let mediator = world.mediator
        let depths = ReadWriteLock<[String]>([])
        struct Reporter: CallObserver {
            let mediator: Mediator
            let depths: ReadWriteLock<[String]>
            func callDidFinish(_ record: CallRecord) {
                depths.withLock { $0.append("\(record.name) \(record.request.depth)") }
                if record.name == "Notes/echo" { _ = mediator.perform(target: "Profile", action: "show") }
            }
        }
        mediator.addObserver(Reporter(mediator: mediator, depths: depths))
        _ = mediator.perform(target: "Notes", action: "echo")
        #expect(depths.withLock { $0 } == ["Notes/echo 1", "Profile/show 2"])
        #expect(world.ran("Profile/show") == 1)
    }

    @Test("Interceptors added on one mediator do not reach another")
    func perMediator() throws {
        let one = try InterceptionWorld()
        let other = try InterceptionWorld()
        let log = InterceptionLog()
        one.mediator.addInterceptor(Probe("P", log))
        other.mediator.addObserver(Watcher("W", log))
        _ = other.mediator.perform(target: "Notes", action: "echo")
        #expect(log.events == ["W observe Notes/echo"])
    }
}
