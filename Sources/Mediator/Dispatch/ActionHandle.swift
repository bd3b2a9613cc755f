// MARK: - Resolved handles

/// An action resolved once and called many times: no name lookup per call.
///
/// ```swift
/// let create = try mediator.handle(target: "Notes", action: "create", shouldCacheTarget: true)
/// for title in titles { _ = try await create.call(["token": token, "title": title]) }
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
    let run: ActionRun
    /// The instance resolved when the handle was made (cached, or the mediator for a closure
    /// target); `nil` when each call gets its own.
    let instance: (any TargetInstance)?
    /// The target as resolved, for the calls without ``instance``.
    let resolved: ResolvedTarget
    /// Whether calls without ``instance`` use the cached one (an async factory could not
    /// create it when the handle was made).
    let cache: Bool
    let mediator: Mediator
    /// The action's declared parameters, checked on every call (an in-process call's policy).
    let contract: ActionContract?
    /// A synchronous action bound to its resolved instance: the hot path, one closure to copy
    /// instead of an `ActionRun` and an instance (each copied through value witnesses).
    let direct: (@Sendable (Params) throws -> (any Sendable)?)?
    /// The action as registered, for the intercepted pipeline.
    let registered: RegisteredAction

    init(
        target: String, action: String, registered: RegisteredAction, instance: (any TargetInstance)?, resolved: ResolvedTarget, cache: Bool,
        mediator: Mediator
    ) {
        let run = registered.run
        let contract = registered.contract
        self.registered = registered
        self.target = target
        self.action = action
        self.run = run
        self.instance = instance
        self.resolved = resolved
        self.cache = cache
        self.mediator = mediator
        // An action with declared parameters, or a keyed one, goes the general way, which checks
        // them (and decodes a keyed action's input) as a call by name does.
        self.contract = contract?.parameters == nil && contract?.keyed == nil ? nil : contract
        if case .sync(let body) = run, let instance, self.contract == nil {
            direct = { params in try body(instance, params) }
        } else {
            direct = nil
        }
    }

    /// Runs the action with `params` on the calling thread, without awaiting: the result, or the
    /// reason it failed. For code that cannot `await`.
    ///
    /// - Parameter params: the call's params.
    /// - Returns: the action's result (`nil` when it returned nothing).
    /// - Throws: ``MediatorError``: ``MediatorError/Code/actionFailed`` when the action or the
    ///   target's factory threw, ``MediatorError/Code/invalidParameter`` for a params error,
    ///   ``MediatorError/Code/callDepthExceeded`` for runaway recursion,
    ///   ``MediatorError/Code/asyncAction`` when the action (or the factory) must be awaited.
    @discardableResult
    public func callNow(_ params: Params = [:]) throws(MediatorError) -> (any Sendable)? {
        if let interception = mediator.currentInterception {
            return try intercepted(interception, params, awaiting: false).value(mediator)
        }
        // The hot path (a synchronous action on a resolved instance) without an `Outcome`.
        if let direct {
            guard let saved = CallDepth.enter(limit: mediator.maximumCallDepth) else {
                throw mediator.callDepthExceededError(target: target, action: action)
            }
            defer { CallDepth.restore(saved) }
            do {
                return try direct(params)
            } catch {
                throw mediator.actionFailedError(from: error, target: target, action: action, context: "the action failed")
            }
        }
        return try outcome(params).value(mediator)
    }

    /// Runs the action with `params`, awaiting it if it is async (or on the main actor).
    ///
    /// ```swift
    /// let load = try mediator.handle(target: "Feed", action: "load")
    /// let page = try await load.call(["page": 1])
    /// ```
    ///
    /// - Parameter params: the call's params.
    /// - Returns: the action's result (`nil` when it returned nothing).
    /// - Throws: as ``callNow(_:)``, except `asyncAction`; and
    ///   ``MediatorError/Code/cancelled``.
    @discardableResult
    public func call(_ params: Params = [:]) async throws(MediatorError) -> (any Sendable)? {
        if let interception = mediator.currentInterception {
            return try await intercepted(interception, params, awaiting: true).awaited().value(mediator)
        }
        return try await outcome(params, awaiting: true).awaited().value(mediator)
    }

    /// The call as far as it goes without awaiting (see ``Mediator``'s `dispatch`); `input` is a
    /// typed handle's input (``TypedActionHandle``), passed as is to a body keyed by its type and
    /// encoded to params for any other.
    func outcome(_ given: Params, input: TypedInput? = nil, awaiting: Bool = false) -> Outcome {
        guard let saved = CallDepth.enter(limit: mediator.maximumCallDepth) else {
            return .failed(mediator.callDepthExceededError(target: target, action: action))
        }
        defer { CallDepth.restore(saved) }
        // The same argument step as a call by name: params checked, a keyed action's input decoded.
        let run: ActionRun
        let params: Params
        if contract != nil || input != nil {
            let prepared = mediator.arguments(
                self.run, input == nil ? contract : registered.contract, params: given, input: input, outside: false, target: target, action: action)
            guard case .success(let arguments) = prepared else { return .failed(prepared.failure) }
            (run, params) = arguments
        } else {
            (run, params) = (self.run, given)
        }
        // The instance the handle resolved, if any, stands in for the registry's.
        let pinned =
            instance.map {
                ResolvedTarget(name: resolved.name, registration: resolved.registration, make: resolved.make, alwaysCached: resolved.alwaysCached, cached: $0)
            } ?? resolved
        return mediator.run(.action(pinned, action, run, params, cache: cache), awaiting: awaiting)
    }

    /// The call through the intercepted pipeline, from the handle's own resolution (its instance,
    /// or its registration and factory), so that it keeps answering as a handle does.
    func intercepted(_ interception: Interception, _ params: Params, input: TypedInput? = nil, awaiting: Bool) -> Outcome {
        guard let saved = CallDepth.enter(limit: mediator.maximumCallDepth) else {
            return .failed(mediator.callDepthExceededError(target: target, action: action))
        }
        defer { CallDepth.restore(saved) }
        let pinned: Mediator.Resolution
        if let instance {
            pinned = registered.contract.map { .readyDeclared(run, instance, $0) } ?? .ready(run, instance)
        } else {
            pinned = .action(resolved, registered)
        }
        return mediator.interceptedDispatch(
            interception, target: target, action: action, params: params, input: input, shouldCacheTarget: cache, origin: .inProcess,
            awaiting: awaiting, first: pinned)
    }
}

extension Mediator {
    /// Resolves `target`/`action` (short or full names) once, for calling many times.
    ///
    /// ```swift
    /// let get = try mediator.handle(target: "Notes", action: "get")
    /// let note = try get.callNow(["id": 1])
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
        let cache = shouldCacheTarget || resolved.alwaysCached
        var instance = resolved.cached
        if instance == nil && resolved.make == nil { instance = self }
        if instance == nil && cache {
            // The same mapping as dispatch: a creation cycle as it is, a factory's error wrapped.
            // An instance only an async factory can make is made by the first call instead.
            if case .done(let made) = instanceNow(of: resolved, cache: true, action: found.name) { instance = try made.get() }
        }
        return ActionHandle(
            target: resolved.name, action: found.name, registered: found, instance: instance, resolved: resolved, cache: cache, mediator: self)
    }
}
