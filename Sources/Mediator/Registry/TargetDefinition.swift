/// An instance of any target, as the registry stores it.
typealias TargetInstance = AnyObject & Sendable

/// A registered action with its target type erased.
struct RegisteredAction: Sendable {
    let name: String
    let summary: String?
    let isLocalOnly: Bool
    let run: @Sendable (any TargetInstance, Params) throws -> (any Sendable)?
}

/// A handler for missing actions, with its target type erased.
typealias NotFoundHandler = @Sendable (any TargetInstance, String, Params) throws -> (any Sendable)?

/// Everything registered for one target name. Immutable once built; adding actions builds a new one.
struct TargetDefinition: Sendable {
    let name: String
    let summary: String?
    /// The type of the target's instances, checked when actions are added later.
    let instanceType: ObjectIdentifier
    /// Makes an instance; `nil` for a target registered from closures alone, whose "instance" is
    /// the mediator itself (nothing to create, nothing to cache).
    let make: (@Sendable (Mediator) throws -> any TargetInstance)?
    private(set) var actions: [String: RegisteredAction]
    let notFound: NotFoundHandler?
    /// Every call uses the cached instance, creating it if needed, whatever its flag (URL calls too).
    let alwaysCached: Bool

    var fullName: String { Names.targetPrefix + name }

    /// A definition whose instances are `Instance`, checking every name.
    init<Instance: TargetInstance>(
        name rawName: String,
        summary: String?,
        alwaysCached: Bool = false,
        make: (@Sendable (Mediator) throws -> Instance)?,
        actions: [Action<Instance>],
        notFound: (@Sendable (Instance, String, Params) throws -> (any Sendable)?)?
    ) throws(MediatorError) {
        guard let name = Names.canonical(rawName, as: .target) else {
            let problem = Names.problem(with: rawName, as: .target) ?? "not a valid name"
            throw MediatorError(.invalidName, target: rawName, reason: "invalid target name \"\(rawName)\": \(problem)")
        }
        self.name = name
        self.summary = summary
        self.alwaysCached = alwaysCached && make != nil
        self.instanceType = ObjectIdentifier(Instance.self)
        if let make {
            self.make = { @Sendable (mediator: Mediator) throws -> any TargetInstance in try make(mediator) }
        } else {
            self.make = nil
        }
        if let notFound {
            self.notFound = { @Sendable (instance: any TargetInstance, action: String, params: Params) throws -> (any Sendable)? in
                // Safe: every instance this definition sees comes from its own `make` (or is the
                // mediator for closure targets, where Instance == Mediator), and `add` checks
                // `instanceType` before accepting actions of another definition.
                try notFound(unsafeDowncast(instance, to: Instance.self), action, params)
            }
        } else {
            self.notFound = nil
        }
        self.actions = [:]
        try add(actions)
    }

    /// Adds `newActions`, refusing invalid names and any name already present.
    mutating func add<Instance: TargetInstance>(_ newActions: [Action<Instance>]) throws(MediatorError) {
        guard ObjectIdentifier(Instance.self) == instanceType else {
            throw MediatorError(
                .targetTypeMismatch, target: name,
                reason: "cannot add actions for instances of \(typeName(Instance.self)) to a target whose instances are of another type"
            )
        }
        var merged = actions
        for action in newActions {
            // `Action.init` stored the canonical form when there is one; anything else is refused here.
            if let problem = Names.problem(with: action.name, as: .action) {
                throw MediatorError(
                    .invalidName, target: name, action: action.name,
                    reason: "invalid action name \"\(action.name)\": \(problem)")
            }
            guard merged[action.name] == nil else {
                throw MediatorError(
                    .duplicateAction, target: name, action: action.name,
                    reason: "action \"\(action.name)\" is registered twice")
            }
            let body = action.body
            merged[action.name] = RegisteredAction(name: action.name, summary: action.summary, isLocalOnly: action.isLocalOnly) { instance, params in
                // Safe for the reason given in `init`.
                try body(unsafeDowncast(instance, to: Instance.self), params)
            }
        }
        actions = merged
    }

    /// The action called `name` (short or full form, or a selector string), compared byte for byte.
    func action(named name: String) -> RegisteredAction? {
        guard let name = Names.canonical(name, as: .action) else { return nil }
        return actions[name]
    }

    var actionNames: [String] { actions.keys.sorted() }
}
