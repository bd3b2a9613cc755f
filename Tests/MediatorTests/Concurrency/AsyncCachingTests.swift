import Foundation
import Mediator
import TestSupport
import Testing

/// An instance made by an async factory, numbered in creation order.
final class AsyncMade: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

@Suite("Async factories and caching")
struct AsyncCachingTests {
    static let serialAction = Action<AsyncMade>("serial") { made, _ in made.serial }

    @Test("Concurrent async callers of a cached target share one instance: the factory runs once while the others suspend")
    func oneInstanceUnderConcurrentCallers() async throws {
        // Far more callers than the concurrency pool has threads: if waiting callers blocked their
        // threads, the factory could never resume and the test would hang (caught by the limit).
        let callers = 400
        let mediator = Mediator()
        let made = Counter()
        let started = AsyncCount()
        let release = Latch()
        try mediator.register(
            target: "Slow",
            make: { _ async -> AsyncMade in
                let serial = made.increment()
                // Stays inside the factory until every caller has started its call.
                await release.wait()
                return AsyncMade(serial: serial)
            },
            actions: [Self.serialAction])

        let serials = try await withinHangLimit("\(callers) callers of one cached target") {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<callers {
                    group.addTask {
                        started.increment()
                        return try await mediator.call(target: "Slow", action: "serial", shouldCacheTarget: true, as: Int.self)
                    }
                }
                await started.wait(untilAtLeast: callers)
                release.open()
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        #expect(serials == Array(repeating: 1, count: callers))
        #expect(made.value == 1)
    }

    @Test("A failed async creation lets the next caller try again")
    func failedCreationIsRetried() async throws {
        let mediator = Mediator()
        let attempts = Counter()
        try mediator.register(
            target: "Flaky",
            make: { _ async throws -> AsyncMade in
                let attempt = attempts.increment()
                await Task.yield()
                if attempt == 1 { throw FixtureError(message: "first creation fails") }
                return AsyncMade(serial: attempt)
            },
            actions: [Self.serialAction])

        let first = try await withinHangLimit("the first creation") {
            await outcome { try await mediator.call(target: "Flaky", action: "serial", shouldCacheTarget: true) }
        }
        guard case .failure(let error) = first else {
            Issue.record("the first creation should have failed, got \(first)")
            return
        }
        #expect(error.code == .actionFailed)
        #expect(error.underlying as? FixtureError == FixtureError(message: "first creation fails"))
        #expect(!mediator.hasCachedInstance(ofTarget: "Flaky"))
        let serials = try await withinHangLimit("the next creations") {
            [
                try await mediator.call(target: "Flaky", action: "serial", shouldCacheTarget: true, as: Int.self),
                try await mediator.call(target: "Flaky", action: "serial", shouldCacheTarget: true, as: Int.self),
            ]
        }
        #expect(serials == [2, 2])
        #expect(attempts.value == 2)
    }

    @Test("When a creation fails while others wait for it, exactly one caller fails and one of the waiters creates the instance")
    func failedCreationWithWaiters() async throws {
        let callers = 100
        let mediator = Mediator()
        let attempts = Counter()
        let started = AsyncCount()
        let release = Latch()
        try mediator.register(
            target: "Flaky",
            make: { _ async throws -> AsyncMade in
                let attempt = attempts.increment()
                if attempt == 1 {
                    await release.wait()
                    throw FixtureError(message: "first creation fails")
                }
                return AsyncMade(serial: attempt)
            },
            actions: [Self.serialAction])

        let results = try await withinHangLimit("callers of a failing creation") {
            await withTaskGroup(of: Result<Int, MediatorError>.self) { group in
                for _ in 0..<callers {
                    group.addTask {
                        started.increment()
                        do throws(MediatorError) {
                            return .success(try await mediator.call(target: "Flaky", action: "serial", shouldCacheTarget: true, as: Int.self))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                await started.wait(untilAtLeast: callers)
                release.open()
                return await group.reduce(into: [Result<Int, MediatorError>]()) { $0.append($1) }
            }
        }
        let failures = results.compactMap { if case .failure(let error) = $0 { error.code } else { nil } }
        let successes = results.compactMap { try? $0.get() }
        #expect(failures == [.actionFailed])
        #expect(successes == Array(repeating: 2, count: callers - 1))
        #expect(attempts.value == 2)
    }

    @Test("An async factory that awaits its own cached target fails with cyclicTargetCreation instead of hanging")
    func factoryAwaitsItself() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Ouroboros",
            make: { mediator async throws -> AsyncMade in
                _ = try await mediator.call(target: "Ouroboros", action: "serial", shouldCacheTarget: true)
                return AsyncMade(serial: 0)
            },
            actions: [Self.serialAction])

        let code = try await withinHangLimit("a factory awaiting itself") { await Self.code(mediator, "Ouroboros") }
        #expect(code == .cyclicTargetCreation)
        #expect(!mediator.hasCachedInstance(ofTarget: "Ouroboros"))
    }

    @Test("Async factories that await each other in one task fail with cyclicTargetCreation naming both")
    func factoriesAwaitEachOtherInOneTask() async throws {
        let mediator = Mediator()
        for (name, other) in [("Chicken", "Egg"), ("Egg", "Chicken")] {
            try mediator.register(
                target: name,
                make: { mediator async throws -> AsyncMade in
                    _ = try await mediator.call(target: other, action: "serial", shouldCacheTarget: true)
                    return AsyncMade(serial: 0)
                },
                actions: [Self.serialAction])
        }
        let error = try await withinHangLimit("two factories awaiting each other") { () -> MediatorError? in
            await awaitedMediatorError { try await mediator.call(target: "Chicken", action: "serial", shouldCacheTarget: true) }
        }
        #expect(error?.code == .cyclicTargetCreation)
        #expect(error?.description.contains("\"Chicken\" -> \"Egg\" -> \"Chicken\"") == true, "\(String(describing: error))")
    }

    @Test("An async factory whose target's synchronous factory calls back into it fails at once instead of hanging")
    func asyncFactoryThroughASynchronousOne() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Outer",
            make: { mediator async throws -> AsyncMade in
                _ = try await mediator.call(target: "Inner", action: "serial", shouldCacheTarget: true)
                return AsyncMade(serial: 0)
            },
            actions: [Self.serialAction])
        try mediator.register(
            target: "Inner",
            make: { mediator throws -> AsyncMade in
                _ = try mediator.callNow(target: "Outer", action: "serial", shouldCacheTarget: true)
                return AsyncMade(serial: 1)
            },
            actions: [Self.serialAction])
        let error = try await withinHangLimit("an async factory and a sync one needing each other") { () -> MediatorError? in
            await awaitedMediatorError { try await mediator.call(target: "Outer", action: "serial", shouldCacheTarget: true) }
        }
        // The synchronous factory asks, inside Outer's creation, for Outer: a cycle, named as such
        // and passed up unwrapped through both factories.
        var codes: [MediatorError.Code] = []
        var next: (any Error)? = error
        while let current = next as? MediatorError {
            codes.append(current.code)
            next = current.underlying
        }
        #expect(codes == [.cyclicTargetCreation])
        #expect(!mediator.hasCachedInstance(ofTarget: "Outer") && !mediator.hasCachedInstance(ofTarget: "Inner"))
    }

