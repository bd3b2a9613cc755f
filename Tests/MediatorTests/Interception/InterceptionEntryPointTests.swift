import Mediator
import TestSupport
import Testing

// Every entry point goes through the chain: the same request through each must reach the
// interceptors as the same request and end in the same outcome. Nested calls, and calls an
// interceptor makes, are intercepted too and count toward the depth limit.

/// The input and output of the entry-point suites' typed key.
struct EchoTitle: Codable, Sendable, Equatable {
    var title: String
}

struct EchoedTitle: Codable, Sendable, Equatable {
    var title: String
    var token: String
}

extension ActionKey where Input == EchoTitle, Output == EchoedTitle {
    /// `Notes/echo`, registered by name in ``InterceptionWorld``.
    static var notesEcho: Self { Self(target: "Notes", action: "echo") }
    /// `Keyed/echo`, registered against the key itself.
    static var keyedEcho: Self { Self(target: "Keyed", action: "echo") }
}

/// One way of making a call: by name, by URL, through a handle or a key, sync or async.
struct EntryPoint: Sendable, CustomStringConvertible {
    let description: String
    /// Whether the call is made by URL (its request's origin is then the URL).
    let remote: Bool
    /// Makes the call for `title`; the result, or the error (`nil`-returning forms give `nil`
    /// for both a failure and no result, and their failure shows as `.success(nil)`).
    let call: @Sendable (Mediator, String) async -> Result<(any Sendable)?, MediatorError>

    init(_ description: String, remote: Bool = false, _ call: @escaping @Sendable (Mediator, String) async -> Result<(any Sendable)?, MediatorError>) {
        self.description = description
        self.remote = remote
        self.call = call
    }

    /// A synchronous entry point: `call` runs in a synchronous context, so that it picks the
    /// synchronous overloads (an async context prefers the async ones).
    static func sync(
        _ description: String, remote: Bool = false, _ call: @escaping @Sendable (Mediator, String) -> Result<(any Sendable)?, MediatorError>
    ) -> EntryPoint {
        EntryPoint(description, remote: remote) { mediator, title in call(mediator, title) }
    }

    /// Whether a failure is told (the throwing and completion forms) or shows as `nil`.
    var tellsFailure: Bool { !description.contains("perform") && !description.contains("open(") }

    static func result(_ body: () throws(MediatorError) -> (any Sendable)?) -> Result<(any Sendable)?, MediatorError> {
        do throws(MediatorError) { return .success(try body()) } catch { return .failure(error) }
    }

    static func asyncResult(_ body: () async throws(MediatorError) -> (any Sendable)?) async -> Result<(any Sendable)?, MediatorError> {
        do throws(MediatorError) { return .success(try await body()) } catch { return .failure(error) }
    }

    static let all: [EntryPoint] = [
        EntryPoint.sync("perform") { mediator, title in .success(mediator.perform(target: "Notes", action: "echo", params: ["title": title])) },
        EntryPoint.sync("call") { mediator, title in
            result { () throws(MediatorError) in try mediator.callNow(target: "Notes", action: "echo", params: ["title": title]) }
        },
        EntryPoint("await call") { mediator, title in
            await asyncResult { () async throws(MediatorError) in try await mediator.call(target: "Notes", action: "echo", params: ["title": title]) }
        },
        EntryPoint("completion") { mediator, title in
            await withCheckedContinuation { continuation in
                mediator.perform(target: "Notes", action: "echo", params: ["title": title], as: (any Sendable)?.self) { continuation.resume(returning: $0) }
            }
        },
        EntryPoint.sync("open(url)", remote: true) { mediator, title in .success(mediator.open("app://Notes/echo?title=\(title)")) },
        EntryPoint.sync("call(url:)", remote: true) { mediator, title in
            result { () throws(MediatorError) in try mediator.callNow(url: "app://Notes/echo?title=\(title)") }
        },
        EntryPoint("await call(url:)", remote: true) { mediator, title in
            await asyncResult { () async throws(MediatorError) in try await mediator.call(url: "app://Notes/echo?title=\(title)") }
        },
        EntryPoint("URL completion", remote: true) { mediator, title in
            await withCheckedContinuation { continuation in
                mediator.open("app://Notes/echo?title=\(title)") { outcome in
                    if let error = outcome["error"] as? MediatorError {
                        continuation.resume(returning: .failure(error))
                    } else {
                        continuation.resume(returning: .success(outcome["result"]))
                    }
                }
            }
        },
        EntryPoint.sync("handle") { mediator, title in
            result { () throws(MediatorError) in try mediator.handle(target: "Notes", action: "echo").callNow(["title": title]) }
        },
        EntryPoint("await handle") { mediator, title in
            await asyncResult { () async throws(MediatorError) in try await mediator.handle(target: "Notes", action: "echo").call(["title": title]) }
        },
        EntryPoint.sync("typed key") { mediator, title in
            result { () throws(MediatorError) in try mediator.callNow(.notesEcho, EchoTitle(title: title)).token }
        },
        EntryPoint("await typed key") { mediator, title in
            await asyncResult { () async throws(MediatorError) in try await mediator.call(.notesEcho, EchoTitle(title: title)).token }
        },
    ]
}

