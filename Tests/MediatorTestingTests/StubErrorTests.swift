import Mediator
import MediatorTesting
import Testing

/// The error of a call to `Greeter/greet`, made by name and by key, when the action's body throws
/// `thrown`: from a real provider, from a stub by name and from a typed stub.
private struct Failures {
    var real: (byName: MediatorError, byKey: MediatorError)
    var stub: (byName: MediatorError, byKey: MediatorError)
    var typedStub: (byName: MediatorError, byKey: MediatorError)

    init(throwing thrown: any Error & Sendable) throws {
        let provider = Mediator()
        try provider.register(target: "Greeter", actions: [Action(.greeterGreet) { _, _ in throw thrown }])
        real = try Self.errors(of: provider)

        let stubbed = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(target: "Greeter", action: "greet") { _ in throw thrown }
        stubs.install(in: stubbed)
        stub = try Self.errors(of: stubbed)

        let typed = Mediator()
        let typedStubs = MediatorStubs()
        typedStubs.stub(.greeterGreet) { _ in throw thrown }
        typedStubs.install(in: typed)
        typedStub = try Self.errors(of: typed)
    }

    private static func errors(of mediator: Mediator) throws -> (byName: MediatorError, byKey: MediatorError) {
        let byName = try #require(throws: MediatorError.self) { try mediator.callNow(target: "Greeter", action: "greet", params: ["name": "Ada"]) }
        let byKey = try #require(throws: MediatorError.self) { try mediator.callNow(.greeterGreet, Greet(name: "Ada")) }
        return (byName, byKey)
    }

    /// Each stub's error beside the real action's error for the same call.
    var pairs: [(stub: MediatorError, real: MediatorError)] {
        [(stub.byName, real.byName), (stub.byKey, real.byKey), (typedStub.byName, real.byName), (typedStub.byKey, real.byKey)]
    }
}

@Suite("MediatorStubs: a stub fails as the action it stands for")
struct StubErrorTests {
    @Test(
        "A stub whose body throws fails the call as the real action does: actionFailed, the same names, the thrown error as underlying",
        .bug(id: "stub-error-code", "a throwing stub failed the call as rejected; the real action throwing the same error gives actionFailed")
    )
    func throwingBody() throws {
        let thrown = StubbedFailure(code: "invalidToken")
        let failures = try Failures(throwing: thrown)
        #expect(failures.real.byName.code == .actionFailed)
        for (stub, real) in failures.pairs {
            #expect(stub.target == real.target)
            #expect(stub.action == real.action)
            #expect(stub.underlying as? StubbedFailure == thrown)
            #expect(stub.actionErrorCode == real.actionErrorCode)
            #expect(stub.code == real.code)
        }
    }

    @Test(
        "A MediatorError that a stub's body throws passes through as a real action's: its own code, the call's names",
        .bug(id: "stub-error-code", "a MediatorError thrown by a stub was wrapped in rejected; from the real action it keeps its code")
    )
    func mediatorErrorPassesThrough() throws {
        let failures = try Failures(throwing: MediatorError(.forbidden, reason: "this build has no Greeter"))
        #expect(failures.real.byName.code == .forbidden)
        for (stub, real) in failures.pairs {
            #expect(stub.target == real.target)
            #expect(stub.action == real.action)
            #expect(stub.actionErrorCode == real.actionErrorCode)
            #expect(stub.code == real.code)
            #expect(stub.underlying == nil)
        }
    }

    @Test("A call depth error from a stub's body passes through unwrapped, as from a real action")
    func callDepthPassesThrough() throws {
        let failures = try Failures(throwing: MediatorError(.callDepthExceeded, target: "Deep", action: "down", reason: "too deep"))
        for (stub, real) in failures.pairs {
            #expect(stub.code == .callDepthExceeded)
            #expect(real.code == .callDepthExceeded)
            #expect(stub.target == "Deep")
        }
    }
}
