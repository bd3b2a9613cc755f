import TestSupport
import Testing

@testable import Mediator

// The differential suite DESIGN.md asks for: every situation sent through every entry point, which
// must give the documented outcome and side effects, and agree with each other where the docs say
// they should. Each expectation is written from the docs (doc comments, DocC, README).

// MARK: - What a call gave, and what it ran

/// A call's outcome, normalized across entry points.
private enum Seen: Hashable, Sendable, CustomStringConvertible {
    case answer(String)
    /// `nil`: what the `nil`-returning forms give for a failure.
    case noValue
    /// A `MediatorError`; `nil` names in an expectation: the docs do not fix them.
    case failure(MediatorError.Code, String?, String?)
    /// A completion that was never called.
    case notCalled
    /// A dry run that found nothing wrong.
    case ok

    init(_ value: (any Sendable)?) {
        switch value {
        case nil: self = .noValue
        case let text as String: self = .answer(text)
        case let other?: self = .answer(String(describing: other))
        }
    }

    init(error: MediatorError) { self = .failure(error.code, error.target, error.action) }

    init(result: Result<(any Sendable)?, MediatorError>) {
        switch result {
        case .success(let value): self.init(value)
        case .failure(let error): self.init(error: error)
        }
    }

    /// What `open(_:completion:)` handed its completion.
    init(completion outcome: [String: any Sendable]) {
        if let error = outcome["error"] {
            self = (error as? MediatorError).map { Seen(error: $0) } ?? .answer("a non-MediatorError \(error)")
        } else {
            self.init(outcome["result"])
        }
    }

    static func yes(_ flag: Bool) -> Seen { .answer(flag ? "yes" : "no") }

    /// Whether this outcome is `expected` (a `nil` name there matches any).
    func fits(_ expected: Seen) -> Bool {
        guard case .failure(let code, let target, let action) = expected, case .failure(let gotCode, let gotTarget, let gotAction) = self else {
            return self == expected
        }
        return code == gotCode && (target == nil || target == gotTarget) && (action == nil || action == gotAction)
    }

    /// A `Void` dry run that did not throw.
    var orOK: Seen { self == .noValue ? .ok : self }

    var hasOpenNames: Bool {
        if case .failure(_, let target, let action) = self { return target == nil || action == nil }
        return false
    }

    var description: String {
        switch self {
        case .answer(let text): "answer \"\(text)\""
        case .noValue: "nil"
        case .failure(let code, let target, let action): "\(code) \(target ?? "?")/\(action ?? "?")"
        case .notCalled: "completion not called"
        case .ok: "ok"
        }
    }
}

/// How many times each piece of user code ran.
private struct Effects: Hashable, Sendable, CustomStringConvertible {
    var body = 0
    /// `nil` in an expectation: the docs do not say whether an instance is made.
    var factory: Int? = 0
    var notFound = 0
    var fallback = 0
    var observed = 0

    static let nothing = Effects()

    func fits(_ expected: Effects) -> Bool {
        var expected = expected
        if expected.factory == nil { expected.factory = factory }
        return self == expected
    }

    var description: String {
        "body \(body), factory \(factory.map(String.init) ?? "?"), notFound \(notFound), fallback \(fallback), observer \(observed)"
    }
}

// MARK: - The world each call runs in: a fresh mediator and counters

private final class Instance: Sendable {}
private struct Kaboom: Error {}

private struct Bounded: Codable, Sendable, DeclaresParameters {
    var n: Int
    static let parameters: [Parameter] = [.required("n", .integer(minimum: 1, maximum: 10))]
}

private struct ObserverCount: CallObserver {
    let seen: Counter
    func callDidFinish(_ record: CallRecord) { seen.increment() }
}

private struct Refuse: Interceptor {
    func intercept(_ request: inout CallRequest) throws -> InterceptorDecision { throw Kaboom() }
}

private struct Rewrite: Interceptor {
    func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
        request.params["x"] = "rewritten"
        return .proceed
    }
}

private struct Bounce: Interceptor {
    let target: String
    let action: String
    func intercept(_ request: inout CallRequest) throws -> InterceptorDecision { .redirect(target: target, action: action) }
}

