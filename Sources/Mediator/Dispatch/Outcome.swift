/// How a call ended, for every entry point: the `nil`-returning, throwing, async and completion
/// forms, by name, by URL or through a handle, are thin adapters over it.
@usableFromInline
enum Outcome: Sendable {
    /// The action, a `notFound` handler or a fallback answered (`nil`: it returned nothing).
    case answered((any Sendable)?)
    /// The call failed, with the reason.
    case failed(MediatorError)
    /// Nothing answered. Only the names the caller gave are kept: the `nil`-returning path must
    /// not pay for an error it throws away; the throwing paths build it from these
    /// (``Mediator/notAnsweredError(target:action:)``).
    case unanswered(target: String, action: String)
    /// The synchronous pipeline reached a step that must await, before running it: the
    /// synchronous entry points fail (``MediatorError/Code/asyncAction``) or return `nil`; the
    /// async ones and the completion forms go on with ``Suspension/resume``.
    indirect case suspended(Suspension)
}

/// Where a synchronous dispatch stopped because the next step must await, and how to go on.
@usableFromInline
struct Suspension: Sendable {
    /// What must be awaited, for the synchronous callers' error.
    let reason: AwaitReason
    /// The names for that error (as the caller gave them, or short when resolved: the error
    /// shows them with `Names.shown`).
    let target: String
    let action: String
    /// Runs the rest of the call, from the step that must await. Nothing of that step has run.
    let resume: @Sendable () async -> Outcome
    /// Told the error when a synchronous caller gives the rest of the call up (it needed
    /// `await`), so that an intercepted call still reports its end.
    var abandoned: (@Sendable (MediatorError) -> Void)? = nil

    /// Tells `abandoned`, if set, that a synchronous caller gave the rest of the call up.
    func abandon(_ mediator: Mediator) {
        if let abandoned { abandoned(mediator.asyncActionError(self)) }
    }
}

/// What a synchronous caller would have to wait for.
enum AwaitReason: Sendable {
    case asyncAction
    case mainActorAction
    case asyncFactory
    case mainActorFactory
    case asyncCreation
    case asyncNotFound
    case mainActorNotFound
    case asyncFallback

    /// Why the call cannot finish synchronously, in words.
    var text: String {
        switch self {
        case .asyncAction: "the action is async"
        case .mainActorAction: "the action runs on the main actor, and this synchronous call is not on it"
        case .asyncFactory: "the target's factory is async"
        case .mainActorFactory: "the target's factory runs on the main actor, and this synchronous call is not on it"
        case .asyncCreation: "the target's cached instance is being created by an async factory"
        case .asyncNotFound: "the action is missing and the target's notFound handler is async"
        case .mainActorNotFound: "the action is missing and the target's notFound handler runs on the main actor, off which this call is"
        case .asyncFallback: "nothing answered and the fallback is async"
        }
    }
}

extension Outcome {
    /// Whether the call stopped before a step that must be awaited (tested without copying the
    /// outcome, as a pattern with a binding would).
    var isSuspended: Bool {
        if case .suspended = self { return true }
        return false
    }

    /// The outcome of the whole call: a suspended dispatch goes on, awaiting, with the depth it
    /// was counted at travelling with the task.
    func finished(depth: Int) async -> Outcome {
        guard case .suspended(let suspension) = self else { return self }
        return await CallDepth.$taskDepth.withValue(depth) { await suspension.resume() }
    }
}

extension Result {
    /// The error of a result known to have failed (after a `guard case .success` did not match).
    var failure: Failure {
        guard case .failure(let error) = self else { preconditionFailure("the result succeeded") }
        return error
    }
}
