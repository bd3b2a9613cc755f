import Mediator
import TestSupport
import Testing

/// The task-local record of the creations a task holds outlives them in tasks
/// that inherit it (every `Task {}` started inside an async factory copies task-local values).
@Suite(
    "Creation records inherited by tasks a factory starts", hangLimit,
    .bug(id: "stale-creation-record", "tasks a factory started inherited its creation record"))
struct InheritedCreationRecordTests {
    /// `Flaky`'s first creation starts a task (which waits for `go`, then calls `Flaky`) and fails.
    func flakyMediator(go: Latch, later: ReadWriteLock<Task<Bool, Never>?>, awaiting: Bool) throws -> Mediator {
        let mediator = Mediator()
        let attempts = Counter()
        try mediator.register(
            target: "Flaky",
            make: { mediator async throws -> Box in
                if attempts.increment() == 1 {
                    later.withLock {
                        $0 = Task {
                            await go.wait()
                            // The creation that started this task failed long ago: nobody is
                            // creating `Flaky` now, so this call creates it.
                            if awaiting {
                                return (try? await mediator.call(target: "Flaky", action: "id", shouldCacheTarget: true)) is ObjectIdentifier
                            }
                            do {
                                _ = try synchronously { try mediator.callNow(target: "Flaky", action: "id", shouldCacheTarget: true) }
                                return true
                            } catch {
                                // A synchronous caller is told to await the async factory.
                                return (error as? MediatorError)?.code == .asyncAction
                            }
                        }
                    }
                    throw FixtureError(message: "first creation fails")
                }
                return Box()
            },
            actions: [Action("id") { box, _ in ObjectIdentifier(box) }])
        return mediator
    }

    @Test("A task started by a failed async factory later creates the target, without a false cycle")
    func laterAsyncCall() async throws {
        let go = Latch()
        let later = ReadWriteLock<Task<Bool, Never>?>(nil)
        let mediator = try flakyMediator(go: go, later: later, awaiting: true)
        let first = await #expect(throws: MediatorError.self) {
            try await mediator.call(target: "Flaky", action: "id", shouldCacheTarget: true)
        }
        #expect(first?.code == .actionFailed)
        go.open()
        let task = try #require(later.withReadLock { $0 })
        #expect(await task.value, "the later call failed (cyclicTargetCreation: the gate of the failed creation is still recorded as held by this task)")
        #expect(mediator.hasCachedInstance(ofTarget: "Flaky"))
    }

    @Test("A synchronous call from such a task is told to await (asyncAction), not cyclicTargetCreation")
    func laterSyncCall() async throws {
        let go = Latch()
        let later = ReadWriteLock<Task<Bool, Never>?>(nil)
        let mediator = try flakyMediator(go: go, later: later, awaiting: false)
        _ = try? await mediator.call(target: "Flaky", action: "id", shouldCacheTarget: true)
        go.open()
        let task = try #require(later.withReadLock { $0 })
        #expect(await task.value)
    }
}
