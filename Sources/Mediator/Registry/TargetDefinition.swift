/// An instance of any target, as the registry stores it.
typealias TargetInstance = AnyObject & Sendable

/// A registered action with its target type erased.
struct RegisteredAction: Sendable {
    let name: String
    let summary: String?
    let isLocalOnly: Bool
    let run: ActionRun
    /// Declared parameters, result and typed body; `nil` for an action that declared none.
    let contract: ActionContract?

    /// Whether a call may run this action: a remote (URL) call never reaches a local-only one.
    /// The one statement of that rule; every stage that meets an action asks it.
    @inline(__always)
    func admits(remote: Bool) -> Bool {
        !(remote && isLocalOnly)
    }

    /// The refusal of a call that ``admits(remote:)`` turns away (`forbidden`, naming the action
    /// of `target`), or `nil` when the call may run it: every stage that refuses one builds its
    /// error here.
    func refusal(target: String, remote: Bool) -> MediatorError? {
        guard !admits(remote: remote) else { return nil }
        var error = MediatorError(
            .forbidden, target: target, action: name,
            reason: "action \"\(name)\" is local-only\(Names.isNative(name) ? " (its name begins with \"native\")" : ""); URL calls cannot reach it")
        error.isURLRefusal = true
        return error
    }
}

/// An action's body with its target type erased (see ``ActionBody``).
enum ActionRun: Sendable {
    case sync(@Sendable (any TargetInstance, Params) throws -> (any Sendable)?)
    case async(@Sendable (any TargetInstance, Params) async throws -> (any Sendable)?)
    case mainActor(@MainActor @Sendable (any TargetInstance, Params) throws -> (any Sendable)?)
}

/// A handler for missing actions, with its target type erased: it gets the instance, the action
/// name as the caller wrote it and the params.
enum NotFoundHandler: Sendable {
    case sync(@Sendable (any TargetInstance, String, Params) throws -> (any Sendable)?)
    case async(@Sendable (any TargetInstance, String, Params) async throws -> (any Sendable)?)
    case mainActor(@MainActor @Sendable (any TargetInstance, String, Params) throws -> (any Sendable)?)
}

/// How a target's instances are made: a synchronous factory, an async one, or a synchronous one
/// bound to the main actor (for ``MainActorTarget``).
enum Factory: Sendable {
    case sync(@Sendable (Mediator) throws -> any TargetInstance)
    case async(@Sendable (Mediator) async throws -> any TargetInstance)
    case mainActor(@MainActor @Sendable (Mediator) throws -> any TargetInstance)
}

/// Everything registered for one target name. Immutable once built; adding actions builds a new one.
struct TargetDefinition: Sendable {
    let name: String
    let summary: String?
    /// The type of the target's instances, checked when actions are added later.
    let instanceType: ObjectIdentifier
    /// Makes an instance; `nil` for a target registered from closures alone, whose "instance" is
    /// the mediator itself (nothing to create, nothing to cache).
    let make: Factory?
    private(set) var actions: NameTable<RegisteredAction>
    let notFound: NotFoundHandler?
    /// Every call uses the cached instance, creating it if needed, whatever its flag (URL calls too).
    let alwaysCached: Bool

    var fullName: String { Names.targetPrefix + name }

    /// A definition whose instances are `Instance`, checking every name.
    init<Instance: TargetInstance>(
        name rawName: String,
        summary: String?,
        alwaysCached: Bool = false,
        make: Factory?,
        actions: [Action<Instance>],
        notFound: NotFoundHandler?
    ) throws(MediatorError) {
        guard let name = Names.canonical(rawName, as: .target) else {
            let problem = Names.problem(with: rawName, as: .target) ?? "not a valid name"
            throw MediatorError(.invalidName, target: rawName, reason: "invalid target name \"\(oneLine(rawName, limit: 100))\": \(problem)")
        }
        self.name = name
        self.summary = summary
        self.alwaysCached = alwaysCached && make != nil
        self.instanceType = ObjectIdentifier(Instance.self)
        self.make = make
        self.notFound = notFound
        self.actions = NameTable()
        try add(actions)
    }

