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
/// short form and answers to both.
public struct Action<Target: AnyObject & Sendable>: Sendable {
    /// The action's short name (without the `Action_` prefix).
    public let name: String
    /// A one-line description, shown by listings.
    public let summary: String?
    let body: @Sendable (Target, Params) throws -> (any Sendable)?

    /// An action called `name` that runs `body`.
    public init(
        _ name: String,
        summary: String? = nil,
        _ body: @escaping @Sendable (Target, Params) throws -> (any Sendable)?
    ) {
        self.name = Names.shortActionName(name)
        self.summary = summary
        self.body = body
    }
}
