/// Work driven `count` times: plain synchronous code, or code that awaits.
///
/// Synchronous work runs where the benchmark runs: on the main actor, which is the main thread,
/// inside the program's task. Awaiting work runs off the main actor, on the global concurrent
/// executor (its closure is `nonisolated`), and the main actor stays free meanwhile: the main
/// thread waits in its run loop, so a call that hops to the main actor is served there and comes
/// back.
enum Workload: Sendable {
    case sync(@Sendable (Int) -> Void)
    case awaiting(@Sendable (Int) async -> Void)

    /// Runs it `count` times: synchronous work on the main actor, awaiting work off it.
    @MainActor
    func run(_ count: Int) async {
        switch self {
        case .sync(let body): body(count)
        case .awaiting(let body): await body(count)
        }
    }
}

/// The system's monotonic clock, in nanoseconds.
func monotonicNanoseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) * 1e9 + Double(now.tv_nsec)
}

/// How long `work` takes, in nanoseconds, by the system's monotonic clock (`ContinuousClock` would
/// need macOS 13 / iOS 16).
func elapsedNanoseconds(_ work: () -> Void) -> Double {
    var start = timespec()
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    work()
    clock_gettime(CLOCK_MONOTONIC, &end)
    return Double(end.tv_sec - start.tv_sec) * 1e9 + Double(end.tv_nsec - start.tv_nsec)
}

/// The same for work that awaits. Being `nonisolated` and async, this runs on the global executor,
/// so the clock is read on the thread that runs `work`, and no hop to or from the main actor is
/// timed.
func elapsedNanoseconds(_ work: @Sendable () async -> Void) async -> Double {
    var start = timespec()
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    await work()
    clock_gettime(CLOCK_MONOTONIC, &end)
    return Double(end.tv_sec - start.tv_sec) * 1e9 + Double(end.tv_nsec - start.tv_nsec)
}
