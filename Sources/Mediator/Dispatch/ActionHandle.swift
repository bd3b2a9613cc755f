// MARK: - Resolved handles

/// An action resolved once and called many times: no name lookup per call.
///
/// By name, the handle takes ``Params`` and returns the action's result as it is:
///
/// ```swift
/// let create = try mediator.handle(target: "Notes", action: "create", shouldCacheTarget: true)
/// for title in titles { _ = try await create.call(["token": token, "title": title]) }
/// ```
///
/// By typed key, it takes the key's input and returns its output, with no params per call:
///
/// ```swift
/// let create = try mediator.handle(.notesCreate, shouldCacheTarget: true)
/// for title in titles { _ = try create.callNow(CreateNote(token: token, title: title)) }
/// ```
///
/// A handle keeps the action and (when caching) the target instance it resolved; it does not see
/// later registry changes (a replaced or unregistered target keeps answering through old handles,
/// a released cached instance stays alive while a handle holds it). Resolve again after such changes.
/// Handles do not go through fallbacks: resolving a missing action throws.
///
/// ``callNow(_:)`` is the body itself plus the count of nested calls when the action is
/// synchronous, its instance is ready and nothing intercepts calls, and: by name, the action
/// declares no params; by key, the provider registered it against a key of the same input and
/// output types whose input declares no bounds or defaults. Every other call (and every ``call(_:)``)
/// goes the way of a call by name from the handle's resolution: params checked, a typed input
/// encoded to params for an action registered by name and the result decoded into `Output`,
/// interceptors and observers told.
///
/// A handle by key names the action as resolved: ``target`` and ``action`` are the short names,
/// whatever spelling the key used.
public struct ActionHandle<Input: Sendable, Output: Sendable>: Sendable {
    /// The target's short name.
    public let target: String
    /// The action's short name.
    public let action: String
    /// The action as resolved, for every call that does not take the fast path.
    @usableFromInline let resolved: ResolvedAction
    /// The body bound to the instance the handle holds, taking the input and giving the output as
    /// they are: the fast path, `nil` when there is none.
    @usableFromInline let direct: (@Sendable (Input) throws -> Output)?
    /// The handle's mediator, kept apart: the fast path reads only it and ``direct``.
    @usableFromInline let mediator: Mediator
    /// How the general way takes the input: as params, or as a typed input.
    @usableFromInline let arguments: @Sendable (Input) -> (Params, TypedInput?)
    /// How the general way gives the result: as it is, or read as the key's output.
    @usableFromInline let output: @Sendable (Mediator, (any Sendable)?) throws -> Output

    init(
        _ resolved: ResolvedAction, direct: (@Sendable (Input) throws -> Output)?, arguments: @escaping @Sendable (Input) -> (Params, TypedInput?),
        output: @escaping @Sendable (Mediator, (any Sendable)?) throws -> Output
    ) {
        self.target = resolved.target
        self.action = resolved.action
        self.resolved = resolved
        self.direct = direct
        self.mediator = resolved.mediator
        self.arguments = arguments
        self.output = output
    }

    /// Runs the action with `input` on the calling thread, without awaiting: its result, or the
    /// reason it failed. For code that cannot `await`.
    ///
    /// ```swift
    /// let get = try mediator.handle(target: "Notes", action: "get")
    /// let note = try get.callNow(["id": 1])
    /// ```
    ///
    /// - Parameter input: the call's params (a handle by name; `[:]` for none) or the key's input.
    /// - Returns: the action's result (`nil` when it returned nothing), or the key's output.
    /// - Throws: ``MediatorError``: ``MediatorError/Code/actionFailed`` when the action or the
    ///   target's factory threw, ``MediatorError/Code/invalidParameter`` for a params error,
    ///   ``MediatorError/Code/callDepthExceeded`` for runaway recursion,
    ///   ``MediatorError/Code/asyncAction`` when the action (or the factory) must be awaited,
    ///   ``MediatorError/Code/resultTypeMismatch`` when the result cannot be read as a key's output.
    @inlinable
    @discardableResult
    public func callNow(_ input: Input) throws(MediatorError) -> Output {
        // Inlinable so that the caller's copy is specialized for its types: run generically, the
        // fast path spent ~1,800 instructions per call looking up the generic types' metadata.
        guard let direct, let saved = mediator.enterFastCall() else {
            return try converted(try resolved.start(arguments(input), awaiting: false).value(mediator))
        }
        defer { Mediator.leaveFastCall(saved) }
        do {
            return try direct(input)
        } catch {
            throw resolved.fastCallFailed(error)
        }
    }

