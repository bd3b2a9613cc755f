// MARK: - Target instances and the cache

extension Mediator {
    /// Releases the cached instance of a target (full name as in CTMediator, or short name).
    /// The next call creates a new one. Calls already running keep the old instance until they end.
    ///
    /// CTMediator's name is kept because it is what its users know, but the short name works too:
    /// `releaseCachedTarget(fullName: "Notes")` and `releaseCachedTarget(fullName: "Target_Notes")`
    /// release the same instance. The instance is released after the mediator's lock is dropped,
    /// so its `deinit` may call the mediator.
    ///
    /// - Parameter fullName: the target's full (`Target_Notes`) or short (`Notes`) name.
    /// - Returns: whether an instance was cached.
    @discardableResult
    public func releaseCachedTarget(fullName: String) -> Bool {
        // The instance is handed out of the lock and released here, after it: its `deinit` is
        // user code and may call the mediator.
        let released: (any TargetInstance)? = state.withLock { registry in
            registry.slot(named: fullName).flatMap(release)
        }
        return released != nil
    }

    /// Releases every cached target instance; each target's next call creates a new one.
    public func releaseAllCachedTargets() {
        let released: [any TargetInstance] = state.withLock { registry in
            registry.slots.values.compactMap(release)
        }
        withExtendedLifetime(released) {}
    }

    /// Whether a target (short or full name) currently has a cached instance.
    ///
    /// - Parameter target: the target's short or full name.
    /// - Returns: `true` when an instance is cached; `false` for an unknown target too.
    public func hasCachedInstance(ofTarget target: String) -> Bool {
        state.withReadLock { $0.slot(named: target)?.cached != nil }
    }

    // MARK: Internals

    /// Empties the slot's cache and returns what it held, for the caller to let go of once the
    /// lock is dropped (never under it: a `deinit` is user code).
    private func release(_ slot: TargetSlot) -> (any TargetInstance)? {
        let released = slot.cached
        slot.cached = nil
        slot.epoch &+= 1
        return released
    }

    /// The instance a call runs on, when it can be had without awaiting: the cached one if there
    /// is one, the mediator itself for a closure target, otherwise a new one (kept when `cache` is
    /// true or the target is always cached). A factory's error becomes the call's
    /// (``creationFailedError(from:target:action:)``).
    func instanceNow(of target: ResolvedTarget, cache: Bool, action: String, awaiting: Bool = false) -> Immediate<Result<any TargetInstance, MediatorError>> {
        if let cached = target.cached { return .done(.success(cached)) }
        guard let make = target.make else { return .done(.success(self)) }
        guard make.canRunNow else {
            // Asked from inside its own async factory: awaiting would never end.
            if cache || target.alwaysCached, let gate = state.withReadLock({ $0.slot(of: target)?.gate }),
                let cycle = CreationCoordinator.cycleIfHeldByThisTask(gate)
            {
                return .done(.failure(creationFailedError(from: cycle, target: target.name, action: action)))
            }
            return .mustAwait(make.awaitReason)
        }
        do {
            guard cache || target.alwaysCached else { return .done(.success(try make.makeNow(self))) }
            switch try cachedInstance(of: target, make: make, awaiting: awaiting) {
            case .done(let instance): return .done(.success(instance))
            case .mustAwait(let reason): return .mustAwait(reason)
            }
        } catch {
            return .done(.failure(creationFailedError(from: error, target: target.name, action: action)))
        }
    }

    /// Get-or-create through the target's creation gate: exactly one factory call per cached
    /// instance, with no lock held while the factory runs. Must await when the instance is being
    /// created by an async factory: a synchronous caller never waits for one. An `awaiting`
    /// caller (an async entry point) must await whenever another call is creating it: it may not
    /// block a thread of the cooperative pool on a condition variable.
    private func cachedInstance(of target: ResolvedTarget, make: Factory, awaiting: Bool) throws -> Immediate<any TargetInstance> {
        while true {
            let gate: CreationGate
            switch cacheStep(target) {
            case .ready(let instance): return .done(instance)
            // Re-registered since the call resolved it: serve this call with an instance of the
            // registration it resolved, but do not cache it into the new one.
            case .replaced: return .done(try make.makeNow(self))
            case .create(let found): gate = found
            }
            let entered = awaiting ? try CreationCoordinator.tryEnter(gate, asTask: false) : try CreationCoordinator.enter(gate)
            guard entered else { return .mustAwait(.asyncCreation) }
            defer { CreationCoordinator.leave(gate) }
            switch cacheRecheck(target, gate: gate) {
            case .ready(let instance): return .done(instance)
            case .replaced: return .done(try make.makeNow(self))
            case .retired: continue
            case .empty(let epoch):
                let instance = try make.makeNow(self)
                store(instance, in: target, gate: gate, epoch: epoch)
                return .done(instance)
            }
        }
    }

