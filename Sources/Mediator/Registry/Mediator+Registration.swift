// MARK: - Registration

extension Mediator {
    /// Registers a `Target_X` type, made by `make` whenever the mediator needs an instance.
    ///
    /// ```swift
    /// try mediator.register(Target_Notes.self) { mediator in Target_Notes(mediator: mediator) }
    /// ```
    ///
    /// `make` gets the mediator that dispatches to the target, so the target can call other
    /// modules through it. It may throw; the error reaches the caller of the action as
    /// ``MediatorError/Code/actionFailed`` (a creation cycle as
    /// ``MediatorError/Code/cyclicTargetCreation``) and nothing is cached.
    ///
    /// - Parameters:
    ///   - type: the target type; its ``MediatorTarget/targetName`` is the name callers use and
    ///     its ``MediatorTarget/actions`` the actions they can call.
    ///   - replacingExisting: replace a target already registered under the same name
    ///     (dropping its cached instance) instead of failing.
    ///   - make: makes an instance, given the mediator; called once per call, or once per cached
    ///     instance (see <doc:CachingTargets>).
    /// - Throws: ``MediatorError/Code/duplicateTarget`` if the name is taken,
    ///   ``MediatorError/Code/duplicateAction`` if `actions` repeats a name,
    ///   ``MediatorError/Code/invalidName`` for an unusable name.
    public func register<Target: MediatorTarget>(
        _ type: Target.Type,
        replacingExisting: Bool = false,
        make: @escaping @Sendable (Mediator) throws -> Target
    ) throws(MediatorError) {
        try register(Target.self, factory: .sync(erasing: make), replacingExisting: replacingExisting)
    }

    /// Registers a `Target_X` type whose factory is async: it may `await` (open a database, load
    /// a configuration) before the instance exists.
    ///
    /// ```swift
    /// try mediator.register(Target_Feed.self) { mediator async throws in
    ///     Target_Feed(store: try await FeedStore.open())
    /// }
    /// ```
    ///
    /// Only the async entry points can create such an instance; a synchronous call that needs one
    /// fails with ``MediatorError/Code/asyncAction`` (an instance already cached serves
    /// synchronous calls too). Cached creation is still exactly once: concurrent callers suspend
    /// until the first one's factory returns, without blocking a thread.
    ///
    /// - Parameters:
    ///   - type: the target type.
    ///   - replacingExisting: replace a target already registered under the same name.
    ///   - make: makes an instance, given the mediator, and may `await`.
    /// - Throws: as ``register(_:replacingExisting:make:)-1zphx``.
    public func register<Target: MediatorTarget>(
        _ type: Target.Type,
        replacingExisting: Bool = false,
        make: @escaping @Sendable (Mediator) async throws -> Target
    ) throws(MediatorError) {
        try register(Target.self, factory: .async(erasing: make), replacingExisting: replacingExisting)
    }

    /// Registers a main-actor target type, made on the main actor by `make`.
    ///
    /// ```swift
    /// try mediator.register(Target_Profile.self) { _ in Target_Profile() }
    /// ```
    ///
    /// The factory runs on the main actor, like the target's actions: see ``MainActorTarget``.
    ///
    /// - Parameters:
    ///   - type: the target type.
    ///   - replacingExisting: replace a target already registered under the same name.
    ///   - make: makes an instance on the main actor, given the mediator.
    /// - Throws: as ``register(_:replacingExisting:make:)-1zphx``.
    public func register<Target: MainActorTarget>(
        _ type: Target.Type,
        replacingExisting: Bool = false,
        make: @escaping @MainActor @Sendable (Mediator) throws -> Target
    ) throws(MediatorError) {
        try register(Target.self, factory: .mainActor(erasing: make), replacingExisting: replacingExisting)
    }