@Suite("Interceptors: every entry point", hangLimit)
struct InterceptionEntryPointTests {
    /// A world whose global interceptor adds a token, refuses the title "stop" and logs requests.
    func tokenWorld() throws -> (InterceptionWorld, InterceptionLog) {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(
            Probe("Token", log) { request in
                if request.params["title"] as? String == "stop" { throw FixtureError(message: "stopped") }
                request.params["token"] = "t-\(request.depth)"
                return .proceed
            })
        return (world, log)
    }

    /// The token the call answered with: the echoed dictionary's, or a typed key's output.
    func token(_ value: (any Sendable)?) -> String? {
        if let token = value as? String { return token }
        return (value as? [String: any Sendable])?["token"] as? String
    }

    @Test("The same call through every entry point: the interceptor sees the same request, the action the same params", arguments: EntryPoint.all)
    func sameRequest(_ entry: EntryPoint) async throws {
        let (world, log) = try tokenWorld()
        let result = await entry.call(world.mediator, "hi")
        #expect(token(try result.get()) == "t-1", "\(entry)")
        let request = try #require(log.requests.first)
        #expect(log.requests.count == 1)
        #expect(request.name == "Notes/echo")
        #expect(request.depth == 1)
        #expect(request.params.keys == ["title"])
        #expect(request.params["title"] as? String == "hi")
        #expect(request.origin == (entry.remote ? .url("app://Notes/echo?title=hi") : .inProcess))
        #expect(world.ran("Notes/echo") == 1)
        #expect(log.records.count == 1)
        #expect(log.records.first?.succeeded == true)
    }

    @Test("The same rejection through every entry point: the action does not run, the caller gets rejected", arguments: EntryPoint.all)
    func sameRejection(_ entry: EntryPoint) async throws {
        let (world, log) = try tokenWorld()
        let result = await entry.call(world.mediator, "stop")
        if entry.tellsFailure {
            #expect(throws: MediatorError.self) { try result.get() }
            if case .failure(let error) = result {
                #expect(error.code == .rejected)
                #expect(error.description == #"Notes/echo: rejected by interceptor "Token": fixture error: stopped"#)
            }
        } else {
            #expect(try result.get() == nil)
        }
        #expect(world.ran("Notes/echo") == 0)
        #expect(log.records.map { $0.error?.code } == [.rejected])
    }

    @Test("A handle made before the interceptor was added goes through it")
    func handleMadeBefore() throws {
        let world = try InterceptionWorld()
        let handle = try world.mediator.handle(target: "Notes", action: "echo", shouldCacheTarget: true)
        let log = InterceptionLog()
        let id = world.mediator.addInterceptor(
            Probe("Token", log) { request in
                request.params["token"] = "late"
                return .proceed
            })
        #expect(token(try handle.callNow([:])) == "late")
        #expect(log.requests.map(\.name) == ["Notes/echo"])
        world.mediator.removeInterception(id)
        #expect(token(try handle.callNow([:])) == nil)
    }

