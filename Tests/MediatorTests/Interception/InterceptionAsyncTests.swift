import TestSupport
import Testing

@testable import Mediator

// Interceptors around async actions: `intercept` runs once before the call awaits, `callDidFinish`
// once after the awaited result; a synchronous call of an async action reports asyncAction once.

@Suite("Interceptors and async actions", hangLimit)
struct InterceptionAsyncTests {
    /// A world with `Async/run`, an async action that notes when it runs in `log`.
    func asyncWorld() throws -> (InterceptionWorld, InterceptionLog) {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        try world.mediator.register(
            target: "Async",
            actions: [
                Action("run") { _, params async throws -> (any Sendable)? in
                    await Task.yield()
                    log.note("action ran")
                    return try params.value("n", as: Int.self) * 2
                }
            ])
        world.mediator.addInterceptor(Probe("P", log))
        world.mediator.addObserver(Watcher("W", log))
        return (world, log)
    }

    @Test("An awaited async action: intercept once before it, callDidFinish once after its result")
    func awaited() async throws {
        let (world, log) = try asyncWorld()
        #expect(try await world.mediator.call(target: "Async", action: "run", params: ["n": 4]) as? Int == 8)
        #expect(log.events == ["P intercept Async/run", "action ran", "P finish Async/run", "W observe Async/run"])
        #expect(try log.records.first?.result.get() as? Int == 8)
    }

    @Test("An interceptor's params reach an awaited async action")
    func paramsReachAsync() async throws {
        let (world, _) = try asyncWorld()
        world.mediator.addInterceptor(
            Probe("Double", InterceptionLog()) { request in
                request.params["n"] = 21
                return .proceed
            })
        #expect(try await world.mediator.call(target: "Async", action: "run", params: ["n": 1]) as? Int == 42)
    }

    @Test("The completion form of an async action is reported once, after the result")
    func completionForm() async throws {
        let (world, log) = try asyncWorld()
        let result = await withCheckedContinuation { continuation in
            world.mediator.perform(target: "Async", action: "run", params: ["n": 1], as: (any Sendable)?.self) { continuation.resume(returning: $0) }
        }
        #expect(try result.get() as? Int == 2)
        #expect(log.events == ["P intercept Async/run", "action ran", "P finish Async/run", "W observe Async/run"])
    }

    @Test("A URL completion of an async action is reported once")
    func urlCompletion() async throws {
        let (world, log) = try asyncWorld()
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<[String: any Sendable], Never>) in
            world.mediator.open("app://Async/run?n=5") { continuation.resume(returning: $0) }
        }
        #expect(outcome["result"] as? Int == 10)
        #expect(log.records.count == 2)
        #expect(log.requests.first?.origin == .url("app://Async/run?n=5"))
    }

    @Test("A synchronous perform of an async action reports asyncAction exactly once, and runs nothing")
    func syncPerform() throws {
        let (world, log) = try asyncWorld()
        #expect(world.mediator.perform(target: "Async", action: "run", params: ["n": 1]) == nil)
        #expect(log.events == ["P intercept Async/run", "P finish Async/run", "W observe Async/run"])
        #expect(log.records.map { $0.error?.code } == [.asyncAction, .asyncAction])
    }

    @Test("A synchronous call of an async action throws asyncAction and reports it once")
    func syncCall() throws {
        let (world, log) = try asyncWorld()
        let error = try #require(mediatorError { try world.mediator.callNow(target: "Async", action: "run", params: ["n": 1]) })
        #expect(error.code == .asyncAction)
        #expect(log.records.count == 2)
        #expect(log.records.last?.error?.description == error.description)
    }

    @Test("Synchronous URL, handle, typed-key and observed calls of an async action each report asyncAction once")
    func otherSyncForms() throws {
        let (world, log) = try asyncWorld()
        let mediator = world.mediator
        _ = mediator.open("app://Async/run?n=1")
        _ = mediatorError { try mediator.callNow(url: "app://Async/run?n=1") }
        _ = mediatorError { try mediator.handle(target: "Async", action: "run").callNow(["n": 1]) }
        _ = mediatorError { () throws(MediatorError) in try mediator.callNow(ActionKey<Doubled, Int>(target: "Async", action: "run"), Doubled(n: 1)) }
        let record = mediator.tracedCallNow(target: "Async", action: "run", params: ["n": 1])
        #expect(record.error?.code == .asyncAction)
        #expect(log.events.filter { $0.hasPrefix("W") }.count == 5)
        #expect(log.records.allSatisfy { $0.error?.code == .asyncAction })
        #expect(!log.events.contains("action ran"))
    }

    @Test("An observer gets the record of an awaited async call")
    func tracedAsync() async throws {
        let (world, _) = try asyncWorld()
        let record = await world.mediator.tracedCall(target: "Async", action: "run", params: ["n": 3])
        #expect(try record.result.get() as? Int == 6)
        #expect(record.name == "Async/run")
    }

    @Test("An observer alone gets the record of an awaited call; the same call made synchronously is asyncAction")
    func tracedPlain() async throws {
        let mediator = Mediator()
        try mediator.register(target: "Echo", actions: [Action("echo") { _, params async in params.values }])
        let record = await mediator.tracedCall(target: "Echo", action: "echo", params: ["a": 1])
        #expect(record.succeeded)
        #expect(mediator.tracedCallNow(target: "Echo", action: "echo").error?.code == .asyncAction)
    }

    @Test("An interceptor's answer to an async action's call needs no await")
    func answeredSync() throws {
        let (world, log) = try asyncWorld()
        world.mediator.addInterceptor(Probe("Stub", log) { _ in .answer(99) }, priority: 1)
        #expect(try world.mediator.callNow(target: "Async", action: "run") as? Int == 99)
        #expect(!log.events.contains("action ran"))
    }

    @Test("Durations are shown as a person reads them")
    func formattedDurations() {
        #expect(CallRecord.formatted(nanoseconds: 0) == "0ns")
        #expect(CallRecord.formatted(nanoseconds: 850) == "850ns")
        #expect(CallRecord.formatted(nanoseconds: 12_345) == "12.3µs")
        #expect(CallRecord.formatted(nanoseconds: 4_100_000) == "4.1ms")
        #expect(CallRecord.formatted(nanoseconds: 2_500_000_000) == "2.50s")
        #expect(CallRecord.formatted(nanoseconds: 2_050_000_000) == "2.05s")
        #expect(CallRecord.formatted(nanoseconds: 61_000_000_000) == "61.00s")
    }

    @Test("A duration just under a unit's boundary rounds into the next unit")
    func roundedBoundaries() {
        #expect(CallRecord.formatted(nanoseconds: 999_999) == "1.0ms")
        #expect(CallRecord.formatted(nanoseconds: 999_960_000) == "1.00s")
        #expect(CallRecord.formatted(nanoseconds: 999_990) == "1.0ms")
    }
}

/// The input of `Async/run` through a key.
struct Doubled: Codable, Sendable {
    var n: Int
}
