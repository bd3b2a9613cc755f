import Mediator
import TestSupport
import Testing

/// A call cancelled while its async action awaits another mediator call.
@Suite(
    "Cancellation through a nested mediator call", hangLimit,
    .bug(id: "nested-cancellation", "a cancelled call whose action awaited another call threw actionFailed"))
struct NestedCancellationTests {
    /// `Inner/wait` signals `started`, then waits until its task is cancelled; `Outer/load` awaits
    /// it through the mediator, as `Notes/export` awaits `Accounts/verifyToken`.
    func nestedMediator(started: Latch) throws -> Mediator {
        let mediator = Mediator()
        try mediator.register(
            target: "Inner",
            actions: [
                Action("wait") { _, _ async throws in
                    started.open()
                    // Suspends until the task is cancelled (no timing), then throws CancellationError.
                    try await suspendUntilCancelled()
                    return "not cancelled"
                }
            ])
        try mediator.register(
            target: "Outer",
            actions: [
                Action("load") { mediator, _ async throws in try await mediator.call(target: "Inner", action: "wait") }
            ])
        return mediator
    }

    @Test("Cancelling a call whose action awaits another mediator call throws cancelled, not actionFailed")
    func nestedCallCancelled() async throws {
        let started = Latch()
        let mediator = try nestedMediator(started: started)
        let task = Task { try await mediator.call(target: "Outer", action: "load") }
        await started.wait()
        task.cancel()
        let result = await task.result
        guard case .failure(let error as MediatorError) = result else {
            Issue.record("expected a MediatorError, got \(result)")
            return
        }
        #expect(error.code == .cancelled, "got \(error.code): \(error)")
    }

    @Test("The completion form reports a cancelled nested call as cancelled")
    func nestedCallCancelledCompletion() async throws {
        let started = Latch()
        let mediator = try nestedMediator(started: started)
        let completed = Latch()
        let codes = ReadWriteLock<[MediatorError.Code]>([])
        let task = mediator.perform(target: "Outer", action: "load", as: (any Sendable)?.self) { result in
            if case .failure(let error) = result { codes.withLock { $0.append(error.code) } }
            completed.open()
        }
        await started.wait()
        task.cancel()
        await completed.wait()
        #expect(codes.withReadLock { $0 } == [.cancelled])
    }
}
