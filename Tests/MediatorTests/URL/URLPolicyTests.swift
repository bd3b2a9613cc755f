import Mediator
import Testing

@Suite("URLPolicy: the values it keeps")
struct URLPolicyTests {
    @Test("Schemes and targets changed after creation are kept as initialization keeps them")
    func propertiesNormalise() {
        var policy = URLPolicy()
        #expect(policy.allowedSchemes == nil && policy.allowedTargets == nil)
        #expect(policy.maximumLength == 65_536 && policy.maximumQueryItems == 1_024)
        policy.allowedSchemes = ["MyApp", "HTTPS"]
        policy.allowedTargets = ["Target_Notes", "Accounts", "Target_Target_X", "\u{212A}iosk"]
        #expect(policy.allowedSchemes == ["myapp", "https"])
        #expect(policy.allowedTargets == ["Notes", "Accounts"])
        #expect(policy == URLPolicy(allowedSchemes: ["myapp", "HTTPS"], allowedTargets: ["Notes", "Target_Accounts"]))
        policy.allowedTargets = nil
        #expect(policy.allowedTargets == nil)
    }

    @Test("A policy changed on the mediator applies to the next call")
    func changedOnTheMediator() throws {
        let mediator = Mediator()
        try mediator.register(target: "Notes", actions: [Action("list") { _, _ in "list" }])
        #expect(mediator.open("myapp://Notes/list") as? String == "list")
        mediator.urlPolicy.allowedSchemes = ["OtherApp"]
        #expect((#expect(throws: MediatorError.self) { try mediator.callNow(url: "myapp://Notes/list") })?.code == .forbidden)
        #expect(mediator.open("otherapp://Notes/list") as? String == "list")
        mediator.urlPolicy.allowedTargets = ["Accounts"]
        #expect((#expect(throws: MediatorError.self) { try mediator.callNow(url: "otherapp://Notes/list") })?.code == .forbidden)
    }
}