/// A main-actor target (its factory and actions run on the main actor).
private final class Target_Stage: MainActorTarget {
    nonisolated static var targetName: String { "Stage" }
    static let actions: [Action<Target_Stage>] = [Action("title") { stage, _ in stage.title() }]
    let runs: Counter
    init(runs: Counter) { self.runs = runs }
    func title() -> String {
        runs.increment()
        return "stage"
    }
}

private final class World: Sendable {
    let mediator: Mediator
    let body = Counter()
    let factory = Counter()
    let notFound = Counter()
    let fallback = Counter()
    let observed = Counter()

    init(maximumCallDepth: Int = Mediator.defaultMaximumCallDepth) {
        mediator = Mediator(maximumCallDepth: maximumCallDepth)
    }

    /// The registry every situation starts from, then the situation's own setup.
    convenience init(_ situation: Situation, observed: Bool) throws {
        self.init()
        let (body, factory, notFound) = (body, factory, notFound)
        let make: @Sendable (Mediator) throws -> Instance = { _ in
            factory.increment()
            return Instance()
        }
        try mediator.register(
            target: "Svc", make: make,
            actions: [
                act("echo", body) { "echo:\(try $0.valueIfPresent("x", as: String.self) ?? "-")" },
                Action("slow") { (_: Instance, _: Params) async throws -> (any Sendable)? in
                    body.increment()
                    return "slow"
                },
                act("fail", body) { _ in throw Kaboom() },
                act("sized", body, params: [.required("n", .integer(minimum: 1, maximum: 10))]) {
                    // The keys it was given, the mediator's own `@` keys left out.
                    let keys = $0.values.keys.filter { !$0.hasPrefix("@") }.sorted().joined(separator: ",")
                    return "sized:\(try $0.value("n", as: Int.self)) keys:\(keys)"
                },
                act("secret", body, localOnly: true) { _ in "secret" },
                Action(ActionKey<Bounded, String>(target: "Svc", action: "bounded")) { (_: Instance, input: Bounded) throws -> String in
                    body.increment()
                    return "bounded:\(input.n)"
                },
            ])
        try mediator.register(
            target: "Helper", make: make, actions: [act("ping", body) { _ in "pong" }],
            notFound: { (_: Instance, action: String, _: Params) throws -> (any Sendable)? in
                notFound.increment()
                return "nf:\(action)"
            })
        try mediator.register(
            target: "Web",
            actions: [act("open", body) { "web:\(try $0.value("target", as: String.self))/\(try $0.value("action", as: String.self))" }])
        try situation.setup(self)
        if observed { mediator.addObserver(ObserverCount(seen: self.observed)) }
    }

    var effects: Effects {
        Effects(body: body.value, factory: factory.value, notFound: notFound.value, fallback: fallback.value, observed: observed.value)
    }

    func redirect(_ edit: (inout RedirectTable) throws -> Void) throws {
        var table = RedirectTable()
        try edit(&table)
        mediator.setRedirects(table)
    }
}

/// A synchronous action that counts its runs and answers text.
private func act<Target: AnyObject & Sendable>(
    _ name: String, _ runs: Counter, params: [Parameter]? = nil, localOnly: Bool = false, _ answer: @escaping @Sendable (Params) throws -> String
) -> Action<Target> {
    Action(name, params: params, localOnly: localOnly) { (_: Target, params: Params) throws -> (any Sendable)? in
        runs.increment()
        return try answer(params)
    }
}

private func seen(_ body: () throws -> (any Sendable)?) -> Seen {
    do { return Seen(try body()) } catch let error as MediatorError { return Seen(error: error) } catch { return .answer("a non-MediatorError \(error)") }
}

private func seenAwaiting(_ body: () async throws -> (any Sendable)?) async -> Seen {
    do { return Seen(try await body()) } catch let error as MediatorError { return Seen(error: error) } catch { return .answer("a non-MediatorError \(error)") }
}

// MARK: - Situations

private enum HandleRule: Sendable {
    /// A handle resolves the action and gives what `call` gives.
    case same
    /// Resolving the handle throws this (handles skip fallbacks); nothing runs.
    case refused(Seen)
    /// The docs do not say what a handle does here.
    case unspecified
}

