import Foundation
import Mediator
import TestSupport
import Testing

/// The operations an async stress task chooses from.
enum AsyncStressOperation: CaseIterable {
    case asyncCall, asyncCallAs, asyncHandle, syncFromTask, completion, cancelledCall, cancelledPark, mainActorCall,
        mainActorSync, nested, fresh, release
}

/// The operations a plain stress thread chooses from (synchronous entry points only).
enum SyncStressOperation: CaseIterable {
    case call, perform, nested, mainActorSync, release
}

/// Everything the async stress run counts.
final class AsyncStressLedger: Sendable {
    static let cachedTargets = 4
    /// The depth limit of the stress mediator: nested sums of 0...7 fit, 8 and 9 do not.
    static let depthLimit = 8

    /// Instances made per cached target, in creation order.
    let made = ReadWriteLock<[[StressService]]>(Array(repeating: [], count: cachedTargets))
    let releases = (0..<cachedTargets).map { _ in Counter() }
    /// Cached calls answered with the right sum (each was served by exactly one instance).
    let answered = Counter()
    let freshMade = Counter()
    let freshAnswered = Counter()
    let mainActorAnswered = Counter()
    /// Park actions running now (each ends only when cancelled).
    let parked = Counter()
    let failures = ReadWriteLock<[String]>([])
    let failureCount = Counter()

    init() {}

    func fail(_ message: String) {
        if failureCount.increment() <= 20 { failures.withLock { $0.append(message) } }
    }

    /// Checks a cached call's outcome: the sum, or (when `allowed` says so) an expected error code.
    func check(_ result: Result<(any Sendable)?, MediatorError>, sum: Int, allowed: Set<MediatorError.Code> = [], _ context: @autoclosure () -> String) {
        switch result {
        case .success(let value as Int) where value == sum:
            answered.increment()
        case .failure(let error) where allowed.contains(error.code):
            break
        default:
            fail("\(context()): \(result), expected \(sum)\(allowed.isEmpty ? "" : " or \(allowed)")")
        }
    }
}

/// What a nested sum must give: the sum, or a refusal.
enum NestedSum {
    case sum(Int)
    case refused(MediatorError.Code)
}

@Suite("Async concurrency stress")
struct AsyncStressTests {
    static let tasks = 8
    static let operationsPerTask = 10_000
    static let threads = 2
    static let operationsPerThread = 20_000

    /// Cached targets: even ones have a synchronous factory, odd ones an async factory that
    /// suspends, so that concurrent callers meet during creation.
    func registerFixtures(in mediator: Mediator, ledger: AsyncStressLedger) throws {
        for index in 0..<AsyncStressLedger.cachedTargets {
            let make: @Sendable () -> StressService = {
                ledger.made.withLock { made in
                    let service = StressService(serial: made[index].count)
                    made[index].append(service)
                    return service
                }
            }
            let actions: [Action<StressService>] = [
                Action("add") { service, params in
                    service.calls.increment()
                    return try params.value("a", as: Int.self) + params.value("b", as: Int.self)
                },
                Action("addLater") { service, params async throws in
                    try Task.checkCancellation()
                    await Task.yield()
                    try Task.checkCancellation()
                    let sum = try params.value("a", as: Int.self) + params.value("b", as: Int.self)
                    // Counted last: from here on the call can only answer.
                    service.calls.increment()
                    return sum
                },
            ]
            if index % 2 == 0 {
                try mediator.register(target: "Cached\(index)", make: { _ in make() }, actions: actions)
            } else {
                try mediator.register(
                    target: "Cached\(index)",
                    make: { _ async in
                        await Task.yield()
                        return make()
                    }, actions: actions)
            }
        }
        try mediator.register(
            target: "Fresh",
            make: { _ async -> StressService in
                await Task.yield()
                return StressService(serial: ledger.freshMade.increment())
            },
            actions: [Action("echo") { _, params in try params.value("x", as: Int.self) }])
        try mediator.register(
            target: "Park",
            actions: [
                Action("wait") { _, _ async throws in
                    ledger.parked.increment()
                    defer { ledger.parked.increment(by: -1) }
                    try await suspendUntilCancelled()
                    return "not cancelled"
                }
            ])
        try mediator.register(
            target: "Nest",
            actions: [
                // n + (n-1) + ... + 0, one nested call per term; every third level is synchronous
                // and the synchronous levels nest synchronously: async and sync depths add up.
                Action("sum") { mediator, params async throws in
                    let n = try params.value("n", as: Int.self)
                    guard n > 0 else { return 0 }
                    let next = n % 3 == 0 ? "syncSum" : "sum"
                    return n + (try await mediator.call(target: "Nest", action: next, params: ["n": n - 1], as: Int.self))
                },
                Action("syncSum") { mediator, params in
                    let n = try params.value("n", as: Int.self)
                    return n == 0 ? 0 : n + (try mediator.callNow(target: "Nest", action: "syncSum", params: ["n": n - 1], as: Int.self))
                },
            ])
        try mediator.register(Target_TestScreen.self) { _ in Target_TestScreen() }
    }

