import Foundation
import Mediator
import TestSupport
import Testing

@Suite("Cached targets with async factories", hangLimit)
struct AsyncCacheTests {
    @Test("Concurrent async callers of a cached target with an async factory get one instance")
    func oneInstance() async throws {
        let mediator = Mediator()
        let made = Counter()
        let creating = Latch()
        let release = Latch()
        try mediator.register(
            target: "Store", alwaysCached: true,
            make: { _ async -> Box in
                made.increment()
                creating.open()
                await release.wait()
                return Box()
            }, actions: [Action("id") { box, _ in ObjectIdentifier(box) }])
        let first = Task { try await mediator.call(target: "Store", action: "id") as? ObjectIdentifier }
        await creating.wait()
        // Every other caller starts while the factory is suspended inside the creation.
        let others = (0..<50).map { _ in Task { try await mediator.call(target: "Store", action: "id") as? ObjectIdentifier } }
        release.open()
        let expected = try await first.value
        for other in others { #expect(try await other.value == expected) }
        #expect(made.value == 1)
    }

    @Test("A failed async creation lets the next caller try again")
    func retryAfterFailure() async throws {
        let mediator = Mediator()
        let attempts = Counter()
        try mediator.register(
            target: "Flaky", alwaysCached: true,
            make: { _ async throws -> Box in
                if attempts.increment() == 1 { throw FixtureError(message: "first") }
                return Box()
            }, actions: [Action("ok") { _, _ in "ok" }])
        let error = await #expect(throws: MediatorError.self) { try await mediator.call(target: "Flaky", action: "ok") }
        #expect(error?.code == .actionFailed)
        #expect(try await mediator.call(target: "Flaky", action: "ok") as? String == "ok")
        #expect(attempts.value == 2)
        #expect(mediator.hasCachedInstance(ofTarget: "Flaky"))
    }

    @Test("An async factory that awaits its own cached target fails with cyclicTargetCreation")
    func selfCycle() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Ouroboros", alwaysCached: true,
            make: { mediator async throws -> Box in
                _ = try await mediator.call(target: "Ouroboros", action: "id")
                return Box()
            }, actions: [Action("id") { box, _ in ObjectIdentifier(box) }])
        let error = await #expect(throws: MediatorError.self) { try await mediator.call(target: "Ouroboros", action: "id") }
        #expect(error?.code == .cyclicTargetCreation)
        #expect(error?.description.contains("Ouroboros") == true)
    }

    @Test("Async factories that await each other's cached targets fail with cyclicTargetCreation")
    func twoTargetCycle() async throws {
        let mediator = Mediator()
        for (name, other) in [("A", "B"), ("B", "A")] {
            try mediator.register(
                target: name, alwaysCached: true,
                make: { mediator async throws -> Box in
                    _ = try await mediator.call(target: other, action: "id")
                    return Box()
                }, actions: [Action("id") { box, _ in ObjectIdentifier(box) }])
        }
        let error = await #expect(throws: MediatorError.self) { try await mediator.call(target: "A", action: "id") }
        #expect(error?.code == .cyclicTargetCreation)
        #expect(error?.description.contains("\"A\" -> \"B\" -> \"A\"") == true)
    }

    @Test("A synchronous call inside an async factory asking for the target being created: cyclicTargetCreation")
    func syncInsideAsyncFactory() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Inner", alwaysCached: true,
            make: { mediator async throws -> Box in
                await Task.yield()
                _ = try synchronously { try mediator.callNow(target: "Inner", action: "id") }
                return Box()
            }, actions: [Action("id") { box, _ in ObjectIdentifier(box) }])
        let error = await #expect(throws: MediatorError.self) { try await mediator.call(target: "Inner", action: "id") }
        #expect(error?.code == .cyclicTargetCreation)
    }

    @Test("A synchronous caller never waits for an async factory's creation: asyncAction, while async callers wait")
    func syncCallerDoesNotWait() async throws {
        let mediator = Mediator()
        let creating = Latch()
        let release = Latch()
        try mediator.register(
            target: "Slow", alwaysCached: true,
            make: { _ async -> Box in
                creating.open()
                await release.wait()
                return Box()
            }, actions: [Action("ok") { _, _ in "ok" }])
        let creator = Task { try await mediator.call(target: "Slow", action: "ok") }
        await creating.wait()
        // From a plain thread, as a synchronous caller would be.
        let code = ReadWriteLock<MediatorError.Code?>(nil)
        onThreads(1) { _ in
            do {
                _ = try mediator.callNow(target: "Slow", action: "ok")
            } catch {
                code.withLock { $0 = (error as? MediatorError)?.code }
            }
        }
        #expect(code.withReadLock { $0 } == .asyncAction)
        release.open()
        #expect(try await creator.value as? String == "ok")
    }
}

@Suite("Async callers never block a thread", hangLimit)
struct AsyncCallersDoNotBlockTests {
    @Test("While a synchronous factory runs on another thread, async callers of its target suspend and the pool stays free")
    func suspendOnSyncCreator() async throws {
        let mediator = Mediator()
        let creating = Latch()
        let release = DispatchSemaphore(value: 0)
        try mediator.register(
            target: "Slow", alwaysCached: true,
            make: { _ -> Box in
                creating.open()
                release.wait()  // a plain thread, blocked until the test lets it go
                return Box()
            }, actions: [Action("id") { box, _ in ObjectIdentifier(box) }])
        let creator = Thread { _ = try? mediator.callNow(target: "Slow", action: "id") }
        creator.start()
        await creating.wait()
        // More callers than the cooperative pool has threads (two on a 2-core machine): were they
        // to block on the creation, nothing else could run.
        let callers = (0..<16).map { _ in Task { try await mediator.call(target: "Slow", action: "id") as? ObjectIdentifier } }
        #expect(await Task.detached { 42 }.value == 42)
        release.signal()
        var ids: Set<ObjectIdentifier?> = []
        for caller in callers { ids.insert(try await caller.value) }
        #expect(ids.count == 1)
    }
}