    /// Registers a main-actor target type whose factory is async (and runs on the main actor).
    ///
    /// - Parameters:
    ///   - type: the target type.
    ///   - replacingExisting: replace a target already registered under the same name.
    ///   - make: makes an instance on the main actor, given the mediator, and may `await`.
    /// - Throws: as ``register(_:replacingExisting:make:)-1zphx``.
    public func register<Target: MainActorTarget>(
        _ type: Target.Type,
        replacingExisting: Bool = false,
        make: @escaping @MainActor @Sendable (Mediator) async throws -> Target
    ) throws(MediatorError) {
        try register(Target.self, factory: .async(erasing: make), replacingExisting: replacingExisting)
    }

    private func register<Target: MediatorTarget>(_: Target.Type, factory: Factory, replacingExisting: Bool) throws(MediatorError) {
        let notFound =
            Self.asyncNotFound(of: Target.self) ?? .sync(erasing: { (target: Target, action, params) in try target.notFound(action: action, params: params) })
        let definition = try TargetDefinition(
            name: Target.targetName, summary: Target.targetSummary, alwaysCached: Target.isAlwaysCached, make: factory,
            actions: Target.actions, notFound: notFound
        )
        try install(definition, replacingExisting: replacingExisting)
    }

    private func register<Target: MainActorTarget>(_: Target.Type, factory: Factory, replacingExisting: Bool) throws(MediatorError) {
        let notFound =
            Self.asyncNotFound(of: Target.self)
            ?? .mainActor(erasing: { (target: Target, action, params) in try target.notFound(action: action, params: params) })
        let definition = try TargetDefinition(
            name: Target.targetName, summary: Target.targetSummary, alwaysCached: Target.isAlwaysCached, make: factory,
            actions: Target.actions, notFound: notFound
        )
        try install(definition, replacingExisting: replacingExisting)
    }

    /// The async `notFound` of a target type that adopts ``AsyncNotFoundTarget``, else `nil`:
    /// looked up once, at registration.
    private static func asyncNotFound<Target: TargetInstance>(of _: Target.Type) -> NotFoundHandler? {
        guard let asyncType = Target.self as? any AsyncNotFoundTarget.Type else { return nil }
        func handler<Handler: AsyncNotFoundTarget>(_: Handler.Type) -> NotFoundHandler {
            .async(erasing: { (target: Handler, action, params) in try await target.notFound(action: action, params: params) })
        }
        return handler(asyncType)
    }

    /// Registers a target from closures, with instances of any `Sendable` class made by `make`.
    ///
    /// ```swift
    /// final class Greeter: Sendable {
    ///     let greeting: String
    ///     init(greeting: String) { self.greeting = greeting }
    /// }
    /// try mediator.register(target: "Greeter", make: { _ in Greeter(greeting: "Hello") }, actions: [
    ///     Action("greet") { greeter, params in "\(greeter.greeting), \(try params.value("name", as: String.self))" },
    /// ])
    /// ```
    ///
    /// A class with mutable state keeps it behind a lock of its own: `Mutex` from iOS 18 and
    /// macOS 15, before that a small lock such as `Locked` in the package's `Targets/ExampleSupport`.
    ///
    /// - Parameters:
    ///   - name: the target's name, short (`Counter`) or full (`Target_Counter`).
    ///   - summary: a one-line description, shown by listings.
    ///   - alwaysCached: every call uses one cached instance (see ``MediatorTarget/isAlwaysCached``).
    ///   - replacingExisting: replace a target already registered under the same name
    ///     (dropping its cached instance) instead of failing.
    ///   - make: makes an instance, given the mediator; called once per call, or once per cached
    ///     instance. It may throw, as in ``register(_:replacingExisting:make:)-1zphx``.
    ///   - actions: the actions, each getting an `Instance`.
    ///   - notFound: CTMediator's `notFound:` for this target (see ``MediatorTarget/notFound(action:params:)``):
    ///     gets the instance, the action name as the caller wrote it and the params. Without one,
    ///     the target has no handler, and a missing action drops its cached instance.
    /// - Throws: as ``register(_:replacingExisting:make:)-1zphx``.
    public func register<Instance: AnyObject & Sendable>(
        target name: String,
        summary: String? = nil,
        alwaysCached: Bool = false,
        replacingExisting: Bool = false,
        make: @escaping @Sendable (Mediator) throws -> Instance,
        actions: [Action<Instance>],
        notFound: (@Sendable (Instance, _ action: String, Params) throws -> (any Sendable)?)? = nil
    ) throws(MediatorError) {
        let definition = try TargetDefinition(
            name: name, summary: summary, alwaysCached: alwaysCached, make: .sync(erasing: make), actions: actions,
            notFound: notFound.map { .sync(erasing: $0) }
        )
        try install(definition, replacingExisting: replacingExisting)
    }