    /// What a nested sum of `n` must give at the stress mediator's depth limit.
    static func expectedSum(_ n: Int) -> NestedSum {
        n < AsyncStressLedger.depthLimit ? .sum(n * (n + 1) / 2) : .refused(.callDepthExceeded)
    }

    @Test(
        "Async stress: random async, completion, cancelled and main-actor calls beside synchronous threads; results right, one instance per cached target between releases, nothing left running"
    )
    func asyncStress() async throws {
        let seed = StressTests.seed &+ 0xA5
        print("Async concurrency stress: seed 0x\(String(StressTests.seed, radix: 16)) (task i uses seed + 0xA5 + i; replay with MEDIATOR_STRESS_SEED)")
        let mediator = Mediator(maximumCallDepth: AsyncStressLedger.depthLimit)
        let ledger = AsyncStressLedger()
        try registerFixtures(in: mediator, ledger: ledger)

        try await withinHangLimit("the async stress") {
            async let threadsDone: Void = onPlainThread {
                onThreads(Self.threads) { thread in Self.syncWorker(thread, seed: seed, mediator: mediator, ledger: ledger) }
            }
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<Self.tasks {
                    group.addTask { await Self.asyncWorker(task, seed: seed, mediator: mediator, ledger: ledger) }
                }
            }
            await threadsDone
        }

