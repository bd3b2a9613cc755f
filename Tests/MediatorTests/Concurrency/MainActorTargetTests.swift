import Foundation
import Mediator
import TestSupport
import Testing

/// What a main-actor action saw: whether it ran on the main queue (the main actor's executor), and the instance's main-actor
/// count after it.
struct ScreenVisit: Sendable, Equatable {
    let onMainQueue: Bool
    let taps: Int
}

/// A screen-like target, declared as users declare one: no `@preconcurrency`, no `assumeIsolated`.
/// Its state is main-actor isolated; the compiler checks that its actions touch it only there.
final class Target_TestScreen: MainActorTarget {
    static let actions: [Action<Target_TestScreen>] = [
        Action("tap") { screen, _ in
            screen.taps += 1
            return ScreenVisit(onMainQueue: runsOnMainQueue(), taps: screen.taps)
        },
        Action("reload") { screen, _ async throws in
            await Task.yield()
            screen.taps += 1
            return ScreenVisit(onMainQueue: runsOnMainQueue(), taps: screen.taps)
        },
        Action("notify") { screen, params in
            let done = try params.value("done", as: (@MainActor @Sendable (String) -> Void).self)
            done(screen.title)
            return nil
        },
    ]

    var taps = 0
    let title = "Profile"

    init() {}
}

/// What main-actor callbacks heard, in order.
@MainActor
final class HeardTitles {
    var titles: [String] = []
    init() {}
}

/// A global actor other than the main actor, for storage-like targets.
@globalActor
actor TestStorageActor {
    static let shared = TestStorageActor()
}

/// A target isolated to ``TestStorageActor``: reached through async actions, made by an async
/// factory (its initializer is isolated to the actor).
@TestStorageActor
final class Target_TestStorage: MediatorTarget {
    nonisolated static let actions: [Action<Target_TestStorage>] = [
        Action("put") { storage, params async throws in
            let key = try params.value("key", as: String.self)
            let value = try params.value("value", as: Int.self)
            return await storage.put(key, value)
        },
        Action("get") { storage, params async throws in
            let key = try params.value("key", as: String.self)
            return await storage.entries[key]
        },
        Action("count") { storage, _ async in await storage.entries.count },
    ]

    private(set) var entries: [String: Int] = [:]

    init() {}

    func put(_ key: String, _ value: Int) -> Int {
        entries[key] = value
        return entries.count
    }
}

@Suite("Main-actor targets")
struct MainActorTargetTests {
    /// A mediator with the screen registered; `made` counts its factory's runs, `madeOffMain`
    /// those that were not on the main thread (there must be none).
    func screenMediator(made: Counter, madeOffMain: Counter) throws -> Mediator {
        let mediator = Mediator()
        try mediator.register(Target_TestScreen.self) { _ in
            made.increment()
            if !runsOnMainQueue() { madeOffMain.increment() }
            return Target_TestScreen()
        }
        return mediator
    }

    // MARK: From the main actor

    @Test("On the main actor, the synchronous entry points run a main-actor action at once and return its result")
    @MainActor
    func synchronousOnTheMainActor() throws {
        let made = Counter()
        let madeOffMain = Counter()
        let mediator = try screenMediator(made: made, madeOffMain: madeOffMain)

        let first = try mediator.callNow(target: "TestScreen", action: "tap", shouldCacheTarget: true, as: ScreenVisit.self)
        #expect(first == ScreenVisit(onMainQueue: true, taps: 1))
        #expect(mediator.perform(target: "TestScreen", action: "tap", shouldCacheTarget: true) as? ScreenVisit == ScreenVisit(onMainQueue: true, taps: 2))
        let handle = try mediator.handle(target: "TestScreen", action: "tap", shouldCacheTarget: true)
        #expect(try handle.callNow([:]) as? ScreenVisit == ScreenVisit(onMainQueue: true, taps: 3))
        #expect(try mediator.callNow(url: "app://TestScreen/tap") as? ScreenVisit == ScreenVisit(onMainQueue: true, taps: 4))
        #expect(made.value == 1)
        #expect(madeOffMain.value == 0)
    }

