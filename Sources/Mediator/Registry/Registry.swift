/// The mediator's mutable state. Lives inside the mediator's one lock; nothing in it escapes
/// the lock except `Sendable` values copied out.
struct Registry {
    var slots = NameTable<TargetSlot>()
    var fallback: FallbackHandler?
    var urlPolicy = URLPolicy()
    /// What modules declared they need (``Mediator/require(_:by:)``), for `verify`.
    var requirements: [(module: String, requirement: Requirement)] = []
    /// Interceptors, observers and redirects, as dispatch reads them; `nil` when there are none.
    /// One reference, so that the registry stays cheap to copy.
    var interception: Interception?
    /// The deep-link routes, by scheme.
    var routes = RouteTable()
    /// What answers URLs no route matches and no registered action answers.
    var unmatchedURLHandler: UnmatchedURLHandler?
    /// The last ID given to an interceptor or observer (IDs are never reused).
    var lastInterceptionID: UInt64 = 0
    /// The number of the last registration: each new slot gets the next one.
    private var lastRegistration: UInt64 = 0

    /// A slot for `definition`, with a registration number never used before in this registry.
    mutating func makeSlot(for definition: TargetDefinition) -> TargetSlot {
        lastRegistration += 1
        return TargetSlot(definition: definition, registration: lastRegistration)
    }

    /// The slot of `target`'s registration, if it is still the registered one.
    func slot(of target: ResolvedTarget) -> TargetSlot? {
        guard let slot = slots[target.name], slot.registration == target.registration else { return nil }
        return slot
    }

    /// The slot for a target called `name` (short or full form), compared byte for byte.
    func slot(named name: String) -> TargetSlot? {
        slots[NameKey(lookingUp: name, as: .target)]
    }

    var targetNames: [String] { slots.keys.sorted() }
}

/// One registered target and its cache state. A class so the state can be updated in place
/// under the lock; only ever touched while the mediator's lock is held.
final class TargetSlot {
    var definition: TargetDefinition
    /// Identifies this registration among all of the registry's, so a later step can tell
    /// whether it was replaced meanwhile. A number, not the slot's address: a freed slot's
    /// address can be reused by the next registration's slot.
    let registration: UInt64
    /// The cached instance, if any.
    var cached: (any TargetInstance)?
    /// Present while some thread is (or was, and failed) creating the cached instance.
    var gate: CreationGate?
    /// Bumped by every release, so a creation that started before a release does not store its
    /// instance after it.
    var epoch: UInt64 = 0

    init(definition: TargetDefinition, registration: UInt64) {
        self.definition = definition
        self.registration = registration
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
            name: definition.name, registration: registration,
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
    /// Identifies the registration (``TargetSlot/registration``), so a later step can tell
    /// whether it was replaced meanwhile.
    let registration: UInt64
    let make: Factory?
    let alwaysCached: Bool
    let cached: (any TargetInstance)?
}

/// The global fallback, synchronous or async.
enum FallbackHandler: Sendable {
    case sync(Mediator.Fallback)
    case async(Mediator.AsyncFallback)
}
