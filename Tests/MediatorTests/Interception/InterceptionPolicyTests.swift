import Mediator
import TestSupport
import Testing

// No interceptor, redirect or degradation makes a local-only action reachable by
// URL, or lets a URL reach a target outside the allow-list. Each case below is one way to try;
// every one must be refused as forbidden, the action must not run, and no interceptor may see the
// call at the forbidden destination (the policy comes first).

/// One attempt to reach `destination` by URL.
struct PolicyAttempt: Sendable, CustomStringConvertible {
    let description: String
    /// The URL the attacker sends.
    let url: String
    /// The `Target/action` that must not run.
    let destination: String
    /// Whether the URL policy allows only Notes and Web (the destination is then outside it).
    let allowList: Bool
    /// Sets up the table or interceptors of the attempt.
    let setup: @Sendable (Mediator, InterceptionLog) throws -> Void
    /// Whether ``Mediator/validate(url:)`` knows of the way (the table's; interceptors decide only when a call is made).
    let validateSees: Bool

    init(
        _ description: String, url: String, destination: String, allowList: Bool = false, validateSees: Bool = true,
        setup: @escaping @Sendable (Mediator, InterceptionLog) throws -> Void
    ) {
        self.description = description
        self.url = url
        self.destination = destination
        self.allowList = allowList
        self.validateSees = validateSees
        self.setup = setup
    }

    static func table(_ body: (inout RedirectTable) throws -> Void) rethrows -> RedirectTable {
        var table = RedirectTable()
        try body(&table)
        return table
    }

    /// An interceptor on `from` that redirects every call to `target`/`action`.
    static func mover(_ log: InterceptionLog, target: String, action: String) -> Probe {
        Probe("Mover", log) { _ in .redirect(target: target, action: action) }
    }

    static let all: [PolicyAttempt] = [
        // Local-only actions (declared so, or named native...).
        PolicyAttempt("a direct URL to a local-only action", url: "app://Profile/wipeAll", destination: "Profile/wipeAll") { _, _ in },
        PolicyAttempt("a direct URL by full names", url: "app://Target_Profile/Action_wipeAll", destination: "Profile/wipeAll") { _, _ in },
        PolicyAttempt(
            "a direct URL with an interceptor that changes the params", url: "app://Profile/wipeAll?confirm=no", destination: "Profile/wipeAll"
        ) { mediator, log in
            mediator.addInterceptor(
                Probe("Params", log) { request in
                    request.params["confirm"] = "yes"
                    return .proceed
                })
        },
        PolicyAttempt("a table pair redirect", url: "app://Notes/go", destination: "Profile/wipeAll") { mediator, _ in
            mediator.setRedirects(try table { try $0.redirect("Notes/go", to: "Profile/wipeAll") })
        },
        PolicyAttempt("a table pair redirect by full names", url: "app://Notes/go", destination: "Profile/wipeAll") { mediator, _ in
            mediator.setRedirects(try table { try $0.redirect("Target_Notes/Action_go", to: "Target_Profile/Action_wipeAll:") })
        },
        PolicyAttempt("a table pair redirect to a native action", url: "app://Notes/go", destination: "Profile/nativeWipe") { mediator, _ in
            mediator.setRedirects(try table { try $0.redirect("Notes/go", to: "Profile/nativeWipe") })
        },
        PolicyAttempt("a table target-wide redirect", url: "app://Legacy/wipeAll", destination: "Profile/wipeAll") { mediator, _ in
            mediator.setRedirects(try table { try $0.redirect("Legacy", to: "Profile") })
        },
        PolicyAttempt("a table target-wide redirect onto a local-only action of the same name", url: "app://Notes/wipeAll", destination: "Profile/wipeAll") {
            mediator, _ in
            mediator.setRedirects(try table { try $0.redirect("Notes", to: "Profile") })
        },
        PolicyAttempt("chained table redirects", url: "app://Notes/go", destination: "Profile/wipeAll") { mediator, _ in
            mediator.setRedirects(
                try table {
                    try $0.redirect("Notes/go", to: "Web/go")
                    try $0.redirect("Web", to: "Legacy")
                    try $0.redirect("Legacy/go", to: "Profile/wipeAll")
                })
        },
        PolicyAttempt("an interceptor's redirect", url: "app://Notes/echo", destination: "Profile/wipeAll", validateSees: false) { mediator, log in
            mediator.addInterceptor(mover(log, target: "Profile", action: "wipeAll"), scope: .target("Notes"))
        },
        PolicyAttempt("an interceptor's redirect by full names", url: "app://Notes/echo", destination: "Profile/nativeWipe", validateSees: false) {
            mediator, log in
            mediator.addInterceptor(mover(log, target: "Target_Profile", action: "Action_nativeWipe:"), scope: .target("Notes"))
        },
        PolicyAttempt("an interceptor's redirect into a table redirect", url: "app://Notes/echo", destination: "Profile/wipeAll", validateSees: false) {
            mediator, log in
            mediator.setRedirects(try table { try $0.redirect("Legacy/erase", to: "Profile/wipeAll") })
            mediator.addInterceptor(mover(log, target: "Legacy", action: "erase"), scope: .target("Notes"))
        },
        PolicyAttempt("a degradation to a local-only fallback", url: "app://Notes/fail", destination: "Profile/wipeAll", validateSees: false) {
            mediator, _ in
            mediator.setRedirects(try table { try $0.degrade("Notes", to: "Profile/wipeAll") })
        },
        PolicyAttempt("a degradation of a missing target to a native fallback", url: "app://Gone/x", destination: "Profile/nativeWipe") {
            mediator, _ in
            mediator.setRedirects(try table { try $0.degrade("Gone", to: "Profile/nativeWipe") })
        },
        PolicyAttempt("a degradation after a table redirect", url: "app://Legacy/fail", destination: "Profile/wipeAll", validateSees: false) {
            mediator, _ in
            mediator.setRedirects(
                try table {
                    try $0.redirect("Legacy", to: "Notes")
                    try $0.degrade("Notes", to: "Profile/wipeAll")
                })
        },

        // Targets outside the allow-list (Notes and Web only); Archive/echo is not local-only.
        PolicyAttempt("a direct URL outside the allow-list", url: "app://Archive/echo", destination: "Archive/echo", allowList: true) { _, _ in },
        PolicyAttempt("a table pair redirect out of the allow-list", url: "app://Notes/go", destination: "Archive/echo", allowList: true) { mediator, _ in
            mediator.setRedirects(try table { try $0.redirect("Notes/go", to: "Archive/echo") })
        },
        PolicyAttempt("a table target-wide redirect out of the allow-list", url: "app://Web/echo", destination: "Archive/echo", allowList: true) {
            mediator, _ in
            mediator.setRedirects(try table { try $0.redirect("Web", to: "Target_Archive") })
        },
        PolicyAttempt("chained redirects out of the allow-list", url: "app://Notes/echo", destination: "Archive/echo", allowList: true) { mediator, _ in
            mediator.setRedirects(
                try table {
                    try $0.redirect("Notes/echo", to: "Web/echo")
                    try $0.redirect("Web/echo", to: "Archive/echo")
                })
        },
        PolicyAttempt(
            "an interceptor's redirect out of the allow-list", url: "app://Notes/echo", destination: "Archive/echo", allowList: true, validateSees: false
        ) { mediator, log in
            mediator.addInterceptor(mover(log, target: "Target_Archive", action: "echo"), scope: .action("echo", of: "Notes"))
        },
        PolicyAttempt(
            "a degradation out of the allow-list", url: "app://Notes/fail", destination: "Archive/echo", allowList: true, validateSees: false
        ) { mediator, _ in
            mediator.setRedirects(try table { try $0.degrade("Notes", to: "Archive/echo") })
        },
    ]
}

