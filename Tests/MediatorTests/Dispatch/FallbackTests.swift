import Mediator
import Testing

/// A target whose notFound answers for actions starting with "soft".
final class Target_Lenient: MediatorTarget {
    static let actions: [Action<Target_Lenient>] = [Action("known") { _, _ in "known" }]
    init() {}
    func notFound(action: String, params: Params) throws -> (any Sendable)? {
        if action == "explode" { throw FixtureError(message: "notFound exploded") }
        guard action.hasPrefix("soft") else { return nil }
        return "lenient answered \(action) with \(params.keys)"
    }
}

@Suite("Fallbacks")
struct FallbackTests {
    let mediator: Mediator

    init() throws {
        mediator = Mediator()
        try mediator.register(Target_Lenient.self) { _ in Target_Lenient() }
    }

    @Test("(a) A missing action goes to the target's notFound with the action name and the original params")
    func targetNotFoundAnswers() throws {
        mediator.setFallback { _, _, _ in "global" }
        #expect(try mediator.callNow(target: "Lenient", action: "softly", params: ["x": 1]) as? String == "lenient answered softly with [\"x\"]")
    }

    @Test("(b) When notFound does not answer, the global fallback gets the original strings and params")
    func globalAfterNotFound() throws {
        let seen = ReadWriteLock<[String]>([])
        mediator.setFallback { target, action, params in
            seen.withLock { $0.append("\(target)|\(action)|\(params.keys)") }
            return "global"
        }
        #expect(try mediator.callNow(target: "Target_Lenient", action: "Action_hard", params: ["y": 2]) as? String == "global")
        #expect(seen.withLock { $0 } == ["Target_Lenient|Action_hard|[\"y\"]"])
    }

    @Test("(b) A missing target goes straight to the global fallback")
    func globalForMissingTarget() {
        mediator.setFallback { target, action, _ in "\(target)/\(action) handled" }
        #expect(mediator.perform(target: "Ghost", action: "boo") as? String == "Ghost/boo handled")
    }

    @Test("(c) With no fallback, perform returns nil and call throws the precise reason")
    func nothingAnswers() {
        #expect(mediator.perform(target: "Lenient", action: "hard") == nil)
        #expect(mediator.perform(target: "Ghost", action: "boo") == nil)
        #expect((#expect(throws: MediatorError.self) { try mediator.callNow(target: "Lenient", action: "hard") })?.code == .actionNotFound)
        #expect((#expect(throws: MediatorError.self) { try mediator.callNow(target: "Ghost", action: "boo") })?.code == .targetNotFound)
    }

    @Test("A global fallback that returns nil does not answer")
    func fallbackReturningNil() {
        mediator.setFallback { _, _, _ in nil }
        #expect((#expect(throws: MediatorError.self) { try mediator.callNow(target: "Ghost", action: "boo") })?.code == .targetNotFound)
    }

    @Test("A registered NoTargetAction/response serves as the fallback, with CTMediator's params")
    func noTargetAction() throws {
        try mediator.register(
            target: "NoTargetAction",
            actions: [
                Action("Action_response") { _, params in
                    let origin = try params.value("originParams", as: Params.self)
                    let target = try params.value("targetString", as: String.self)
                    let selector = try params.value("selectorString", as: String.self)
                    let action = try params.value("actionString", as: String.self)
                    return "\(target) \(selector) \(action) \(try origin.value("id", as: Int.self))"
                }
            ])
        // CTMediator's strings: the class name and the selector string; actionString as asked.
        #expect(try mediator.callNow(target: "Ghost", action: "Action_boo", params: ["id": 7]) as? String == "Target_Ghost Action_boo: Action_boo 7")
        #expect(try mediator.callNow(target: "Target_Ghost", action: "boo", params: ["id": 8]) as? String == "Target_Ghost Action_boo: boo 8")
    }

    @Test("An installed fallback closure takes precedence over a registered NoTargetAction")
    func closureBeforeNoTargetAction() throws {
        try mediator.register(target: "NoTargetAction", actions: [Action("response") { _, _ in "target" }])
        mediator.setFallback { _, _, _ in "closure" }
        #expect(mediator.perform(target: "Ghost", action: "x") as? String == "closure")
        mediator.setFallback(nil)
        #expect(mediator.perform(target: "Ghost", action: "x") as? String == "target")
    }

    @Test("A throwing notFound or fallback surfaces as actionFailed with the names")
    func throwingHandlers() {
        let fromNotFound = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Lenient", action: "explode") }
        #expect(fromNotFound?.code == .actionFailed)
        #expect(fromNotFound?.target == "Lenient")
        #expect(fromNotFound?.action == "explode")

        mediator.setFallback { _, _, _ in throw FixtureError(message: "fallback exploded") }
        let fromFallback = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Ghost", action: "boo") }
        #expect(fromFallback?.code == .actionFailed)
        #expect(fromFallback?.target == "Ghost")
        #expect(fromFallback?.underlying as? FixtureError == FixtureError(message: "fallback exploded"))
    }

    @Test("App code can fail a call with its own MediatorError from a fallback; the caller gets it with its code")
    func fallbackThrowsMediatorError() {
        mediator.setFallback { _, _, _ in
            throw MediatorError(.forbidden, reason: "this build has no such feature")
        }
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Ghost", action: "boo") }
        #expect(error?.code == .forbidden)
        #expect(error?.target == "Ghost" && error?.action == "boo")
        #expect(error?.description == "Ghost/boo: this build has no such feature")
    }
}
