import Mediator
import MediatorTesting
import Testing

@Suite("MediatorStubs: strict mode")
struct StrictStubsTests {
    @Test("In strict mode a call no stub answers fails, naming the call and the fix")
    func failsUnstubbedCalls() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs(strict: true)
        stubs.install(in: mediator)

        let error = try #require(throws: MediatorError.self) { try mediator.callNow(target: "Target_Accounts", action: "verifyToken") }
        #expect(error.code == .rejected)
        let notStubbed = try #require(error.underlying as? MediatorStubs.NotStubbed)
        #expect(notStubbed.target == "Accounts")
        #expect(notStubbed.action == "verifyToken")
        #expect(
            error.description
                == "Accounts/verifyToken: rejected by interceptor \"MediatorStubs\": Accounts/verifyToken is not stubbed: "
                + "add stubs.stub(target: \"Accounts\", action: \"verifyToken\") { params in ... } (or a typed stub), or pass \"Accounts\" through")
    }

    @Test("In strict mode a registered target that does not pass through fails too")
    func registeredTargetsFailToo() throws {
        let mediator = Mediator()
        try registerEchoAndOuter(in: mediator)
        MediatorStubs(strict: true).install(in: mediator)

        let error = try #require(throws: MediatorError.self) { try mediator.callNow(target: "Echo", action: "echo") }
        #expect(error.underlying is MediatorStubs.NotStubbed)
    }

    @Test("A passed-through target runs; its nested calls to other targets are stubbed or fail")
    func passesTheModuleUnderTest() throws {
        let mediator = Mediator()
        try registerEchoAndOuter(in: mediator)
        let stubs = MediatorStubs(strict: true, passingThrough: ["Outer"])
        stubs.install(in: mediator)

        // Outer/run calls Echo/echo, which is neither stubbed nor passed through.
        let error = try #require(throws: MediatorError.self) { try mediator.callNow(target: "Outer", action: "run", params: ["word": "hi"]) }
        #expect("\(error)".contains("Echo/echo is not stubbed"))

        stubs.stub(target: "Echo", action: "echo") { params in "stubbed \(try params.value("word", as: String.self))" }
        #expect(try mediator.callNow(target: "Outer", action: "run", params: ["word": "hi"]) as? String == "stubbed hi")
    }

    @Test("Passing through one action lets that action run and fails the target's others")
    func passesOneAction() throws {
        let mediator = Mediator()
        try registerEchoAndOuter(in: mediator)
        try mediator.register(target: "Echo2", actions: [Action("echo") { _, _ in "two" }, Action("other") { _, _ in "other" }])
        MediatorStubs(strict: true, passingThrough: ["Target_Echo2/Action_echo"]).install(in: mediator)

        #expect(try mediator.callNow(target: "Echo2", action: "echo") as? String == "two")
        let error = try #require(throws: MediatorError.self) { try mediator.callNow(target: "Echo2", action: "other") }
        #expect((error.underlying as? MediatorStubs.NotStubbed)?.action == "other")
    }

    @Test("A stub answers a call whose target passes through")
    func stubsWinOverPassingThrough() throws {
        let mediator = Mediator()
        try registerEchoAndOuter(in: mediator)
        let stubs = MediatorStubs(strict: true, passingThrough: ["Echo"])
        stubs.stub(target: "Echo", action: "echo", answer: "stub")
        stubs.install(in: mediator)

        #expect(try mediator.callNow(target: "Echo", action: "echo") as? String == "stub")
    }

    @Test("Without strict mode a call no stub answers goes on as usual")
    func lenientByDefault() throws {
        let mediator = Mediator()
        try registerEchoAndOuter(in: mediator)
        let stubs = MediatorStubs()
        #expect(!stubs.isStrict)
        stubs.install(in: mediator)

        #expect(try mediator.callNow(target: "Outer", action: "run", params: ["word": "hi"]) is [String: any Sendable])
        let error = try #require(throws: MediatorError.self) { try mediator.callNow(target: "Missing", action: "go") }
        #expect(error.code == .targetNotFound)
    }

    @Test("Strict mode fails an async call and a URL call alike")
    func everyEntryPoint() async throws {
        let mediator = Mediator()
        MediatorStubs(strict: true).install(in: mediator)

        await #expect(throws: MediatorError.self) { try await mediator.call(target: "Accounts", action: "verifyToken") }
        let error = try #require(throws: MediatorError.self) { try mediator.callNow(url: "app://Accounts/verifyToken?token=t") }
        #expect(error.underlying is MediatorStubs.NotStubbed)
    }

    @Test("Two tests' mediators do not share stubs: each has its own")
    func privateMediators() throws {
        let first = Mediator()
        let second = Mediator()
        let stubs = MediatorStubs(strict: true)
        stubs.stub(target: "A", action: "x", answer: 1)
        stubs.install(in: first)
        MediatorStubs(strict: true).install(in: second)

        #expect(try first.callNow(target: "A", action: "x") as? Int == 1)
        #expect(throws: MediatorError.self) { try second.callNow(target: "A", action: "x") }
    }
}