        let failures = ledger.failures.withLock { $0 }
        #expect(
            failures.isEmpty,
            "\(ledger.failureCount.value) failures (seed 0x\(String(StressTests.seed, radix: 16))), first: \(failures.joined(separator: "\n"))")
        // One instance per cached target between releases.
        let made = ledger.made.withLock { $0 }
        for index in 0..<AsyncStressLedger.cachedTargets {
            let releases = ledger.releases[index].value
            #expect(made[index].count >= 1 && made[index].count <= releases + 1, "Cached\(index): \(made[index].count) instances for \(releases) releases")
        }
        // Every answered cached call was served by one instance, and no served call went unanswered.
        #expect(made.joined().reduce(0) { $0 + $1.calls.value } == ledger.answered.value)
        #expect(ledger.answered.value > Self.tasks * Self.operationsPerTask / 4)
        #expect(ledger.freshMade.value == ledger.freshAnswered.value)
        // Nothing left running: every parked action ended with its cancelled task.
        #expect(ledger.parked.value == 0)
        // The main-actor instance saw every main-actor call, on the main actor.
        let lastTap = try await mediator.call(target: "TestScreen", action: "tap", shouldCacheTarget: true, as: ScreenVisit.self)
        #expect(lastTap == ScreenVisit(onMainQueue: true, taps: ledger.mainActorAnswered.value + 1))
        // No creation is left half-done: every cached target can be created again, by either path.
        mediator.releaseAllCachedTargets()
        for index in 0..<AsyncStressLedger.cachedTargets {
            let sum = try await withinHangLimit("creating Cached\(index) after the run") {
                try await mediator.call(target: "Cached\(index)", action: "addLater", params: ["a": index, "b": 1], shouldCacheTarget: true)
            }
            #expect(sum as? Int == index + 1)
        }
    }

    @Test("10,000 concurrent async calls to an async action, all in flight at once, each return the result of their own params")
    func tenThousandConcurrentCalls() async throws {
        let calls = 10_000
        let mediator = Mediator()
        let arrived = Counter()
        let allInFlight = Latch()
        try mediator.register(
            target: "Compute",
            actions: [
                Action("scale") { _, params async throws in
                    let x = try params.value("x", as: Int.self)
                    let label = try params.value("label", as: String.self)
                    // No call answers before all 10,000 are running: they are concurrent for certain.
                    if arrived.increment() == calls { allInFlight.open() }
                    await allInFlight.wait()
                    return "\(label):\(x &* 7 &+ 3)"
                }
            ])
        let wrong = try await withinHangLimit("10,000 concurrent async calls") {
            await withTaskGroup(of: String?.self) { group in
                for x in 0..<calls {
                    group.addTask {
                        let expected = "c\(x):\(x &* 7 &+ 3)"
                        let params: Params = ["x": x, "label": "c\(x)"]
                        // The entry points take turns: each must deliver the call's own result.
                        let result: Result<(any Sendable)?, MediatorError>
                        switch x % 4 {
                        case 0: result = await outcome { try await mediator.call(target: "Compute", action: "scale", params: params) }
                        case 1: result = .success(try? await mediator.call(target: "Compute", action: "scale", params: params))
                        case 2: result = await outcome { try await mediator.handle(target: "Compute", action: "scale").call(params) }
                        default: result = await outcome { try await mediator.call(url: "app://Compute/scale?x=\(x)&label=c\(x)") }
                        }
                        if case .success(let value as String) = result, value == expected { return nil }
                        return "call \(x): \(result), expected \(expected)"
                    }
                }
                return await group.reduce(into: [String]()) { wrong, problem in
                    if let problem { wrong.append(problem) }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(10).joined(separator: "\n"))")
        #expect(arrived.value == calls)
    }

    static func asyncWorker(_ task: Int, seed: UInt64, mediator: Mediator, ledger: AsyncStressLedger) async {
        var generator = SeededGenerator(seed: seed &+ UInt64(task))
        for step in 0..<operationsPerTask {
            let operation = AsyncStressOperation.allCases.randomElement(using: &generator)!
            let index = Int.random(in: 0..<AsyncStressLedger.cachedTargets, using: &generator)
            let a = Int.random(in: -1_000_000...1_000_000, using: &generator)
            let b = Int.random(in: -1_000_000...1_000_000, using: &generator)
            let action = Bool.random(using: &generator) ? "add" : "addLater"
            let target = "Cached\(index)"
            let params: Params = ["a": a, "b": b]
            var context: String { "task \(task) step \(step) \(operation) \(target)/\(action)" }
            switch operation {
            case .asyncCall:
                ledger.check(
                    await outcome { try await mediator.call(target: target, action: action, params: params, shouldCacheTarget: true) }, sum: a + b, context)
            case .asyncCallAs:
                ledger.check(
                    await outcome { try await mediator.call(target: target, action: action, params: params, shouldCacheTarget: true, as: Int.self) },
                    sum: a + b, context)
            case .asyncHandle:
                let result = await outcome {
                    try await mediator.handle(target: target, action: action, shouldCacheTarget: true).call(params)
                }
                ledger.check(result, sum: a + b, context)
            case .syncFromTask:
                // A synchronous call answers when the instance can be had without awaiting; an
                // async factory (odd targets) may leave it nothing to run.
                let result: Result<(any Sendable)?, MediatorError> = outcomeNow {
                    try mediator.callNow(target: target, action: "add", params: params, shouldCacheTarget: true)
                }
                ledger.check(result, sum: a + b, allowed: index % 2 == 1 ? [.asyncAction] : [], context)
            case .completion:
                let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<(any Sendable)?, MediatorError>, Never>) in
                    mediator.perform(target: target, action: action, params: params, shouldCacheTarget: true, as: (any Sendable)?.self) {
                        continuation.resume(returning: $0)
                    }
                }
                ledger.check(result, sum: a + b, context)
            case .cancelledCall:
                let call = Task { await outcome { try await mediator.call(target: target, action: action, params: params, shouldCacheTarget: true) } }
                call.cancel()
                ledger.check(await call.value, sum: a + b, allowed: [.cancelled], context)
            case .cancelledPark:
                let call = Task { await outcome { try await mediator.call(target: "Park", action: "wait") } }
                if Bool.random(using: &generator) { await Task.yield() }
                call.cancel()
                if case .failure(let error) = await call.value, error.code == .cancelled {
                } else {
                    ledger.fail("\(context): a cancelled park did not end with cancelled")
                }
            case .mainActorCall:
                let result = await outcome { try await mediator.call(target: "TestScreen", action: "tap", shouldCacheTarget: true) }
                if case .success(let visit as ScreenVisit) = result, visit.onMainQueue {
                    ledger.mainActorAnswered.increment()
                } else {
                    ledger.fail("\(context): main-actor tap gave \(result)")
                }
            case .mainActorSync:
                if mediatorError({ try mediator.callNow(target: "TestScreen", action: "tap", shouldCacheTarget: true) })?.code != .asyncAction {
                    ledger.fail("\(context): a synchronous main-actor call off the main actor did not fail with asyncAction")
                }
            case .nested:
                let n = Int.random(in: 0...9, using: &generator)
                let result = await outcome { try await mediator.call(target: "Nest", action: "sum", params: ["n": n]) }
                Self.checkNested(result, n: n, ledger: ledger, context)
            case .fresh:
                let result = await outcome { try await mediator.call(target: "Fresh", action: "echo", params: ["x": a]) }
                if case .success(let value as Int) = result, value == a {
                    ledger.freshAnswered.increment()
                } else {
                    ledger.fail("\(context): fresh echo gave \(result)")
                }
            case .release:
                if step % 8 == 0 {
                    ledger.releases[index].increment()
                    mediator.releaseCachedTarget(fullName: target)
                }
            }
        }
    }

    static func syncWorker(_ thread: Int, seed: UInt64, mediator: Mediator, ledger: AsyncStressLedger) {
        var generator = SeededGenerator(seed: seed &+ 0x1000 &+ UInt64(thread))
        for step in 0..<operationsPerThread {
            let operation = SyncStressOperation.allCases.randomElement(using: &generator)!
            let index = Int.random(in: 0..<AsyncStressLedger.cachedTargets, using: &generator)
            let a = Int.random(in: -1_000_000...1_000_000, using: &generator)
            let b = Int.random(in: -1_000_000...1_000_000, using: &generator)
            let target = "Cached\(index)"
            var context: String { "thread \(thread) step \(step) \(operation) \(target)" }
            // Odd targets have async factories: a synchronous call may find nothing it can run.
            let allowed: Set<MediatorError.Code> = index % 2 == 1 ? [.asyncAction] : []
            switch operation {
            case .call:
                let result: Result<(any Sendable)?, MediatorError> = outcomeNow {
                    try mediator.callNow(target: target, action: "add", params: ["a": a, "b": b], shouldCacheTarget: true)
                }
                ledger.check(result, sum: a + b, allowed: allowed, context)
            case .perform:
                if let value = mediator.perform(target: target, action: "add", params: ["a": a, "b": b], shouldCacheTarget: true) {
                    ledger.check(.success(value), sum: a + b, context)
                } else if index % 2 == 0 {
                    ledger.fail("\(context): perform returned nil")
                }
                // An async action is never run by a synchronous entry point.
                if mediator.perform(target: target, action: "addLater", params: ["a": a, "b": b], shouldCacheTarget: true) != nil {
                    ledger.fail("\(context): perform ran an async action")
                }
            case .nested:
                let n = Int.random(in: 0...9, using: &generator)
                let result: Result<(any Sendable)?, MediatorError> = outcomeNow {
                    try mediator.callNow(target: "Nest", action: "syncSum", params: ["n": n])
                }
                checkNested(result, n: n, ledger: ledger, context)
            case .mainActorSync:
                if mediatorError({ try mediator.callNow(target: "TestScreen", action: "tap", shouldCacheTarget: true) })?.code != .asyncAction {
                    ledger.fail("\(context): a synchronous main-actor call off the main actor did not fail with asyncAction")
                }
            case .release:
                if step % 8 == 0 {
                    ledger.releases[index].increment()
                    mediator.releaseCachedTarget(fullName: target)
                }
            }
        }
    }

    static func checkNested(_ result: Result<(any Sendable)?, MediatorError>, n: Int, ledger: AsyncStressLedger, _ context: @autoclosure () -> String) {
        switch (expectedSum(n), result) {
        case (.sum(let sum), .success(let value as Int)) where value == sum: break
        case (.refused(let code), .failure(let error)) where error.code == code: break
        default: ledger.fail("\(context()): nested sum of \(n) gave \(result), expected \(expectedSum(n))")
        }
    }
}