    /// Registers a target from closures whose factory is async.
    ///
    /// ```swift
    /// try mediator.register(target: "Feed", make: { _ async throws in try await FeedStore.open() }, actions: [
    ///     Action("load") { store, params async throws in try await store.page(params.value("page", as: Int.self)) },
    /// ])
    /// ```
    ///
    /// As with ``register(_:replacingExisting:make:)-6082j``, only the async entry points can create
    /// an instance; once one is cached, synchronous calls to synchronous actions use it too.
    ///
    /// - Parameters:
    ///   - name: the target's name, short or full.
    ///   - summary: a one-line description, shown by listings.
    ///   - alwaysCached: every call uses one cached instance.
    ///   - replacingExisting: replace a target already registered under the same name.
    ///   - make: makes an instance, given the mediator, and may `await`.
    ///   - actions: the actions, each getting an `Instance`.
    ///   - notFound: CTMediator's `notFound:` for this target (synchronous).
    /// - Throws: as ``register(_:replacingExisting:make:)-1zphx``.
    public func register<Instance: AnyObject & Sendable>(
        target name: String,
        summary: String? = nil,
        alwaysCached: Bool = false,
        replacingExisting: Bool = false,
        make: @escaping @Sendable (Mediator) async throws -> Instance,
        actions: [Action<Instance>],
        notFound: (@Sendable (Instance, _ action: String, Params) throws -> (any Sendable)?)? = nil
    ) throws(MediatorError) {
        let definition = try TargetDefinition(
            name: name, summary: summary, alwaysCached: alwaysCached, make: .async(erasing: make), actions: actions,
            notFound: notFound.map { .sync(erasing: $0) }
        )
        try install(definition, replacingExisting: replacingExisting)
    }

    /// Registers a target from closures whose `notFound` is async (the factory is synchronous).
    ///
    /// - Parameters:
    ///   - name: the target's name, short or full.
    ///   - summary: a one-line description, shown by listings.
    ///   - alwaysCached: every call uses one cached instance.
    ///   - replacingExisting: replace a target already registered under the same name.
    ///   - make: makes an instance, given the mediator.
    ///   - actions: the actions, each getting an `Instance`.
    ///   - notFound: CTMediator's `notFound:` for this target, which may `await`; only the async
    ///     entry points run it.
    /// - Throws: as ``register(_:replacingExisting:make:)-1zphx``.
    public func register<Instance: AnyObject & Sendable>(
        target name: String,
        summary: String? = nil,
        alwaysCached: Bool = false,
        replacingExisting: Bool = false,
        make: @escaping @Sendable (Mediator) throws -> Instance,
        actions: [Action<Instance>],
        notFound: @escaping @Sendable (Instance, _ action: String, Params) async throws -> (any Sendable)?
    ) throws(MediatorError) {
        let definition = try TargetDefinition(
            name: name, summary: summary, alwaysCached: alwaysCached, make: .sync(erasing: make), actions: actions, notFound: .async(erasing: notFound)
        )
        try install(definition, replacingExisting: replacingExisting)
    }

