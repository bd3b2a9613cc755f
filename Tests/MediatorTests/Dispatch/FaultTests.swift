import Foundation
import Mediator
import TestSupport
import Testing

/// A target whose factory or action fails when told to.
final class Fragile: Sendable {
    init() {}
}

@Suite("Faults: runaway recursion")
struct RecursionTests {
    /// Registers `Loop/again`, which calls itself through `mediator` without end, counting runs.
    func registerLoop(in mediator: Mediator, runs: Counter) throws {
        try mediator.register(
            target: "Loop",
            actions: [
                Action("again") { mediator, _ in
                    runs.increment()
                    return try mediator.callNow(target: "Loop", action: "again")
                },
                Action("count") { mediator, _ in
                    // nil-returning form: the refused call reads as nil, so this counts the depth reached.
                    (mediator.perform(target: "Loop", action: "count") as? Int ?? 0) + 1
                },
                Action("down") { mediator, params in
                    let n = try params.value("n", as: Int.self)
                    return n == 0 ? 0 : try mediator.callNow(target: "Loop", action: "down", params: ["n": n - 1], as: Int.self) + 1
                },
            ])
    }

    @Test("An action calling itself without end fails with callDepthExceeded after maximumCallDepth runs")
    func runaway() throws {
        let mediator = Mediator()
        let runs = Counter()
        try registerLoop(in: mediator, runs: runs)
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Loop", action: "again") }
        #expect(error?.code == .callDepthExceeded)
        #expect(error?.target == "Loop" && error?.action == "again")
        #expect(error?.description.contains("32 mediator calls are already nested") == true)
        #expect(runs.value == 32)
        // The thread's count is back to zero: an ordinary call works afterwards.
        #expect(try mediator.callNow(target: "Loop", action: "down", params: ["n": 3], as: Int.self) == 3)
    }

    @Test("The default limit is 32 and calls nest exactly that deep")
    func exactDepth() throws {
        let mediator = Mediator()
        try registerLoop(in: mediator, runs: Counter())
        #expect(mediator.maximumCallDepth == 32)
        #expect(Mediator.defaultMaximumCallDepth == 32)
        #expect(mediator.perform(target: "Loop", action: "count") as? Int == 32)
        #expect(try mediator.callNow(target: "Loop", action: "down", params: ["n": 31], as: Int.self) == 31)
        #expect(throws: MediatorError.self) { try mediator.callNow(target: "Loop", action: "down", params: ["n": 32]) }
    }

    @Test("A configured maximumCallDepth is honoured (and at least 1)")
    func configured() throws {
        let mediator = Mediator(maximumCallDepth: 10)
        try registerLoop(in: mediator, runs: Counter())
        #expect(mediator.perform(target: "Loop", action: "count") as? Int == 10)
        #expect(Mediator(maximumCallDepth: 0).maximumCallDepth == 1)
    }

    @Test("Mutual recursion between two targets, by URL and through handles, stops the same way")
    func otherPaths() throws {
        let mediator = Mediator()
        try mediator.register(target: "Ping", actions: [Action("go") { mediator, _ in try mediator.callNow(target: "Pong", action: "go") }])
        try mediator.register(target: "Pong", actions: [Action("go") { mediator, _ in try mediator.callNow(target: "Ping", action: "go") }])
        try mediator.register(target: "Remote", actions: [Action("go") { mediator, _ in try mediator.callNow(url: "app://Remote/go") }])
        try mediator.register(
            target: "Handle",
            actions: [
                Action("go") { mediator, _ in try mediator.handle(target: "Handle", action: "go").callNow([:]) }
            ])
        for (target, call) in [
            ("Ping", { _ = try mediator.callNow(target: "Ping", action: "go") }),
            ("Remote", { _ = try mediator.callNow(url: "app://Remote/go") }),
            ("Handle", { _ = try mediator.handle(target: "Handle", action: "go").callNow([:]) }),
        ] as [(String, () throws -> Void)] {
            let error = #expect(throws: MediatorError.self, "\(target)") { try call() }
            #expect(error?.code == .callDepthExceeded, "\(target)")
        }
    }

    @Test("Runaway recursion is stopped within a 1 MiB thread stack, even in a debug build")
    func smallStack() throws {
        let mediator = Mediator()
        try registerLoop(in: mediator, runs: Counter())
        let code = ReadWriteLock<MediatorError.Code?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            // `down` (typed nested call with params) uses more stack per level than `again`.
            do { _ = try mediator.callNow(target: "Loop", action: "down", params: ["n": 1_000_000]) } catch {
                code.withLock { $0 = (error as? MediatorError)?.code }
            }
            done.signal()
        }
        thread.stackSize = 1024 * 1024
        thread.start()
        done.wait()
        #expect(code.withLock { $0 } == .callDepthExceeded)
    }
}

