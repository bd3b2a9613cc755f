import ExampleModuleSupport
import MediatorCommandLine

/// Ctrl-C in `mediate`: during a request it cancels the request; anywhere else, or a second time,
/// it ends the process at once. Either way the exit status is 130.
///
/// A `SIGINT` handler does the one thing that is safe in a signal handler: it writes a byte to a
/// pipe (`write(2)` is async-signal-safe; errno is saved and restored). A thread of its own
/// reads the pipe and decides, as ordinary code: take a lock, cancel a task, or `_exit`. (Blocking
/// `SIGINT` everywhere and `sigwait`ing for it cannot work with an async `main` on Linux:
/// libdispatch parks the main thread in `sigsuspend` with an empty mask, so the signal would reach
/// it and kill the process.)
///
/// - During a request (``cancellable(_:)``): the task running the tool is cancelled. An async
///   action sees `Task.isCancelled` or `CancellationError` (`Echo/delayedEcho` wakes at once);
///   the tool reports the request as cancelled, `mediate` keeps none of its effects (the data
///   file is not written), a batch reads no further line, and the tool returns 130.
/// - Anywhere else (waiting for the data file's lock or for batch input, reading or writing the
///   file, printing), or at a second Ctrl-C: `_exit(130)` from the reading thread. Nothing is
///   lost that a kill would not lose: the state file is replaced by an atomic rename (old or new,
///   never torn), and output is written with `write(2)`, never buffered.
///
/// When `mediate` starts with `SIGINT` ignored (a shell does that for a script's background
/// jobs), it stays ignored.
final class Interrupts: Sendable {
    /// The one instance.
    static let shared = Interrupts()

    /// The pipe the handler writes to: (read end, write end), both close-on-exec, the write end
    /// non-blocking (a flood of Ctrl-C never blocks the handler). `nil` when it cannot be made.
    private static let wakeUp: (read: Int32, write: Int32)? = {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        return (ends[0], ends[1])
    }()

    private struct State {
        /// The task running the tool, cancelled at a Ctrl-C during a request.
        var run: Task<Int32, Never>?
        /// Requests under way (`mcp` runs several at once).
        var requestsInProgress = 0
        var hasCancelled = false
    }

    private let state = Locked(State())
    /// `MEDIATE_TRACE=1`: one line on standard error as each request starts (see ``cancellable(_:)``).
    private let traces = getenv("MEDIATE_TRACE").map { String(cString: $0) } == "1"

    private init() {}

    /// Installs the `SIGINT` handler and starts the thread that reads its pipe, unless `SIGINT` is
    /// ignored. Call it early in `main`, once descriptors 0 to 2 are open: from then on Ctrl-C
    /// exits 130, never by the signal.
    func start() {
        var current = sigaction()
        guard sigaction(SIGINT, nil, &current) == 0, !Self.isIgnored(current), Self.wakeUp != nil else { return }
        guard startDetachedThread({ Interrupts.shared.readInterrupts() }) else { return }
        var action = sigaction()
        #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = { _ in Interrupts.signalArrived() }
        #else
        action.__sigaction_handler.sa_handler = { _ in Interrupts.signalArrived() }
        #endif
        // Interrupted reads and writes elsewhere resume instead of failing with EINTR.
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        // `wakeUp` was made above, before the handler can run: the handler only reads it.
        sigaction(SIGINT, &action, nil)
    }

    /// Starts the task running the tool, recorded before it can reach a request: a Ctrl-C during a
    /// request cancels it. (`cancellable` takes the same lock, so a request that starts at once
    /// waits until the task is recorded.)
    func start(_ makeRun: () -> Task<Int32, Never>) -> Task<Int32, Never> {
        state.withLock { state in
            let run = makeRun()
            state.run = run
            return run
        }
    }

    /// Runs one request during which Ctrl-C cancels the tool's task instead of ending the process.
    /// With `MEDIATE_TRACE=1`, writes `mediate: trace: request started` on standard error first:
    /// from that line on, a Ctrl-C reaches the request (tests wait for it before sending one).
    func cancellable(_ request: () async -> Void) async {
        state.withLock { $0.requestsInProgress += 1 }
        if traces { try? StandardStreams.write("mediate: trace: request started", to: .error) }
        await request()
        state.withLock { $0.requestsInProgress -= 1 }
    }

    /// The signal handler: async-signal-safe calls only. `wakeUp` was made before the handler was
    /// installed, so reading it is a load (its one-time initialisation has completed).
    private static func signalArrived() {
        let savedErrorNumber = errno
        var byte: UInt8 = 0
        if let wakeUp { _ = write(wakeUp.write, &byte, 1) }
        errno = savedErrorNumber
    }

    /// The reading thread: each Ctrl-C either cancels the request under way (the first during a
    /// request) or ends the process.
    private func readInterrupts() -> Never {
        guard let wakeUp = Self.wakeUp else { Self.giveUp() }
        while true {
            var byte: UInt8 = 0
            let count = read(wakeUp.read, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { Self.giveUp() }
            let toCancel = state.withLock { state -> Task<Int32, Never>? in
                guard state.requestsInProgress > 0, !state.hasCancelled, let run = state.run else { return nil }
                state.hasCancelled = true
                return run
            }
            // Outside the lock: cancelling runs the task's cancellation handlers.
            guard let toCancel else { _exit(130) }
            toCancel.cancel()
        }
    }

    /// The pipe failed (it cannot, short of a kernel error): Ctrl-C goes back to ending the
    /// process by the signal, and this thread ends.
    private static func giveUp() -> Never {
        signal(SIGINT, SIG_DFL)
        pthread_exit(nil)
    }

    /// Whether `action` ignores the signal. `SIG_IGN` is the handler address 1 on every platform;
    /// C function pointers are not comparable in Swift, so their bits are compared.
    private static func isIgnored(_ action: sigaction) -> Bool {
        #if canImport(Darwin)
        let handler = action.__sigaction_u.__sa_handler
        #else
        let handler = action.__sigaction_handler.sa_handler
        #endif
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
