// MARK: - Where a call goes, worked out without running anything

/// Where a call goes by the registry's own rules, worked out under one read of the registry and
/// running nothing: the redirect table hop by hop, the URL rules at every destination a hop sends a
/// remote call to, the target's degradation when the destination is not a registered action, and
/// the local-only rule at the end.
///
/// The one follower the dry runs share (``Mediator/canOpen(_:)``, ``Mediator/canPerform(target:action:)``,
/// ``Mediator/validate(target:action:params:)``, ``Mediator/validate(url:)``,
/// ``Mediator/destination(target:action:)``). A live call takes each hop by the same
/// ``Mediator/hop(_:from:to:remotePolicy:)``; it also meets interceptors, which decide only when
/// the call is made, and degrades on a failure a plan cannot foresee (an action that throws).
struct CallPlan {
    /// How the call would end.
    enum End {
        /// At a registered action of the target named (canonical names).
        case action(target: String, RegisteredAction)
        /// At no registered action: the call would fail as not found (unless a `notFound` or the
        /// global fallback answers it, which a plan does not ask).
        case missing(target: String, action: String)
        /// Refused on the way: a cycle, too many hops, a URL rule, a local-only action.
        case refused(MediatorError)
    }

    /// How the call would end.
    var end: End
    /// The pairs the call would leave, oldest first (a degradation's failed pair among them).
    var route: [String]
    /// The pair whose failure the call degrades from, if it degrades.
    var degradedFrom: (target: String, action: String)?
}

extension Mediator {
    /// Where a call to `target`/`action` goes (see ``CallPlan``). `remote`: a URL call, which
    /// meets the URL rules at every hop and is refused at a local-only action.
    func plan(target: String, action: String, remote: Bool) -> CallPlan {
        let plan = state.withReadLock { registry in Self.plan(target: target, action: action, remote: remote, in: registry) }
        guard case .refused(var error) = plan.end, !plan.route.isEmpty, error.redirectedFrom.isEmpty else { return plan }
        // As a live call's error: the pairs it left before it was refused.
        error.redirectedFrom = plan.route
        return CallPlan(end: .refused(error), route: plan.route, degradedFrom: plan.degradedFrom)
    }

    private static func plan(target asked: String, action askedAction: String, remote: Bool, in registry: Registry) -> CallPlan {
        // The names as a live call follows the table with them: canonical when valid, else as
        // given (the table compares bytes, so a look-alike matches no entry); only canonical
        // names are looked up in the registry.
        var target = Names.shown(asked, as: .target)
        var action = Names.shown(askedAction, as: .action)
        let table = registry.interception?.redirects
        let remotePolicy = remote ? registry.urlPolicy : nil
        var route: [String] = []
        var degradedFrom: (target: String, action: String)?
        func ending(_ end: CallPlan.End) -> CallPlan { CallPlan(end: end, route: route, degradedFrom: degradedFrom) }
        while true {
            while let next = table?.destination(target: target, action: action) {
                if let problem = hop(&route, from: (target, action), to: (next.target, next.action), remotePolicy: remotePolicy) {
                    return ending(.refused(problem))
                }
                (target, action) = (next.target, next.action)
            }
            if let found = registry.slots[NameKey(lookingUp: target, as: .target)]?.definition.actions[NameKey(lookingUp: action, as: .action)] {
                if let refusal = found.refusal(target: target, remote: remote) { return ending(.refused(refusal)) }
                return ending(.action(target: target, found))
            }
            // A call degrades once; the fallback then goes where its own redirects send it.
            guard degradedFrom == nil, let fallback = table?.fallback(of: target) else { return ending(.missing(target: target, action: action)) }
            if let problem = hop(&route, from: (target, action), to: (fallback.target, fallback.action), remotePolicy: remotePolicy) {
                return ending(.refused(problem))
            }
            degradedFrom = (target, action)
            (target, action) = (fallback.target, fallback.action)
        }
    }

    /// One hop of a call, by a redirect or a degradation, from `from` to `to` (names as shown):
    /// recorded on `route`, or the error when it would close a cycle or make the route longer
    /// than ``RedirectTable/maximumHops`` (named after `from`, `route` unchanged), or when the
    /// URL rules (`remotePolicy`, for a remote call) refuse the destination (named after it,
    /// the hop recorded). The one rule for every follower: live calls and plans.
    static func hop(
        _ route: inout [String], from: (target: String, action: String), to: (target: String, action: String), remotePolicy: URLPolicy?
    ) -> MediatorError? {
        var longer = route
        if var problem = RedirectTable.hop(&longer, from: "\(from.target)/\(from.action)", to: "\(to.target)/\(to.action)") {
            problem.target = from.target
            problem.action = from.action
            return problem
        }
        route = longer
        guard let policy = remotePolicy, let why = brokenTargetRule(target: to.target, action: to.action, policy: policy) else { return nil }
        let reason = "a remote call (a URL's or an agent's) was redirected here and refused: \(why)"
        var error = MediatorError(.forbidden, target: to.target, action: to.action, reason: reason)
        error.isURLRefusal = true
        return error
    }

    /// The params a degraded call's fallback receives: what failed, with which params, and why.
    static func degradationParams(target: String, action: String, params: Params, reason: String) -> Params {
        ["target": target, "action": action, "params": params, "reason": reason]
    }
}
