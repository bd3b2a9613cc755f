import Foundation
import Mediator
import TestSupport
import Testing

// The fast paths of interception (the first stop of an intercepted call runs inline; interceptors are told of
// the end only when they are also observers; handles read an atomic flag).

/// An interceptor that is not an observer: logs what it sees, decides with a closure.
struct Pass: Interceptor {
    let name: String
    let log: InterceptionLog
    let decide: @Sendable (inout CallRequest) throws -> InterceptorDecision

    init(_ name: String, _ log: InterceptionLog, decide: @escaping @Sendable (inout CallRequest) throws -> InterceptorDecision = { _ in .proceed }) {
        self.name = name
        self.log = log
        self.decide = decide
    }

    func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
        log.note("\(name) intercept \(request.name)")
        log.saw(request)
        return try decide(&request)
    }
}

func performOrNil(_ mediator: Mediator, _ target: String, _ action: String) -> (any Sendable)? { mediator.perform(target: target, action: action) }
func openOrNil(_ mediator: Mediator, _ url: String) -> (any Sendable)? { mediator.open(url) }

/// The parts of an error that a caller can see.
func shape(_ error: MediatorError?) -> String {
    guard let error else { return "no error" }
    return "\(error.code) \(error.target ?? "-") \(error.action ?? "-") \(error.redirectedFrom) \(error.description)"
}

@Suite("Interception: the inline first stop, observers, handles")
struct InterceptionFastPathTests {
    // MARK: - Redirects on the first stop and later ones

