import Mediator
import TestSupport
import Testing

/// Signals when it is deallocated: here, when the task running a URL call lets go of the
/// completion that holds it, which is after the completion was (or was not) called.
final class DroppedSentinel: Sendable {
    let dropped: Latch
    init(_ dropped: Latch) { self.dropped = dropped }
    deinit { dropped.open() }
}

/// `open(_:completion:)` once decided "refused as forbidden, do not call back" from
/// the error's code alone, so an error an action or a fallback throws with code `forbidden` (as the
/// `MediatorError` documentation's own fallback example does) leaves the completion uncalled
/// although the call ran.
@Suite(
    "URL completions and forbidden errors thrown by user code", hangLimit,
    .bug(id: "url-completion-forbidden", "a forbidden error thrown by user code left the completion uncalled"))
struct URLCompletionForbiddenTests {
    func guardedMediator() throws -> Mediator {
        let mediator = Mediator()
        try mediator.register(
            target: "Guard",
            actions: [
                Action("check") { _, _ in throw MediatorError(.forbidden, reason: "not your note") },
                Action("checkLater") { _, _ async throws in
                    await Task.yield()
                    throw MediatorError(.forbidden, reason: "not your note")
                },
            ])
        return mediator
    }

    @Test("A synchronous action that throws a forbidden error: the completion is called once, with it")
    func syncActionForbidden() throws {
        let mediator = try guardedMediator()
        let calls = ReadWriteLock<[String]>([])
        mediator.open("app://Guard/check") { outcome in
            calls.withLock { $0.append((outcome["error"] as? MediatorError)?.code.rawValue ?? "no error") }
        }
        #expect(calls.withReadLock { $0 } == ["forbidden"])
    }

    @Test("The fallback refusing with forbidden, as MediatorError's documentation shows: the completion is called once")
    func fallbackForbidden() throws {
        let mediator = Mediator()
        mediator.setFallback { target, _, _ in throw MediatorError(.forbidden, reason: "this build has no \(target)") }
        let count = Counter()
        mediator.open("app://Payments/pay") { _ in count.increment() }
        #expect(count.value == 1)
    }

    @Test("An async action that throws a forbidden error: the completion is called once, from the task")
    func asyncActionForbidden() async throws {
        let mediator = try guardedMediator()
        let count = Counter()
        let dropped = Latch()
        do {
            let sentinel = DroppedSentinel(dropped)
            let returned = mediator.open("app://Guard/checkLater") { _ in
                withExtendedLifetime(sentinel) { _ = count.increment() }
            }
            #expect(returned == nil)
        }
        // The task has finished with the completion once it let go of it.
        await dropped.wait()
        #expect(count.value == 1)
    }
}
