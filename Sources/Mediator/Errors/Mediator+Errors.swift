// MARK: - The errors a call fails with

extension Mediator {
    /// The error for a target factory that threw `error`: `actionFailed`, except a creation
    /// cycle, which passes up unwrapped through every factory it crossed (as `callDepthExceeded`
    /// does through actions): the cycle is the reason, and it names every target in it.
    func creationFailedError(from error: any Error, target: String, action: String) -> MediatorError {
        if var cycle = error as? MediatorError, cycle.code == .cyclicTargetCreation {
            if cycle.action == nil { cycle.action = action }
            return cycle
        }
        if let cancelled = cancellation(error) { return cancelledError(target: target, action: action, underlying: cancelled) }
        return MediatorError(.actionFailed, target: target, action: action, underlying: error, reason: "could not create the target: \(error)")
    }

    /// The error for an action (or `notFound`, or a fallback) that threw `error`, with the call's
    /// names attached. A parameter error thrown by ``Params`` is the caller's fault and keeps its
    /// code; anything else (including errors of nested calls) is the action's failure, described
    /// as `context` ("the action failed").
    func actionFailedError(from error: any Error, target: String, action: String, context: String) -> MediatorError {
        // Passed up unchanged: wrapping it once per nesting level would bury the recursing call
        // under hundreds of layers.
        if let mediatorError = error as? MediatorError, mediatorError.code == .callDepthExceeded {
            return mediatorError
        }
        if let cancelled = cancellation(error) { return cancelledError(target: target, action: action, underlying: cancelled) }
        if var mediatorError = error as? MediatorError, mediatorError.target == nil {
            mediatorError.target = target
            mediatorError.action = action
            // User code passed it on: the call ran, so it is no refusal before anything ran.
            mediatorError.isURLRefusal = false
            return mediatorError
        }
        return MediatorError(.actionFailed, target: target, action: action, underlying: error, reason: "\(context): \(error)")
    }

    /// `error` when it means that the calling task was cancelled: a `CancellationError`, or a
    /// nested call's `cancelled`, while this task is cancelled. Another task's cancellation that
    /// an action merely awaited is the action's failure, not the caller's cancellation.
    func cancellation(_ error: any Error) -> (any Error)? {
        guard Task.isCancelled else { return nil }
        if error is CancellationError { return error }
        if let nested = error as? MediatorError, nested.code == .cancelled { return nested }
        return nil
    }

    /// The error for a call whose task was cancelled, which stopped with `underlying`.
    func cancelledError(target: String, action: String, underlying: any Error = CancellationError()) -> MediatorError {
        MediatorError(.cancelled, target: target, action: action, underlying: underlying, reason: "cancelled: the calling task was cancelled")
    }

    /// The error a synchronous entry point fails with when the call must await.
    func asyncActionError(_ suspension: Suspension) -> MediatorError {
        MediatorError(
            .asyncAction, target: Names.shown(suspension.target, as: .target), action: Names.shown(suspension.action, as: .action),
            reason:
                "not run: \(suspension.reason.text); call it with await from an async function, or with the completion form (perform(target:action:params:as:completion:))"
        )
    }

    /// The refusal of a call nested deeper than ``maximumCallDepth``.
    func callDepthExceededError(target: String, action: String) -> MediatorError {
        // Short names, as a call that was looked up shows them, whichever entry point refused it.
        MediatorError(
            .callDepthExceeded, target: Names.shown(target, as: .target), action: Names.shown(action, as: .action),
            reason: "not run: \(maximumCallDepth) mediator calls are already nested (maximumCallDepth); does an action call itself without end?"
        )
    }

    /// The refusal of a URL call nested deeper than ``maximumCallDepth``: named after what the
    /// URL asks for, read as a dry run reads it (nothing runs), when it names an action.
    func callDepthExceededError(url: String) -> MediatorError {
        var error = MediatorError(
            .callDepthExceeded,
            reason:
                "\(describe(url, limit: 120)) not run: \(maximumCallDepth) mediator calls are already nested (maximumCallDepth); does a completion or an action call itself without end?"
        )
        switch urlCall(url, extra: nil, capturing: false) {
        case .call(let target, let action, _):
            (error.target, error.action) = (target, action)
        case .failed(let refusal):
            // A URL the rules would refuse is still named by what it asks for, when it says.
            (error.target, error.action) = (refusal.target, refusal.action)
        case .unmatched:
            break
        }
        return error
    }

    /// The precise error for a call nothing answered. Computed only on the throwing path, with
    /// bounded work (see ``Suggestions`` and ``NameListing``), after the lock is released: only
    /// the names are copied out under it.
    func notAnsweredError(target: String, action: String) -> MediatorError {
        enum Found {
            case target(name: String, actionNames: [String])
            case none(targetNames: [String])
        }
        let found: Found = state.withReadLock { registry in
            guard let slot = registry.slot(named: target) else { return .none(targetNames: Array(registry.slots.keys)) }
            return .target(name: slot.definition.name, actionNames: Array(slot.definition.actions.keys))
        }
        switch found {
        case .none(let names):
            return targetNotFoundError(target: target, action: action, registeredNames: names)
        case .target(let name, let names):
            return nameNotFoundError(
                .actionNotFound, asked: action, as: .action, among: names, target: name, action: action,
                reason: "target \"\(name)\" has no action \"\(MediatorError.shortened(action))\""
            )
        }
    }
}

extension Mediator {
    /// The error for an unknown target name, for this package's command-line layer.
    package func unknownTargetError(_ name: String) -> MediatorError {
        targetNotFoundError(target: name, action: nil, registeredNames: state.withReadLock { Array($0.slots.keys) })
    }
}

/// The error for an unknown target name, with the first registered names and a suggestion.
/// Call it without the registry's lock held: the suggestion costs time in a large registry.
func targetNotFoundError(target: String, action: String?, registeredNames names: [String]) -> MediatorError {
    nameNotFoundError(
        .targetNotFound, asked: target, as: .target, among: names, target: target, action: action,
        reason: "no target named \"\(MediatorError.shortened(target))\" is registered"
    )
}

/// A target or action name that is not registered: `reason`, why the name is invalid if it is,
/// the first of the names that exist and the closest of them.
private func nameNotFoundError(
    _ code: MediatorError.Code, asked: String, as role: Names.Role, among names: [String],
    target: String, action: String?, reason: String
) -> MediatorError {
    let listing = NameListing(names)
    var reason = reason
    if let problem = Names.problem(with: asked, as: role) { reason += " (\(problem))" }
    return MediatorError(
        code, target: target, action: action,
        availableNames: listing.names, omittedNameCount: listing.omittedCount,
        suggestion: Suggestions.closest(to: Names.stripped(asked, as: role), in: names),
        reason: reason
    )
}
