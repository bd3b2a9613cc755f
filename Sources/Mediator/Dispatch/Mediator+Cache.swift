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

    /// The instance a call runs on: the cached one if there is one, the mediator itself for a
    /// closure target, otherwise a new one (kept when `cache` is true or the target is always cached).
    func instance(of target: ResolvedTarget, cache: Bool) throws -> any TargetInstance {
        if let cached = target.cached { return cached }
        guard let make = target.make else { return self }
        guard cache || target.alwaysCached else { return try make(self) }
        return try cachedInstance(of: target, make: make)
    }

    /// Get-or-create through the target's creation gate: exactly one factory call per cached
    /// instance, with no lock held while the factory runs.
    private func cachedInstance(
        of target: ResolvedTarget,
        make: @Sendable (Mediator) throws -> any TargetInstance
    ) throws -> any TargetInstance {
        enum Step {
            case ready(any TargetInstance)
            case create(CreationGate)
            case replaced
        }
        while true {
            let step: Step = state.withLock { registry in
                guard let slot = registry.slot(of: target) else { return .replaced }
                if let cached = slot.cached { return .ready(cached) }
                if let gate = slot.gate { return .create(gate) }
                let gate = CreationGate(target: target.name)
                slot.gate = gate
                return .create(gate)
            }
            let gate: CreationGate
            switch step {
            case .ready(let instance): return instance
            // Re-registered since the call resolved it: serve this call with an instance of the
            // registration it resolved, but do not cache it into the new one.
            case .replaced: return try make(self)
            case .create(let found): gate = found
            }

            if let instance = try createThrough(gate, target: target, make: make) { return instance }
            // The gate was retired while this call waited for it; start again with the slot's state now.
        }
    }

    /// Creates (or finds) the instance as the creator through `gate`; `nil` when the gate was
    /// retired meanwhile. A creation that lost to a release retires its gate, and a newer gate may
    /// already be creating: a call waiting on the old gate must not create a second instance
    /// beside it (the concurrency stress test caught exactly that).
    ///
    /// - Throws: `cyclicTargetCreation` when waiting for the gate would never end (see
    ///   ``CreationCoordinator``), or what the factory threw.
    private func createThrough(
        _ gate: CreationGate,
        target: ResolvedTarget,
        make: @Sendable (Mediator) throws -> any TargetInstance
    ) throws -> (any TargetInstance)? {
        try CreationCoordinator.enter(gate)
        defer { CreationCoordinator.leave(gate) }
        enum Recheck {
            case ready(any TargetInstance)
            case empty(epoch: UInt64)
            case replaced
            case retired
        }
        let recheck: Recheck = state.withReadLock { registry in
            guard let slot = registry.slot(of: target) else { return .replaced }
            if let cached = slot.cached { return .ready(cached) }
            guard slot.gate === gate else { return .retired }
            return .empty(epoch: slot.epoch)
        }
        switch recheck {
        case .ready(let instance): return instance
        case .replaced: return try make(self)
        case .retired: return nil
        case .empty(let epoch):
            let instance = try make(self)
            state.withLock { registry in
                guard let slot = registry.slot(of: target) else { return }
                // A release during creation wins: this call still gets its instance.
                if slot.epoch == epoch && slot.cached == nil { slot.cached = instance }
                if slot.gate === gate { slot.gate = nil }
            }
            return instance
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