@Suite("Faults: throwing factories and actions")
struct ThrowingTests {
    @Test("A factory that throws at random: the error names the call, nothing half-made is cached, the next call works")
    func randomFactoryFailures() throws {
        let mediator = Mediator()
        let made = Counter()
        let failNext = Counter()
        try mediator.register(
            target: "Flaky",
            make: { _ -> Fragile in
                if failNext.value == 1 { throw FixtureError(message: "factory refused") }
                made.increment()
                return Fragile()
            }, actions: [Action("id") { target, _ in ObjectIdentifier(target) }])

        var generator = SeededGenerator(seed: 0xFA17)
        var cachedID: ObjectIdentifier?
        var failures = 0
        var expectedMade = 0
        for _ in 0..<2_000 {
            let fail = Bool.random(using: &generator)
            let cache = Bool.random(using: &generator)
            failNext.set(fail ? 1 : 0)
            if Int.random(in: 0..<10, using: &generator) == 0 {
                mediator.releaseCachedTarget(fullName: "Target_Flaky")
                cachedID = nil
            }
            let needsFactory = cachedID == nil
            do {
                let id = try mediator.callNow(target: "Flaky", action: "id", shouldCacheTarget: cache, as: ObjectIdentifier.self)
                #expect(!(fail && needsFactory), "a refusing factory produced an instance")
                if needsFactory { expectedMade += 1 }
                if let cachedID { #expect(id == cachedID) }
                if cache { cachedID = id }
            } catch {
                failures += 1
                #expect(fail && needsFactory)
                #expect(error.code == .actionFailed && error.target == "Flaky" && error.action == "id")
                #expect(error.actionErrorCode == "fixture")
                #expect(error.underlying as? FixtureError == FixtureError(message: "factory refused"))
                #expect(!mediator.hasCachedInstance(ofTarget: "Flaky"), "a failed creation left an instance cached")
            }
            #expect(mediator.hasCachedInstance(ofTarget: "Flaky") == (cachedID != nil))
        }
        #expect(failures > 100)
        #expect(made.value == expectedMade)
    }

    @Test("A factory that throws on its first call while eight threads wait: every thread gets an instance or the error, then one instance is shared")
    func concurrentFirstFailure() throws {
        let mediator = Mediator()
        let attempts = Counter()
        let made = Counter()
        try mediator.register(
            target: "Slow",
            make: { _ -> Fragile in
                if attempts.increment() == 1 {
                    usleep(20_000)
                    throw FixtureError(message: "first attempt")
                }
                made.increment()
                return Fragile()
            }, actions: [Action("id") { target, _ in ObjectIdentifier(target) }])

        let results = ReadWriteLock<[Result<ObjectIdentifier, MediatorError>]>([])
        onThreads(8) { _ in
            let result = Result { () throws(MediatorError) in
                try mediator.callNow(target: "Slow", action: "id", shouldCacheTarget: true, as: ObjectIdentifier.self)
            }
            results.withLock { $0.append(result) }
        }
        let all = results.withLock { $0 }
        let ids = Set(all.compactMap { try? $0.get() })
        let errors = all.compactMap { if case .failure(let error) = $0 { error } else { nil } }
        #expect(errors.count == 1 && errors.first?.code == .actionFailed && errors.first?.target == "Slow")
        #expect(ids.count == 1 && made.value == 1)
        #expect(try mediator.callNow(target: "Slow", action: "id", as: ObjectIdentifier.self) == ids.first)
    }

    @Test("An action that throws on its first call: the caller gets it with names attached, the next call succeeds")
    func actionFailsOnce() throws {
        let mediator = Mediator()
        let calls = Counter()
        try mediator.register(
            target: "Once", make: { _ in Fragile() },
            actions: [
                Action("run") { _, _ in
                    if calls.increment() == 1 { throw FixtureError(message: "first") }
                    return "ok"
                }
            ])
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Target_Once", action: "Action_run", shouldCacheTarget: true) }
        #expect(error?.code == .actionFailed && error?.target == "Once" && error?.action == "run")
        #expect(error?.description == "Once/run: the action failed: fixture error: first")
        #expect(mediator.hasCachedInstance(ofTarget: "Once"), "the instance was made; only the action failed")
        #expect(try mediator.callNow(target: "Once", action: "run", shouldCacheTarget: true) as? String == "ok")
    }
}
