import Mediator
import MediatorTesting
import TestSupport
import Testing

@Suite("MediatorStubs: answers by name and by typed key")
struct MediatorStubsTests {
    @Test("A stub answers a call to a target that is not registered, with its value")
    func answersAMissingTarget() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(target: "Accounts", action: "whoAmI", answer: ["id": 1, "username": "ada"])
        stubs.install(in: mediator)

        let answer = try mediator.callNow(target: "Accounts", action: "whoAmI") as? [String: any Sendable]
        #expect(answer?["username"] as? String == "ada")
    }

    @Test("Stubs and calls match whatever the spelling: short, full or selector names")
    func namesAreCanonical() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(target: "Target_Accounts", action: "Action_whoAmI:", answer: "full")
        stubs.install(in: mediator)

        #expect(try mediator.callNow(target: "Accounts", action: "whoAmI") as? String == "full")
        #expect(try mediator.callNow(target: "Target_Accounts", action: "Action_whoAmI") as? String == "full")
    }

    @Test("A closure stub gets the call's params and answers with what it returns")
    func closureGetsParams() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(target: "Math", action: "double") { params in try params.value("n", as: Int.self) * 2 }
        stubs.install(in: mediator)

        #expect(try mediator.callNow(target: "Math", action: "double", params: ["n": 21]) as? Int == 42)
        // Text from a URL is converted as an action's params are.
        #expect(try mediator.callNow(url: "app://Math/double?n=5") as? Int == 10)
    }

    @Test("A stub that returns nothing answers the call with nothing")
    func answersWithNothing() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(target: "Log", action: "write", answer: nil)
        stubs.install(in: mediator)

        #expect(try mediator.callNow(target: "Log", action: "write") == nil)
    }

    @Test("A closure stub that throws fails the call as the action would: actionFailed, its error as underlying")
    func throwingClosure() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(target: "Accounts", action: "whoAmI") { _ in throw StubbedFailure(code: "invalidToken") }
        stubs.install(in: mediator)

        let error = try #require(throws: MediatorError.self) { try mediator.callNow(target: "Accounts", action: "whoAmI") }
        #expect(error.code == .actionFailed)
        #expect(error.target == "Accounts")
        #expect(error.action == "whoAmI")
        #expect(error.underlying as? StubbedFailure == StubbedFailure(code: "invalidToken"))
    }

    @Test("A stub stands in front of a registered target: the target's action does not run")
    func inFrontOfARegisteredTarget() throws {
        let mediator = Mediator()
        let ran = Counter()
        try mediator.register(
            target: "Accounts",
            actions: [
                Action("whoAmI") { _, _ in
                    ran.increment()
                    return "real"
                }
            ])
        let stubs = MediatorStubs()
        stubs.stub(target: "Accounts", action: "whoAmI", answer: "stub")
        stubs.install(in: mediator)

        #expect(try mediator.callNow(target: "Accounts", action: "whoAmI") as? String == "stub")
        #expect(ran.value == 0)
        // Another action of the same target is not stubbed: it runs.
        #expect(throws: MediatorError.self) { try mediator.callNow(target: "Accounts", action: "logIn") }
    }

    @Test("A later stub of the same call replaces the earlier one")
    func replaces() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(target: "Flag", action: "read", answer: 1)
        stubs.stub(target: "Target_Flag", action: "read") { _ in 2 }
        stubs.install(in: mediator)

        #expect(try mediator.callNow(target: "Flag", action: "read") as? Int == 2)
    }

    @Test("A removed stub no longer answers; removing one that is not there says so")
    func removes() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(target: "Flag", action: "read", answer: 1)
        stubs.stub(.greeterGreet, answer: Greeting(text: "hello", length: 5))
        stubs.install(in: mediator)

        #expect(stubs.removeStub(target: "Target_Flag", action: "read"))
        #expect(!stubs.removeStub(target: "Flag", action: "read"))
        #expect(stubs.removeStub(.greeterGreet))
        let error = try #require(throws: MediatorError.self) { try mediator.callNow(target: "Flag", action: "read") }
        #expect(error.code == .targetNotFound)
        #expect(throws: MediatorError.self) { try mediator.callNow(.greeterGreet, Greet(name: "Ada")) }
    }

    @Test("Stubs added before and after install(in:) both answer, and removeInterception takes them all away")
    func liveChanges() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(target: "A", action: "x", answer: "before")
        let id = stubs.install(in: mediator)
        stubs.stub(target: "B", action: "y", answer: "after")

        #expect(try mediator.callNow(target: "A", action: "x") as? String == "before")
        #expect(try mediator.callNow(target: "B", action: "y") as? String == "after")
        #expect(mediator.removeInterception(id))
        #expect(throws: MediatorError.self) { try mediator.callNow(target: "A", action: "x") }
    }

    @Test("The app's own interceptors see a call before a stub answers it")
    func stubsComeLast() throws {
        struct AddsGreeting: Interceptor {
            func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
                request.params["added"] = "by the app"
                return .proceed
            }
        }
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(target: "Feed", action: "load") { params in params["added"] }
        stubs.install(in: mediator)
        // Added after the stubs, at the default priority: still before them.
        mediator.addInterceptor(AddsGreeting())

        #expect(try mediator.callNow(target: "Feed", action: "load") as? String == "by the app")
    }

    @Test("An observer sees a stubbed call as answered, where it was asked to go")
    func recordedWithARecorder() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(target: "Accounts", action: "whoAmI", answer: "ada")
        stubs.install(in: mediator)
        let recorder = CallRecorder()
        mediator.addObserver(recorder)

        _ = try mediator.callNow(target: "Accounts", action: "whoAmI", params: ["token": "t"])

        let record = try #require(recorder.records.first)
        #expect(record.name == "Accounts/whoAmI")
        #expect(record.succeeded)
        #expect(try record.result.get() as? String == "ada")
        #expect(record.request.params["token"] as? String == "t")
    }

    @Test("Stubs change while calls run on other threads: every call gets one of the answers")
    func concurrentChanges() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(target: "Flag", action: "read", answer: 0)
        stubs.install(in: mediator)
        let wrong = Counter()
        onThreads(8) { index in
            for call in 0..<200 {
                if index == 0 {
                    stubs.stub(target: "Flag", action: "read") { _ in call }
                } else if let value = try? mediator.callNow(target: "Flag", action: "read"), !(value is Int) {
                    wrong.increment()
                }
            }
        }
        #expect(wrong.value == 0)
        #expect(try mediator.callNow(target: "Flag", action: "read") as? Int == 199)
    }
}

