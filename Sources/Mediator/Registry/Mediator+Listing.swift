// MARK: - Listing

/// An action an agent may call, as a call to it needs it (``Mediator/agentCallable(target:action:)``).
package struct AgentCallable: Sendable {
    /// The declared result type, if any.
    package let result: ParameterType?
}

/// A registered target as listings show it.
public struct TargetInfo: Sendable, Equatable {
    /// The short name (`Notes`).
    public let name: String
    /// The full name (`Target_Notes`).
    public var fullName: String { "Target_" + name }
    /// The one-line description given at registration.
    public let summary: String?
    /// Whether every call uses one cached instance.
    public let isAlwaysCached: Bool
    /// Whether the target has instances (made by its factory, cached on request); `false` for a
    /// target registered from closures alone, whose actions run on the mediator itself.
    public let hasInstances: Bool
    /// The actions, sorted by name.
    public let actions: [ActionInfo]
}

/// A registered action as listings show it.
public struct ActionInfo: Sendable, Equatable {
    /// The short name (`create`).
    public let name: String
    /// The full name (`Action_create`).
    public var fullName: String { "Action_" + name }
    /// The one-line description given at registration.
    public let summary: String?
    /// Whether URL calls are refused (declared local-only, or named `native...`).
    public let isLocalOnly: Bool
    /// Whether only the async entry points run it (an async body).
    public let isAsync: Bool
    /// The declared parameters; `nil` when the action declared none (its params are not checked).
    public let parameters: [Parameter]?
    /// The declared result type, if any.
    public let result: ParameterType?
    /// For an action registered against an ``ActionKey``: its input and output type names.
    public let keyTypes: (input: String, output: String)?
    /// What happens to params the action did not declare: its own policy, else the mediator's.
    public let undeclaredParameters: UndeclaredParameterPolicy
    /// What the action declared it does beyond returning its result (``Action/effects(_:)``);
    /// `nil` when it declared nothing.
    public let effects: ActionEffects?

    /// Equal when every field is.
    ///
    /// - Parameters:
    ///   - lhs: one value.
    ///   - rhs: the other.
    public static func == (lhs: ActionInfo, rhs: ActionInfo) -> Bool {
        lhs.name == rhs.name && lhs.summary == rhs.summary && lhs.isLocalOnly == rhs.isLocalOnly && lhs.isAsync == rhs.isAsync
            && lhs.parameters == rhs.parameters && lhs.result == rhs.result && lhs.keyTypes?.input == rhs.keyTypes?.input
            && lhs.keyTypes?.output == rhs.keyTypes?.output && lhs.undeclaredParameters == rhs.undeclaredParameters && lhs.effects == rhs.effects
    }
}

extension Mediator {
    /// Every registered target with its actions, sorted by name.
    ///
    /// ```swift
    /// for target in mediator.targets {
    ///     print(target.name, target.actions.map(\.name))   // Notes ["create", "get", ...]
    /// }
    /// ```
    public var targets: [TargetInfo] {
        state.withReadLock { registry in registry.targetNames.compactMap { registry.slots[$0].map { info(for: $0.definition) } } }
    }

    /// The target registered under `name` (short or full), or `nil`.
    ///
    /// - Parameter name: the target's short (`Notes`) or full (`Target_Notes`) name, compared
    ///   byte for byte.
    /// - Returns: the target and its actions, or `nil` when no target has that name.
    public func target(named name: String) -> TargetInfo? {
        state.withReadLock { registry in registry.slot(named: name).map { info(for: $0.definition) } }
    }

    /// Whether an agent may call `target`/`action` (the short names as registered, compared byte
    /// for byte: no full names or selectors), and if so, its declared result type: `nil` when
    /// there is no such action, or it is local-only, or a URL rule refuses it (as
    /// ``agentRefusal(target:action:)`` says). What an agent is offered is decided here, once.
    package func agentCallable(target: String, action: String) -> AgentCallable? {
        state.withReadLockInPlace { registry in
            guard let slot = registry.pointee.slots[target], let found = slot.definition.actions[action], !found.isLocalOnly,
                Self.brokenTargetRule(target: target, action: action, policy: registry.pointee.urlPolicy) == nil
            else { return nil }
            return AgentCallable(result: found.contract?.result)
        }
    }

    private func info(for definition: TargetDefinition) -> TargetInfo {
        TargetInfo(
            name: definition.name, summary: definition.summary, isAlwaysCached: definition.alwaysCached, hasInstances: definition.make != nil,
            actions: definition.actionNames.compactMap { name in definition.action(named: name).map { info(for: $0) } }
        )
    }

    private func info(for action: RegisteredAction) -> ActionInfo {
        var isAsync = false
        if case .async = action.run { isAsync = true }
        return ActionInfo(
            name: action.name, summary: action.summary, isLocalOnly: action.isLocalOnly, isAsync: isAsync,
            parameters: action.contract?.parameters, result: action.contract?.result,
            keyTypes: action.contract?.keyed.map { ($0.inputTypeName, $0.outputTypeName) },
            undeclaredParameters: action.contract?.policy ?? undeclaredParameters, effects: action.contract?.effects)
    }
}

extension TargetInfo {
    /// The same target with only its action called `name` (short name), for describing one action.
    package func restricted(toAction name: String) -> TargetInfo {
        TargetInfo(name: self.name, summary: summary, isAlwaysCached: isAlwaysCached, hasInstances: hasInstances, actions: actions.filter { $0.name == name })
    }
}