    /// Registers a target from closures whose factory and `notFound` are both async.
    ///
    /// - Parameters:
    ///   - name: the target's name, short or full.
    ///   - summary: a one-line description, shown by listings.
    ///   - alwaysCached: every call uses one cached instance.
    ///   - replacingExisting: replace a target already registered under the same name.
    ///   - make: makes an instance, given the mediator, and may `await`.
    ///   - actions: the actions, each getting an `Instance`.
    ///   - notFound: CTMediator's `notFound:` for this target, which may `await`.
    /// - Throws: as ``register(_:replacingExisting:make:)-1zphx``.
    public func register<Instance: AnyObject & Sendable>(
        target name: String,
        summary: String? = nil,
        alwaysCached: Bool = false,
        replacingExisting: Bool = false,
        make: @escaping @Sendable (Mediator) async throws -> Instance,
        actions: [Action<Instance>],
        notFound: @escaping @Sendable (Instance, _ action: String, Params) async throws -> (any Sendable)?
    ) throws(MediatorError) {
        let definition = try TargetDefinition(
            name: name, summary: summary, alwaysCached: alwaysCached, make: .async(erasing: make), actions: actions, notFound: .async(erasing: notFound)
        )
        try install(definition, replacingExisting: replacingExisting)
    }

    /// Registers a target without state from plain closures. Each action gets the mediator that
    /// called it (use it for nested calls without capturing it) and the params.
    ///
    /// ```swift
    /// try mediator.register(target: "Echo", actions: [
    ///     Action("echo") { _, params in params.values },
    /// ])
    /// ```
    ///
    /// There is no instance, so `shouldCacheTarget` has no effect on such a target.
    ///
    /// - Parameters:
    ///   - name: the target's name, short (`Echo`) or full (`Target_Echo`).
    ///   - summary: a one-line description, shown by listings.
    ///   - replacingExisting: replace a target already registered under the same name instead
    ///     of failing.
    ///   - actions: the actions, each getting the mediator and the params.
    ///   - notFound: CTMediator's `notFound:` for this target: gets the mediator, the action name
    ///     as the caller wrote it and the params, and returns an answer or `nil`.
    /// - Throws: as ``register(_:replacingExisting:make:)-1zphx``.
    public func register(
        target name: String,
        summary: String? = nil,
        replacingExisting: Bool = false,
        actions: [Action<Mediator>],
        notFound: (@Sendable (Mediator, _ action: String, Params) throws -> (any Sendable)?)? = nil
    ) throws(MediatorError) {
        let definition = try TargetDefinition(name: name, summary: summary, make: nil, actions: actions, notFound: notFound.map { .sync(erasing: $0) })
        try install(definition, replacingExisting: replacingExisting)
    }

    /// Adds actions to a registered target (short or full name). Its cached instance, if any, stays.
    ///
    /// ```swift
    /// try mediator.addActions([Action<Target_Notes>("count") { target, _ in target.count }], toTarget: "Notes")
    /// ```
    ///
    /// - Parameters:
    ///   - actions: the actions to add; their instance type must be the target's.
    ///   - target: the target's short or full name.
    /// - Throws: ``MediatorError/Code/targetNotFound`` for an unknown target,
    ///   ``MediatorError/Code/targetTypeMismatch`` when the target's instances are not `Instance`,
    ///   ``MediatorError/Code/duplicateAction`` when a name is already taken (nothing is added then).
    public func addActions<Instance: AnyObject & Sendable>(
        _ actions: [Action<Instance>],
        toTarget target: String
    ) throws(MediatorError) {
        // The replaced definition leaves the lock in the outcome and is released after it; the
        // error for a missing target is built after it too.
        let outcome: AddActionsOutcome = state.withLock { registry in
            guard let slot = registry.slot(named: target) else { return .noTarget(registeredNames: Array(registry.slots.keys)) }
            var definition = slot.definition
            do throws(MediatorError) {
                try definition.add(actions)
            } catch {
                return .failed(error)
            }
            swap(&slot.definition, &definition)
            return .added(replaced: definition)
        }
        switch outcome {
        case .added: return
        case .failed(let error): throw error
        case .noTarget(let names): throw targetNotFoundError(target: target, action: nil, registeredNames: names)
        }
    }