private struct Situation: Sendable, CustomTestStringConvertible {
    var name: String
    var target: String
    var action: String
    var fields: [String: String] = [:]
    /// `Target/action?query` after `app://`; `nil` when the situation has no URL form.
    var url: String?
    /// Whether the call must await (sync entry points then give `asyncAction` and run nothing).
    var awaits = false
    /// A typed call's input for the keyed action `Svc/bounded`, instead of the fields.
    var bounded: Int?
    var setup: @Sendable (World) throws -> Void = { _ in }
    /// What an in-process `call` gives, and what it runs.
    var local: Seen
    var runs: Effects
    var handle = HandleRule.same
    /// What a URL call gives and runs, where it differs from an in-process one.
    var remote: Seen?
    var remoteRuns: Effects?
    /// What an agent's call (the Model Context Protocol bridge's: remote, by name, typed params)
    /// gives and runs, where it differs from a URL call.
    var agent: Seen?
    var agentRuns: Effects?
    /// Dry runs: `validate(target:action:params:)`, `validate(url:)` (default: the same),
    /// `canOpen`, `canPerform(target:action:)` (whether the call reaches a registered action,
    /// redirects and a degradation followed) and `destination`'s answer (default: stays).
    var check = Seen.ok
    var checkURL: Seen?
    var opens = true
    var reaches = true
    var lands: Seen?

    var testDescription: String { name }
    var params: Params { Params(fields.mapValues { $0 as any Sendable }) }
    var link: String { "app://\(url ?? "")" }
    /// The same URL through the route `/via/route`, which leads to the same action.
    var routedLink: String {
        guard let url, let query = url.firstIndex(of: "?") else { return "app://via/route" }
        return "app://via/route" + url[query...]
    }
}

private func missing(_ code: MediatorError.Code, _ target: String, _ action: String) -> Seen { .failure(code, target, action) }

