import Foundation
import Mediator
import TestSupport
import Testing

/// Counts factory calls and instances of one registration.
final class Tracked: Sendable {
    init() {}
}

@Suite("Target cache")
struct CacheTests {
    let mediator = Mediator()
    let counter = Box()

    /// Registers `name` whose factory counts, optionally sleeping to widen race windows.
    func registerTracked(_ name: String, factoryDelay: UInt32 = 0) throws {
        try mediator.register(
            target: name,
            make: { [counter] _ -> Tracked in
                counter.created.increment()
                if factoryDelay > 0 { usleep(factoryDelay) }
                return Tracked()
            }, actions: [Action("id") { tracked, _ in ObjectIdentifier(tracked) }])
    }

    func id(_ target: String, cache: Bool) -> ObjectIdentifier? {
        mediator.perform(target: target, action: "id", shouldCacheTarget: cache) as? ObjectIdentifier
    }

    @Test("Without caching every call gets a fresh instance")
    func freshPerCall() throws {
        try registerTracked("T")
        _ = id("T", cache: false)
        _ = id("T", cache: false)
        #expect(counter.created.value == 2)
        #expect(!mediator.hasCachedInstance(ofTarget: "T"))
    }

    @Test("A cached instance is reused by later calls, whatever their flag")
    func reuse() throws {
        try registerTracked("T")
        let first = id("T", cache: true)
        #expect(id("T", cache: true) == first)
        #expect(id("T", cache: false) == first)
        #expect(counter.created.value == 1)
    }

    @Test("Releasing by full or short name makes the next cached call create a new instance")
    func release() throws {
        try registerTracked("T")
        _ = id("T", cache: true)
        #expect(mediator.releaseCachedTarget(fullName: "Target_T"))
        #expect(!mediator.releaseCachedTarget(fullName: "Target_T"))
        _ = id("T", cache: true)
        #expect(mediator.releaseCachedTarget(fullName: "T"))
        #expect(counter.created.value == 2)
    }

    @Test("Release-all empties every target's cache")
    func releaseAll() throws {
        try registerTracked("A")
        try registerTracked("B")
        _ = id("A", cache: true)
        _ = id("B", cache: true)
        mediator.releaseAllCachedTargets()
        #expect(!mediator.hasCachedInstance(ofTarget: "A"))
        #expect(!mediator.hasCachedInstance(ofTarget: "B"))
    }

    @Test("A released instance is freed once no call uses it")
    func releasedInstanceIsFreed() throws {
        try registerTracked("T")
        weak var instance: Tracked?
        let keep = ReadWriteLock<Tracked?>(nil)
        try mediator.addActions(
            [
                Action<Tracked>("keep") { tracked, _ in
                    keep.withLock { $0 = tracked }
                    return nil
                }
            ], toTarget: "T")
        _ = mediator.perform(target: "T", action: "keep", shouldCacheTarget: true)
        instance = keep.withLock { $0 }
        keep.withLock { $0 = nil }
        #expect(instance != nil)
        mediator.releaseCachedTarget(fullName: "Target_T")
        #expect(instance == nil)
    }

    @Test("8 threads racing for a cached target create exactly one instance, and all get it")
    func exactlyOnce() throws {
        for round in 0..<20 {
            let name = "Race\(round)"
            try registerTracked(name, factoryDelay: 2_000)
            let seen = ReadWriteLock<Set<ObjectIdentifier>>([])
            onThreads(8) { _ in
                let identity = mediator.perform(target: name, action: "id", shouldCacheTarget: true) as? ObjectIdentifier
                seen.withLock { _ = $0.insert(identity ?? ObjectIdentifier(Tracked.self)) }
            }
            #expect(seen.withLock { $0.count } == 1, "round \(round)")
        }
        #expect(counter.created.value == 20)
    }

    @Test("Threads racing uncached and cached calls never see two cached instances")
    func mixedRace() throws {
        try registerTracked("Mixed", factoryDelay: 500)
        let cachedIDs = ReadWriteLock<Set<ObjectIdentifier>>([])
        onThreads(8) { index in
            for call in 0..<200 {
                if (index + call) % 2 == 0 {
                    if let identity = mediator.perform(target: "Mixed", action: "id", shouldCacheTarget: true) as? ObjectIdentifier {
                        cachedIDs.withLock { _ = $0.insert(identity) }
                    }
                } else {
                    _ = mediator.perform(target: "Mixed", action: "id")
                }
            }
        }
        #expect(cachedIDs.withLock { $0.count } == 1)
    }

    @Test("A call waiting on a creation that lost to a release does not create beside the next creator")
    func waiterOfRetiredCreation() throws {
        // A creates (100 ms); B waits on A's creation; a release lands meanwhile, so A's instance
        // is not cached; C starts a new creation while B is still waiting. One release allows two
        // instances in all: B must join C's creation instead of making a third.
        try registerTracked("Slow", factoryDelay: 100_000)
        onThreads(4) { index in
            switch index {
            case 0: _ = id("Slow", cache: true)
            case 1:
                usleep(20_000)
                _ = id("Slow", cache: true)
            case 2:
                usleep(40_000)
                mediator.releaseCachedTarget(fullName: "Slow")
            default:
                usleep(110_000)
                _ = id("Slow", cache: true)
            }
        }
        // The sleeps make the regression's interleaving likely; no assertion depends on them. In
        // every order one release allows at most two instances, even counting one more call (the
        // release may have landed after every creation, on a slow machine).
        #expect(counter.created.value <= 2)
        #expect(id("Slow", cache: true) != nil)
        #expect(counter.created.value <= 2)
    }

    @Test("A closure target without state ignores shouldCacheTarget and runs on the mediator")
    func statelessTarget() throws {
        try mediator.register(target: "Pure", actions: [Action("me") { mediator, _ in ObjectIdentifier(mediator) }])
        #expect(mediator.perform(target: "Pure", action: "me", shouldCacheTarget: true) as? ObjectIdentifier == ObjectIdentifier(mediator))
        #expect(!mediator.hasCachedInstance(ofTarget: "Pure"))
    }
}
