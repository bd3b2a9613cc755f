import Mediator
import MediatorTesting
import TestSupport
import Testing

/// The input of `Countdown/step`: how many steps were taken before this one.
private struct Step: Codable, Sendable {
    var taken: Int
}

extension ActionKey where Input == Step, Output == Int {
    /// `Countdown/step`, an action that calls itself through the mediator until it is refused.
    fileprivate static var countdownStep: Self { Self(target: "Countdown", action: "step") }
}

/// How deep an action that calls itself through the mediator gets.
private struct Recursion {
    /// The body's runs before the mediator refused the next call.
    var runs: Int
    /// The error the outermost call failed with.
    var error: MediatorError
}

@Suite("MediatorStubs: a stub nests calls as deep as the action it stands for")
struct StubCallDepthTests {
    static let limit = 6

    /// `Countdown/step` called once on a mediator of ``limit`` levels, where `install` puts an
    /// action or a stub whose body is `body`.
    private static func recursion(_ install: (Mediator, @escaping @Sendable (Mediator, Step) throws -> Int) throws -> Void) throws -> Recursion {
        let mediator = Mediator(maximumCallDepth: limit)
        let runs = Counter()
        try install(mediator) { mediator, step in
            runs.increment()
            return try mediator.callNow(.countdownStep, Step(taken: step.taken + 1))
        }
        let error = try #require(throws: MediatorError.self) { try mediator.callNow(.countdownStep, Step(taken: 0)) }
        return Recursion(runs: runs.value, error: error)
    }

    /// The recursion of the provider's own action.
    private static func real() throws -> Recursion {
        try recursion { mediator, body in
            try mediator.register(target: "Countdown", actions: [Action(.countdownStep) { mediator, step in try body(mediator, step) }])
        }
    }

    @Test("The real action runs once per level allowed, then stops in callDepthExceeded")
    func realAction() throws {
        let real = try Self.real()
        #expect(real.runs == Self.limit)
        #expect(real.error.code == .callDepthExceeded)
    }

    @Test(
        "A typed stub of an action that calls itself stops at the same depth as the real action",
        .bug(id: "typed-stub-depth", "a typed stub ran its body one call level deeper than the action (inside a private mediator), so it stopped early")
    )
    func typedStub() throws {
        let stubbed = try Self.recursion { mediator, body in
            let stubs = MediatorStubs()
            stubs.stub(.countdownStep) { [mediator] step in try body(mediator, step) }
            stubs.install(in: mediator)
        }
        let real = try Self.real()
        #expect(stubbed.runs == real.runs)
        #expect(stubbed.error.code == real.error.code)
        #expect(stubbed.error.target == real.error.target)
        #expect(stubbed.error.action == real.error.action)
    }

    @Test("A stub by name of an action that calls itself stops at the same depth as the real action")
    func stubByName() throws {
        let stubbed = try Self.recursion { mediator, body in
            let stubs = MediatorStubs()
            stubs.stub(target: "Countdown", action: "step") { [mediator] params in
                try body(mediator, Step(taken: params.value("taken")))
            }
            stubs.install(in: mediator)
        }
        let real = try Self.real()
        #expect(stubbed.runs == real.runs)
        #expect(stubbed.error.code == real.error.code)
    }
}