    @Test("Two tasks whose factories await each other's target both fail with cyclicTargetCreation, and both targets work afterwards")
    func factoriesAwaitEachOtherAcrossTasks() async throws {
        let mediator = Mediator()
        // Both factories wait here until both are inside their creation; only then does each ask
        // for the other's target, so the cycle spans two tasks for certain.
        let inside = AsyncCount()
        let needsOther = Counter(1)
        let made = Counter()
        for (name, other) in [("Left", "Right"), ("Right", "Left")] {
            try mediator.register(
                target: name,
                make: { mediator async throws -> AsyncMade in
                    if needsOther.value == 1 {
                        inside.increment()
                        await inside.wait(untilAtLeast: 2)
                        _ = try await mediator.call(target: other, action: "serial", shouldCacheTarget: true)
                    }
                    return AsyncMade(serial: made.increment())
                },
                actions: [Self.serialAction])
        }

        let codes = try await withinHangLimit("two tasks whose factories await each other") {
            async let left = Self.code(mediator, "Left")
            async let right = Self.code(mediator, "Right")
            return await [left, right]
        }
        #expect(codes == [.cyclicTargetCreation, .cyclicTargetCreation])
        #expect(made.value == 0)

        // Nothing of the cycle is left behind: both targets can be created and cached now.
        needsOther.set(0)
        let serials = try await withinHangLimit("creations after the cycle") {
            [
                try await mediator.call(target: "Left", action: "serial", shouldCacheTarget: true, as: Int.self),
                try await mediator.call(target: "Right", action: "serial", shouldCacheTarget: true, as: Int.self),
                try await mediator.call(target: "Left", action: "serial", shouldCacheTarget: true, as: Int.self),
            ]
        }
        #expect(serials == [1, 2, 1])
    }