    /// Removes a target (short or full name) and its cached instance. Calls already running finish.
    ///
    /// - Parameter target: the target's short or full name.
    /// - Returns: whether such a target was registered.
    @discardableResult
    public func unregister(target: String) -> Bool {
        // The slot (its definition, whatever the closures captured, its cached instance) is
        // released after the lock is dropped: a `deinit` may call the mediator.
        let removed: SlotContents? = state.withLock { registry in
            guard let name = Names.canonical(target, as: .target) else { return nil }
            return registry.slots.removeValue(forKey: name)?.contents
        }
        return removed != nil
    }

    /// Installs a global fallback, asked when a target is missing or a target's `notFound` does
    /// not answer; `nil` removes it.
    ///
    /// Without one, a registered target `NoTargetAction` with an action `response` serves as the
    /// fallback, as in CTMediator, with CTMediator's params: `targetString` (the class name,
    /// `Target_Nope`), `selectorString` (`Action_go:`) and `originParams` (a ``Params``), plus
    /// `actionString` (the action as the caller wrote it). A remote (URL) call never reaches a
    /// `response` declared local-only.
    ///
    /// ```swift
    /// mediator.setFallback { target, action, _ in
    ///     "\(target)/\(action) is not available in this build"
    /// }
    /// ```
    ///
    /// The fallback's answer is returned to the caller (CTMediator returns `nil` instead); what it
    /// throws fails the call as an action's error does. See <doc:NamesAndFallbacks>.
    ///
    /// - Parameter fallback: the fallback, or `nil` to remove the one installed.
    public func setFallback(_ fallback: Fallback?) {
        var fallback = fallback.map(FallbackHandler.sync)
        // The old fallback (and what it captured) is released after the lock is dropped.
        state.withLock { swap(&$0.fallback, &fallback) }
        withExtendedLifetime(fallback) {}
    }

    /// Installs an async global fallback: it may `await` before answering.
    ///
    /// ```swift
    /// mediator.setFallback { target, action, params async throws in
    ///     try await remoteModules.call(target, action, params)
    /// }
    /// ```
    ///
    /// Only the async entry points can run it: a synchronous call that reaches it fails with
    /// ``MediatorError/Code/asyncAction``. Remove it with `setFallback(nil)`.
    ///
    /// - Parameter fallback: the fallback.
    public func setFallback(_ fallback: @escaping AsyncFallback) {
        var fallback: FallbackHandler? = .async(fallback)
        state.withLock { swap(&$0.fallback, &fallback) }
        withExtendedLifetime(fallback) {}
    }

    private func install(_ definition: TargetDefinition, replacingExisting: Bool) throws(MediatorError) {
        enum Outcome {
            case installed(replaced: SlotContents?)
            case duplicate
        }
        // What a replaced slot held leaves the lock in the outcome and is released after it.
        let outcome: Outcome = state.withLock { registry in
            if registry.slots[definition.name] != nil && !replacingExisting { return .duplicate }
            return .installed(replaced: registry.slots.updateValue(registry.makeSlot(for: definition), forKey: definition.name)?.contents)
        }
        if case .duplicate = outcome {
            throw MediatorError(
                .duplicateTarget, target: definition.name,
                reason: "a target named \"\(definition.name)\" is already registered (pass replacingExisting: true to replace it)"
            )
        }
    }
}

/// How `addActions` ended under the lock (outside the generic function: Swift allows no nested type there).
private enum AddActionsOutcome {
    case added(replaced: TargetDefinition)
    case failed(MediatorError)
    case noTarget(registeredNames: [String])
}
