import Mediator
import Testing

@Suite("Resolved action handles")
struct ActionHandleTests {
    @Test("A handle calls its action without lookups, with the same results and errors as call")
    func handleCalls() throws {
        let mediator = Mediator()
        try mediator.register(Target_Counter.self) { _ in Target_Counter() }
        let double = try mediator.handle(target: "Target_Counter", action: "Action_double")
        #expect(double.target == "Counter")
        #expect(double.action == "double")
        #expect(try double.callNow(["n": 21]) as? Int == 42)
        #expect((try? double.callNow(["n": "4x"])) == nil)
        let error = #expect(throws: MediatorError.self) { try double.callNow(["n": "4x"]) }
        #expect(error?.code == .invalidParameter)
        #expect(error?.target == "Counter")
        let fail = try mediator.handle(target: "Counter", action: "fail")
        #expect((#expect(throws: MediatorError.self) { try fail.callNow(["message": "x"]) })?.code == .actionFailed)
    }

    @Test("A caching handle holds the cached instance; a plain one makes a fresh instance per call")
    func caching() throws {
        let mediator = Mediator()
        try mediator.register(Target_Counter.self) { _ in Target_Counter() }
        let cached = try mediator.handle(target: "Counter", action: "identity", shouldCacheTarget: true)
        #expect(mediator.hasCachedInstance(ofTarget: "Counter"))
        let first = (try? cached.callNow([:])) as? ObjectIdentifier
        #expect((try? cached.callNow([:])) as? ObjectIdentifier == first)
        #expect(mediator.perform(target: "Counter", action: "identity") as? ObjectIdentifier == first)
    }

    @Test("Resolving a missing target or action throws with suggestions")
    func missing() throws {
        let mediator = Mediator()
        try mediator.register(Target_Counter.self) { _ in Target_Counter() }
        #expect((#expect(throws: MediatorError.self) { try mediator.handle(target: "Countr", action: "double") })?.suggestion == "Counter")
        #expect((#expect(throws: MediatorError.self) { try mediator.handle(target: "Counter", action: "dubble") })?.code == .actionNotFound)
    }
}