/// A synchronous `open`, from an async test (where `open` means the async form).
func syncOpen(_ mediator: Mediator, _ url: String) -> (any Sendable)? {
    mediator.open(url)
}

@Suite("URL policy comes first: interceptors, redirects and degradations", hangLimit)
struct InterceptionPolicyTests {
    /// The world of `attempt`, with a global interceptor and an observer logging what they see.
    func world(for attempt: PolicyAttempt) throws -> (InterceptionWorld, InterceptionLog) {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        if attempt.allowList { world.mediator.urlPolicy = URLPolicy(allowedTargets: ["Notes", "Web"]) }
        world.mediator.addInterceptor(Probe("Watch", log))
        try attempt.setup(world.mediator, log)
        return (world, log)
    }

    @Test("Every way to reach a local-only action or a target outside the allow-list by URL is refused", arguments: PolicyAttempt.all)
    func refused(_ attempt: PolicyAttempt) async throws {
        let (world, log) = try world(for: attempt)
        let mediator = world.mediator
        let error = try #require(mediatorError { try mediator.callNow(url: attempt.url) }, "\(attempt)")
        #expect(error.code == .forbidden, "\(attempt): \(error)")
        let asyncError = await awaitedMediatorError { () async throws(MediatorError) in try await mediator.call(url: attempt.url) }
        #expect(asyncError?.code == .forbidden, "\(attempt)")
        #expect(syncOpen(mediator, attempt.url) == nil)
        #expect((try? await mediator.call(url: attempt.url)) == nil)
        // Refused by the mediator's URL rules, the completion is not called, wherever on the way
        // the refusal came (even after the URL's own action ran and failed, then degraded).
        let told = ReadWriteLock<[String]>([])
        mediator.open(attempt.url) { outcome in
            told.withLock { $0.append((outcome["error"] as? MediatorError)?.code.rawValue ?? "none") }
        }
        #expect(told.withLock { $0 } == [], "\(attempt)")
        #expect(world.ran(attempt.destination) == 0, "\(attempt)")
        #expect(!log.requests.contains { $0.name == attempt.destination }, "\(attempt): an interceptor saw the refused call")
    }