private let situations: [Situation] = [
    Situation(
        name: "success, sync", target: "Svc", action: "echo", fields: ["x": "1"], url: "Svc/echo?x=1", local: .answer("echo:1"),
        runs: Effects(body: 1, factory: 1)),
    Situation(
        name: "success, async action", target: "Svc", action: "slow", url: "Svc/slow", awaits: true, local: .answer("slow"), runs: Effects(body: 1, factory: 1)),
    Situation(
        name: "the action throws", target: "Svc", action: "fail", url: "Svc/fail", local: .failure(.actionFailed, "Svc", "fail"),
        runs: Effects(body: 1, factory: 1)),
    Situation(
        name: "target missing", target: "Nope", action: "x", url: "Nope/x", local: missing(.targetNotFound, "Nope", "x"), runs: .nothing,
        handle: .refused(missing(.targetNotFound, "Nope", "x")), check: missing(.targetNotFound, "Nope", "x"), opens: false, reaches: false),
    Situation(
        name: "action missing, no notFound", target: "Svc", action: "nope", url: "Svc/nope", local: missing(.actionNotFound, "Svc", "nope"),
        runs: Effects(factory: nil), handle: .refused(missing(.actionNotFound, "Svc", "nope")), check: missing(.actionNotFound, "Svc", "nope"),
        opens: false, reaches: false),
    Situation(
        name: "action missing, the target's notFound answers", target: "Helper", action: "nope", url: "Helper/nope", local: .answer("nf:nope"),
        runs: Effects(factory: 1, notFound: 1), handle: .refused(missing(.actionNotFound, "Helper", "nope")),
        check: missing(.actionNotFound, "Helper", "nope"), opens: false, reaches: false),
    Situation(
        name: "the global fallback answers", target: "Nope", action: "x", url: "Nope/x",
        setup: { world in
            let counter = world.fallback
            let fallback: Mediator.Fallback = { target, action, _ in
                counter.increment()
                return "fb:\(target)/\(action)"
            }
            world.mediator.setFallback(fallback)
        },
        local: .answer("fb:Nope/x"), runs: Effects(fallback: 1), handle: .refused(missing(.targetNotFound, "Nope", "x")),
        check: missing(.targetNotFound, "Nope", "x"), opens: false, reaches: false),
    Situation(
        name: "NoTargetAction/response answers", target: "Nope", action: "x", url: "Nope/x",
        setup: { world in
            try world.mediator.register(
                target: "NoTargetAction", actions: [act("response", world.body) { "nta:\(try $0.value("actionString", as: String.self))" }])
        },
        local: .answer("nta:x"), runs: Effects(body: 1), handle: .refused(missing(.targetNotFound, "Nope", "x")),
        check: missing(.targetNotFound, "Nope", "x"), opens: false, reaches: false),
    Situation(
        name: "invalid params", target: "Svc", action: "sized", fields: ["n": "50"], url: "Svc/sized?n=50",
        local: .failure(.invalidParameter, "Svc", "sized"), runs: .nothing, check: .failure(.invalidParameter, "Svc", "sized")),
    Situation(
        name: "undeclared params (passed on in-process, dropped from URLs, refused to agents)", target: "Svc", action: "sized",
        fields: ["n": "3", "extra": "1"],
        url: "Svc/sized?n=3&extra=1", local: .answer("sized:3 keys:extra,n"), runs: Effects(body: 1, factory: 1), remote: .answer("sized:3 keys:n"),
        agent: .failure(.invalidParameter, "Svc", "sized"), agentRuns: .nothing),
    Situation(
        name: "a typed key out of its declared range", target: "Svc", action: "bounded", fields: ["n": "50"], url: "Svc/bounded?n=50", bounded: 50,
        local: .failure(.invalidParameter, "Svc", "bounded"), runs: .nothing, check: .failure(.invalidParameter, "Svc", "bounded")),
    Situation(
        name: "a local-only action, locally and by URL or route", target: "Svc", action: "secret", url: "Svc/secret", local: .answer("secret"),
        runs: Effects(body: 1, factory: 1), remote: .failure(.forbidden, "Svc", "secret"), remoteRuns: .nothing,
        checkURL: .failure(.forbidden, "Svc", "secret"), opens: false),
    Situation(
        name: "a local-only action behind a redirect", target: "Alias", action: "peek", url: "Alias/peek",
        setup: { try $0.redirect { try $0.redirect("Alias/peek", to: "Svc/secret") } }, local: .answer("secret"),
        runs: Effects(body: 1, factory: 1), handle: .unspecified, remote: .failure(.forbidden, nil, nil), remoteRuns: .nothing,
        checkURL: .failure(.forbidden, nil, nil), opens: false, lands: .answer("Svc/secret")),
    Situation(
        name: "a local-only action behind a degradation", target: "Gone", action: "x", url: "Gone/x",
        setup: { try $0.redirect { try $0.degrade("Gone", to: "Svc/secret") } }, local: .answer("secret"), runs: Effects(body: 1, factory: 1),
        handle: .unspecified, remote: .failure(.forbidden, nil, nil), remoteRuns: .nothing, checkURL: .failure(.forbidden, nil, nil), opens: false,
        lands: .answer("Svc/secret")),
    Situation(
        name: "a redirect", target: "Old", action: "echo", fields: ["x": "1"], url: "Old/echo?x=1",
        setup: { try $0.redirect { try $0.redirect("Old", to: "Svc") } },
        local: .answer("echo:1"), runs: Effects(body: 1, factory: 1), handle: .unspecified, lands: .answer("Svc/echo")),
    Situation(
        name: "a redirect loop (interceptors)", target: "Svc", action: "echo", url: "Svc/echo",
        setup: { world in
            world.mediator.addInterceptor(Bounce(target: "Web", action: "open"), scope: .target("Svc"))
            world.mediator.addInterceptor(Bounce(target: "Svc", action: "echo"), scope: .target("Web"))
        },
        local: .failure(.redirectCycle, nil, nil), runs: .nothing),
    Situation(
        name: "a degradation", target: "Gone", action: "x", url: "Gone/x", setup: { try $0.redirect { try $0.degrade("Gone", to: "Web/open") } },
        local: .answer("web:Gone/x"), runs: Effects(body: 1), handle: .unspecified, lands: .answer("Web/open")),
    Situation(
        name: "eight redirects, then a degradation", target: "H0", action: "x", url: "H0/x",
        setup: { world in
            try world.redirect { table in
                for hop in 0..<RedirectTable.maximumHops { try table.redirect("H\(hop)", to: "H\(hop + 1)") }
                try table.degrade("H\(RedirectTable.maximumHops)", to: "Web/open")
            }
        },
        local: .failure(.tooManyRedirects, nil, nil), runs: .nothing, handle: .unspecified, check: .failure(.tooManyRedirects, nil, nil), opens: false,
        reaches: false, lands: .failure(.tooManyRedirects, nil, nil)),
    Situation(
        name: "an interceptor rejects", target: "Svc", action: "echo", url: "Svc/echo",
        setup: { $0.mediator.addInterceptor(Refuse(), scope: .action("echo", of: "Svc")) }, local: .failure(.rejected, "Svc", "echo"), runs: .nothing),
    Situation(
        name: "an interceptor rewrites params", target: "Svc", action: "echo", fields: ["x": "1"], url: "Svc/echo?x=1",
        setup: { $0.mediator.addInterceptor(Rewrite()) }, local: .answer("echo:rewritten"), runs: Effects(body: 1, factory: 1)),
    Situation(
        name: "a malformed URL", target: "Svc", action: "echo", fields: ["x": "%zz"], url: "Svc/echo?x=%zz", local: .answer("echo:%zz"),
        runs: Effects(body: 1, factory: 1), remote: .failure(.invalidURL, nil, nil), remoteRuns: .nothing, agent: .answer("echo:%zz"),
        agentRuns: Effects(body: 1, factory: 1), checkURL: .failure(.invalidURL, nil, nil), opens: false),
    Situation(
        name: "a main-actor target called from a background thread", target: "Stage", action: "title", url: "Stage/title", awaits: true,
        setup: { world in
            let (factory, body) = (world.factory, world.body)
            try world.mediator.register(Target_Stage.self) { @MainActor (_: Mediator) throws -> Target_Stage in
                factory.increment()
                return Target_Stage(runs: body)
            }
        },
        local: .answer("stage"), runs: Effects(body: 1, factory: 1)),
]

