import Mediator
import TestSupport
import Testing

@Suite("Call depth across suspension", hangLimit)
struct AsyncCallDepthTests {
    @Test("Runaway recursion through an async action ends in callDepthExceeded at the limit")
    func runawayAsync() async throws {
        let mediator = Mediator(maximumCallDepth: 10)
        let runs = Counter()
        try mediator.register(
            target: "Loop",
            actions: [
                Action("again") { mediator, _ async throws in
                    runs.increment()
                    await Task.yield()  // resume, maybe on another thread
                    return try await mediator.call(target: "Loop", action: "again")
                }
            ])
        let error = await #expect(throws: MediatorError.self) { try await mediator.call(target: "Loop", action: "again") }
        #expect(error?.code == .callDepthExceeded)
        #expect(runs.value == 10)
    }

    @Test("Sync and async calls nested inside each other add up to the limit, in either order")
    func mixedNesting() async throws {
        let mediator = Mediator(maximumCallDepth: 12)
        let runs = Counter()
        // async -> sync -> (a completion form's task, which nests under its caller) async -> ...
        try mediator.register(
            target: "Hop",
            actions: [
                Action("async") { mediator, params async throws in
                    runs.increment()
                    return try synchronously { try mediator.callNow(target: "Hop", action: "sync", params: params) }
                },
                Action("sync") { mediator, params in
                    runs.increment()
                    let reached = try params.value("reached", as: Latch.self)
                    let depthError = try params.value("depthError", as: ReadWriteLock<MediatorError?>.self)
                    mediator.perform(target: "Hop", action: "async", params: params, as: (any Sendable)?.self) { result in
                        // Only the innermost call fails; every other level answers nil.
                        if case .failure(let error) = result {
                            depthError.withLock { $0 = error }
                            reached.open()
                        }
                    }
                    return nil
                },
            ])
        let reached = Latch()
        let depthError = ReadWriteLock<MediatorError?>(nil)
        _ = try await mediator.call(target: "Hop", action: "async", params: ["reached": reached, "depthError": depthError])
        await reached.wait()
        #expect(depthError.withReadLock { $0 }?.code == .callDepthExceeded)
        // 12 levels ran: async, sync, async, sync, ...; the 13th was refused.
        #expect(runs.value == 12)
    }

    @Test("A synchronous call made inside an async action counts the async depth")
    func syncInsideAsync() async throws {
        let mediator = Mediator(maximumCallDepth: 3)
        try mediator.register(
            target: "Depth",
            actions: [
                Action("outer") { mediator, _ async throws in try await mediator.call(target: "Depth", action: "middle") },
                Action("middle") { mediator, _ async throws in
                    await Task.yield()
                    return try synchronously { try mediator.callNow(target: "Depth", action: "inner") }  // depth 3: allowed
                },
                Action("inner") { mediator, _ in try mediator.callNow(target: "Depth", action: "leaf") },  // depth 4: refused
                Action("leaf") { _, _ in "leaf" },
            ])
        let error = await #expect(throws: MediatorError.self) { try await mediator.call(target: "Depth", action: "outer") }
        #expect(error?.code == .callDepthExceeded)
        #expect(error?.action == "leaf")
        #expect(try await mediator.call(target: "Depth", action: "middle") as? String == "leaf")
    }
}
