import Foundation
import Mediator
import Testing

/// Holds every thread that arrives until `count` have, once; later arrivals pass straight through
/// (a factory that runs again after a failed creation must not wait for a party that is gone).
final class OneShotBarrier: Sendable {
    private let arrived = ReadWriteLock(0)
    private let open = DispatchSemaphore(value: 0)
    let count: Int

    init(count: Int) {
        self.count = count
    }

    /// Waits for the other parties; `false` if they did not come within a limit only a hang reaches.
    func arrive() -> Bool {
        let position = arrived.withLock { arrived -> Int in
            arrived += 1
            return arrived
        }
        if position > count { return true }
        if position == count {
            for _ in 1..<count { open.signal() }
            return true
        }
        return open.wait(timeout: .now() + 60) == .success
    }
}

@Suite("Creation cycles across threads fail instead of deadlocking")
struct CreationCycleTests {
    /// Registers cached targets `names[i]` whose factory, once every factory has started, asks for
    /// the cached instance of `names[i + 1]` (the last asks for the first).
    func registerRing(_ names: [String], in mediator: Mediator, barrier: OneShotBarrier) throws {
        for (index, name) in names.enumerated() {
            let next = names[(index + 1) % names.count]
            try mediator.register(
                target: name,
                make: { mediator in
                    guard barrier.arrive() else { throw FixtureError(message: "the other factories never started") }
                    _ = try mediator.callNow(target: next, action: "touch", shouldCacheTarget: true)
                    return Box()
                }, actions: [Action("touch") { _, _ in "touched" }])
        }
    }

    /// Asks for each target's cached instance from its own thread at once; the errors.
    func createAtOnce(_ names: [String], in mediator: Mediator) -> [MediatorError?] {
        let errors = ReadWriteLock<[MediatorError?]>(Array(repeating: nil, count: names.count))
        let done = DispatchGroup()
        for (index, name) in names.enumerated() {
            done.enter()
            Thread {
                do {
                    _ = try mediator.callNow(target: name, action: "touch", shouldCacheTarget: true)
                } catch {
                    errors.withLock { $0[index] = error as? MediatorError }
                }
                done.leave()
            }.start()
        }
        // Only a deadlock reaches this limit.
        #expect(done.wait(timeout: .now() + 120) == .success, "the creations deadlocked")
        return errors.withLock { $0 }
    }

    /// The cyclicTargetCreation error somewhere in the chain of `error`'s underlying errors.
    func cycleError(in error: MediatorError?) -> MediatorError? {
        var current = error
        while let error = current {
            if error.code == .cyclicTargetCreation { return error }
            current = error.underlying as? MediatorError
        }
        return nil
    }

    @Test("A ring of targets whose factories need each other, each created from its own thread at once", arguments: [2, 3, 4])
    func ring(size: Int) throws {
        let names = (0..<size).map { "Ring\($0)" }
        let mediator = Mediator()
        try registerRing(names, in: mediator, barrier: OneShotBarrier(count: size))
        let errors = createAtOnce(names, in: mediator)
        // Every thread comes back, each with a cycle error (a thread that waited on a failed
        // creation retries it and meets its own cycle); at least one names the whole cycle.
        let cycles = errors.compactMap(cycleError)
        #expect(cycles.count == size, "\(errors)")
        let whole = cycles.filter { cycle in names.allSatisfy { cycle.reason.contains("\"\($0)\"") } }
        #expect(!whole.isEmpty, "\(cycles)")
        print("Cycle of \(size): \(whole.first.map(String.init(describing:)) ?? "none")")
        // Nothing was cached half-made, and the mediator still works.
        #expect(names.allSatisfy { !mediator.hasCachedInstance(ofTarget: $0) })
        try mediator.register(target: "After", actions: [Action("ok") { _, _ in "ok" }])
        #expect(mediator.perform(target: "After", action: "ok") as? String == "ok")
    }

    @Test("A cycle through a creation nested on one thread names every target in it")
    func nestedCreationInCycle() throws {
        // Thread 1 creates A, whose factory creates B on the same thread, whose factory asks for C;
        // thread 2 creates C, whose factory asks for A: C -> A -> B -> C.
        let mediator = Mediator()
        let barrier = OneShotBarrier(count: 2)
        let touch = [Action<Box>("touch") { _, _ in "touched" }]
        try mediator.register(
            target: "A",
            make: { mediator in
                _ = try mediator.callNow(target: "B", action: "touch", shouldCacheTarget: true)
                return Box()
            }, actions: touch)
        for (name, next) in [("B", "C"), ("C", "A")] {
            try mediator.register(
                target: name,
                make: { mediator in
                    guard barrier.arrive() else { throw FixtureError(message: "the other factory never started") }
                    _ = try mediator.callNow(target: next, action: "touch", shouldCacheTarget: true)
                    return Box()
                }, actions: touch)
        }
        let errors = createAtOnce(["A", "C"], in: mediator)
        let named = errors.compactMap(cycleError).filter { error in ["A", "B", "C"].allSatisfy { error.reason.contains("\"\($0)\"") } }
        #expect(!named.isEmpty, "\(errors)")
        print("Nested cycle: \(named.first.map(String.init(describing:)) ?? "none")")
    }

    @Test("A handle that creates a cached target in a cycle throws cyclicTargetCreation itself, not wrapped")
    func handleCycle() throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Self",
            make: { mediator in
                _ = try mediator.handle(target: "Self", action: "touch", shouldCacheTarget: true)
                return Box()
            }, actions: [Action("touch") { _, _ in "touched" }])
        let error = #expect(throws: MediatorError.self) { try mediator.handle(target: "Self", action: "touch", shouldCacheTarget: true) }
        #expect(error?.code == .cyclicTargetCreation, "\(String(describing: error))")
    }

    @Test("On one thread, a factory asking for its own target still fails with the cycle named")
    func sameThread() throws {
        let mediator = Mediator()
        try registerRing(["Solo"], in: mediator, barrier: OneShotBarrier(count: 1))
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Solo", action: "touch", shouldCacheTarget: true) }
        #expect(cycleError(in: error)?.target == "Solo")
    }
}

@Suite("Creation cycles through a handle's own creations")
struct HandleCreationCycleTests {
    @Test("An uncached handle whose factory asks for the cached instance of its own target throws the cycle unwrapped")
    func uncachedHandle() throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Loop",
            make: { mediator in
                _ = try mediator.callNow(target: "Loop", action: "touch", shouldCacheTarget: true)
                return Box()
            }, actions: [Action("touch") { _, _ in "touched" }])
        let handle = try mediator.handle(target: "Loop", action: "touch")
        let error = #expect(throws: MediatorError.self) { try handle.callNow([:]) }
        #expect(error?.code == .cyclicTargetCreation, "\(String(describing: error))")
    }
}