// MARK: - Entry points

private struct Door: Sendable {
    enum Origin { case local, handle, url, agent }
    enum Shape { case throwing, nilOnFailure, completion }
    let name: String
    let origin: Origin
    /// Whether it awaits (or goes on in a task) when the call must.
    let waits: Bool
    let shape: Shape
    let run: @Sendable (World, Situation) async -> Seen

    init(_ name: String, _ origin: Origin, waits: Bool, _ shape: Shape = .throwing, run: @escaping @Sendable (World, Situation) async -> Seen) {
        (self.name, self.origin, self.waits, self.shape, self.run) = (name, origin, waits, shape, run)
    }

    /// A synchronous entry point, called on a plain thread (off the main actor).
    static func sync(_ name: String, _ origin: Origin, _ shape: Shape = .throwing, _ body: @escaping @Sendable (Mediator, Situation) -> Seen) -> Door {
        Door(name, origin, waits: false, shape) { world, situation in await onPlainThread { body(world.mediator, situation) } }
    }

    /// What this entry point should give in `situation`, and run; `nil` where it does not apply.
    func expectation(in situation: Situation, observed: Bool) -> (Seen, Effects)? {
        var (outcome, runs) = (situation.local, situation.runs)
        var resolved = true
        switch (origin, situation.handle) {
        case (.local, _), (.handle, .same): break
        case (.handle, .refused(let error)): (outcome, runs, resolved) = (error, .nothing, false)
        case (.handle, .unspecified): return nil
        case (.url, _):
            guard situation.url != nil else { return nil }
            (outcome, runs) = (situation.remote ?? outcome, situation.remoteRuns ?? runs)
        case (.agent, _):
            // A remote call by name: where a URL could make the call, what a URL call gives,
            // unless the situation says otherwise.
            guard situation.url != nil else { return nil }
            (outcome, runs) = (situation.agent ?? situation.remote ?? outcome, situation.agentRuns ?? situation.remoteRuns ?? runs)
        }
        if situation.awaits && !waits, case .answer = outcome {
            (outcome, runs) = (.failure(.asyncAction, situation.target, situation.action), .nothing)
        }
        switch (shape, outcome) {
        case (.nilOnFailure, .failure): outcome = .noValue
        case (.completion, .failure(.forbidden, _, _)): outcome = .notCalled
        default: break
        }
        runs.observed = observed && resolved ? 1 : 0
        return (outcome, runs)
    }
}

