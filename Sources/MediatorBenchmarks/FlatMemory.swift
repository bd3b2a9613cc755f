import Mediator

/// One way into the mediator, driven `count` times.
struct EntryPoint {
    let name: String
    let workload: Workload

    /// A synchronous entry point, driven from the main thread.
    init(name: String, run: @escaping @Sendable (Int) -> Void) {
        self.name = name
        self.workload = .sync(run)
    }

    private init(name: String, workload: Workload) {
        self.name = name
        self.workload = workload
    }

    /// An async entry point (or a completion form, waited for), driven from a task off the main actor.
    static func awaiting(name: String, _ body: @escaping @Sendable (Int) async -> Void) -> EntryPoint {
        EntryPoint(name: name, workload: .awaiting(body))
    }
}

/// A target whose instances count themselves, so released ones can be seen to be freed.
final class CountedInstance: Sendable {
    static let live = LiveCount()
    init() { Self.live.change(by: 1) }
    deinit { Self.live.change(by: -1) }
}

/// The number of `CountedInstance`s alive.
final class LiveCount: Sendable {
    private let count = ReadWriteLock(0)
    init() {}
    func change(by delta: Int) { count.withLock { $0 += delta } }
    var value: Int { count.withReadLock { $0 } }
}

/// Drives each entry point a million times after a warm-up and checks that resident memory did
/// not grow (a leak of 2 bytes per call would show as 2 MB). Returns the exit status: 1 if any
/// entry point grew by more than `limit` bytes or left released instances alive.
@MainActor
func checkFlatMemory(calls: Int = 1_000_000, limit: Int = 2 << 20) async -> Int32 {
    guard residentBytes() != nil else {
        print("flat memory: resident memory not available on this system")
        return 0
    }
    let mediator = Mediator()
    let params: Params = ["v": 1, "name": "abc"]
    do {
        try mediator.register(Target_Bench.self) { _ in Target_Bench() }
        try mediator.register(Target_BenchAsync.self) { _ in Target_BenchAsync() }
        try mediator.register(Target_BenchMain.self) { _ in Target_BenchMain() }
        try mediator.register(
            target: "Counted", make: { _ in CountedInstance() },
            actions: [
                Action("touch") { _, _ in 1 },
                Action("fail") { _, _ in throw BenchFailure() },
            ])
        try mediator.register(
            target: "Nest",
            actions: [
                Action("down") { mediator, params in
                    let n = try params.value("n", as: Int.self)
                    return n == 0 ? 0 : try mediator.callNow(target: "Nest", action: "down", params: ["n": n - 1], as: Int.self) + 1
                }
            ])
    } catch {
        print("flat memory: setup failed: \(error)")
        return 70
    }
    let handle = try? mediator.handle(target: "Bench", action: "echo", shouldCacheTarget: true)
    let url = "app://Bench/echo?v=1&name=abc"
    let asyncURL = "app://BenchAsync/echo?v=1&name=abc"

    let entryPoints: [EntryPoint] = [
        EntryPoint(name: "perform, cached") { count in
            for _ in 0..<count { consume(mediator.perform(target: "Bench", action: "echo", params: params, shouldCacheTarget: true)) }
        },
        EntryPoint(name: "perform, uncached") { count in
            for _ in 0..<count { consume(mediator.perform(target: "Counted", action: "touch")) }
        },
        EntryPoint(name: "call(as:), classic wrapper") { count in
            for index in 0..<count { consume(try? mediator.benchEchoByName(v: index, name: "abc")) }
        },
        EntryPoint(name: "ActionHandle.call") { count in
            for _ in 0..<count { consume(try? handle?.callNow(params)) }
        },
        EntryPoint(name: "open(url)") { count in
            for _ in 0..<count { consume(mediator.open(url)) }
        },
        EntryPoint(name: "call(url:)") { count in
            for _ in 0..<count { consume(try? mediator.callNow(url: url)) }
        },
        EntryPoint(name: "open(url, completion:)") { count in
            for _ in 0..<count { mediator.open(url) { consume($0) } }
        },
        EntryPoint(name: "perform, missing action (nil)") { count in
            for _ in 0..<count { consume(mediator.perform(target: "Bench", action: "ehco")) }
        },
        EntryPoint(name: "call, missing action (error with suggestion)") { count in
            for _ in 0..<count { consume(try? mediator.callNow(target: "Bench", action: "ehco")) }
        },
        EntryPoint(name: "call, action throws") { count in
            for _ in 0..<count { consume(try? mediator.callNow(target: "Counted", action: "fail")) }
        },
        EntryPoint(name: "nested calls, 3 deep") { count in
            for _ in 0..<count { consume(mediator.perform(target: "Nest", action: "down", params: ["n": 3])) }
        },
        EntryPoint(name: "cache, then release") { count in
            for _ in 0..<count {
                consume(mediator.perform(target: "Counted", action: "touch", shouldCacheTarget: true))
                mediator.releaseCachedTarget(fullName: "Target_Counted")
            }
        },
        EntryPoint(name: "register, then unregister") { count in
            for _ in 0..<count {
                try? mediator.register(target: "Temporary", actions: [Action("a") { _, _ in 1 }])
                mediator.unregister(target: "Temporary")
            }
        },
        EntryPoint.awaiting(name: "await perform, cached (sync action)") { count in
            for _ in 0..<count { consume(try? await mediator.call(target: "Bench", action: "echo", params: params, shouldCacheTarget: true)) }
        },
        EntryPoint.awaiting(name: "await call, async action") { count in
            for _ in 0..<count { consume(try? await mediator.call(target: "BenchAsync", action: "echo", params: params, shouldCacheTarget: true)) }
        },
        EntryPoint.awaiting(name: "await call, async action throws") { count in
            for _ in 0..<count { consume(try? await mediator.call(target: "BenchAsync", action: "echo", params: ["v": "x"], shouldCacheTarget: true)) }
        },
        EntryPoint.awaiting(name: "await handle.call") { count in
            for _ in 0..<count { consume(try? await handle?.call(params)) }
        },
        EntryPoint.awaiting(name: "await call(url:), async action") { count in
            for _ in 0..<count { consume(try? await mediator.call(url: asyncURL)) }
        },
        EntryPoint.awaiting(name: "await perform, main-actor action (a hop each)") { count in
            for _ in 0..<count { consume(try? await mediator.call(target: "BenchMain", action: "echo", params: params, shouldCacheTarget: true)) }
        },
        EntryPoint.awaiting(name: "perform(completion:), its task awaited") { count in
            for _ in 0..<count {
                await mediator.perform(target: "BenchAsync", action: "echo", params: params, shouldCacheTarget: true, as: (any Sendable)?.self) { consume($0) }
                    .value
            }
        },
        EntryPoint.awaiting(name: "open(url, completion:), async action, completion awaited") { count in
            for _ in 0..<count {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    let returned = mediator.open(asyncURL) { outcome in
                        consume(outcome)
                        done.resume()
                    }
                    consume(returned)
                }
            }
        },
    ]

    var status: Int32 = 0
    print("resident memory growth over \(calls) calls per entry point (after \(calls / 10) warm-up calls):")
    for entryPoint in entryPoints {
        await entryPoint.workload.run(calls / 10)
        let before = residentBytes() ?? 0
        let start = monotonicNanoseconds()
        await entryPoint.workload.run(calls)
        let seconds = ((monotonicNanoseconds() - start) / 1e8).rounded() / 10
        let growth = (residentBytes() ?? 0) - before
        let flat = growth <= limit
        if !flat { status = 1 }
        print("  \(entryPoint.name): \(growth / 1024) KiB (\(seconds) s)\(flat ? "" : "  <- grew more than \(limit / 1024) KiB")")
    }
    let alive = CountedInstance.live.value
    print("  released instances still alive: \(alive)")
    if alive != 0 { status = 1 }
    return status
}

struct BenchFailure: Error {}