    /// Runs the action with `input`, awaiting it if it is async (or on the main actor, or its
    /// target's factory is async).
    ///
    /// ```swift
    /// let load = try mediator.handle(target: "Feed", action: "load")
    /// let page = try await load.call(["page": 1])
    /// ```
    ///
    /// - Parameter input: the call's params (a handle by name; `[:]` for none) or the key's input.
    /// - Returns: the action's result (`nil` when it returned nothing), or the key's output.
    /// - Throws: as ``callNow(_:)``, except `asyncAction`; and ``MediatorError/Code/cancelled``.
    @discardableResult
    public func call(_ input: Input) async throws(MediatorError) -> Output {
        try converted(try await resolved.start(arguments(input), awaiting: true).awaited().value(mediator))
    }

    /// The result as the handle gives it.
    @usableFromInline
    func converted(_ result: (any Sendable)?) throws(MediatorError) -> Output {
        do {
            return try output(mediator, result)
        } catch let error as MediatorError {
            throw error
        } catch {
            // Not reached: the conversions throw only MediatorError (a typed-throws closure type
            // would need a newer runtime's metadata here, so the closure's type cannot say so).
            throw MediatorError(
                .resultTypeMismatch, target: target, action: action, underlying: error,
                reason: "the result could not be read as \(typeName(Output.self)): \(oneLine(String(describing: error), limit: 200))")
        }
    }
}

/// What a handle resolved: the action, its target and (when caching) the instance.
@usableFromInline
struct ResolvedAction: Sendable {
    /// The target's short name.
    let target: String
    /// The action's short name.
    let action: String
    let run: ActionRun
    /// The instance resolved when the handle was made (cached, or the mediator for a closure
    /// target); `nil` when each call gets its own.
    let instance: (any TargetInstance)?
    /// The target as resolved, for the calls without ``instance``.
    let resolvedTarget: ResolvedTarget
    /// Whether calls without ``instance`` use the cached one (an async factory could not
    /// create it when the handle was made).
    let cache: Bool
    let mediator: Mediator
    /// The action's declared parameters, checked on every call (an in-process call's policy).
    let contract: ActionContract?
    /// The action as registered, for the intercepted pipeline.
    let registered: RegisteredAction

    init(
        target: String, action: String, registered: RegisteredAction, instance: (any TargetInstance)?, resolved: ResolvedTarget, cache: Bool,
        mediator: Mediator
    ) {
        let contract = registered.contract
        self.registered = registered
        self.target = target
        self.action = action
        self.run = registered.run
        self.instance = instance
        self.resolvedTarget = resolved
        self.cache = cache
        self.mediator = mediator
        // An action with declared parameters, or a keyed one, goes the general way, which checks
        // them (and decodes a keyed action's input) as a call by name does.
        self.contract = contract?.parameters == nil && contract?.keyed == nil ? nil : contract
    }

    /// A synchronous action without declared parameters bound to its resolved instance: a handle
    /// by name's fast path.
    var direct: (@Sendable (Params) throws -> (any Sendable)?)? {
        guard case .sync(let body) = run, let instance, contract == nil else { return nil }
        return { params in try body(instance, params) }
    }

    /// The error of a fast-path call whose body threw `error`.
    @usableFromInline
    func fastCallFailed(_ error: any Error) -> MediatorError {
        mediator.actionFailedError(from: error, target: target, action: action, context: "the action failed")
    }