private func flatKey(_ situation: Situation) -> ActionKey<[String: String], String> { ActionKey(target: situation.target, action: situation.action) }
private func boundedKey(_ situation: Situation) -> ActionKey<Bounded, String> { ActionKey(target: situation.target, action: situation.action) }

private let doors: [Door] = [
    .sync("callNow", .local) { m, s in seen { try m.callNow(target: s.target, action: s.action, params: s.params) } },
    Door("call async", .local, waits: true) { w, s in await seenAwaiting { try await w.mediator.call(target: s.target, action: s.action, params: s.params) } },
    .sync("callNow(as:)", .local) { m, s in seen { try m.callNow(target: s.target, action: s.action, params: s.params, as: String.self) } },
    Door("call(as:) async", .local, waits: true) { w, s in
        await seenAwaiting { try await w.mediator.call(target: s.target, action: s.action, params: s.params, as: String.self) }
    },
    .sync("perform", .local, .nilOnFailure) { m, s in Seen(m.perform(target: s.target, action: s.action, params: s.params)) },
    Door("perform(completion:)", .local, waits: true) { w, s in
        let heard = ReadWriteLock<Seen>(.notCalled)
        let done = Latch()
        let task = w.mediator.perform(target: s.target, action: s.action, params: s.params, as: (any Sendable)?.self) { result in
            heard.withLock { $0 = Seen(result: result) }
            done.open()
        }
        await done.wait()
        await task.value
        return heard.withLock { $0 }
    },
    .sync("typed key, callNow", .local) { m, s in
        seen { if let n = s.bounded { try m.callNow(boundedKey(s), Bounded(n: n)) } else { try m.callNow(flatKey(s), s.fields) } }
    },
    Door("typed key async", .local, waits: true) { w, s in
        await seenAwaiting {
            if let n = s.bounded { try await w.mediator.call(boundedKey(s), Bounded(n: n)) } else { try await w.mediator.call(flatKey(s), s.fields) }
        }
    },
    .sync("handle.callNow", .handle) { m, s in seen { try m.handle(target: s.target, action: s.action).callNow(s.params) } },
    Door("handle.call async", .handle, waits: true) { w, s in
        await seenAwaiting { try await w.mediator.handle(target: s.target, action: s.action).call(s.params) }
    },
    .sync("typed handle.callNow", .handle) { m, s in
        seen { if let n = s.bounded { try m.handle(boundedKey(s)).callNow(Bounded(n: n)) } else { try m.handle(flatKey(s)).callNow(s.fields) } }
    },
    Door("typed handle.call async", .handle, waits: true) { w, s in
        await seenAwaiting {
            if let n = s.bounded {
                try await w.mediator.handle(boundedKey(s)).call(Bounded(n: n))
            } else {
                try await w.mediator.handle(flatKey(s)).call(s.fields)
            }
        }
    },
    .sync("open", .url, .nilOnFailure) { m, s in Seen(m.open(s.link)) },
    .sync("callNow(url:)", .url) { m, s in seen { try m.callNow(url: s.link) } },
    Door("call(url:) async", .url, waits: true) { w, s in await seenAwaiting { try await w.mediator.call(url: s.link) } },
    Door("open(_:completion:)", .url, waits: true, .completion) { w, s in
        let heard = ReadWriteLock<[String: any Sendable]?>(nil)
        let done = Latch()
        _ = await onPlainThread {
            w.mediator.open(s.link) { outcome in
                heard.withLock { $0 = outcome }
                done.open()
            }
            return true
        }
        // Docs: a call that need not await completes before `open` returns; one that must goes on in a task.
        if !done.isOpen {
            guard s.awaits else { return .notCalled }
            await done.wait()
        }
        return Seen(completion: heard.withLock { $0 } ?? [:])
    },
    Door("an agent's call", .agent, waits: true) { w, s in
        await seenAwaiting { try await w.mediator.callFromAgent(target: s.target, action: s.action, params: s.params, client: "tests") }
    },
    .sync("a route, callNow(url:)", .url) { m, s in
        seen {
            try m.route("/via/route", to: s.target, action: s.action, replacing: true)
            return try m.callNow(url: s.routedLink)
        }
    },
    Door("a route, call(url:) async", .url, waits: true) { w, s in
        await seenAwaiting {
            try w.mediator.route("/via/route", to: s.target, action: s.action, replacing: true)
            return try await w.mediator.call(url: s.routedLink)
        }
    },
]

