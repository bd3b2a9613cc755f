import Mediator
import TestSupport
import Testing

/// A target whose missing actions are answered asynchronously.
final class Target_Legacy: MediatorTarget, AsyncNotFoundTarget {
    static let actions: [Action<Target_Legacy>] = [Action("current") { _, _ in "current" }]
    init() {}
    func notFound(action: String, params: Params) async throws -> (any Sendable)? {
        await Task.yield()
        if action == "old" { return "old answered late" }
        if action == "broken" { throw FixtureError(message: "legacy") }
        return nil
    }
}

@Suite("Async notFound handlers and fallbacks", hangLimit)
struct AsyncFallbackTests {
    @Test("An AsyncNotFoundTarget answers missing actions through the async call only")
    func asyncNotFoundTarget() async throws {
        let mediator = Mediator()
        try mediator.register(Target_Legacy.self) { _ in Target_Legacy() }
        #expect(try await mediator.call(target: "Legacy", action: "old") as? String == "old answered late")
        #expect(try synchronously { try mediator.callNow(target: "Legacy", action: "current") } as? String == "current")
        let sync = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Legacy", action: "old") }
        #expect(sync?.code == .asyncAction)
        let failed = await #expect(throws: MediatorError.self) { try await mediator.call(target: "Legacy", action: "broken") }
        #expect(failed?.code == .actionFailed)
        #expect(failed?.underlying as? FixtureError == FixtureError(message: "legacy"))
        // Unanswered: the precise not-found error, as for synchronous handlers.
        let missing = await #expect(throws: MediatorError.self) { try await mediator.call(target: "Legacy", action: "nothing") }
        #expect(missing?.code == .actionNotFound)
    }

    @Test("A closure target's async notFound runs, and its synchronous factory still serves synchronous calls")
    func closureAsyncNotFound() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Mixed", make: { _ in Box() }, actions: [Action("ok") { _, _ in "ok" }],
            notFound: { _, action, _ async in
                await Task.yield()
                return "late \(action)"
            })
        #expect(try synchronously { try mediator.callNow(target: "Mixed", action: "ok") } as? String == "ok")
        #expect(try await mediator.call(target: "Mixed", action: "other") as? String == "late other")
    }

    @Test("An async global fallback answers the async call; a synchronous call reaching it throws asyncAction")
    func asyncFallback() async throws {
        let mediator = Mediator()
        let ran = Counter()
        mediator.setFallback { target, action, _ async throws in
            ran.increment()
            await Task.yield()
            if target == "Throwing" { throw FixtureError(message: "fallback") }
            return "\(target)/\(action) from afar"
        }
        #expect(try await mediator.call(target: "Remote", action: "go") as? String == "Remote/go from afar")
        let error = await #expect(throws: MediatorError.self) { try await mediator.call(target: "Throwing", action: "go") }
        #expect(error?.code == .actionFailed)
        #expect(ran.value == 2)
        let sync = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Remote", action: "go") }
        #expect(sync?.code == .asyncAction)
        #expect(ran.value == 2)
        // Removing it: the overload taking an optional synchronous fallback.
        mediator.setFallback(nil)
        let gone = await #expect(throws: MediatorError.self) { try await mediator.call(target: "Remote", action: "go") }
        #expect(gone?.code == .targetNotFound)
    }

    @Test("A synchronous notFound that declines, then an async fallback: the notFound runs once")
    func notFoundRunsOnce() async throws {
        let mediator = Mediator()
        let asked = Counter()
        try mediator.register(
            target: "Picky", actions: [],
            notFound: { _, _, _ in
                asked.increment()
                return nil
            })
        mediator.setFallback { _, _, _ async in "fallback" }
        #expect(try await mediator.call(target: "Picky", action: "x") as? String == "fallback")
        #expect(asked.value == 1)
    }

    @Test("An async NoTargetAction response answers with CTMediator's params")
    func noTargetAction() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "NoTargetAction",
            actions: [
                Action("response") { _, params async throws in
                    "\(try params.value("targetString", as: String.self)) \(try params.value("selectorString", as: String.self))"
                }
            ])
        #expect(try await mediator.call(target: "Gone", action: "go") as? String == "Target_Gone Action_go:")
    }

    @Test("A URL completion reaching an async action completes once, later, from a task")
    func urlCompletion() async throws {
        let mediator = Mediator()
        try mediator.register(target: "Feed", make: { _ in Target_Feed() }, actions: Target_Feed.actions)
        let done = Latch()
        let calls = Counter()
        let results = ReadWriteLock<[String]>([])
        let immediate = mediator.open("app://Feed/load?page=3") { outcome in
            calls.increment()
            results.withLock { $0.append("\(outcome["result"] ?? "none")") }
            done.open()
        }
        #expect(immediate == nil)
        await done.wait()
        #expect(calls.value == 1)
        #expect(results.withReadLock { $0 } == ["page 3 of feed"])
        // Refused as forbidden: never called, whatever the action is.
        try mediator.register(target: "Vault", actions: [Action("nativeWipe") { _, _ async in "wiped" }])
        let forbidden = Counter()
        #expect(mediator.open("app://Vault/nativeWipe") { _ in forbidden.increment() } == nil)
        #expect(forbidden.value == 0)
    }
}