    @Test("On the main actor, the async entry points run main-actor actions, sync and async, on the main actor")
    @MainActor
    func asyncOnTheMainActor() async throws {
        let made = Counter()
        let madeOffMain = Counter()
        let mediator = try screenMediator(made: made, madeOffMain: madeOffMain)

        #expect(
            try await mediator.call(target: "TestScreen", action: "tap", shouldCacheTarget: true) as? ScreenVisit == ScreenVisit(onMainQueue: true, taps: 1))
        #expect(
            try await mediator.call(target: "TestScreen", action: "reload", shouldCacheTarget: true) as? ScreenVisit == ScreenVisit(onMainQueue: true, taps: 2))
        // The async action is not run by a synchronous entry point, even on the main actor.
        #expect(mediatorError { try mediator.callNow(target: "TestScreen", action: "reload", shouldCacheTarget: true) }?.code == .asyncAction)
        #expect(made.value == 1)
        #expect(madeOffMain.value == 0)
    }

    // MARK: From a detached task

    @Test("From a detached task, the async entry points hop to the main actor for the factory and the actions")
    func asyncFromADetachedTask() async throws {
        let made = Counter()
        let madeOffMain = Counter()
        let mediator = try screenMediator(made: made, madeOffMain: madeOffMain)

        let (offMain, visits) = try await withinHangLimit("calls from a detached task") {
            try await Task.detached { () async throws -> (Bool, [ScreenVisit?]) in
                let offMain = !runsOnMainQueue()
                let handle = try mediator.handle(target: "TestScreen", action: "tap", shouldCacheTarget: true)
                let visits = [
                    try await mediator.call(target: "TestScreen", action: "tap", shouldCacheTarget: true) as? ScreenVisit,
                    try await mediator.call(target: "TestScreen", action: "reload", shouldCacheTarget: true) as? ScreenVisit,
                    try? await mediator.call(target: "TestScreen", action: "tap", shouldCacheTarget: true) as? ScreenVisit,
                    try await handle.call([:]) as? ScreenVisit,
                    try await mediator.call(url: "app://TestScreen/tap") as? ScreenVisit,
                ]
                return (offMain, visits)
            }.value
        }
        #expect(offMain)
        #expect(visits == (1...5).map { ScreenVisit(onMainQueue: true, taps: $0) })
        #expect(made.value == 1)
        #expect(madeOffMain.value == 0)
    }

    @Test("From a detached task, the synchronous entry points fail with asyncAction and run nothing")
    func synchronousFromADetachedTask() async throws {
        let made = Counter()
        let madeOffMain = Counter()
        let mediator = try screenMediator(made: made, madeOffMain: madeOffMain)

        let (offMain, performed, codes) = try await Task.detached { () throws -> (Bool, Bool, [MediatorError.Code?]) in
            let offMain = !runsOnMainQueue()
            let performed = mediator.perform(target: "TestScreen", action: "tap", shouldCacheTarget: true) != nil
            let handle = try mediator.handle(target: "TestScreen", action: "tap", shouldCacheTarget: true)
            return (
                offMain, performed,
                [
                    mediatorError { try mediator.callNow(target: "TestScreen", action: "tap", shouldCacheTarget: true) }?.code,
                    mediatorError { try mediator.callNow(target: "TestScreen", action: "tap") }?.code,
                    mediatorError { try handle.callNow([:]) }?.code,
                    mediatorError { try mediator.callNow(url: "app://TestScreen/tap") }?.code,
                ]
            )
        }.value
        #expect(offMain)
        #expect(!performed)
        #expect(codes == Array(repeating: .asyncAction, count: 4))
        // Nothing ran: no instance was made, and the first tap that runs is the first one.
        #expect(made.value == 0)
        let firstTap = try await withinHangLimit("the first tap") { try await mediator.call(target: "TestScreen", action: "tap", shouldCacheTarget: true) }
        #expect(firstTap as? ScreenVisit == ScreenVisit(onMainQueue: true, taps: 1))
    }

    @Test("From a detached task, a cached main-actor instance is still out of reach of the synchronous entry points")
    func synchronousFromADetachedTaskWithACachedInstance() async throws {
        let made = Counter()
        let madeOffMain = Counter()
        let mediator = try screenMediator(made: made, madeOffMain: madeOffMain)
        _ = try await mediator.call(target: "TestScreen", action: "tap", shouldCacheTarget: true)
        #expect(mediator.hasCachedInstance(ofTarget: "TestScreen"))

        let code = await Task.detached { mediatorError { try mediator.callNow(target: "TestScreen", action: "tap") }?.code }.value
        #expect(code == .asyncAction)
        #expect(try await mediator.call(target: "TestScreen", action: "tap") as? ScreenVisit == ScreenVisit(onMainQueue: true, taps: 2))
    }

    // MARK: From a plain thread

    @Test("From plain threads, synchronous calls fail with asyncAction (no trap, no race, no deadlock) and nothing runs")
    func synchronousFromPlainThreads() async throws {
        let made = Counter()
        let madeOffMain = Counter()
        let mediator = try screenMediator(made: made, madeOffMain: madeOffMain)
        let wrong = Counter()

        try await withinHangLimit("calls from plain threads") {
            await onPlainThread {
                onThreads(4) { _ in
                    for _ in 0..<200 {
                        if runsOnMainQueue() { wrong.increment() }
                        if mediator.perform(target: "TestScreen", action: "tap", shouldCacheTarget: true) != nil { wrong.increment() }
                        if mediatorError({ try mediator.callNow(target: "TestScreen", action: "tap", shouldCacheTarget: true) })?.code != .asyncAction {
                            wrong.increment()
                        }
                    }
                }
            }
        }
        #expect(wrong.value == 0)
        #expect(made.value == 0)
        let firstTap = try await withinHangLimit("the first tap") { try await mediator.call(target: "TestScreen", action: "tap", shouldCacheTarget: true) }
        #expect(firstTap as? ScreenVisit == ScreenVisit(onMainQueue: true, taps: 1))
    }

    @Test("From a plain thread, the completion forms run main-actor actions on the main actor and complete once")
    func completionFromAPlainThread() async throws {
        let made = Counter()
        let madeOffMain = Counter()
        let mediator = try screenMediator(made: made, madeOffMain: madeOffMain)

        let visits = try await withinHangLimit("completions from a plain thread") {
            await onPlainThread { () -> [ScreenVisit?] in
                let results = ReadWriteLock<[ScreenVisit?]>([])
                let done = DispatchSemaphore(value: 0)
                mediator.perform(target: "TestScreen", action: "tap", shouldCacheTarget: true, as: (any Sendable)?.self) { result in
                    results.withLock { $0.append(try? result.get() as? ScreenVisit) }
                    done.signal()
                }
                done.wait()
                // Open by URL: main-actor code off the main actor goes on in a task.
                let immediate = mediator.open("app://TestScreen/reload") { outcome in
                    results.withLock { $0.append(outcome["result"] as? ScreenVisit) }
                    done.signal()
                }
                done.wait()
                results.withLock { $0.append(immediate as? ScreenVisit) }
                return results.withLock { $0 }
            }
        }
        #expect(visits == [ScreenVisit(onMainQueue: true, taps: 1), ScreenVisit(onMainQueue: true, taps: 2), nil])
        #expect(made.value == 1)
        #expect(madeOffMain.value == 0)
    }

    // MARK: Callbacks and other global actors

    /// A mediator with the screen and a plain async target that relays a main-actor callback.
    func callbackMediator() throws -> Mediator {
        let mediator = try screenMediator(made: Counter(), madeOffMain: Counter())
        try mediator.register(
            target: "Relay",
            actions: [
                Action("relay") { _, params async throws in
                    let done = try params.value("done", as: (@MainActor @Sendable (String) -> Void).self)
                    await done("relayed")
                    return nil
                }
            ])
        return mediator
    }

    @Test("A @MainActor @Sendable callback in params is read back as that type and called, from a detached task's async calls")
    func mainActorCallbackFromADetachedTask() async throws {
        let mediator = try callbackMediator()
        let heard = await HeardTitles()
        let callback: @MainActor @Sendable (String) -> Void = { title in heard.titles.append(title) }

        try await withinHangLimit("callbacks from a detached task") {
            try await Task.detached {
                _ = try await mediator.call(target: "TestScreen", action: "notify", params: ["done": callback])
                _ = try await mediator.call(target: "Relay", action: "relay", params: ["done": callback])
            }.value
        }
        #expect(await heard.titles == ["Profile", "relayed"])
    }

    @Test("On the main actor, a synchronous call hands a @MainActor @Sendable callback to a main-actor action, which calls it before the call returns")
    @MainActor
    func mainActorCallbackOnTheMainActor() throws {
        let mediator = try callbackMediator()
        let heard = HeardTitles()
        let callback: @MainActor @Sendable (String) -> Void = { title in heard.titles.append(title) }

        _ = try mediator.callNow(target: "TestScreen", action: "notify", params: ["done": callback])
        #expect(heard.titles == ["Profile"])
    }

    @Test("A target isolated to another global actor works through async actions from the async entry points")
    func otherGlobalActor() async throws {
        let mediator = Mediator()
        let made = Counter()
        try mediator.register(Target_TestStorage.self) { _ in
            made.increment()
            return await Target_TestStorage()
        }
        let callers = 100
        let counts = try await withinHangLimit("calls to a storage actor") {
            try await Task.detached {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<callers {
                        group.addTask {
                            try await mediator.call(
                                target: "TestStorage", action: "put", params: ["key": "k\(index)", "value": index], shouldCacheTarget: true, as: Int.self)
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
            }.value
        }
        // Each put saw a different size: they ran one at a time on the actor, on one instance.
        #expect(Set(counts) == Set(1...callers))
        #expect(made.value == 1)
        #expect(try await mediator.call(target: "TestStorage", action: "count", as: Int.self) == callers)
        #expect(try await mediator.call(target: "TestStorage", action: "get", params: ["key": "k42"]) as? Int == 42)
        #expect(mediatorError { try mediator.callNow(target: "TestStorage", action: "count") }?.code == .asyncAction)
    }
}