    /// A call through the pipeline from the handle's resolution, as far as it goes without awaiting
    /// (see ``Mediator``'s `dispatch`): the intercepted pipeline when something intercepts calls,
    /// else the argument step and the action. `arguments.input` is a typed handle's input, passed as
    /// is to a body keyed by its type and encoded to params for any other. One function for both,
    /// so that a handle adds one frame to the stack of a nested call (a debug build does not inline).
    @usableFromInline
    func start(_ arguments: (params: Params, input: TypedInput?), awaiting: Bool) -> Outcome {
        guard let saved = CallDepth.enter(limit: mediator.maximumCallDepth) else {
            return .failed(mediator.callDepthExceededError(target: target, action: action))
        }
        defer { CallDepth.restore(saved) }
        if let interception = mediator.currentInterception {
            return mediator.interceptedDispatch(
                interception, target: target, action: action, shown: (target, action), params: arguments.params, input: arguments.input,
                shouldCacheTarget: cache, origin: .inProcess, awaiting: awaiting, first: pinned)
        }
        // The same argument step as a call by name: params checked, a keyed action's input decoded.
        var run = self.run
        var params = arguments.params
        if contract != nil || arguments.input != nil {
            let prepared = mediator.arguments(
                run, arguments.input == nil ? contract : registered.contract, params: params, input: arguments.input, origin: .inProcess, target: target,
                action: action)
            guard case .success(let checked) = prepared else { return .failed(prepared.failure) }
            (run, params) = checked
        }
        return mediator.run(.action(pinnedTarget, action, run, params, cache: cache), awaiting: awaiting)
    }

    /// The target as resolved, with the instance the handle resolved (if any) standing in for the
    /// registry's.
    private var pinnedTarget: ResolvedTarget {
        guard let instance else { return resolvedTarget }
        return ResolvedTarget(
            name: resolvedTarget.name, registration: resolvedTarget.registration, make: resolvedTarget.make, alwaysCached: resolvedTarget.alwaysCached,
            cached: instance)
    }

    /// The handle's own resolution, which stands for the intercepted call's first stop: its
    /// instance, or its registration and factory.
    private var pinned: Mediator.Resolution {
        guard let instance else { return .action(resolvedTarget, registered) }
        return registered.contract.map { .readyDeclared(run, instance, $0) } ?? .ready(run, instance)
    }
}

extension Mediator {
    /// Resolves `target`/`action` (short or full names) once, for calling many times with params.
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
    public func handle(target: String, action: String, shouldCacheTarget: Bool = false) throws(MediatorError) -> ActionHandle<Params, (any Sendable)?> {
        let resolved = try resolveAction(target: target, action: action, shouldCacheTarget: shouldCacheTarget)
        return ActionHandle(resolved, direct: resolved.direct, arguments: { ($0, nil) }, output: { _, result in result })
    }

    /// Resolves the action `key` names once, for many typed calls.
    ///
    /// ```swift
    /// let create = try mediator.handle(.notesCreate, shouldCacheTarget: true)
    /// let note = try await create.call(CreateNote(token: token, title: "hi"))
    /// ```
    ///
    /// - Parameters:
    ///   - key: the action and its types.
    ///   - shouldCacheTarget: resolve (and keep) the cached instance now, as
    ///     ``handle(target:action:shouldCacheTarget:)`` does; a target that is always cached is
    ///     resolved either way.
    /// - Returns: the handle.
    /// - Throws: what ``handle(target:action:shouldCacheTarget:)`` throws.
    public func handle<Input, Output>(_ key: ActionKey<Input, Output>, shouldCacheTarget: Bool = false) throws(MediatorError) -> ActionHandle<Input, Output> {
        let resolved = try resolveAction(target: key.target, action: key.action, shouldCacheTarget: shouldCacheTarget)
        // The fast path: a body registered against a key of exactly these types, on a held instance.
        var direct: (@Sendable (Input) throws -> Output)?
        if let body = resolved.registered.contract?.keyed?.direct(Input.self, Output.self), let instance = resolved.instance {
            direct = { input in try body.body(instance, input) }
        }
        return ActionHandle(
            resolved, direct: direct, arguments: { ([:], TypedInput($0)) }, output: { mediator, result in try mediator.output(result, of: key) })
    }

    /// The action a handle holds: resolved now, with the cached instance when asked for.
    private func resolveAction(target: String, action: String, shouldCacheTarget: Bool) throws(MediatorError) -> ResolvedAction {
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
        return ResolvedAction(
            target: resolved.name, action: found.name, registered: found, instance: instance, resolved: resolved, cache: cache, mediator: self)
    }

    /// Starts a fast-path call: the saved call depth for ``leaveFastCall(_:)``, or `nil` when the
    /// call must go the general way (something intercepts calls, or the depth limit is reached,
    /// which the general way reports).
    @usableFromInline
    func enterFastCall() -> Int? {
        guard currentInterception == nil else { return nil }
        return CallDepth.enter(limit: maximumCallDepth)
    }

    /// Ends a call started by ``enterFastCall()``.
    @usableFromInline
    static func leaveFastCall(_ saved: Int) {
        CallDepth.restore(saved)
    }
}
