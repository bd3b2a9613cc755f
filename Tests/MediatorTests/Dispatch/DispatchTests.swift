import Mediator
import TestSupport
import Testing

@Suite("Dispatch and errors")
struct DispatchTests {
    let mediator: Mediator

    init() throws {
        mediator = Mediator()
        try mediator.register(Target_Counter.self) { _ in Target_Counter() }
    }

    @Test("perform and callNow(as:) return the action's result")
    func performReturnsResult() {
        #expect(mediator.perform(target: "Counter", action: "double", params: ["n": 5]) as? Int == 10)
        #expect((try? mediator.callNow(target: "Counter", action: "double", params: ["n": 5], as: Int.self)) == 10)
    }

    @Test("An action that returns nothing succeeds with nil on the throwing path")
    func nilResult() throws {
        #expect(try mediator.callNow(target: "Counter", action: "nothing") == nil)
    }

    @Test("A throwing action's error surfaces as actionFailed with the target and action names")
    func throwingAction() {
        let error = #expect(throws: MediatorError.self) {
            try mediator.callNow(target: "Target_Counter", action: "Action_fail", params: ["message": "boom"])
        }
        #expect(error?.code == .actionFailed)
        #expect(error?.target == "Counter")
        #expect(error?.action == "fail")
        #expect(error?.underlying as? FixtureError == FixtureError(message: "boom"))
        #expect(error?.actionErrorCode == "fixture")
        #expect(error?.description == "Counter/fail: the action failed: fixture error: boom")
        #expect(mediator.perform(target: "Counter", action: "fail", params: ["message": "boom"]) == nil)
    }

    @Test("A parameter problem keeps its own code and gets the call's names")
    func parameterProblem() {
        let missing = #expect(throws: MediatorError.self) {
            try mediator.callNow(target: "Counter", action: "double")
        }
        #expect(missing?.code == .invalidParameter)
        #expect(missing?.parameter == "n")
        #expect(missing?.target == "Counter")
        #expect(missing?.action == "double")
        #expect(missing?.description == "Counter/double: missing required parameter \"n\" (expected Int)")

        let wrong = #expect(throws: MediatorError.self) {
            try mediator.callNow(target: "Counter", action: "double", params: ["n": "4x"])
        }
        #expect(wrong?.code == .invalidParameter)
        #expect(wrong?.description == "Counter/double: invalid parameter \"n\": expected Int, got String \"4x\"")
    }

    @Test("An unknown target lists the registered ones and suggests a near miss")
    func unknownTarget() throws {
        try mediator.register(target: "Notes", actions: [Action("create") { _, _ in nil }])
        let error = #expect(throws: MediatorError.self) {
            try mediator.callNow(target: "Note", action: "create")
        }
        #expect(error?.code == .targetNotFound)
        #expect(error?.target == "Note")
        #expect(error?.action == "create")
        #expect(error?.availableNames == ["Counter", "Notes"])
        #expect(error?.suggestion == "Notes")
    }

    @Test("An unknown action lists the target's actions and suggests a near miss")
    func unknownAction() {
        let error = #expect(throws: MediatorError.self) {
            try mediator.callNow(target: "Counter", action: "doubel")
        }
        #expect(error?.code == .actionNotFound)
        #expect(error?.target == "Counter")
        #expect(error?.action == "doubel")
        #expect(error?.availableNames == ["double", "fail", "identity", "nothing"])
        #expect(error?.suggestion == "double")
        #expect(error?.description.contains("did you mean \"double\"?") == true)
    }

    @Test("No suggestion when nothing is close")
    func noSuggestion() {
        let error = #expect(throws: MediatorError.self) {
            try mediator.callNow(target: "Counter", action: "zzzzzz")
        }
        #expect(error?.suggestion == nil)
    }

    @Test("An action can call the mediator again (nested dispatch), also on a cached target")
    func nestedDispatch() throws {
        try mediator.register(
            target: "Outer",
            actions: [
                Action("quadruple") { mediator, params in
                    let doubled = try mediator.callNow(target: "Counter", action: "double", params: params, shouldCacheTarget: true, as: Int.self)
                    return try mediator.callNow(target: "Counter", action: "double", params: ["n": doubled], shouldCacheTarget: true, as: Int.self)
                }
            ])
        #expect(try mediator.callNow(target: "Outer", action: "quadruple", params: ["n": 3]) as? Int == 12)
    }

    @Test("A nested call's failure is wrapped: the outer action failed because of it")
    func nestedFailure() throws {
        try mediator.register(
            target: "Outer",
            actions: [
                Action("relay") { mediator, _ in try mediator.callNow(target: "Counter", action: "fail", params: ["message": "inner"]) }
            ])
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Outer", action: "relay") }
        #expect(error?.code == .actionFailed)
        #expect(error?.target == "Outer")
        #expect((error?.underlying as? MediatorError)?.target == "Counter")
        #expect(error?.actionErrorCode == "fixture")
    }

    @Test("A factory that throws fails the call with the names, caches nothing, and the next call works")
    func throwingFactory() throws {
        let attempts = Counter()
        try mediator.register(
            target: "Flaky",
            make: { _ -> Box in
                if attempts.increment() == 1 { throw FixtureError(message: "cold start") }
                return Box()
            }, actions: [Action("id") { box, _ in ObjectIdentifier(box) }])

        let error = #expect(throws: MediatorError.self) {
            try mediator.callNow(target: "Flaky", action: "id", shouldCacheTarget: true)
        }
        #expect(error?.code == .actionFailed)
        #expect(error?.target == "Flaky")
        #expect(error?.action == "id")
        #expect(error?.underlying as? FixtureError == FixtureError(message: "cold start"))
        #expect(error?.description == "Flaky/id: could not create the target: fixture error: cold start")
        #expect(!mediator.hasCachedInstance(ofTarget: "Flaky"))
        #expect(try mediator.callNow(target: "Flaky", action: "id", shouldCacheTarget: true) != nil)
        #expect(mediator.hasCachedInstance(ofTarget: "Flaky"))
    }

    @Test("A factory that asks for its own cached target on the same thread gets an error, not a deadlock")
    func cyclicCreation() throws {
        try mediator.register(
            target: "Selfish",
            make: { mediator -> Box in
                _ = try mediator.callNow(target: "Selfish", action: "id", shouldCacheTarget: true)
                return Box()
            }, actions: [Action("id") { box, _ in ObjectIdentifier(box) }])
        let error = #expect(throws: MediatorError.self) {
            try mediator.callNow(target: "Selfish", action: "id", shouldCacheTarget: true)
        }
        // The cycle passes up through the factory unwrapped: it is the reason the call failed.
        #expect(error?.code == .cyclicTargetCreation)
        #expect(error?.target == "Selfish")
        #expect(error?.action == "id")
        #expect(!mediator.hasCachedInstance(ofTarget: "Selfish"))
    }
}
