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
        let task = mediator.perform(target: target, action: action, params: params, as: (any Sendable)?.self) { result in
            got.withLock { $0 = result }
            calls.increment()
            done.open()
        }
        await done.wait()
        await task.value  // the task is over: no second call can come later
        return (got.withReadLock { $0 }, calls.value)
    }

    @Test(
        "A completion that restarts its call stops one level past the depth limit, by perform and by open alike",
        .bug(id: "completion-restart", "perform's completion restarted its call without end"))
    func restartingCompletionStops() async throws {
        let limit = 4
        let mediator = Mediator(maximumCallDepth: limit)
        try mediator.register(target: "Sync", actions: [Action("one") { _, _ in 1 }])
        // perform(completion:): each completion starts the call again and hands over its task;
        // the chain is over when a task ends without its completion having run.
        let performed = ReadWriteLock<[MediatorError.Code?]>([])
        // Every task started, in any order: a task's completion adds the next before it ends, so
        // once every task listed has ended, the list is whole.
        let tasks = ReadWriteLock<[Task<Void, Never>]>([])
        @Sendable func restart() {
            let task = mediator.perform(target: "Sync", action: "one", as: (any Sendable)?.self) { result in
                let code: MediatorError.Code? =
                    switch result {
                    case .success: nil
                    case .failure(let error): error.code
                    }
                performed.withLock { $0.append(code) }
                restart()
            }
            tasks.withLock { $0.append(task) }
        }
        restart()
        var rounds = 0
        while let task = tasks.withReadLock({ rounds < $0.count ? $0[rounds] : nil }) {
            await task.value
            rounds += 1
        }
        // Rounds at depths 0...limit complete (the last refused), the one after does not.
        #expect(rounds == limit + 2)
        #expect(performed.withReadLock { $0 } == Array(repeating: nil, count: limit) + [.callDepthExceeded])
        // open(_:completion:): the same count and the same last error.
        let opened = ReadWriteLock<[MediatorError.Code?]>([])
        @Sendable func reopen() {
            mediator.open("app://Sync/one") { outcome in
                opened.withLock { $0.append((outcome["error"] as? MediatorError)?.code) }
                reopen()
            }
        }
        reopen()
        #expect(opened.withReadLock { $0 } == performed.withReadLock { $0 })
    }

    @Test(
        "A URL refusal an action or the unmatched-URL handler passes on is their failure: the URL completion is told of it",
        .bug(id: "rethrown-url-refusal", "a nested URL's refusal rethrown by user code kept its refusal mark and silenced the completion"))
    func rethrownRefusalIsTold() throws {
        let mediator = Mediator()
        var policy = mediator.urlPolicy
        policy.allowedSchemes = ["app"]
        mediator.urlPolicy = policy
        try mediator.register(target: "Relay", actions: [Action("go") { mediator, _ in try mediator.callNow(url: "evil://Relay/go") }])
        mediator.unmatchedURLHandler = { _ in .answer(try mediator.callNow(url: "evil://Relay/go")) }
        for url in ["app://Relay/go", "app://no/such/path/here"] {
            let told = ReadWriteLock<[MediatorError.Code?]>([])
            mediator.open(url) { outcome in told.withLock { $0.append((outcome["error"] as? MediatorError)?.code) } }
            #expect(told.withReadLock { $0 } == [.forbidden], "\(url)")
        }
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