    /// Adds `newActions`, refusing invalid names, any name already present, and a contract that
    /// declares a name twice.
    mutating func add<Instance: TargetInstance>(_ newActions: [Action<Instance>]) throws(MediatorError) {
        guard ObjectIdentifier(Instance.self) == instanceType else {
            throw MediatorError(
                .targetTypeMismatch, target: name,
                reason: "cannot add actions for instances of \(typeName(Instance.self)) to a target whose instances are of another type"
            )
        }
        var merged = actions
        merged.reserveCapacity(actions.count + newActions.count)
        // Each action is read in place, by index: only the fields the registry keeps are copied.
        for index in newActions.indices {
            // `Action.init` checked the name and stored its canonical form; an invalid one is
            // refused here, with the reason.
            if !newActions[index].hasValidName {
                let invalid = newActions[index].name
                throw MediatorError(
                    .invalidName, target: name, action: invalid,
                    reason: "invalid action name \"\(oneLine(invalid, limit: 100))\": \(Names.problem(with: invalid, as: .action) ?? "not a valid name")")
            }
            if let repeated = newActions[index].contract?.repeatedDeclaration {
                throw MediatorError(
                    .duplicateParameter, target: name, action: newActions[index].name, parameter: repeated.parameter,
                    reason: "\(repeated.place) is declared twice; keep one")
            }
            let registered = RegisteredAction(
                name: newActions[index].name, summary: newActions[index].summary, isLocalOnly: newActions[index].isLocalOnly,
                run: ActionRun(newActions[index].body), contract: newActions[index].contract)
            // One hashed operation per action; on a duplicate, `merged` is dropped with the error.
            guard merged.updateValue(consume registered, forKey: newActions[index].name) == nil else {
                throw MediatorError(
                    .duplicateAction, target: name, action: newActions[index].name,
                    reason: "action \"\(newActions[index].name)\" is registered twice")
            }
        }
        actions = merged
    }

    /// The action called `name` (short or full form, or a selector string), compared byte for byte.
    func action(named name: String) -> RegisteredAction? {
        actions[NameKey(lookingUp: name, as: .action)]
    }

    var actionNames: [String] { actions.keys.sorted() }
}

// MARK: - Erasing the instance type

// Each closure below casts the instance back with `unsafeDowncast`. Safe: every instance a
// definition sees comes from its own factory (or is the mediator, for a target registered without
// instances, where the instance type is `Mediator`), and `TargetDefinition.add` checks
// `instanceType` before accepting actions written for another type.

extension ActionRun {
    init<Instance: TargetInstance>(_ body: ActionBody<Instance>) {
        switch body {
        case .sync(let body): self = .sync { instance, params in try body(unsafeDowncast(instance, to: Instance.self), params) }
        case .async(let body): self = .async { instance, params in try await body(unsafeDowncast(instance, to: Instance.self), params) }
        case .mainActor(let body):
            self = .mainActor { @MainActor instance, params in try body(unsafeDowncast(instance, to: Instance.self), params) }
        }
    }
}

extension NotFoundHandler {
    static func sync<Instance: TargetInstance>(erasing handler: @escaping @Sendable (Instance, String, Params) throws -> (any Sendable)?) -> Self {
        .sync({ instance, action, params in try handler(unsafeDowncast(instance, to: Instance.self), action, params) })
    }
    static func async<Instance: TargetInstance>(erasing handler: @escaping @Sendable (Instance, String, Params) async throws -> (any Sendable)?) -> Self {
        .async({ instance, action, params in try await handler(unsafeDowncast(instance, to: Instance.self), action, params) })
    }
    static func mainActor<Instance: TargetInstance>(
        erasing handler: @escaping @MainActor @Sendable (Instance, String, Params) throws -> (any Sendable)?
    ) -> Self {
        .mainActor({ @MainActor instance, action, params in try handler(unsafeDowncast(instance, to: Instance.self), action, params) })
    }
}

extension Factory {
    static func sync<Instance: TargetInstance>(erasing make: @escaping @Sendable (Mediator) throws -> Instance) -> Self {
        .sync({ mediator in try make(mediator) })
    }
    static func async<Instance: TargetInstance>(erasing make: @escaping @Sendable (Mediator) async throws -> Instance) -> Self {
        .async({ mediator in try await make(mediator) })
    }
    static func mainActor<Instance: TargetInstance>(erasing make: @escaping @MainActor @Sendable (Mediator) throws -> Instance) -> Self {
        .mainActor({ @MainActor mediator in try make(mediator) })
    }
}
