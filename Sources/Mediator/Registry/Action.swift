/// One named action of a target: a closure that gets the target instance and the call's params
/// and returns a result (or `nil`), and may throw.
///
/// ```swift
/// Action<Target_Notes>("create", summary: "Create a note") { target, params in
///     try target.create(params)
/// }
/// ```
///
/// The name may be given short (`create`) or full (`Action_create`); the mediator stores the
/// short form and answers to both. The prefix may be written once: `Action_Action_create` is an
/// invalid name, refused at registration.
///
/// An action is reachable by URL (``Mediator/open(_:params:isolation:completion:)``) unless it is local-only: declared with
/// `localOnly: true`, or named with the prefix `native` (CTMediator's rule).
public struct Action<Target: AnyObject & Sendable>: Sendable {
    /// The action's short name (without the `Action_` prefix).
    public let name: String
    /// A one-line description, shown by listings.
    public let summary: String?
    /// Whether remote (URL) calls are refused: declared so, or the name begins with `native`.
    public let isLocalOnly: Bool
    @usableFromInline let body: ActionBody<Target>
    /// The declared parameters, result and typed body, if any.
    @usableFromInline let contract: ActionContract?
    /// Whether `name` is valid (and so canonical): registration refuses the action otherwise,
    /// without checking the name a second time.
    @usableFromInline let hasValidName: Bool

    /// An action called `name` that runs `body`; `localOnly` refuses it to URL calls.
    ///
    /// ```swift
    /// Action<Target_Cache>("reset", summary: "Forget every entry", localOnly: true) { cache, _ in
    ///     cache.removeAll()
    ///     return nil
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: the action's name, short (`create`) or full (`Action_create`, or the selector
    ///     string `Action_create:`). An invalid name is kept as given and refused when the target
    ///     is registered (``MediatorError/Code/invalidName``).
    ///   - summary: a one-line description, shown by listings.
    ///   - params: the declared parameters (see ``Parameter``): checked and coerced before the
    ///     action runs. `nil` (the default): the params are not checked, as before contracts.
    ///   - result: the declared type of the result, for descriptions and ``Mediator/verify()``.
    ///   - localOnly: refuse the action to remote (URL) calls. Names beginning with `native` are
    ///     local-only whatever this says.
    ///   - body: the action: gets the target instance (the mediator itself for a target
    ///     registered without instances) and the call's params, and returns the result, or `nil`
    ///     for none. What it throws reaches the caller as ``MediatorError/Code/actionFailed``
    ///     with the error in ``MediatorError/underlying``, except a ``MediatorError`` that names no
    ///     target (a ``Params`` error, or one the action builds itself): that one keeps its code
    ///     and gets the call's target and action names.
    @_disfavoredOverload
    @inlinable
    public init(
        _ name: String,
        summary: String? = nil,
        params: [Parameter]? = nil,
        result: ParameterType? = nil,
        localOnly: Bool = false,
        _ body: @escaping @Sendable (Target, Params) throws -> (any Sendable)?
    ) {
        self.init(name: name, summary: summary, localOnly: localOnly, body: .sync(body), contract: ActionContract(declaring: params, result: result))
    }

    /// An async action: its body may `await` (load data, call other modules with `await`).
    ///
    /// ```swift
    /// Action<Target_Feed>("load") { feed, params async throws in
    ///     try await feed.load(page: params.value("page", as: Int.self))
    /// }
    /// ```
    ///
    /// The async entry points (`try await mediator.call(...)`, `try await handle.call(...)`) run it
    /// in the calling task, so cancelling that task reaches the body; the completion forms run it
    /// in a task of their own. The synchronous entry points never block on it: `callNow` throws
    /// ``MediatorError/Code/asyncAction`` and `perform` returns `nil`. See <doc:AsyncCalls>.
    ///
    /// - Parameters:
    ///   - name: the action's name, short or full (see ``init(_:summary:params:result:localOnly:_:)-smpz``).
    ///   - summary: a one-line description, shown by listings.
    ///   - params: the declared parameters, checked and coerced before the action runs.
    ///   - result: the declared type of the result.
    ///   - localOnly: refuse the action to remote (URL) calls.
    ///   - body: the action, as for a synchronous one; what it throws is reported the same way,
    ///     and a `CancellationError` becomes ``MediatorError/Code/cancelled``.
    @_disfavoredOverload
    @inlinable
    public init(
        _ name: String,
        summary: String? = nil,
        params: [Parameter]? = nil,
        result: ParameterType? = nil,
        localOnly: Bool = false,
        _ body: @escaping @Sendable (Target, Params) async throws -> (any Sendable)?
    ) {
        self.init(name: name, summary: summary, localOnly: localOnly, body: .async(body), contract: ActionContract(declaring: params, result: result))
    }

