import Mediator
import Testing

/// Touches `Mediator.shared`, the one global: serialized, and it cleans up after itself.
@Suite("The shared instance", .serialized)
struct SharedInstanceTests {
    @Test("Mediator.shared is one instance, separate from mediators you create")
    func sharedIsOneInstance() throws {
        #expect(Mediator.shared === Mediator.shared)
        let name = "SharedInstanceTestsProbe"
        try Mediator.shared.register(target: name, actions: [Action("ping") { _, _ in "pong" }])
        defer { Mediator.shared.unregister(target: name) }
        #expect(Mediator.shared.perform(target: name, action: "ping") as? String == "pong")
        #expect(Mediator().perform(target: name, action: "ping") == nil)
    }
}