    @Test("The same ways, in process, do reach the destination (so the refusals above are the policy's)", arguments: PolicyAttempt.all)
    func inProcessReaches(_ attempt: PolicyAttempt) throws {
        let (world, _) = try world(for: attempt)
        let path = attempt.url.dropFirst("app://".count).split(separator: "?")[0].split(separator: "/")
        _ = world.mediator.perform(target: String(path[0]), action: String(path[1]))
        #expect(world.ran(attempt.destination) == 1, "\(attempt)")
    }

    @Test("validate(url:) refuses what the redirect table would send to a forbidden destination", arguments: PolicyAttempt.all.filter(\.validateSees))
    func validateRefuses(_ attempt: PolicyAttempt) throws {
        let (world, _) = try world(for: attempt)
        let error = try #require(mediatorError { () throws(MediatorError) in try world.mediator.validate(url: attempt.url) })
        #expect(error.code == .forbidden, "\(attempt): \(error)")
        #expect(world.totalRuns == 0)
    }

    @Test("A refused redirect names the destination and the way it came")
    func refusalText() throws {
        let world = try InterceptionWorld()
        world.mediator.urlPolicy = URLPolicy(allowedTargets: ["Notes"])
        var table = RedirectTable()
        try table.redirect("Notes/go", to: "Archive/echo")
        world.mediator.setRedirects(table)
        let error = try #require(mediatorError { try world.mediator.callNow(url: "app://Notes/go") })
        #expect(
            error.description
                == #"Archive/echo: a remote call (a URL's or an agent's) was redirected here and refused: target "Archive" is not open to URL calls (allowed: Notes) (redirected from Notes/go)"#
        )
        #expect(error.redirectedFrom == ["Notes/go"])
    }

    @Test("A redirect refused for a native action says why")
    func nativeRefusalText() throws {
        let world = try InterceptionWorld()
        var table = RedirectTable()
        try table.redirect("Notes/go", to: "Profile/nativeWipe")
        world.mediator.setRedirects(table)
        let error = try #require(mediatorError { try world.mediator.callNow(url: "app://Notes/go") })
        #expect(
            error.description
                == #"Profile/nativeWipe: a remote call (a URL's or an agent's) was redirected here and refused: actions whose name begins with "native" cannot be called by URL (redirected from Notes/go)"#
        )
    }

    @Test("Observers are told of a refused URL call; interceptors are not")
    func observersSeeRefusals() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("P", log))
        world.mediator.addObserver(Watcher("W", log))
        _ = world.mediator.open("app://Profile/wipeAll")
        #expect(log.events == ["W observe Profile/wipeAll"])
        #expect(log.records.first?.error?.code == .forbidden)
    }

    @Test("A URL redirected to an allowed, URL-reachable action runs it")
    func allowedRedirect() throws {
        let world = try InterceptionWorld()
        world.mediator.urlPolicy = URLPolicy(allowedTargets: ["Notes", "Web"])
        var table = RedirectTable()
        try table.redirect("Notes/go", to: "Web/open")
        world.mediator.setRedirects(table)
        let result = try world.mediator.callNow(url: "app://Notes/go?x=1") as? [String: any Sendable]
        #expect(result?["x"] as? String == "1")
        try world.mediator.validate(url: "app://Notes/go?x=1")
    }

    @Test("A command-line call may reach a local-only action through a redirect (its user is the program's)")
    func inProcessLocalOnly() throws {
        let world = try InterceptionWorld()
        var table = RedirectTable()
        try table.redirect("Notes/go", to: "Profile/wipeAll")
        world.mediator.setRedirects(table)
        #expect(try world.mediator.callNow(target: "Notes", action: "go") as? String == "wiped")
        try world.mediator.validate(target: "Notes", action: "go", params: [:])
    }
}

@Suite("Observers hear of refused URLs; handles keep their resolution under interception")
struct InterceptionPolicyEdgeTests {
    @Test("Observers are told of URL calls the URL rules refuse as the URL is read (CallObserver's documentation)")
    func observersSeeParseRefusals() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addObserver(Watcher("W", log))
        world.mediator.urlPolicy = URLPolicy(allowedTargets: ["Notes", "Profile"])
        for url in ["app://Profile/nativeWipe", "app://Archive/echo"] {
            #expect(mediatorError { try world.mediator.callNow(url: url) }?.code == .forbidden)
        }
        // Refused as the URL is read, before dispatch: observers are told all the same.
        #expect(log.records.map(\.name) == ["Profile/nativeWipe", "Archive/echo"])
        #expect(log.records.allSatisfy { $0.request.origin.isRemote && $0.error?.code == .forbidden })
    }

    @Test("A handle keeps answering after its target is unregistered, with interception as without (ActionHandle's documentation)")
    func handleAfterUnregister() throws {
        let world = try InterceptionWorld()
        let handle = try world.mediator.handle(target: "Web", action: "open")
        _ = world.mediator.unregister(target: "Web")
        #expect(try handle.callNow(["a": 1]) != nil)
        world.mediator.addObserver(Watcher("W", InterceptionLog()))
        // With interception, the handle's calls start from its own resolution, not from its names.
        #expect(try handle.callNow(["a": 1]) != nil)
    }
}
