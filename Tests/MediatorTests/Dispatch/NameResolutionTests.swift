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

    @Test("Among thousands of targets and actions each name finds its own, long or short, and a name one byte off finds none")
    func manyNames() throws {
        // Short names (held in a string's own bytes) and long ones (in a buffer), 2,000 targets
        // of 20 actions, so that both tables grow many times.
        let names = (0..<2_000).map { index in index.isMultiple(of: 2) ? "t\(index)" : "target-with-a-long-name.\(index)" }
        for (index, name) in names.enumerated() {
            try mediator.register(
                target: name, actions: (0..<20).map { action in Action("a\(action)") { _, _ in index * 100 + action } })
        }
        for (index, name) in names.enumerated() {
            #expect(mediator.perform(target: name, action: "a\(index % 20)") as? Int == index * 100 + index % 20, "\(name)")
            #expect(mediator.perform(target: "Target_" + name, action: "Action_a\(index % 20):") as? Int == index * 100 + index % 20, "\(name)")
            // The last byte changed: a name no target has.
            #expect(mediator.perform(target: String(name.dropLast()) + "x", action: "a0") == nil, "\(name)")
            #expect(mediator.perform(target: name, action: "a20") == nil, "\(name)")
        }
        #expect(mediator.targets.count == 2_001)
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
