import Mediator
import TestSupport
import Testing

/// A completion that calls `perform(...completion:)` again, level after level, until the mediator
/// refuses with `callDepthExceeded` or `limit` levels have run.
final class CompletionChain: Sendable {
    let mediator: Mediator
    let limit: Int
    let levels = Counter()
    let refusals = Counter()
    let ended = Latch()

    init(mediator: Mediator, limit: Int) {
        self.mediator = mediator
        self.limit = limit
    }

    func next() {
        mediator.perform(target: "Echo", action: "say", as: (any Sendable)?.self) { result in
            let level = self.levels.increment()
            if case .failure(let error) = result, error.code == .callDepthExceeded {
                self.refusals.increment()
                self.ended.open()
            } else if level >= self.limit {
                self.ended.open()
            } else {
                self.next()
            }
        }
    }
}

/// The completion of `perform(target:action:params:shouldCacheTarget:isolation:completion:)`
/// runs outside the depth its call was counted at.
@Suite("Call depth through perform's completion", hangLimit, .bug(id: "completion-depth", "a completion ran inside the depth of the call it completes"))
struct CompletionDepthTests {
    @Test("Runaway recursion through perform's completion ends in callDepthExceeded, as through open's")
    func runawayCompletion() async throws {
        let mediator = Mediator(maximumCallDepth: 4)
        try mediator.register(target: "Echo", actions: [Action("say") { _, _ in "hi" }])
        let chain = CompletionChain(mediator: mediator, limit: 40)
        chain.next()
        await chain.ended.wait()
        #expect(chain.refusals.value == 1, "\(chain.levels.value) levels of completions ran without a refusal")
        #expect(chain.levels.value <= 5)
    }

    @Test("The calls a completion makes count from the depth of the code that started it")
    func completionCountsFromCaller() async throws {
        let mediator = Mediator(maximumCallDepth: 3)
        let completed = Latch()
        let codes = ReadWriteLock<[MediatorError.Code?]>([])
        try mediator.register(
            target: "Depth",
            actions: [
                Action("a") { mediator, _ in try mediator.callNow(target: "Depth", action: "b") },  // depth 1
                Action("b") { (mediator: Mediator, _: Params) throws -> (any Sendable)? in  // depth 2: starts a completion call
                    mediator.perform(target: "Depth", action: "leaf", as: (any Sendable)?.self) { _ in
                        // Counted from depth 2: "deep" runs at 3 and its call to "leaf" (4) is refused.
                        do {
                            _ = try mediator.callNow(target: "Depth", action: "deep")
                            codes.withLock { $0.append(nil) }
                        } catch {
                            codes.withLock { $0.append((error as? MediatorError)?.code) }
                        }
                        completed.open()
                    }
                    return "started"
                },
                Action("deep") { mediator, _ in try mediator.callNow(target: "Depth", action: "leaf") },
                Action("leaf") { _, _ in "leaf" },
            ])
        #expect(try synchronously { try mediator.callNow(target: "Depth", action: "a") } as? String == "started")
        await completed.wait()
        #expect(codes.withReadLock { $0 } == [.callDepthExceeded])
    }
}
