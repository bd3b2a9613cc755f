import Mediator
import Testing

final class OldKind: Sendable {
    let tag = 1
    init() {}
}

final class NewKind: Sendable {
    let label = "new"
    init() {}
}

@Suite("A registration replaced while its instance is being created")
struct ReplacedDuringCreationTests {
    @Test("The old factory's instance is never cached into the new registration, even when the new slot reuses the old one's memory")
    func oldInstanceStaysOut() throws {
        // 50 rounds: a freed slot's address is typically reused by the very next registration,
        // which is what made an identity by address unsafe.
        for round in 0..<50 {
            let mediator = Mediator()
            try mediator.register(
                target: "A",
                make: { mediator in
                    mediator.unregister(target: "A")
                    try mediator.register(target: "A", make: { _ in NewKind() }, actions: [Action<NewKind>("get") { target, _ in target.label }])
                    return OldKind()
                }, actions: [Action<OldKind>("touch") { target, _ in target.tag }])
            #expect(try mediator.callNow(target: "A", action: "touch", shouldCacheTarget: true) as? Int == 1, "round \(round)")
            #expect(!mediator.hasCachedInstance(ofTarget: "A"), "round \(round)")
            #expect(try mediator.callNow(target: "A", action: "get", shouldCacheTarget: true) as? String == "new", "round \(round)")
        }
    }
}
