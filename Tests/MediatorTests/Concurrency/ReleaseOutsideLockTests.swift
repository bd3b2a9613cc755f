import Mediator
import Testing

/// An object whose `deinit` calls the mediator: user code that must never run under its lock.
final class CallsBackOnDeinit: Sendable {
    let mediator: Mediator
    let log: RunLog

    init(mediator: Mediator, log: RunLog) {
        self.mediator = mediator
        self.log = log
    }

    deinit {
        // A read, a write and a call: each takes the mediator's lock.
        let names = mediator.targets.map(\.name).joined(separator: ",")
        mediator.releaseAllCachedTargets()
        log.add("deinit saw \(names), echo \(mediator.perform(target: "Echo", action: "say") as? String ?? "nil")")
    }
}

@Suite("Objects leave the registry after its lock is dropped")
struct ReleaseOutsideLockTests {
    let mediator = Mediator()
    let log = RunLog()

    init() throws {
        try mediator.register(target: "Echo", actions: [Action("say") { _, _ in "hi" }])
    }

    /// Registers `Held`, whose cached instance calls the mediator when it dies, and caches one.
    func cacheOne(replacingExisting: Bool = false) throws {
        try mediator.register(
            target: "Held", replacingExisting: replacingExisting,
            make: { [mediator, log] _ in CallsBackOnDeinit(mediator: mediator, log: log) },
            actions: [Action("touch") { _, _ in "touched" }]
        )
        _ = try mediator.callNow(target: "Held", action: "touch", shouldCacheTarget: true)
        #expect(mediator.hasCachedInstance(ofTarget: "Held"))
    }

    @Test("releaseCachedTarget")
    func releaseOne() throws {
        try cacheOne()
        #expect(mediator.releaseCachedTarget(fullName: "Target_Held"))
        #expect(log.all == ["deinit saw Echo,Held, echo hi"])
    }

    @Test("releaseAllCachedTargets")
    func releaseAll() throws {
        try cacheOne()
        mediator.releaseAllCachedTargets()
        #expect(log.all == ["deinit saw Echo,Held, echo hi"])
    }

    @Test("unregister")
    func unregister() throws {
        try cacheOne()
        #expect(mediator.unregister(target: "Held"))
        #expect(log.all == ["deinit saw Echo, echo hi"])
    }

    @Test("Replacing the target")
    func replace() throws {
        try cacheOne()
        try mediator.register(target: "Held", replacingExisting: true, actions: [])
        #expect(log.all == ["deinit saw Echo,Held, echo hi"])
    }

    @Test("The cache-drop rule of a missing action")
    func dropOnMiss() throws {
        try cacheOne()
        #expect(mediator.perform(target: "Held", action: "missing") == nil)
        #expect(log.all == ["deinit saw Echo,Held, echo hi"])
    }

    @Test("What a replaced definition's closures captured")
    func replacedDefinition() throws {
        let captured = CallsBackOnDeinit(mediator: mediator, log: log)
        try mediator.register(target: "Captures", actions: [Action("keep") { _, _ in withExtendedLifetime(captured) { "kept" } }])
        _ = consume captured
        try mediator.register(target: "Captures", replacingExisting: true, actions: [])
        #expect(log.all == ["deinit saw Captures,Echo, echo hi"])
    }

    @Test("What a replaced fallback captured")
    func replacedFallback() throws {
        let captured = CallsBackOnDeinit(mediator: mediator, log: log)
        mediator.setFallback { _, _, _ in withExtendedLifetime(captured) { nil } }
        _ = consume captured
        mediator.setFallback(nil)
        #expect(log.all == ["deinit saw Echo, echo hi"])
    }
}
