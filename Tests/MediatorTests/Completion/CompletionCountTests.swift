import Foundation
import Mediator
import TestSupport
import Testing

/// The kinds of completion-form calls the count mixes.
enum CompletionCase: CaseIterable {
    case syncSuccess, asyncSuccess, missingAction, throwingAction, throwingFallback, cancelledAction, cancelledEcho
}

@Suite("Completion counting")
struct CompletionCountTests {
    static let calls = 10_000
    static let threads = 4

    func makeMediator(parked: Counter) throws -> Mediator {
        let mediator = Mediator()
        try mediator.register(
            target: "Work",
            actions: [
                Action("echo") { _, params in try params.value("x", as: Int.self) },
                Action("slowEcho") { _, params async throws in
                    await Task.yield()
                    return try params.value("x", as: Int.self)
                },
                Action("fail") { _, params async throws in
                    await Task.yield()
                    throw FixtureError(message: "call \(try params.value("x", as: Int.self))")
                },
                // Ends only when its task is cancelled.
                Action("park") { _, _ async throws in
                    parked.increment()
                    defer { parked.increment(by: -1) }
                    try await suspendUntilCancelled()
                    return "not cancelled"
                },
            ])
        mediator.setFallback { target, _, params async throws in
            await Task.yield()
            if target == "Ghost" { throw FixtureError(message: "fallback \(try params.value("x", as: Int.self))") }
            return nil
        }
        return mediator
    }

    /// Why `result` is wrong for a call of `kind` with `x`, or `nil` when it is right.
    static func problem(with result: Result<(any Sendable)?, MediatorError>, kind: CompletionCase, x: Int) -> String? {
        switch (kind, result) {
        case (.syncSuccess, .success(let value)), (.asyncSuccess, .success(let value)), (.cancelledEcho, .success(let value)):
            return value as? Int == x ? nil : "answered \(String(describing: value))"
        case (.cancelledEcho, .failure(let error)) where error.code == .cancelled:
            return nil
        case (.missingAction, .failure(let error)) where error.code == .actionNotFound:
            return nil
        case (.throwingAction, .failure(let error)) where error.code == .actionFailed:
            return error.underlying as? FixtureError == FixtureError(message: "call \(x)") ? nil : "wrong underlying error: \(error)"
        case (.throwingFallback, .failure(let error)) where error.code == .actionFailed:
            return error.underlying as? FixtureError == FixtureError(message: "fallback \(x)") ? nil : "wrong underlying error: \(error)"
        case (.cancelledAction, .failure(let error)) where error.code == .cancelled:
            return error.underlying is CancellationError ? nil : "wrong underlying error: \(error)"
        default:
            return "unexpected \(result)"
        }
    }

    @Test(
        "Over 10,000 completion-form calls (successes, failures, throwing fallbacks, cancellations) each completion is called exactly once, after perform returned"
    )
    func everyCompletionExactlyOnce() async throws {
        let parked = Counter()
        let mediator = try makeMediator(parked: parked)
        let seed = StressTests.seed &+ 0xC0
        let completions = ReadWriteLock<[Int]>(Array(repeating: 0, count: Self.calls))
        let problems = ReadWriteLock<[String]>([])
        let problemCount = Counter()
        let completed = AsyncCount()
        let tasks = ReadWriteLock<[Task<Void, Never>]>([])
        // The threads inside `perform` right now: a completion running on one of them would be
        // running inside `perform`, before it returned.
        let insidePerform = ReadWriteLock<Set<ObjectIdentifier>>([])
        let kindCounts = ReadWriteLock<[Int]>(Array(repeating: 0, count: CompletionCase.allCases.count))

        @Sendable func fail(_ message: String) {
            if problemCount.increment() <= 20 { problems.withLock { $0.append(message) } }
        }

        try await withinHangLimit("issuing the calls") {
            await onPlainThread {
                onThreads(Self.threads) { thread in
                    var generator = SeededGenerator(seed: seed &+ UInt64(thread))
                    let me = ObjectIdentifier(Thread.current)
                    for id in stride(from: thread, to: Self.calls, by: Self.threads) {
                        let kind = CompletionCase.allCases.randomElement(using: &generator)!
                        kindCounts.withLock { $0[CompletionCase.allCases.firstIndex(of: kind)!] += 1 }
                        let (target, action): (String, String) =
                            switch kind {
                            case .syncSuccess: ("Work", "echo")
                            case .asyncSuccess: ("Work", "slowEcho")
                            case .missingAction: ("Work", "missing")
                            case .throwingAction: ("Work", "fail")
                            case .throwingFallback: ("Ghost", "boo")
                            case .cancelledAction: ("Work", "park")
                            case .cancelledEcho: ("Work", "slowEcho")
                            }
                        insidePerform.withLock { _ = $0.insert(me) }
                        let task = mediator.perform(target: target, action: action, params: ["x": id], as: (any Sendable)?.self) { result in
                            let count = completions.withLock { counts in
                                counts[id] += 1
                                return counts[id]
                            }
                            if count > 1 { fail("call \(id) (\(kind)): completion called \(count) times") }
                            if insidePerform.withReadLock({ $0.contains(ObjectIdentifier(Thread.current)) }) {
                                fail("call \(id) (\(kind)): completion called inside perform")
                            }
                            if let problem = Self.problem(with: result, kind: kind, x: id) { fail("call \(id) (\(kind)): \(problem)") }
                            completed.increment()
                        }
                        insidePerform.withLock { _ = $0.remove(me) }
                        if kind == .cancelledAction || kind == .cancelledEcho { task.cancel() }
                        tasks.withLock { $0.append(task) }
                    }
                }
            }
        }
        // Every completion arrives (a lost one shows as a hang)...
        try await withinHangLimit("10,000 completions") { await completed.wait(untilAtLeast: Self.calls) }
        // ...and once every call's task has ended, nothing can call a completion again.
        let allTasks = tasks.withLock { $0 }
        #expect(allTasks.count == Self.calls)
        try await withinHangLimit("the calls' tasks") {
            for task in allTasks { await task.value }
        }
        let counts = completions.withLock { $0 }
        let wrongCounts = counts.indices.filter { counts[$0] != 1 }
        #expect(wrongCounts.isEmpty, "calls not completed exactly once: \(wrongCounts.prefix(20)) (counts \(wrongCounts.prefix(20).map { counts[$0] }))")
        #expect(completed.value == Self.calls)
        let found = problems.withLock { $0 }
        #expect(found.isEmpty, "\(problemCount.value) problems (seed 0x\(String(StressTests.seed, radix: 16))), first: \(found.joined(separator: "\n"))")
        // Every kind was exercised, and no cancelled action is still running.
        #expect(kindCounts.withLock { $0 }.allSatisfy { $0 > Self.calls / 20 })
        #expect(parked.value == 0)
    }
}