    // Inlinable, as the public initializers are, so that the caller's copy is specialized for its
    // target type: run generically, each action looked up the metadata of `Action<Target>` at run
    // time (about 270 instructions per action registered).
    @inlinable
    init(name: String, summary: String?, localOnly: Bool, body: ActionBody<Target>, contract: ActionContract?) {
        // An invalid name is kept as given, for registration to refuse with the reason.
        let canonical = Names.canonical(name, as: .action)
        self.name = canonical ?? name
        self.hasValidName = canonical != nil
        self.summary = summary
        self.isLocalOnly = localOnly || Names.isNative(self.name)
        self.body = body
        self.contract = contract
    }

    /// The same action with its own policy for params it did not declare (instead of the
    /// mediator's, ``Mediator/undeclaredParameters``). No effect on an action without declared
    /// parameters.
    ///
    /// ```swift
    /// Action<Target_Notes>("get", params: [.required("id", .integer)]) { notes, params in
    ///     try notes.get(id: params.value("id"))
    /// }
    ///     .undeclaredParameters(.refused)
    /// ```
    ///
    /// - Parameter policy: what happens to undeclared params.
    /// - Returns: the action with that policy.
    public func undeclaredParameters(_ policy: UndeclaredParameterPolicy) -> Action {
        let contract = (contract ?? ActionContract(parameters: nil, result: nil, policy: nil, keyed: nil)).with(policy: policy)
        return Action(name: name, summary: summary, localOnly: isLocalOnly, body: body, contract: contract)
    }

    /// The same action, declaring what it does beyond returning its result: listings and
    /// `describe --json` show it, and an agent sees it as the tool's hints.
    ///
    /// ```swift
    /// Action<Target_Notes>("get", params: [.required("id", .integer)]) { notes, params in
    ///     try notes.get(id: params.value("id"))
    /// }
    ///     .effects([.readOnly, .idempotent])
    /// ```
    ///
    /// - Parameter effects: what calling the action does.
    /// - Returns: the action with those effects declared.
    public func effects(_ effects: ActionEffects) -> Action {
        let contract = (contract ?? ActionContract(parameters: nil, result: nil, policy: nil, keyed: nil)).with(effects: effects)
        return Action(name: name, summary: summary, localOnly: isLocalOnly, body: body, contract: contract)
    }
}

// MARK: - Actions of main-actor targets

extension Action where Target: MainActorTarget {
    /// An action of a main-actor target: its body runs on the main actor and may use the
    /// target's main-actor state directly.
    ///
    /// ```swift
    /// @MainActor final class Target_Profile: MainActorTarget {
    ///     static let actions: [Action<Target_Profile>] = [
    ///         Action("title") { screen, _ in screen.title },
    ///     ]
    ///     var title = "Profile"
    /// }
    /// ```
    ///
    /// The async entry points run it from any context (one hop to the main actor); the
    /// synchronous ones run it when called on the main actor (no hop) and otherwise fail with
    /// ``MediatorError/Code/asyncAction``, never blocking or trapping.
    ///
    /// - Parameters:
    ///   - name: the action's name, short or full.
    ///   - summary: a one-line description, shown by listings.
    ///   - params: the declared parameters, checked and coerced before the action runs.
    ///   - result: the declared type of the result.
    ///   - localOnly: refuse the action to remote (URL) calls.
    ///   - body: the action, run on the main actor.
    @inlinable
    public init(
        _ name: String,
        summary: String? = nil,
        params: [Parameter]? = nil,
        result: ParameterType? = nil,
        localOnly: Bool = false,
        _ body: @escaping @MainActor @Sendable (Target, Params) throws -> (any Sendable)?
    ) {
        self.init(name: name, summary: summary, localOnly: localOnly, body: .mainActor(body), contract: ActionContract(declaring: params, result: result))
    }

    /// An async action of a main-actor target: its body runs on the main actor and may `await`.
    ///
    /// ```swift
    /// Action<Target_Profile>("refresh") { screen, _ async throws in
    ///     try await screen.reload()
    ///     return screen.title
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: the action's name, short or full.
    ///   - summary: a one-line description, shown by listings.
    ///   - params: the declared parameters, checked and coerced before the action runs.
    ///   - result: the declared type of the result.
    ///   - localOnly: refuse the action to remote (URL) calls.
    ///   - body: the action, run on the main actor; only the async entry points run it.
    @inlinable
    public init(
        _ name: String,
        summary: String? = nil,
        params: [Parameter]? = nil,
        result: ParameterType? = nil,
        localOnly: Bool = false,
        _ body: @escaping @MainActor @Sendable (Target, Params) async throws -> (any Sendable)?
    ) {
        self.init(name: name, summary: summary, localOnly: localOnly, body: .async(body), contract: ActionContract(declaring: params, result: result))
    }
}

/// What an ``Action`` runs: a synchronous body, an async one, or a synchronous one bound to the
/// main actor (an async main-actor body is simply async: calling it hops).
@usableFromInline
enum ActionBody<Target: AnyObject & Sendable>: Sendable {
    case sync(@Sendable (Target, Params) throws -> (any Sendable)?)
    case async(@Sendable (Target, Params) async throws -> (any Sendable)?)
    case mainActor(@MainActor @Sendable (Target, Params) throws -> (any Sendable)?)
}