    /// The instance a call runs on, awaiting whatever it takes: an async or main-actor factory,
    /// or another call's creation of the cached instance (suspending, not blocking a thread).
    func instanceAwaiting(of target: ResolvedTarget, cache: Bool, action: String) async -> Result<any TargetInstance, MediatorError> {
        if let cached = target.cached { return .success(cached) }
        guard let make = target.make else { return .success(self) }
        do {
            guard cache || target.alwaysCached else { return .success(try await make.makeAwaiting(self)) }
            return .success(try await cachedInstanceAwaiting(of: target, make: make))
        } catch {
            return .failure(creationFailedError(from: error, target: target.name, action: action))
        }
    }

    /// ``cachedInstance(of:make:)`` for async callers: waiters suspend until the creator is done.
    private func cachedInstanceAwaiting(of target: ResolvedTarget, make: Factory) async throws -> any TargetInstance {
        while true {
            let gate: CreationGate
            switch cacheStep(target) {
            case .ready(let instance): return instance
            case .replaced: return try await make.makeAwaiting(self)
            case .create(let found): gate = found
            }
            // A synchronous factory runs at once on this thread, as the synchronous path would
            // run it; an async one runs with the gate held by this task, so that a factory that
            // awaits its own target is found out.
            let awaits = !make.canRunNow
            guard try CreationCoordinator.tryEnter(gate, asTask: awaits) else {
                try await CreationCoordinator.waitUntilFree(gate)
                continue
            }
            defer { CreationCoordinator.leave(gate) }
            switch cacheRecheck(target, gate: gate) {
            case .ready(let instance): return instance
            case .replaced: return awaits ? try await make.makeAwaiting(self) : try make.makeNow(self)
            case .retired: continue
            case .empty(let epoch):
                let instance = awaits ? try await CreationCoordinator.holding(gate) { try await make.makeAwaiting(self) } : try make.makeNow(self)
                store(instance, in: target, gate: gate, epoch: epoch)
                return instance
            }
        }
    }

    private enum CacheStep {
        case ready(any TargetInstance)
        case create(CreationGate)
        case replaced
    }

    /// The cached instance, or the gate to create it through (made now if there is none).
    private func cacheStep(_ target: ResolvedTarget) -> CacheStep {
        state.withLock { registry in
            guard let slot = registry.slot(of: target) else { return .replaced }
            if let cached = slot.cached { return .ready(cached) }
            if let gate = slot.gate { return .create(gate) }
            let gate = CreationGate(target: target.name)
            slot.gate = gate
            return .create(gate)
        }
    }

    private enum Recheck {
        case ready(any TargetInstance)
        case empty(epoch: UInt64)
        case replaced
        case retired
    }

    /// What the slot holds now that this call is the creator through `gate`. A creation that lost
    /// to a release retires its gate, and a newer gate may already be creating: a call that waited
    /// on the old gate must not create a second instance beside it (`.retired`: start again).
    private func cacheRecheck(_ target: ResolvedTarget, gate: CreationGate) -> Recheck {
        state.withReadLock { registry in
            guard let slot = registry.slot(of: target) else { return .replaced }
            if let cached = slot.cached { return .ready(cached) }
            guard slot.gate === gate else { return .retired }
            return .empty(epoch: slot.epoch)
        }
    }

    /// Caches a created instance, unless a release happened during creation (that call still
    /// gets its instance), and retires the gate.
    private func store(_ instance: any TargetInstance, in target: ResolvedTarget, gate: CreationGate, epoch: UInt64) {
        state.withLock { registry in
            guard let slot = registry.slot(of: target) else { return }
            if slot.epoch == epoch && slot.cached == nil { slot.cached = instance }
            if slot.gate === gate { slot.gate = nil }
        }
    }

    /// Drops the cached instance of a target whose action was missing (CTMediator's rule; the
    /// caller decides when it applies). The instance is released after the lock is dropped.
    func dropCachedInstance(of target: ResolvedTarget) {
        guard target.cached != nil || target.make != nil else { return }
        let released: (any TargetInstance)? = state.withLock { registry in
            guard let slot = registry.slot(of: target) else { return nil }
            return release(slot)
        }
        withExtendedLifetime(released) {}
    }
}
