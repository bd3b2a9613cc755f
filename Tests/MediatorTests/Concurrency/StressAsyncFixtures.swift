import Foundation
import Mediator
import TestSupport

// Helpers for the async tests: signals that tasks await (resumed by the code under test, never by
// a clock), and one generous limit that only a hang reaches.

/// A gate that opens once: tasks waiting on it go on when it opens, and later ones pass at once.
final class Latch: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = ReadWriteLock(State())

    init() {}

    /// Opens the latch and resumes every task waiting on it.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            let waiters = state.waiters
            state.waiters = []
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    var isOpen: Bool { state.withReadLock { $0.isOpen } }

    /// Returns once the latch is open.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let passes = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if passes { continuation.resume() }
        }
    }
}

/// A count that tasks can wait on: `wait(untilAtLeast:)` returns once it has reached a value.
final class AsyncCount: Sendable {
    private struct State {
        var count = 0
        var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let state = ReadWriteLock(State())

    init() {}

    /// Adds one and resumes the tasks waiting for the new count; returns it.
    @discardableResult
    func increment() -> Int {
        let (count, ready) = state.withLock { state in
            state.count += 1
            let count = state.count
            let ready = state.waiters.filter { $0.target <= count }.map(\.continuation)
            state.waiters.removeAll { $0.target <= count }
            return (count, ready)
        }
        for waiter in ready { waiter.resume() }
        return count
    }

    var value: Int { state.withReadLock { $0.count } }

    /// Returns once the count is at least `target`.
    func wait(untilAtLeast target: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let passes = state.withLock { state in
                if state.count >= target { return true }
                state.waiters.append((target, continuation))
                return false
            }
            if passes { continuation.resume() }
        }
    }
}

/// Suspends the calling task until it is cancelled, then throws `CancellationError`: an action that
/// ends only through cancellation, so a lost cancellation shows as a hang (caught by the limit).
func suspendUntilCancelled() async throws {
    let parked = ParkedContinuation()
    try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            parked.park(continuation)
        }
    } onCancel: {
        parked.cancel()
    }
}

/// The continuation of ``suspendUntilCancelled()``, resumed exactly once: by the cancellation
/// handler, or at once when the task was cancelled before it parked.
private final class ParkedContinuation: Sendable {
    private struct State {
        var cancelled = false
        var continuation: CheckedContinuation<Void, any Error>?
    }
    private let state = ReadWriteLock(State())

    func park(_ continuation: CheckedContinuation<Void, any Error>) {
        let cancelled = state.withLock { state in
            if state.cancelled { return true }
            state.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
    }

    func cancel() {
        let parked = state.withLock { state in
            state.cancelled = true
            let parked = state.continuation
            state.continuation = nil
            return parked
        }
        parked?.resume(throwing: CancellationError())
    }
}

/// What a wait ended with when only a hang could have stopped it.
struct HangError: Error, CustomStringConvertible {
    let what: String
    var description: String { "hung: \(what) did not finish within \(hangLimitSeconds) seconds" }
}

/// The limit for every wait in these tests: far beyond any normal run (even under
/// ThreadSanitizer on a slow machine), so that only a hang reaches it. `MEDIATOR_HANG_LIMIT`
/// (seconds) shortens it when a hang is expected, as when checking that a test catches one.
let hangLimitSeconds: UInt64 = ProcessInfo.processInfo.environment["MEDIATOR_HANG_LIMIT"].flatMap { UInt64($0) } ?? 300

/// Runs `body` in a new task and returns its result, or throws ``HangError`` if it has not
/// finished within ``hangLimitSeconds`` (the task is then left behind: the test has failed).
func withinHangLimit<Result: Sendable>(
    _ what: String, _ body: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let first = FirstResult<Result>()
    return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
        first.install(continuation)
        let work = Task {
            do { first.finish(.success(try await body())) } catch { first.finish(.failure(error)) }
        }
        Task {
            try? await Task.sleep(nanoseconds: hangLimitSeconds * 1_000_000_000)
            if first.finish(.failure(HangError(what: what))) { work.cancel() }
        }
    }
}

/// The first of several results, delivered once to a continuation.
private final class FirstResult<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var done = false
    }
    private let state = ReadWriteLock(State())

    func install(_ continuation: CheckedContinuation<Value, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Delivers `result` if it is the first; returns whether it was.
    @discardableResult
    func finish(_ result: Result<Value, any Error>) -> Bool {
        let continuation: CheckedContinuation<Value, any Error>? = state.withLock { state in
            guard !state.done else { return nil }
            state.done = true
            let continuation = state.continuation
            state.continuation = nil
            return continuation
        }
        continuation?.resume(with: result)
        return continuation != nil
    }
}

/// Runs `body` on a new plain thread (not one of the concurrency pool's, not the main thread) and
/// returns its result without blocking the calling task's thread.
func onPlainThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.start()
    }
}

/// Whether the calling code runs on the main dispatch queue, the main actor's executor: evidence
/// for the main-actor rules that does not use `MainActor.assumeIsolated`. (Not the main thread:
/// on Linux, once an async `main` has suspended, the main queue is served by another thread.)
func runsOnMainQueue() -> Bool { MainQueueMark.isCurrent }

/// A mark on the main dispatch queue, set once, that code can look for.
private enum MainQueueMark {
    static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}

/// A call's outcome as a `Result` (the entry points throw only ``MediatorError``).
func outcome(_ body: () async throws -> (any Sendable)?) async -> Result<(any Sendable)?, MediatorError> {
    do {
        return .success(try await body())
    } catch let error as MediatorError {
        return .failure(error)
    } catch {
        preconditionFailure("the mediator threw something other than a MediatorError: \(error)")
    }
}

/// A synchronous call's outcome as a `Result`.
func outcomeNow(_ body: () throws -> (any Sendable)?) -> Result<(any Sendable)?, MediatorError> {
    do {
        return .success(try body())
    } catch let error as MediatorError {
        return .failure(error)
    } catch {
        preconditionFailure("the mediator threw something other than a MediatorError: \(error)")
    }
}