    @Test("An async call through a handle made before the interceptor was added goes through it")
    func asyncHandleMadeBefore() async throws {
        let world = try InterceptionWorld()
        let handle = try world.mediator.handle(target: "Notes", action: "slow")
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("P", log))
        #expect(try await handle.call([:]) as? String == "slow")
        #expect(log.events == ["P intercept Notes/slow", "P finish Notes/slow"])
    }

    @Test("A typed key's input reaches the interceptor as params, and a keyed action decodes the changed params")
    func keyedAction() throws {
        let world = try InterceptionWorld()
        try world.mediator.register(
            target: "Keyed",
            actions: [Action(.keyedEcho) { _, input in EchoedTitle(title: input.title, token: "none") }])
        let log = InterceptionLog()
        world.mediator.addInterceptor(
            Probe("Shout", log) { request in
                request.params["title"] = (request.params["title"] as? String ?? "").uppercased()
                return .proceed
            })
        #expect(try world.mediator.callNow(.keyedEcho, EchoTitle(title: "hi")) == EchoedTitle(title: "HI", token: "none"))
        #expect(log.requests.first?.params["title"] as? String == "hi")
    }

    @Test("The async typed key call of a keyed action goes through the interceptor too")
    func asyncKeyedAction() async throws {
        let world = try InterceptionWorld()
        try world.mediator.register(
            target: "Keyed",
            actions: [Action(.keyedEcho) { _, input async in EchoedTitle(title: input.title, token: "async") }])
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("P", log))
        #expect(try await world.mediator.call(.keyedEcho, EchoTitle(title: "hi")) == EchoedTitle(title: "hi", token: "async"))
        #expect(log.events == ["P intercept Keyed/echo", "P finish Keyed/echo"])
    }

    @Test("A call an action makes is intercepted too, one level deeper")
    func nested() throws {
        let world = try InterceptionWorld()
        try world.mediator.register(
            target: "Outer", actions: [Action("relay") { mediator, _ in try mediator.callNow(target: "Notes", action: "echo") }])
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("P", log))
        _ = try world.mediator.callNow(target: "Outer", action: "relay")
        #expect(log.requests.map { "\($0.name) \($0.depth)" } == ["Outer/relay 1", "Notes/echo 2"])
        // The inner call finishes first.
        #expect(log.events == ["P intercept Outer/relay", "P intercept Notes/echo", "P finish Notes/echo", "P finish Outer/relay"])
    }

    @Test("An async call an async action makes is intercepted one level deeper")
    func nestedAsync() async throws {
        let world = try InterceptionWorld()
        try world.mediator.register(
            target: "Outer",
            actions: [
                Action("relay") { mediator, _ async throws -> (any Sendable)? in
                    await Task.yield()
                    return try await mediator.call(target: "Notes", action: "echo")
                }
            ])
        let log = InterceptionLog()
        world.mediator.addInterceptor(Probe("P", log))
        _ = try await world.mediator.call(target: "Outer", action: "relay")
        #expect(log.requests.map { "\($0.name) \($0.depth)" } == ["Outer/relay 1", "Notes/echo 2"])
    }

    @Test("A call an interceptor makes goes through the chain again, one level deeper")
    func interceptorCalls() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        let mediator = world.mediator
        world.mediator.addInterceptor(
            Probe("Audit", log) { request in
                request.params["audit"] = try mediator.callNow(target: "Profile", action: "show")
                return .proceed
            }, scope: .target("Notes"))
        world.mediator.addInterceptor(Probe("All", log))
        let echoed = try world.mediator.callNow(target: "Notes", action: "echo") as? [String: any Sendable]
        #expect(echoed?["audit"] as? String == "profile")
        #expect(
            log.requests.map { "\($0.name) \($0.depth)" } == ["Notes/echo 1", "Profile/show 2", "Notes/echo 1"],
            "Audit, then All inside Audit's call, then All for the outer call")
    }

    @Test("An interceptor that calls the mediator without end ends in callDepthExceeded")
    func runawayInterceptor() throws {
        let world = try InterceptionWorld(maximumCallDepth: 8)
        let mediator = world.mediator
        let runs = Counter()
        let loop = world.mediator.addInterceptor(
            Probe("Loop", InterceptionLog()) { _ in
                runs.increment()
                _ = try mediator.callNow(target: "Notes", action: "echo")
                return .proceed
            })
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Notes", action: "echo") })
        #expect(error.code == .callDepthExceeded)
        #expect(runs.value == 8)
        #expect(world.ran("Notes/echo") == 0)
        // The mediator is still usable.
        world.mediator.removeInterception(loop)
        #expect(try world.mediator.callNow(target: "Notes", action: "echo") != nil)
    }

    @Test("An interceptor that calls the mediator without end and ignores the failure: every level answers")
    func runawayIgnored() throws {
        let world = try InterceptionWorld(maximumCallDepth: 8)
        let mediator = world.mediator
        let runs = Counter()
        world.mediator.addInterceptor(
            Probe("Loop", InterceptionLog()) { _ in
                runs.increment()
                _ = mediator.perform(target: "Notes", action: "echo")
                return .proceed
            })
        #expect(world.mediator.perform(target: "Notes", action: "echo") != nil)
        // Levels 1 to 8 each ran the interceptor and the action; the ninth call was refused.
        #expect(runs.value == 8)
        #expect(world.ran("Notes/echo") == 8)
    }

    @Test("An interceptor's call counts toward the depth of an async call too")
    func runawayAsync() async throws {
        let world = try InterceptionWorld(maximumCallDepth: 6)
        let mediator = world.mediator
        world.mediator.addInterceptor(
            Probe("Loop", InterceptionLog()) { _ in
                _ = try mediator.callNow(target: "Notes", action: "slow")
                return .proceed
            })
        let error = await awaitedMediatorError { () async throws(MediatorError) in try await world.mediator.call(target: "Notes", action: "slow") }
        #expect(error?.code == .callDepthExceeded)
        #expect(world.ran("Notes/slow") == 0)
    }
}

