import Mediator
import TestSupport
import Testing

@Suite("Completion forms: called exactly once", hangLimit)
struct CompletionTests {
    /// Calls `perform(..., completion:)` and returns what the completion got, and how many times.
    func complete(_ mediator: Mediator, _ target: String, _ action: String, _ params: Params = [:]) async -> (Result<(any Sendable)?, MediatorError>?, Int) {
        let done = Latch()
        let calls = Counter()
        let got = ReadWriteLock<Result<(any Sendable)?, MediatorError>?>(nil)
        let task = mediator.perform(target: target, action: action, params: params) { result in
            got.withLock { $0 = result }
            calls.increment()
            done.open()
        }
        await done.wait()
        await task.value  // the task is over: no second call can come later
        return (got.withReadLock { $0 }, calls.value)
    }

    @Test("Sync and async actions, failures and a throwing fallback each complete once")
    func once() async throws {
        let mediator = Mediator()
        try mediator.register(Target_Feed.self) { _ in Target_Feed() }
        try mediator.register(target: "Sync", actions: [Action("one") { _, _ in 1 }])
        mediator.setFallback { target, _, _ async throws in
            if target == "Throwing" { throw FixtureError(message: "fallback") }
            return nil
        }
        let (async, asyncCalls) = await complete(mediator, "Feed", "load", ["page": 1])
        #expect(try async?.get() as? String == "page 1 of feed")
        #expect(asyncCalls == 1)
        let (sync, syncCalls) = await complete(mediator, "Sync", "one")
        #expect(try sync?.get() as? Int == 1)
        #expect(syncCalls == 1)
        for (target, action, code) in [
            ("Feed", "fail", MediatorError.Code.actionFailed), ("Feed", "nope", .actionNotFound), ("Throwing", "x", .actionFailed),
            ("Nobody", "x", .targetNotFound),
        ] {
            let (result, calls) = await complete(mediator, target, action, ["message": "m"])
            #expect(calls == 1)
            guard case .failure(let error)? = result else {
                Issue.record("\(target)/\(action): expected a failure, got \(String(describing: result))")
                continue
            }
            #expect(error.code == code)
        }
    }
}