/// Dry runs: each with its expectation (`nil`: not applicable). They consult no fallback.
private let dryRuns: [(name: String, run: @Sendable (Mediator, Situation) -> Seen, expected: @Sendable (Situation) -> Seen?)] = [
    ("canPerform(target:action:)", { m, s in .yes(m.canPerform(target: s.target, action: s.action)) }, { .yes($0.reaches) }),
    ("canPerform(target:action:params:)", { m, s in .yes(m.canPerform(target: s.target, action: s.action, params: s.params)) }, { .yes($0.check == .ok) }),
    (
        "validate(target:action:params:)",
        { m, s in
            seen {
                try m.validate(target: s.target, action: s.action, params: s.params)
                return nil
            }.orOK
        }, { $0.check }
    ),
    (
        "validate(url:)",
        { m, s in
            seen {
                try m.validate(url: s.link)
                return nil
            }.orOK
        }, { s in s.url == nil ? nil : s.checkURL ?? s.check }
    ),
    ("canOpen(_:)", { m, s in .yes(m.canOpen(s.link)) }, { s in s.url == nil ? nil : .yes(s.opens) }),
    (
        "destination(target:action:)",
        { m, s in
            seen {
                let found = try m.destination(target: s.target, action: s.action)
                return "\(found.target)/\(found.action)"
            }
        },
        { s in s.lands ?? .answer("\(s.target)/\(s.action)") }
    ),
]

// MARK: - Recursion through each entry point

/// An entry point through which `R/again` calls itself, by its full names.
private struct Reentry: Sendable, CustomTestStringConvertible {
    var name: String
    var sync: (@Sendable (Mediator) throws -> (any Sendable)?)?
    var awaiting: (@Sendable (Mediator) async throws -> (any Sendable)?)?
    var testDescription: String { name }
}

private let againKey = ActionKey<[String: String], String>(target: "Target_R", action: "Action_again")
private let againURL = "app://Target_R/Action_again"

private let reentries: [Reentry] = [
    Reentry(name: "callNow", sync: { try $0.callNow(target: "Target_R", action: "Action_again") }),
    Reentry(name: "callNow(as:)", sync: { try $0.callNow(target: "Target_R", action: "Action_again", as: String.self) }),
    Reentry(name: "handle.callNow", sync: { try $0.handle(target: "Target_R", action: "Action_again").callNow([:]) }),
    Reentry(name: "typed key, callNow", sync: { try $0.callNow(againKey, [:]) }),
    Reentry(name: "typed handle.callNow", sync: { try $0.handle(againKey).callNow([:]) }),
    Reentry(name: "callNow(url:)", sync: { try $0.callNow(url: againURL) }),
    Reentry(
        name: "open(_:completion:)",
        sync: { mediator in
            let failed = ReadWriteLock<MediatorError?>(nil)
            mediator.open(againURL) { outcome in failed.withLock { $0 = outcome["error"] as? MediatorError } }
            if let error = failed.withLock({ $0 }) { throw error }
            return nil
        }),
    Reentry(name: "call async", awaiting: { try await $0.call(target: "Target_R", action: "Action_again") }),
    Reentry(name: "handle.call async", awaiting: { try await $0.handle(target: "Target_R", action: "Action_again").call([:]) }),
    Reentry(name: "typed key async", awaiting: { try await $0.call(againKey, [:]) }),
    Reentry(name: "call(url:) async", awaiting: { try await $0.call(url: againURL) }),
]

// MARK: - The tests