    @Test("A caller cancelled while it waits for another call's creation ends with cancelled, and the creation goes on")
    func cancelledWhileWaitingForCreation() async throws {
        let mediator = Mediator()
        let entered = Latch()
        let release = Latch()
        try mediator.register(
            target: "Slow",
            make: { _ async -> AsyncMade in
                entered.open()
                await release.wait()
                return AsyncMade(serial: 1)
            },
            actions: [Self.serialAction])

        let creator = Task { try await mediator.call(target: "Slow", action: "serial", shouldCacheTarget: true, as: Int.self) }
        await entered.wait()
        // The creation cannot end before the waiter has: whether the cancellation reaches the
        // waiter before it waits or while it waits, the call must end with `cancelled`.
        let waiterStarted = Latch()
        let waiter = Task {
            waiterStarted.open()
            return await Self.code(mediator, "Slow")
        }
        await waiterStarted.wait()
        waiter.cancel()
        let waiterCode = try await withinHangLimit("a cancelled waiter") { await waiter.value }
        #expect(waiterCode == .cancelled)
        release.open()
        #expect(try await withinHangLimit("the creator") { try await creator.value } == 1)
        #expect(mediator.hasCachedInstance(ofTarget: "Slow"))
    }

    @Test("A task that a factory starts with Task {} is part of the creation: asking for the same target is a cycle, not a wait")
    func taskStartedByAFactoryIsNoCycle() async throws {
        let mediator = Mediator()
        let spawned = ReadWriteLock<Task<MediatorError.Code?, Never>?>(nil)
        let spawnedRunning = Latch()
        let made = Counter()
        try mediator.register(
            target: "Spawner",
            make: { mediator async -> AsyncMade in
                let serial = made.increment()
                if serial == 1 {
                    // A task the factory starts with `Task {}`: it inherits the factory's
                    // task-local values.
                    let task = Task {
                        spawnedRunning.open()
                        return await Self.code(mediator, "Spawner")
                    }
                    spawned.withLock { $0 = task }
                    // The factory waits for it, so its call comes while the creation runs.
                    _ = await task.value
                }
                return AsyncMade(serial: serial)
            },
            actions: [Self.serialAction])

        let serial = try await withinHangLimit("the creation") {
            try await mediator.call(target: "Spawner", action: "serial", shouldCacheTarget: true, as: Int.self)
        }
        #expect(serial == 1)
        let task = try #require(spawned.withLock { $0 })
        // `Task {}` inherits the factory's task-local values, as `async let` and task groups do,
        // and a task-local cannot tell them apart: the documented rule is that such a task is part
        // of the creation (use `Task.detached` for work that is not). While the creation runs, its
        // call for the same target is a cycle; it never waits forever.
        let code = try await withinHangLimit("the factory's background task") { await task.value }
        #expect(code == .cyclicTargetCreation)
        #expect(made.value == 1)
    }

    @Test("A task that a factory starts may create the factory's target again after that creation has ended")
    func taskStartedByAFactoryAfterTheCreation() async throws {
        let mediator = Mediator()
        let spawned = ReadWriteLock<Task<MediatorError.Code?, Never>?>(nil)
        let go = Latch()
        let made = Counter()
        try mediator.register(
            target: "Spawner",
            make: { mediator async -> AsyncMade in
                let serial = made.increment()
                if serial == 1 {
                    // Calls only once the creation that started it has ended and been released.
                    let task = Task {
                        await go.wait()
                        return await Self.code(mediator, "Spawner")
                    }
                    spawned.withLock { $0 = task }
                }
                return AsyncMade(serial: serial)
            },
            actions: [Self.serialAction])

        let serial = try await withinHangLimit("the creation") {
            try await mediator.call(target: "Spawner", action: "serial", shouldCacheTarget: true, as: Int.self)
        }
        #expect(serial == 1)
        #expect(mediator.releaseCachedTarget(fullName: "Spawner"))
        go.open()
        let task = try #require(spawned.withLock { $0 })
        let code = try await withinHangLimit("the factory's background task") { await task.value }
        #expect(code == nil)
        #expect(made.value == 2)
    }

    /// The code a cached call of `target`'s `serial` action failed with, or `nil`.
    static func code(_ mediator: Mediator, _ target: String) async -> MediatorError.Code? {
        await awaitedMediatorError { try await mediator.call(target: target, action: "serial", shouldCacheTarget: true) }?.code
    }
}
