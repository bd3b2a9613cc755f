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
/// An action is reachable by URL (``Mediator/open(_:)``) unless it is local-only: declared with
/// `localOnly: true`, or named with the prefix `native` (CTMediator's rule).
public struct Action<Target: AnyObject & Sendable>: Sendable {
    /// The action's short name (without the `Action_` prefix).
    public let name: String
    /// A one-line description, shown by listings.
    public let summary: String?
    /// Whether remote (URL) calls are refused: declared so, or the name begins with `native`.
    public let isLocalOnly: Bool
    let body: @Sendable (Target, Params) throws -> (any Sendable)?

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
    ///   - localOnly: refuse the action to remote (URL) calls. Names beginning with `native` are
    ///     local-only whatever this says.
    ///   - body: the action: gets the target instance (the mediator itself for a target
    ///     registered without instances) and the call's params, and returns the result, or `nil`
    ///     for none. What it throws reaches the caller as ``MediatorError/Code/actionFailed``
    ///     with the error in ``MediatorError/underlying``, except a ``MediatorError`` that names no
    ///     target (a ``Params`` error, or one the action builds itself): that one keeps its code
    ///     and gets the call's target and action names.
    public init(
        _ name: String,
        summary: String? = nil,
        localOnly: Bool = false,
        _ body: @escaping @Sendable (Target, Params) throws -> (any Sendable)?
    ) {
        // An invalid name is kept as given, for registration to refuse with the reason.
        self.name = Names.canonical(name, as: .action) ?? name
        self.summary = summary
        self.isLocalOnly = localOnly || Names.isNative(self.name)
        self.body = body
    }
}
