/// How a call ended, for every entry point: the `nil`-returning, throwing and completion forms,
/// by name or by URL, are thin adapters over it.
enum Outcome {
    /// The action, a `notFound` handler or a fallback answered (`nil`: it returned nothing).
    case answered((any Sendable)?)
    /// The call failed, with the reason.
    case failed(MediatorError)
    /// Nothing answered. Only the names the caller gave are kept: the `nil`-returning path must
    /// not pay for an error it throws away; the throwing paths build it from these
    /// (``Mediator/notAnsweredError(target:action:)``).
    case unanswered(target: String, action: String)
}
