import Foundation
import Mediator
import TestSupport
import Testing

/// An instance of a cached stress target: counts the calls it served.
final class StressService: Sendable {
    let serial: Int
    let calls = Counter()
    init(serial: Int) { self.serial = serial }
}

/// Everything the stress run counts, shared by the threads.
final class StressLedger: Sendable {
    static let cachedTargets = 4

    /// Instances made per cached target, in creation order.
    let made = ReadWriteLock<[[StressService]]>(Array(repeating: [], count: cachedTargets))
    /// Release calls per cached target (each may or may not have found an instance).
    let releases = (0..<cachedTargets).map { _ in Counter() }
    /// Calls issued to the cached targets, by every path.
    let cachedCallsIssued = Counter()
    /// Fresh (uncached) instances made, and calls issued to that target.
    let freshMade = Counter()
    let freshCallsIssued = Counter()
    /// The first failures, described (the run goes on; all are reported at the end).
    let failures = ReadWriteLock<[String]>([])
    let failureCount = Counter()

    init() {}

    func fail(_ message: String) {
        if failureCount.increment() <= 20 { failures.withLock { $0.append(message) } }
    }
}

/// The operations a stress thread chooses from.
enum StressOperation: CaseIterable {
    case cachedPerform, cachedCall, cachedURL, cachedHandle, freshPerform, nested, register, addAction,
        callOwn, release
}

@Suite("Concurrency stress")
struct StressTests {
    static let threads = 8
    static let operationsPerThread = 50_000

    /// The seed: `MEDIATOR_STRESS_SEED` (decimal or 0x-hex) replays a failed run.
    static var seed: UInt64 {
        let text = ProcessInfo.processInfo.environment["MEDIATOR_STRESS_SEED"] ?? "0x5EED_2026"
        let digits = text.replacingOccurrences(of: "_", with: "")
        return digits.hasPrefix("0x") ? UInt64(digits.dropFirst(2), radix: 16) ?? 0 : UInt64(digits) ?? 0
    }

    func registerFixtures(in mediator: Mediator, ledger: StressLedger) throws {
        for index in 0..<StressLedger.cachedTargets {
            try mediator.register(
                target: "Cached\(index)", alwaysCached: true,
                make: { _ -> StressService in
                    ledger.made.withLock { made in
                        let service = StressService(serial: made[index].count)
                        made[index].append(service)
                        return service
                    }
                },
                actions: [
                    Action("add") { service, params in
                        service.calls.increment()
                        return try params.value("a", as: Int.self) + params.value("b", as: Int.self)
                    }
                ])
        }
        try mediator.register(
            target: "Fresh",
            make: { _ -> StressService in
                StressService(serial: ledger.freshMade.increment())
            },
            actions: [
                Action("serial") { service, params in
                    [service.serial, try params.value("x", as: Int.self)]
                }
            ])
        try mediator.register(
            target: "Nest",
            actions: [
                // The sum n + (n-1) + ... + 1, one nested dispatch per term.
                Action("sum") { mediator, params in
                    let n = try params.value("n", as: Int.self)
                    return n == 0 ? 0 : n + (try mediator.callNow(target: "Nest", action: "sum", params: ["n": n - 1], as: Int.self))
                }
            ])
    }

