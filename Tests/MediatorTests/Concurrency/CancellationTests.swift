import Mediator
import TestSupport
import Testing

@Suite("Cancellation reaches the running action", hangLimit)
struct CancellationTests {
    /// A mediator whose `Wait/forever` action signals `started`, then waits until cancelled.
    func waitingMediator(started: Latch, finished: Counter) throws -> Mediator {
        let mediator = Mediator()
        try mediator.register(
            target: "Wait",
            actions: [
                Action("forever") { _, _ async throws in
                    defer { finished.increment() }
                    started.open()
                    // Suspends until the task is cancelled (no timing), then throws CancellationError.
                    try await suspendUntilCancelled()
                    return "not cancelled"
                },
                Action("checks") { _, _ async in Task.isCancelled },
            ])
        return mediator
    }

    @Test("Cancelling the calling task ends the action with CancellationError: the call throws cancelled")
    func cancelTask() async throws {
        let started = Latch()
        let finished = Counter()
        let mediator = try waitingMediator(started: started, finished: finished)
        let task = Task { try await mediator.call(target: "Wait", action: "forever") }
        await started.wait()
        task.cancel()
        let result = await task.result
        guard case .failure(let error as MediatorError) = result else {
            Issue.record("expected a MediatorError, got \(result)")
            return
        }
        #expect(error.code == .cancelled)
        #expect(error.target == "Wait")
        #expect(error.action == "forever")
        #expect(error.underlying is CancellationError)
        // Nothing is left running once the call returned.
        #expect(finished.value == 1)
    }

    @Test("An action called from an already cancelled task sees Task.isCancelled")
    func alreadyCancelled() async throws {
        let mediator = try waitingMediator(started: Latch(), finished: Counter())
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await mediator.call(target: "Wait", action: "checks") as? Bool
        }
        #expect(try await task.value == true)
    }

    @Test("Cancelling the task a completion form returned: the completion gets cancelled, once")
    func completionCancelled() async throws {
        let started = Latch()
        let mediator = try waitingMediator(started: started, finished: Counter())
        let completed = Latch()
        let count = Counter()
        let codes = ReadWriteLock<[MediatorError.Code]>([])
        let task = mediator.perform(target: "Wait", action: "forever", as: (any Sendable)?.self) { result in
            if case .failure(let error) = result { codes.withLock { $0.append(error.code) } }
            count.increment()
            completed.open()
        }
        await started.wait()
        task.cancel()
        await completed.wait()
        await task.value
        #expect(count.value == 1)
        #expect(codes.withReadLock { $0 } == [.cancelled])
    }

    @Test("A caller waiting for another call's creation of a cached target can be cancelled")
    func cancelWhileWaitingForCreation() async throws {
        let mediator = Mediator()
        let creating = Latch()
        let release = Latch()
        try mediator.register(
            target: "Slow", alwaysCached: true,
            make: { _ async -> Box in
                creating.open()
                await release.wait()
                return Box()
            }, actions: [Action("id") { box, _ in ObjectIdentifier(box) }])
        let creator = Task { try await mediator.call(target: "Slow", action: "id") }
        await creating.wait()
        let waiter = Task { try await mediator.call(target: "Slow", action: "id") }
        waiter.cancel()
        let waited = await waiter.result
        guard case .failure(let error as MediatorError) = waited else {
            Issue.record("expected the waiter to be cancelled, got \(waited)")
            release.open()
            return
        }
        #expect(error.code == .cancelled)
        release.open()
        #expect(try await creator.value is ObjectIdentifier)
    }
}