@Suite("Observers of URLs that fail as they are read", hangLimit)
struct UndispatchedURLObserverTests {
    /// Opens `url` again from every record it is told of.
    struct Reopening: CallObserver {
        let mediator: Mediator
        let url: String
        let told: Counter

        func callDidFinish(_ record: CallRecord) {
            told.increment()
            _ = mediator.open(url)
        }
    }

    @Test(
        "An observer that opens a malformed URL again from its report stops at the depth limit",
        .bug(id: "undispatched-report-depth", "reports of URLs that failed as they were read ran outside the depth count"))
    func reopeningObserverStops() {
        let limit = 8
        let mediator = Mediator(maximumCallDepth: limit)
        let told = Counter()
        mediator.addObserver(Reopening(mediator: mediator, url: "app://", told: told))
        #expect(mediator.open("app://") == nil)
        // Each report is one level deeper; the open past the limit is refused before it is read.
        #expect(told.value == limit)
    }

    @Test("A URL refused at the depth limit is refused as callDepthExceeded, named after what it asks for, before it is read")
    func depthComesFirst() throws {
        let mediator = Mediator(maximumCallDepth: 1)
        let seen = ReadWriteLock<[MediatorError?]>([])
        try mediator.register(
            target: "Deep",
            actions: [
                Action("go") { mediator, params in
                    let url = try params.value("url", as: String.self)
                    do throws(MediatorError) {
                        _ = try mediator.callNow(url: url)
                        seen.withLock { $0.append(nil) }
                    } catch {
                        seen.withLock { $0.append(error) }
                    }
                    return nil
                }
            ])
        for url in ["app://Deep/nativeX", "app://"] { _ = try mediator.callNow(target: "Deep", action: "go", params: ["url": url]) }
        let errors = seen.withReadLock { $0 }
        #expect(errors.map { $0?.code } == [.callDepthExceeded, .callDepthExceeded])
        #expect(errors.first??.target == "Deep")
        #expect(errors.first??.action == "nativeX")
    }
}