    @Test("8 threads x 50,000 random operations: results correct, registrations present, one instance per cached target between releases, no call lost")
    func stress() async throws {
        let seed = Self.seed
        print("Concurrency stress: seed 0x\(String(seed, radix: 16)) (thread i uses seed + i; replay with MEDIATOR_STRESS_SEED)")
        let mediator = Mediator()
        let ledger = StressLedger()
        try registerFixtures(in: mediator, ledger: ledger)
        let registered = ReadWriteLock<[[String]]>(Array(repeating: [], count: Self.threads))
        let ownActions = ReadWriteLock<[Int]>(Array(repeating: 0, count: Self.threads))

        // On threads of their own, the test suspended: blocking a thread of the shared pool for
        // the whole run (minutes under ThreadSanitizer) starved the tests running beside it.
        await onPlainThread {
            onThreads(Self.threads) { thread in
                var generator = SeededGenerator(seed: seed &+ UInt64(thread))
                var mine: [String] = []
                var ownActionCount = 0
                let own = "Own\(thread)"
                do {
                    try mediator.register(target: own, actions: [])
                } catch {
                    ledger.fail("thread \(thread): registering \(own): \(error)")
                }
                for step in 0..<Self.operationsPerThread {
                    let operation = StressOperation.allCases.randomElement(using: &generator)!
                    let target = Int.random(in: 0..<StressLedger.cachedTargets, using: &generator)
                    let a = Int.random(in: -1_000_000...1_000_000, using: &generator)
                    let b = Int.random(in: -1_000_000...1_000_000, using: &generator)
                    // Built only when something failed.
                    var context: String { "thread \(thread) step \(step) \(operation)" }
                    switch operation {
                    case .cachedPerform:
                        ledger.cachedCallsIssued.increment()
                        let result = mediator.perform(target: "Cached\(target)", action: "add", params: ["a": a, "b": b], shouldCacheTarget: true)
                        if result as? Int != a + b { ledger.fail("\(context): got \(String(describing: result)), expected \(a + b)") }
                    case .cachedCall:
                        ledger.cachedCallsIssued.increment()
                        do {
                            let result = try mediator.callNow(
                                target: "Target_Cached\(target)", action: "Action_add", params: ["a": "\(a)", "b": b], as: Int.self)
                            if result != a + b { ledger.fail("\(context): got \(result), expected \(a + b)") }
                        } catch { ledger.fail("\(context): \(error)") }
                    case .cachedURL:
                        ledger.cachedCallsIssued.increment()
                        do {
                            let result = try mediator.callNow(url: "app://Cached\(target)/add?a=\(a)&b=\(b)")
                            if result as? Int != a + b { ledger.fail("\(context): got \(String(describing: result)), expected \(a + b)") }
                        } catch { ledger.fail("\(context): \(error)") }
                    case .cachedHandle:
                        ledger.cachedCallsIssued.increment()
                        do {
                            let handle = try mediator.handle(target: "Cached\(target)", action: "add")
                            if try handle.callNow(["a": a, "b": b]) as? Int != a + b { ledger.fail("\(context): wrong sum") }
                        } catch { ledger.fail("\(context): \(error)") }
                    case .freshPerform:
                        ledger.freshCallsIssued.increment()
                        let result = mediator.perform(target: "Fresh", action: "serial", params: ["x": a]) as? [Int]
                        if result?.last != a { ledger.fail("\(context): got \(String(describing: result))") }
                    case .nested:
                        let n = Int.random(in: 1...6, using: &generator)
                        let result = mediator.perform(target: "Nest", action: "sum", params: ["n": n])
                        if result as? Int != n * (n + 1) / 2 { ledger.fail("\(context): sum of 1...\(n) gave \(String(describing: result))") }
                    case .register where step % 8 == 0:
                        let name = "T\(thread)x\(mine.count)"
                        do {
                            try mediator.register(target: name, actions: [Action("name") { _, _ in name }])
                            mine.append(name)
                        } catch { ledger.fail("\(context): registering \(name): \(error)") }
                    case .register:
                        break
                    case .addAction where step % 8 == 0:
                        let number = ownActionCount
                        do {
                            try mediator.addActions([Action<Mediator>("a\(number)") { _, _ in number }], toTarget: own)
                            ownActionCount += 1
                        } catch { ledger.fail("\(context): adding a\(number): \(error)") }
                    case .addAction:
                        break
                    case .callOwn:
                        if let name = mine.randomElement(using: &generator), mediator.perform(target: name, action: "name") as? String != name {
                            ledger.fail("\(context): \(name) did not answer its name")
                        }
                        if ownActionCount > 0 {
                            let number = Int.random(in: 0..<ownActionCount, using: &generator)
                            if mediator.perform(target: own, action: "a\(number)") as? Int != number { ledger.fail("\(context): \(own)/a\(number) lost") }
                        }
                    case .release:
                        // Rare: releases bound how many instances a target may make.
                        if step % 16 == 0 {
                            ledger.releases[target].increment()
                            mediator.releaseCachedTarget(fullName: "Target_Cached\(target)")
                        }
                    }
                }
                registered.withLock { $0[thread] = mine }
                ownActions.withLock { $0[thread] = ownActionCount }
            }
        }

        let failures = ledger.failures.withLock { $0 }
        #expect(failures.isEmpty, "\(ledger.failureCount.value) failures (seed 0x\(String(seed, radix: 16))), first: \(failures.joined(separator: "\n"))")

        // Every registration is present and answers.
        let names = registered.withLock { $0 }
        #expect(names.joined().count > Self.threads * 100)
        for name in names.joined() {
            #expect((try? await mediator.call(target: name, action: "name")) as? String == name, "\(name)")
        }
        for (thread, count) in ownActions.withLock({ $0 }).enumerated() {
            #expect(mediator.target(named: "Own\(thread)")?.actions.count == count)
        }

        // One instance per cached target between releases: a target makes at most one instance
        // more than it was released (a release during a creation lets the next call make another).
        let made = ledger.made.withLock { $0 }
        for index in 0..<StressLedger.cachedTargets {
            let releases = ledger.releases[index].value
            #expect(made[index].count >= 1 && made[index].count <= releases + 1, "Cached\(index): \(made[index].count) instances for \(releases) releases")
        }
        // No call lost: every cached call issued was served by exactly one instance.
        let served = made.joined().reduce(0) { $0 + $1.calls.value }
        #expect(served == ledger.cachedCallsIssued.value)
        #expect(ledger.freshMade.value == ledger.freshCallsIssued.value)
        #expect(ledger.cachedCallsIssued.value > Self.threads * Self.operationsPerThread / 3)
    }
}