@Suite("Entry points agree", hangLimit)
struct EntryPointAgreementTests {
    @Test("Every entry point gives the documented outcome and side effects, the same with and without an observer", arguments: situations)
    fileprivate func everyEntryPoint(_ situation: Situation) async throws {
        var without: [String: Seen] = [:]
        for observed in [false, true] {
            var results: [(door: String, expected: Seen, got: Seen)] = []
            for door in doors {
                guard let expectation = door.expectation(in: situation, observed: observed) else { continue }
                let (expected, runs) = expectation
                let world = try World(situation, observed: observed)
                let got = await door.run(world, situation)
                let ran = world.effects
                let label = "\(situation.name)\(observed ? ", observed" : ""): \(door.name)"
                #expect(got.fits(expected), "\(label) gave \(got); documented: \(expected)")
                #expect(ran.fits(runs), "\(label) ran \(ran); documented: \(runs)")
                if observed, let plain = without[door.name] {
                    #expect(got == plain, "\(label) gave \(got) with an observer installed, \(plain) without")
                }
                if !observed { without[door.name] = got }
                results.append((door.name, expected, got))
            }
            // Where the docs leave the names open, the entry points must still agree on them.
            for group in Dictionary(grouping: results.filter { $0.expected.hasOpenNames }, by: { $0.expected }).values {
                for other in group.dropFirst() where other.got != group[0].got {
                    Issue.record("\(situation.name): \(other.door) gave \(other.got) where \(group[0].door) gave \(group[0].got)")
                }
            }
        }
    }

    @Test("Dry runs give the documented answer and run nothing, not even an observer", arguments: situations)
    fileprivate func dryRunsRunNothing(_ situation: Situation) throws {
        for dry in dryRuns {
            guard let expected = dry.expected(situation) else { continue }
            let world = try World(situation, observed: true)
            let got = dry.run(world.mediator, situation)
            #expect(got.fits(expected), "\(situation.name): \(dry.name) gave \(got); documented: \(expected)")
            #expect(world.effects == .nothing, "\(situation.name): \(dry.name) ran \(world.effects)")
        }
    }

    @Test("At the depth limit every entry point refuses with callDepthExceeded, named R/again when called as Target_R/Action_again", arguments: reentries)
    fileprivate func depthLimit(_ reentry: Reentry) async throws {
        let world = World(maximumCallDepth: 4)
        let body = world.body
        let got: Seen
        if let sync = reentry.sync {
            let action = Action<Mediator>("again") { (mediator: Mediator, _: Params) throws -> (any Sendable)? in
                body.increment()
                return try sync(mediator)
            }
            try world.mediator.register(target: "R", actions: [action])
            got = await onPlainThread { seen { try sync(world.mediator) } }
        } else {
            let run = try #require(reentry.awaiting)
            let action = Action<Mediator>("again") { (mediator: Mediator, _: Params) async throws -> (any Sendable)? in
                body.increment()
                return try await run(mediator)
            }
            try world.mediator.register(target: "R", actions: [action])
            got = await seenAwaiting { try await run(world.mediator) }
        }
        #expect(got == .failure(.callDepthExceeded, "R", "again"), "\(reentry.name) gave \(got)")
        #expect(body.value == 4, "\(reentry.name): the action ran \(body.value) times under a limit of 4")
    }

    @Test("An always-cached target is made once, whichever entry points call it")
    func cachedOnce() async throws {
        let kept = Situation(
            name: "cached", target: "Kept", action: "get", url: "Kept/get",
            setup: { world in
                let (factory, body) = (world.factory, world.body)
                let make: @Sendable (Mediator) throws -> Instance = { _ in
                    factory.increment()
                    return Instance()
                }
                try world.mediator.register(target: "Kept", alwaysCached: true, make: make, actions: [act("get", body) { _ in "kept" }])
            },
            local: .answer("kept"), runs: Effects(body: 1, factory: 1))
        let world = try World(kept, observed: false)
        var calls = 0
        for door in doors {
            guard let expected = door.expectation(in: kept, observed: false)?.0 else { continue }
            let got = await door.run(world, kept)
            #expect(got.fits(expected), "\(door.name) gave \(got)")
            calls += 1
        }
        #expect(world.factory.value == 1)
        #expect(world.body.value == calls)
        #expect(world.mediator.hasCachedInstance(ofTarget: "Kept"))
    }
}
