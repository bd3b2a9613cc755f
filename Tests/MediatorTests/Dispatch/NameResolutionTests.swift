import Mediator
import Testing

@Suite("Name resolution")
struct NameResolutionTests {
    let mediator: Mediator

    init() throws {
        mediator = Mediator()
        try mediator.register(
            target: "Math",
            actions: [
                Action("double") { _, params in try params.value("n", as: Int.self) * 2 }
            ])
    }

    @Test(
        "Short and full target and action names reach the same action",
        arguments: [
            ("Math", "double"), ("Target_Math", "double"), ("Math", "Action_double"), ("Target_Math", "Action_double"),
        ])
    func shortAndFullNames(target: String, action: String) throws {
        #expect(try mediator.callNow(target: target, action: action, params: ["n": 21]) as? Int == 42)
        #expect(mediator.canPerform(target: target, action: action))
    }

    @Test("An Objective-C selector string with a trailing colon names the action")
    func selectorString() throws {
        #expect(try mediator.callNow(target: "Math", action: "Action_double:", params: ["n": 2]) as? Int == 4)
    }

    @Test("Names are case-sensitive")
    func caseSensitive() {
        #expect(mediator.perform(target: "math", action: "double", params: ["n": 1]) == nil)
        #expect(mediator.perform(target: "Math", action: "Double", params: ["n": 1]) == nil)
        #expect(!mediator.canPerform(target: "MATH", action: "double"))
    }

    @Test("A target registered under its full name is stored under its short name")
    func registeredByFullName() throws {
        try mediator.register(target: "Target_Clock", actions: [Action("Action_now") { _, _ in 0 }])
        #expect(mediator.targets.map(\.name) == ["Clock", "Math"])
        #expect(mediator.target(named: "Target_Clock")?.actions.map(\.name) == ["now"])
        #expect(mediator.canPerform(target: "Clock", action: "now"))
    }

    @Test("A protocol target's default name is its type name without Target_")
    func protocolDefaultName() throws {
        try mediator.register(Target_Counter.self) { _ in Target_Counter() }
        #expect(Target_Counter.targetName == "Counter")
        #expect(mediator.canPerform(target: "Target_Counter", action: "double"))
    }

    @Test("The prefix alone is not stripped: \"Target_\" stays an (unregistered) name")
    func prefixAlone() {
        #expect(!mediator.canPerform(target: "Target_", action: "double"))
    }

    @Test("canPerform runs nothing and ignores fallbacks")
    func canPerformRunsNothing() throws {
        let ran = Box()
        try mediator.register(
            target: "Spy", make: { _ in ran },
            actions: [
                Action("touch") { box, _ in
                    box.created.increment()
                    return nil
                }
            ])
        mediator.setFallback { _, _, _ in "fallback" }
        #expect(mediator.canPerform(target: "Spy", action: "touch"))
        #expect(!mediator.canPerform(target: "Spy", action: "missing"))
        #expect(!mediator.canPerform(target: "Nobody", action: "touch"))
        #expect(ran.created.value == 0)
    }
}
