// MARK: - Resolved handles

/// An action resolved once and called many times: no name lookup per call.
///
/// ```swift
/// let create = try mediator.handle(target: "Notes", action: "create", shouldCacheTarget: true)
/// for title in titles { _ = try create.call(["token": token, "title": title]) }
/// ```
///
/// A handle keeps the action and (when caching) the target instance it resolved; it does not see
/// later registry changes (a replaced or unregistered target keeps answering through old handles,
/// a released cached instance stays alive while a handle holds it). Resolve again after such changes.
/// Handles do not go through fallbacks: resolving a missing action throws.
public struct ActionHandle: Sendable {
    /// The target's short name.
    public let target: String
    /// The action's short name.
    public let action: String
    let run: @Sendable (any TargetInstance, Params) throws -> (any Sendable)?
    let instance: (any TargetInstance)?
    let make: (@Sendable (Mediator) throws -> any TargetInstance)?
    let mediator: Mediator

    /// Runs the action with `params`; the result, or the reason it failed.
    ///
    /// - Parameter params: the call's params.
    /// - Returns: the action's result (`nil` when it returned nothing).
    /// - Throws: ``MediatorError``: ``MediatorError/Code/actionFailed`` when the action or the
    ///   target's factory threw, ``MediatorError/Code/invalidParameter`` for a params error,
    ///   ``MediatorError/Code/callDepthExceeded`` for runaway recursion.
    @discardableResult
    public func call(_ params: Params = [:]) throws(MediatorError) -> (any Sendable)? {
        guard let depth = CallDepth.enter(limit: mediator.maximumCallDepth) else {
            throw mediator.callDepthExceededError(target: self.target, action: action)
        }
        defer { CallDepth.restore(depth) }

        let target: any TargetInstance
        do {
            target = try instance ?? make.map { try $0(mediator) } ?? mediator
        } catch {
            throw mediator.creationFailedError(from: error, target: self.target, action: action)
        }
        do {
            return try run(target, params)
        } catch {
            throw mediator.actionFailedError(from: error, target: self.target, action: action, context: "the action failed")
        }
    }

    /// Runs the action; `nil` when it returned nothing or failed.
    ///
    /// - Parameter params: the call's params.
    /// - Returns: the action's result, or `nil` when it returned nothing or the call failed.
    @discardableResult
    public func perform(_ params: Params = [:]) -> (any Sendable)? {
        try? call(params)
    }
}

extension Mediator {
    /// Resolves `target`/`action` (short or full names) once, for calling many times.
    ///
    /// ```swift
    /// let get = try mediator.handle(target: "Notes", action: "get")
    /// let note = try get.call(["id": 1])
    /// ```
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name. A missing action throws: handles skip
    ///     `notFound` and the global fallback.
    ///   - shouldCacheTarget: resolve (creating if needed) the cached instance now and
    ///     keep it in the handle; otherwise each call makes a fresh instance (or uses the cached one
    ///     that existed when the handle was made).
    /// - Returns: a handle that calls the action without looking its names up again.
    /// - Throws: `targetNotFound` or `actionNotFound` (with suggestions), or `actionFailed` when
    ///   creating the cached instance fails.
    public func handle(target: String, action: String, shouldCacheTarget: Bool = false) throws(MediatorError) -> ActionHandle {
        let resolution: Resolution = state.withReadLock { registry in
            guard let slot = registry.slot(named: target) else { return .missingTarget }
            guard let found = slot.definition.action(named: action) else { return .missingAction(slot.resolved, nil) }
            // Not `.ready`: the handle needs the target's names and factory.
            return .action(slot.resolved, found)
        }
        guard case .action(let resolved, let found) = resolution else {
            throw notAnsweredError(target: target, action: action)
        }
        var instance = resolved.cached
        if instance == nil && resolved.make == nil { instance = self }
        if instance == nil && (shouldCacheTarget || resolved.alwaysCached) {
            // The same mapping as dispatch: a creation cycle as it is, a factory's error wrapped.
            instance = try makeInstance(of: resolved, cache: true, action: found.name).get()
        }
        return ActionHandle(target: resolved.name, action: found.name, run: found.run, instance: instance, make: resolved.make, mediator: self)
    }
}
