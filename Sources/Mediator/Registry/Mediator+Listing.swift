// MARK: - Listing

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

    private func info(for definition: TargetDefinition) -> TargetInfo {
        TargetInfo(
            name: definition.name, summary: definition.summary, isAlwaysCached: definition.alwaysCached,
            actions: definition.actionNames.compactMap { name in
                definition.action(named: name).map { ActionInfo(name: $0.name, summary: $0.summary, isLocalOnly: $0.isLocalOnly) }
            }
        )
    }
}