    @Test("First-stop interceptor redirect: each observing interceptor told once, reverse order, observers after")
    func firstStopRedirect() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(
            Probe("A", log) { request in request.target == "Notes" ? .redirect(target: "Web", action: "open") : .proceed })
        world.mediator.addInterceptor(Probe("B", log))
        world.mediator.addObserver(Watcher("W", log))
        _ = try world.mediator.callNow(target: "Notes", action: "echo", params: ["a": 1])
        #expect(
            log.events == [
                "A intercept Notes/echo", "A intercept Web/open", "B intercept Web/open", "B finish Web/open", "A finish Web/open", "W observe Web/open",
            ])
        #expect(log.records.map(\.redirectedFrom) == [["Notes/echo"], ["Notes/echo"], ["Notes/echo"]])
        #expect(log.records.map(\.request.name) == ["Notes/echo", "Notes/echo", "Notes/echo"])
    }

    @Test("Second-stop interceptor redirect (after a table redirect)")
    func laterStopRedirect() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        var table = RedirectTable()
        try table.redirect("Legacy/go", to: "Notes/echo")
        world.mediator.setRedirects(table)
        world.mediator.addInterceptor(
            Probe("A", log) { request in request.target == "Notes" ? .redirect(target: "Web", action: "open") : .proceed })
        world.mediator.addInterceptor(Probe("B", log))
        world.mediator.addObserver(Watcher("W", log))
        _ = try world.mediator.callNow(target: "Legacy", action: "go")
        #expect(
            log.events == [
                "A intercept Notes/echo", "A intercept Web/open", "B intercept Web/open", "B finish Web/open", "A finish Web/open", "W observe Web/open",
            ])
        #expect(log.records.first?.redirectedFrom == ["Legacy/go", "Notes/echo"])
    }

    @Test("A redirect to nowhere, without observers: redirectedFrom in the error")
    func redirectErrorWithoutObservers() throws {
        for observing in [false, true] {
            let world = try InterceptionWorld()
            let log = InterceptionLog()
            if observing {
                world.mediator.addInterceptor(Probe("A", log) { request in request.target == "Notes" ? .redirect(target: "Gone", action: "x") : .proceed })
            } else {
                world.mediator.addInterceptor(Pass("A", log) { request in request.target == "Notes" ? .redirect(target: "Gone", action: "x") : .proceed })
            }
            let error = mediatorError { try world.mediator.callNow(target: "Notes", action: "echo") }
            #expect(error?.code == .targetNotFound)
            #expect(error?.redirectedFrom == ["Notes/echo"], "observing: \(observing)")
            #expect(error?.target == "Gone")
        }
    }

    // MARK: - Throwing, degradation, async

    @Test("A throwing first interceptor, with and without observers, errors the same")
    func throwingFirst() throws {
        var shapes: [String] = []
        for setup in 0..<3 {
            let world = try InterceptionWorld()
            let log = InterceptionLog()
            switch setup {
            case 0: world.mediator.addInterceptor(Pass("T", log) { _ in throw FixtureError(message: "no") })
            case 1:
                world.mediator.addInterceptor(Pass("T", log) { _ in throw FixtureError(message: "no") })
                world.mediator.addObserver(Watcher("W", log))
            default: world.mediator.addInterceptor(Probe("T", log) { _ in throw FixtureError(message: "no") })
            }
            let error = mediatorError { try world.mediator.callNow(target: "Target_Notes", action: "Action_echo:") }
            shapes.append(shape(error))
            if setup == 1 { #expect(log.records.count == 1 && log.records.first?.error?.code == .rejected) }
            if setup == 2 { #expect(log.events == ["T intercept Notes/echo", "T finish Notes/echo"]) }
            #expect(world.ran("Notes/echo") == 0)
        }
        #expect(Set(shapes).count == 1, "\(shapes)")
    }

    @Test("Degradation with a non-observing interceptor and no observers, and with observers")
    func degradation() throws {
        for observing in [false, true] {
            let world = try InterceptionWorld()
            let log = InterceptionLog()
            var table = RedirectTable()
            try table.degrade("Notes", to: "Web/open")
            world.mediator.setRedirects(table)
            world.mediator.addInterceptor(Pass("P", log))
            if observing { world.mediator.addObserver(Watcher("W", log)) }
            let value = try world.mediator.callNow(target: "Notes", action: "fail")
            #expect(value != nil)
            #expect(world.ran("Notes/fail") == 1)
            #expect(world.ran("Web/open") == 1)
            #expect(log.events.filter { $0.hasPrefix("P") } == ["P intercept Notes/fail", "P intercept Web/open"])
            if observing {
                #expect(log.records.map(\.name) == ["Web/open"])
                #expect(log.records.first?.redirectedFrom == ["Notes/fail"])
            }
            // A missing action also degrades.
            #expect(try world.mediator.callNow(target: "Notes", action: "nope") != nil)
        }
    }

    @Test("Perform of an async action reports asyncAction to observers; await runs the end")
    func asyncOutcome() async throws {
        for setup in 0..<3 {
            let world = try InterceptionWorld()
            let log = InterceptionLog()
            switch setup {
            case 0: world.mediator.addInterceptor(Pass("P", log))
            case 1:
                world.mediator.addInterceptor(Pass("P", log))
                world.mediator.addObserver(Watcher("W", log))
            default: world.mediator.addInterceptor(Probe("P", log))
            }
            let syncError = mediatorError { () throws(MediatorError) in try world.mediator.callNow(target: "Notes", action: "slow") }
            #expect(syncError?.code == .asyncAction)
            #expect(performOrNil(world.mediator, "Notes", "slow") == nil)
            if setup > 0 {
                #expect(log.records.map { $0.error?.code } == [.asyncAction, .asyncAction], "setup \(setup)")
            }
            let value = try await world.mediator.call(target: "Notes", action: "slow")
            #expect(value as? String == "slow")
            if setup > 0 {
                #expect(log.records.count == 3)
                #expect(log.records.last?.succeeded == true)
            }
        }
    }

    // MARK: - URLs

    @Test("URL call to a local-only action: refused before any interceptor, reported to observers")
    func urlLocalOnly() async throws {
        for setup in 0..<3 {
            let world = try InterceptionWorld()
            let log = InterceptionLog()
            switch setup {
            case 0: world.mediator.addInterceptor(Pass("P", log))
            case 1:
                world.mediator.addInterceptor(Pass("P", log))
                world.mediator.addObserver(Watcher("W", log))
            default: world.mediator.addInterceptor(Probe("P", log))
            }
            let error = mediatorError { () throws(MediatorError) in try world.mediator.callNow(url: "app://Notes/wipeAll") }
            #expect(error?.code == .forbidden)
            #expect(openOrNil(world.mediator, "app://Notes/wipeAll") == nil)
            let asyncError = await awaitedMediatorError { () async throws(MediatorError) in try await world.mediator.call(url: "app://Notes/wipeAll") }
            #expect(asyncError?.code == .forbidden)
            #expect(world.ran("Notes/wipeAll") == 0)
            #expect(log.events.filter { $0.contains("intercept") }.isEmpty, "setup \(setup): \(log.events)")
            if setup == 1 { #expect(log.records.count == 3 && log.records.allSatisfy { $0.error?.code == .forbidden }) }
            if setup == 2 { #expect(log.records.isEmpty) }
        }
    }

    @Test("URL error without interceptors equals the error with them")
    func urlLocalOnlySameError() throws {
        let plain = try InterceptionWorld()
        let expected = shape(mediatorError { () throws(MediatorError) in try plain.mediator.callNow(url: "app://Notes/wipeAll") })
        let world = try InterceptionWorld()
        world.mediator.addInterceptor(Pass("P", InterceptionLog()))
        #expect(shape(mediatorError { () throws(MediatorError) in try world.mediator.callNow(url: "app://Notes/wipeAll") }) == expected)
    }

    // MARK: - Typed keys

    @Test("A typed key through a non-observing interceptor that adds the token")
    func typedKey() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(
            Pass("P", log) { request in
                request.params["token"] = "t"
                return .proceed
            })
        let error = mediatorError { () throws(MediatorError) in
            try world.mediator.callNow(ActionKey<EchoTitle, Int>(target: "Nope", action: "echo"), EchoTitle(title: "x"))
        }
        #expect(error?.code == .targetNotFound)
        #expect(log.requests.first?.params["title"] as? String == "x")
    }

    @Test(
        "A typed key's call is recorded with its input as plain params, as asked, whatever an interceptor changed",
        arguments: [false, true])
    func typedKeyRecord(degrades: Bool) throws {
        let world = try InterceptionWorld()
        if degrades {
            // A degradation anywhere takes the call past its first stop, to the rest of the pipeline.
            var table = RedirectTable()
            try table.degrade("Archive", to: "Web/open")
            world.mediator.setRedirects(table)
        }
        let log = observedWithParam(world.mediator, setting: "title", to: "changed")
        let answer = try world.mediator.callNow(ActionKey<EchoTitle, String>(target: "Notes", action: "create"), EchoTitle(title: "asked"))
        #expect(answer == "changed")
        #expect(log.requests.map { $0.params["title"] as? String } == ["asked"])
        #expect(log.records.map { $0.request.params["title"] as? String } == ["asked", "asked"])
        #expect(log.records.map(\.request.params.count) == [1, 1])
    }

    // MARK: - Names

    @Test(
        "Invalid names (-bad, Target_Target_X, over 256 bytes, non-ASCII, empty) fail the same with a non-observing interceptor, an observer, or nothing"
    )
    func invalidNames() throws {
        let long = String(repeating: "a", count: 300)
        let pairs: [(String, String)] = [
            ("-bad", "echo"), ("Target_Target_Notes", "echo"), ("Notes", "Action_Action_echo"), ("Notes", long), (long, "echo"), ("Notes", "-x"),
            ("Notes", ""), ("", "echo"), ("N\u{00F6}tes", "echo"), ("Notes", "nope"), ("Nope", "x"),
        ]
        for (target, action) in pairs {
            var shapes: [String] = []
            for setup in 0..<3 {
                let world = try InterceptionWorld()
                let log = InterceptionLog()
                if setup == 1 { world.mediator.addInterceptor(Pass("P", log)) }
                if setup == 2 { world.mediator.addObserver(Watcher("W", log)) }
                shapes.append(shape(mediatorError { try world.mediator.callNow(target: target, action: action) }))
                #expect(world.mediator.perform(target: target, action: action) == nil)
            }
            #expect(Set(shapes).count == 1, "\(target.prefix(20))/\(action.prefix(20)): \(shapes)")
        }
    }

    @Test("Action_create: style names meet scoped interceptors and run")
    func selectorNames() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Pass("S", log), scope: .action("create", of: "Notes"))
        #expect(try world.mediator.callNow(target: "Target_Notes", action: "Action_create:", params: ["title": "t"]) as? String == "t")
        #expect(try world.mediator.callNow(target: "Notes", action: "Action_create", params: ["title": "u"]) as? String == "u")
        #expect(log.events == ["S intercept Notes/create", "S intercept Notes/create"])
        #expect(log.requests.map(\.askedAction) == ["Action_create:", "Action_create"])
    }

    // MARK: - Replacing the request

    @Test("An interceptor that puts another saved request in place cannot rename the call")
    func replacedRequest() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        let saved = ReadWriteLock<CallRequest?>(nil)
        world.mediator.addInterceptor(
            Pass("R", log) { request in
                if request.target == "Web" {
                    saved.withLock { $0 = request }
                } else if let other = saved.withLock({ $0 }) {
                    request = other
                }
                return .proceed
            })
        world.mediator.addObserver(Watcher("W", log))
        _ = try world.mediator.callNow(target: "Web", action: "open", params: ["w": 1])
        let value = try world.mediator.callNow(target: "Notes", action: "echo", params: ["n": 1])
        #expect(world.ran("Notes/echo") == 1)
        #expect(world.ran("Web/open") == 1)
        #expect(log.records.map(\.name) == ["Web/open", "Notes/echo"])
        #expect(log.records.last?.request.name == "Notes/echo")
        _ = value
    }

    // MARK: - Records with a non-observing interceptor

    @Test("An observer records a call through a non-observing interceptor, plain, redirected and degraded")
    func trace() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Pass("P", log) { request in request.target == "Archive" ? .redirect(target: "Web", action: "open") : .proceed })
        var table = RedirectTable()
        try table.degrade("Notes", to: "Web/open")
        let plain = world.mediator.tracedCallNow(target: "Notes", action: "echo")
        #expect(plain.succeeded && plain.name == "Notes/echo" && plain.redirectedFrom == [])
        let moved = world.mediator.tracedCallNow(target: "Archive", action: "echo")
        #expect(moved.succeeded && moved.name == "Web/open" && moved.redirectedFrom == ["Archive/echo"])
        world.mediator.setRedirects(table)
        let degraded = world.mediator.tracedCallNow(target: "Notes", action: "fail")
        #expect(degraded.succeeded && degraded.name == "Web/open" && degraded.redirectedFrom == ["Notes/fail"])
        let none = Mediator()
        try none.register(target: "A", actions: [Action("b") { _, _ in 1 }])
        #expect(none.tracedCallNow(target: "A", action: "b").succeeded)
        #expect(none.tracedCallNow(target: "A", action: "c").error?.code == .actionNotFound)
    }

    // MARK: - Handles and the flag

    @Test("Handles meet interceptors, observers and redirects added later; go back to direct when all removed")
    func handles() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        let handle = try world.mediator.handle(target: "Notes", action: "echo")
        _ = try handle.callNow([:])
        let id = world.mediator.addInterceptor(Pass("P", log) { _ in .answer("intercepted") })
        #expect(try handle.callNow([:]) as? String == "intercepted")
        #expect(world.mediator.removeInterception(id))
        _ = try handle.callNow([:])
        #expect(world.ran("Notes/echo") == 2)
        let observer = world.mediator.addObserver(Watcher("W", log))
        _ = try handle.callNow([:])
        #expect(log.records.count == 1)
        world.mediator.removeInterception(observer)
        var table = RedirectTable()
        try table.redirect("Notes/echo", to: "Web/open")
        world.mediator.setRedirects(table)
        _ = try handle.callNow([:])
        #expect(world.ran("Web/open") == 1)
        world.mediator.setRedirects(RedirectTable())
        _ = try handle.callNow([:])
        #expect(world.ran("Notes/echo") == 4)
        #expect(log.records.count == 1)
    }

    @Test("A long-lived handle on other threads meets every interceptor added before it is called and none removed before")
    func handleFlagPingPong() throws {
        let world = try InterceptionWorld()
        let mediator = world.mediator
        let handle = try mediator.handle(target: "Notes", action: "echo")
        let toWorker = DispatchSemaphore(value: 0)
        let toMain = DispatchSemaphore(value: 0)
        let wrong = ReadWriteLock<[String]>([])
        let expectIntercepted = ReadWriteLock<Bool>(false)
        let rounds = 2_000
        let worker = Thread {
            for round in 0..<rounds * 2 {
                toWorker.wait()
                let value = try? handle.callNow([:])
                let intercepted = value as? String == "I"
                if intercepted != expectIntercepted.withLock({ $0 }) { wrong.withLock { $0.append("round \(round): \(String(describing: value))") } }
                toMain.signal()
            }
        }
        worker.start()
        let noisy = Thread {
            for _ in 0..<rounds { _ = try? handle.callNow(["n": 1]) }
        }
        noisy.start()
        for _ in 0..<rounds {
            let id = mediator.addInterceptor(Pass("I", InterceptionLog()) { _ in .answer("I") })
            expectIntercepted.withLock { $0 = true }
            toWorker.signal()
            toMain.wait()
            mediator.removeInterception(id)
            expectIntercepted.withLock { $0 = false }
            toWorker.signal()
            toMain.wait()
        }
        #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0 }.prefix(5))")
        #expect(try handle.callNow([:]) as? String != "I")
    }

    // MARK: - Names in errors and fallbacks with an observer

    @Test("An observer changes the names a not-found error shows (Target_Nope/Action_x: becomes Nope/x)")
    func observerChangesErrorNames() throws {
        for (target, action) in [("Target_Nope", "Action_x:"), ("Notes", "Action_nope:")] {
            let plain = try InterceptionWorld()
            let expected = shape(mediatorError { try plain.mediator.callNow(target: target, action: action) })
            let observed = try InterceptionWorld()
            observed.mediator.addObserver(Watcher("W", InterceptionLog()))
            #expect(shape(mediatorError { try observed.mediator.callNow(target: target, action: action) }) == expected)
        }
    }

    @Test("With an observer, a target's notFound and the global fallback get canonical names, not the names as the caller wrote them")
    func observerChangesFallbackNames() throws {
        for observing in [false, true] {
            let mediator = Mediator()
            let seen = ReadWriteLock<[String]>([])
            try mediator.register(
                target: "Lost", make: { _ in InterceptionLostBox() }, actions: [Action<InterceptionLostBox>("here") { _, _ in "here" }],
                notFound: { _, action, _ in
                    seen.withLock { $0.append("notFound \(action)") }
                    return "nf"
                })
            mediator.setFallback { target, action, _ in
                seen.withLock { $0.append("fallback \(target)/\(action)") }
                return "fb"
            }
            if observing { mediator.addObserver(Watcher("W", InterceptionLog())) }
            #expect(mediator.perform(target: "Lost", action: "Action_gone:") as? String == "nf")
            #expect(mediator.perform(target: "Target_Ghost", action: "Action_boo") as? String == "fb")
            // NamesAndFallbacks.md: notFound gets "the action name as the caller wrote it", the
            // fallback "the target and action as the caller wrote them".
            #expect(seen.withLock { $0 } == ["notFound Action_gone:", "fallback Target_Ghost/Action_boo"], "observing: \(observing)")
        }
    }
}

final class InterceptionLostBox: Sendable {}