@Suite("MediatorStubs: typed keys")
struct TypedStubsTests {
    @Test("A typed stub answers a typed call with its output")
    func answersWithOutput() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(.greeterGreet, answer: Greeting(text: "hello", length: 5))
        stubs.install(in: mediator)

        #expect(try mediator.callNow(.greeterGreet, Greet(name: "Ada")) == Greeting(text: "hello", length: 5))
    }

    @Test("A typed stub's closure gets the decoded input")
    func closureGetsInput() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(.greeterGreet) { input in
            let text = "hello \(input.name)\(input.punctuation)"
            return Greeting(text: text, length: text.count)
        }
        stubs.install(in: mediator)

        #expect(try mediator.callNow(.greeterGreet, Greet(name: "Ada", punctuation: "?")).text == "hello Ada?")
    }

    @Test("A caller by name gets plain values, with the input's defaults filled in, as from a keyed action")
    func byName() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(.greeterGreet) { input in Greeting(text: "hello \(input.name)\(input.punctuation)", length: 0) }
        stubs.install(in: mediator)

        let plain = try mediator.callNow(target: "Greeter", action: "greet", params: ["name": "Ada"]) as? [String: any Sendable]
        #expect(plain?["text"] as? String == "hello Ada!")
        #expect(plain?["length"] as? Int == 0)
        #expect(try mediator.callNow(target: "Greeter", action: "greet", params: ["name": "Ada"], as: Greeting.self).text == "hello Ada!")
    }

    @Test("Params that do not fit the input fail the call with the action's own invalidParameter, naming the parameter")
    func paramsThatDoNotFit() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(.greeterGreet, answer: Greeting(text: "", length: 0))
        stubs.install(in: mediator)

        let error = try #require(throws: MediatorError.self) { try mediator.callNow(target: "Greeter", action: "greet", params: ["name": 42]) }
        #expect(error.code == .invalidParameter)
        #expect(error.parameter == "name")
        #expect(error.target == "Greeter")
        #expect(error.action == "greet")
    }

    @Test("A typed stub's thrown error reaches the caller as it was thrown")
    func throwingClosure() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(.greeterGreet) { _ in throw StubbedFailure(code: "offline") }
        stubs.install(in: mediator)

        let error = try #require(throws: MediatorError.self) { try mediator.callNow(.greeterGreet, Greet(name: "Ada")) }
        #expect(error.code == .actionFailed)
        #expect(error.underlying as? StubbedFailure == StubbedFailure(code: "offline"))
    }

    @Test("A typed stub answers the async typed call too")
    func asyncCall() async throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(.greeterGreet) { input in Greeting(text: input.name, length: input.name.count) }
        stubs.install(in: mediator)

        let greeting = try await mediator.call(.greeterGreet, Greet(name: "Ada"))
        #expect(greeting == Greeting(text: "Ada", length: 3))
    }

    @Test("A typed stub and a stub by name of the same action replace each other")
    func sameCall() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(.greeterGreet, answer: Greeting(text: "typed", length: 5))
        stubs.stub(target: "Greeter", action: "greet", answer: ["text": "by name", "length": 7])
        stubs.install(in: mediator)

        #expect(try mediator.callNow(.greeterGreet, Greet(name: "Ada")) == Greeting(text: "by name", length: 7))
    }

    @Test("A key with an invalid name fails the calls it would answer, with the reason")
    func invalidName() throws {
        let mediator = Mediator()
        let stubs = MediatorStubs()
        stubs.stub(ActionKey<Greet, Greeting>(target: "Bad Name", action: "greet"), answer: Greeting(text: "", length: 0))
        stubs.install(in: mediator)

        let error = try #require(throws: MediatorError.self) { try mediator.callNow(target: "Bad Name", action: "greet", params: ["name": "x"]) }
        #expect(error.code == .invalidName)
    }
}
