import Mediator
import TestSupport
import Testing

/// A target without a notFound of its own (the protocol's default).
final class Target_Plain: MediatorTarget {
    static let actions: [Action<Target_Plain>] = [Action("known") { _, _ in "known" }]
    init() {}
}

/// An always-cached target that counts, like a session or a store a remote caller must not reset.
final class Target_Tally: MediatorTarget {
    static let isAlwaysCached = true
    static let actions: [Action<Target_Tally>] = [Action("identity") { target, _ in ObjectIdentifier(target) }]
    init() {}
}

@Suite("CTMediator fidelity: NoTargetAction and the cache-drop rule")
struct CTMediatorFidelityTests {
    /// A mediator whose NoTargetAction/response records every call's CTMediator strings.
    func mediatorWithNoTargetAction(log: RunLog) throws -> Mediator {
        let mediator = Mediator()
        try mediator.register(
            target: "Target_NoTargetAction",
            actions: [
                Action("Action_response:") { _, params in
                    let origin = try params.value("originParams", as: Params.self)
                    log.add("\(try params.value("targetString", as: String.self)) \(try params.value("selectorString", as: String.self)) \(origin.keys)")
                    return "responded"
                }
            ])
        return mediator
    }

    @Test("NoTargetAction/response gets CTMediator's class name, selector string and original params")
    func responseStrings() throws {
        let log = RunLog()
        let mediator = try mediatorWithNoTargetAction(log: log)
        try mediator.register(target: "Files", actions: [Action("list") { _, _ in [] as [String] }])
        #expect(mediator.perform(target: "Nope", action: "go", params: ["id": 1]) as? String == "responded")
        #expect(mediator.perform(target: "Files", action: "Action_remove:", params: ["path": "x"]) as? String == "responded")
        #expect(mediator.open("app://Nope/go?q=1") as? String == "responded")
        #expect(log.all == ["Target_Nope Action_go: [\"id\"]", "Target_Files Action_remove: [\"path\"]", "Target_Nope Action_go: [\"q\"]"])
    }

    @Test("A call to a missing action of NoTargetAction itself ends in exactly one response call")
    func ownMissingAction() throws {
        let log = RunLog()
        let mediator = try mediatorWithNoTargetAction(log: log)
        #expect(try mediator.callNow(target: "NoTargetAction", action: "other") as? String == "responded")
        #expect(log.all == ["Target_NoTargetAction Action_other: []"])
    }

    @Test("Without a response action, a call to NoTargetAction/response or anything missing does not recurse")
    func missingResponse() throws {
        let mediator = Mediator()
        try mediator.register(target: "NoTargetAction", actions: [Action("other") { _, _ in "other" }])
        #expect((#expect(throws: MediatorError.self) { try mediator.callNow(target: "NoTargetAction", action: "response") })?.code == .actionNotFound)
        #expect((#expect(throws: MediatorError.self) { try mediator.callNow(target: "Ghost", action: "go") })?.code == .targetNotFound)
    }

    @Test("A URL call never reaches a NoTargetAction/response declared local-only; an in-process call does")
    func localOnlyResponse() throws {
        let mediator = Mediator()
        try mediator.register(target: "NoTargetAction", actions: [Action("response", localOnly: true) { _, _ in "answered" }])
        try mediator.register(target: "Public", actions: [Action("read") { _, _ in "read" }])
        mediator.urlPolicy = URLPolicy(allowedTargets: ["Public"])
        #expect(mediator.open("app://Public/missing?x=1") == nil)
        #expect((#expect(throws: MediatorError.self) { try mediator.callNow(url: "app://Public/missing") })?.code == .actionNotFound)
        mediator.urlPolicy = URLPolicy()
        #expect(mediator.open("app://Nope/go") == nil)
        #expect(mediator.perform(target: "Nope", action: "go") as? String == "answered")
    }

    @Test("A target with a notFound handler is never dropped from the cache, whatever notFound returns")
    func notFoundKeepsCache() throws {
        let mediator = Mediator()
        try mediator.register(Target_Lenient.self) { _ in Target_Lenient() }
        mediator.setFallback { _, _, _ in "global" }
        _ = try mediator.callNow(target: "Lenient", action: "known", shouldCacheTarget: true)
        #expect(mediator.perform(target: "Lenient", action: "softly") != nil)  // answered by notFound
        #expect(mediator.perform(target: "Lenient", action: "hard") as? String == "global")  // notFound returned nil
        #expect(mediator.hasCachedInstance(ofTarget: "Lenient"))
    }

    @Test("A cached target without a notFound handler is dropped when an action is missing, as CTMediator does")
    func noNotFoundDrops() throws {
        let mediator = Mediator()
        try mediator.register(Target_Plain.self) { _ in Target_Plain() }
        try mediator.register(target: "Closures", make: { _ in Box() }, actions: [Action("known") { _, _ in "known" }])
        for target in ["Plain", "Closures"] {
            _ = try mediator.callNow(target: target, action: "known", shouldCacheTarget: true)
            #expect(mediator.hasCachedInstance(ofTarget: target))
            #expect(mediator.perform(target: target, action: "missing") == nil)
            #expect(!mediator.hasCachedInstance(ofTarget: target), "\(target)")
        }
        // The default notFound is not an answer and not an error: the miss reads as actionNotFound.
        #expect((#expect(throws: MediatorError.self) { try mediator.callNow(target: "Plain", action: "missing") })?.code == .actionNotFound)
    }

    @Test("A URL call to a missing action never drops a cached instance")
    func urlDoesNotDrop() throws {
        let mediator = Mediator()
        try mediator.register(Target_Plain.self) { _ in Target_Plain() }
        _ = try mediator.callNow(target: "Plain", action: "known", shouldCacheTarget: true)
        #expect(mediator.open("app://Plain/typo") == nil)
        #expect(mediator.hasCachedInstance(ofTarget: "Plain"))
    }

    @Test("An always-cached target keeps its instance through missing actions, by URL or in process")
    func alwaysCachedIsNeverReset() throws {
        let mediator = Mediator()
        let made = Counter()
        try mediator.register(Target_Tally.self) { _ in
            made.increment()
            return Target_Tally()
        }
        #expect(mediator.open("app://Tally/identity") != nil)
        #expect(mediator.open("app://Tally/typo") == nil)
        #expect(mediator.perform(target: "Tally", action: "typo") == nil)
        #expect(mediator.open("app://Tally/identity") != nil)
        #expect(made.value == 1)
    }
}
