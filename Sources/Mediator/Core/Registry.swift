/// The mediator's mutable state. Lives inside the mediator's one lock; nothing in it escapes
/// the lock except `Sendable` values copied out.
struct Registry {
    var slots: [String: TargetSlot] = [:]
    var fallback: Mediator.Fallback?
    var urlPolicy = URLPolicy()

    /// The slot for a target called `name` (short or full form), compared byte for byte.
    func slot(named name: String) -> TargetSlot? {
        guard let name = Names.canonical(name, as: .target) else { return nil }
        return slots[name]
    }

    var targetNames: [String] { slots.keys.sorted() }
}

/// One registered target and its cache state. A class so the state can be updated in place
/// under the lock; only ever touched while the mediator's lock is held.
final class TargetSlot {
    var definition: TargetDefinition
    /// The cached instance, if any.
    var cached: (any TargetInstance)?
    /// Present while some thread is (or was, and failed) creating the cached instance.
    var gate: CreationGate?
    /// Bumped by every release, so a creation that started before a release does not store its
    /// instance after it.
    var epoch: UInt64 = 0

    init(definition: TargetDefinition) {
        self.definition = definition
    }

    /// Everything the slot keeps alive (the definition with the closures it captured, the cached
    /// instance), copied out so that it can leave the lock and be released after it: a `deinit`
    /// is user code. The slot itself then dies under the lock holding nothing that dies with it.
    var contents: SlotContents {
        SlotContents(definition: definition, cached: cached)
    }

    /// A `Sendable` snapshot of what a call needs, taken under the lock.
    var resolved: ResolvedTarget {
        ResolvedTarget(
            name: definition.name, slotID: ObjectIdentifier(self),
            make: definition.make, alwaysCached: definition.alwaysCached, cached: cached
        )
    }
}

/// See ``TargetSlot/contents``.
struct SlotContents: Sendable {
    let definition: TargetDefinition
    let cached: (any TargetInstance)?
}

/// What a call needs to know about its target once the lock is released.
struct ResolvedTarget: Sendable {
    let name: String
    /// Identifies the registration, so a later step can tell whether it was replaced meanwhile.
    let slotID: ObjectIdentifier
    let make: (@Sendable (Mediator) throws -> any TargetInstance)?
    let alwaysCached: Bool
    let cached: (any TargetInstance)?
}
