// MARK: - Validation: the pipeline's step before the instance, and the dry run

extension Mediator {
    /// Whether a call would be accepted, without running anything: the target and action exist,
    /// and `params` fit the action's declared parameters.
    ///
    /// ```swift
    /// if mediator.canPerform(target: "Notes", action: "create", params: ["title": "hi"]) {
    ///     print("Notes can create")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    ///   - params: the params the call would send.
    /// - Returns: `true` when ``validate(target:action:params:)`` finds nothing wrong.
    public func canPerform(target: String, action: String, params: Params) -> Bool {
        (try? validate(target: target, action: action, params: params)) != nil
    }

    /// Checks a call as the mediator would before running it, and runs nothing: no factory, no
    /// action, no `notFound`, no fallback. The call is followed where the redirect table sends it,
    /// and to its target's degradation when no action is registered there (the fallback's params
    /// are then checked as the degraded call would send them), as ``destination(target:action:)``
    /// tells. Interceptors are not asked (they decide when the call is made: they may still reject,
    /// answer or redirect it), nor is a `notFound` or the global fallback.
    ///
    /// ```swift
    /// try mediator.validate(target: "Notes", action: "list", params: ["limit": 500])
    /// // throws: Notes/list: invalid parameter "limit": expected integer (1...100), got Int 500 (out of range)
    /// ```
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    ///   - params: the params the call would send (an in-process call's).
    /// - Throws: the error the call would fail with before running: `targetNotFound` or
    ///   `actionNotFound` (a fallback might still answer such a call; it is not consulted),
    ///   `invalidParameter`, `redirectCycle` or `tooManyRedirects`.
    public func validate(target: String, action: String, params: Params) throws(MediatorError) {
        try check(target: target, action: action, params: params, origin: .inProcess)
    }

    /// Checks a URL call as ``open(_:params:isolation:completion:)`` would before running it, and runs nothing:
    /// redirects and a degradation are followed as for ``validate(target:action:params:)``, each
    /// hop meeting the URL rules.
    ///
    /// ```swift
    /// try mediator.validate(url: "app://Notes/list?limit=500&utm_source=mail")
    /// // throws: Notes/list: invalid parameter "limit": expected integer (1...100), got String "500" (out of range)
    /// ```
    ///
    /// - Parameter url: the URL, as text.
    /// - Throws: what the URL call would fail with before running: `invalidURL`, `forbidden`
    ///   (``urlPolicy``, local-only actions), `targetNotFound`, `actionNotFound` or
    ///   `invalidParameter` (undeclared params too, where the policy refuses them from URLs;
    ///   by default they are dropped).
    public func validate(url: String) throws(MediatorError) {
        let request = try parse(url: url).get()
        try check(target: request.target, action: request.action, params: request.params, origin: .url(url))
    }

    /// The dry run of the command-line layer: as ``validate(target:action:params:)``, with the
    /// undeclared-params policy of calls from outside.
    package func validateFromOutside(target: String, action: String, params: Params) throws(MediatorError) {
        try check(target: target, action: action, params: params, origin: .commandLine)
    }

    /// A call from outside the program that is not a URL (the command-line layer): as the async
    /// `call`, with undeclared params refused by the default policy. Local-only actions stay
    /// reachable: the person at the command line is the program's user.
    package func callFromOutside(target: String, action: String, params: Params, shouldCacheTarget: Bool) async throws(MediatorError) -> (any Sendable)? {
        try await dispatchAwaiting(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget, origin: .commandLine).value(self)
    }

    /// A call from an AI agent (the command-line layer's Model Context Protocol bridge): a remote
    /// call, under every rule of a URL call. The target allow-list and the `native` prefix are
    /// checked for the names asked (``agentRefusal(target:action:)``), local-only actions,
    /// redirects and degradations by the pipeline, as for a URL; undeclared params are refused by
    /// the default policy.
    package func callFromAgent(target: String, action: String, params: Params, client: String) async throws(MediatorError) -> (any Sendable)? {
        if let why = agentRefusal(target: target, action: action) {
            throw MediatorError(.forbidden, target: target, action: action, reason: "an agent's call refused: \(why)")
        }
        return try await dispatchAwaiting(target: target, action: action, params: params, shouldCacheTarget: false, origin: .agent(client)).value(self)
    }

    /// Why the URL rules that hold for the names a call asks for (the target allow-list of
    /// ``urlPolicy``, the `native` prefix) refuse an agent's call to `target`/`action`, in words;
    /// `nil` when they allow it. The tools an agent is shown are the actions this allows that
    /// are not local-only.
    package func agentRefusal(target: String, action: String) -> String? {
        let canonicalTarget = Names.canonical(target, as: .target) ?? target
        let canonicalAction = Names.canonical(action, as: .action) ?? action
        return Self.brokenTargetRule(target: canonicalTarget, action: canonicalAction, policy: urlPolicy)
    }

    /// The dry run: where the call goes (``CallPlan``: redirects, URL rules, a degradation,
    /// local-only actions; interceptors decide only when it is made), then the arguments the
    /// action there would get, checked.
    private func check(target: String, action: String, params: Params, origin: CallOrigin) throws(MediatorError) {
        let plan = plan(target: target, action: action, remote: origin.isRemote)
        var failure: MediatorError
        switch plan.end {
        case .refused(let error):
            throw error
        case .missing(let target, let action):
            failure = notAnsweredError(target: target, action: action)
        case .action(let target, let found):
            var params = params
            if let failed = plan.degradedFrom {
                // What the degraded call's fallback would be given.
                let reason = notAnsweredError(target: failed.target, action: failed.action).description
                params = Self.degradationParams(target: failed.target, action: failed.action, params: params, reason: reason)
            }
            let checked = arguments(found.run, found.contract, params: params, input: nil, origin: origin, target: target, action: found.name)
            guard case .failure(let error) = checked else { return }
            failure = error
        }
        // As a live call's error: the pairs it left on the way.
        if failure.redirectedFrom.isEmpty { failure.redirectedFrom = plan.route }
        throw failure
    }

    // MARK: Internals

    /// An action's arguments: a typed input passed as is to a keyed body of its type (when its
    /// contract has no bounds or defaults: ``ActionContract/passesTypedInputAsIs``); otherwise
    /// params (the input encoded, if there is one) checked against the declared parameters, with
    /// text coerced and defaults filled in.
    func arguments(
        _ run: ActionRun, _ contract: ActionContract?, params: Params, input: TypedInput?, origin: CallOrigin, target: String, action: String
    ) -> Result<(ActionRun, Params), MediatorError> {
        var params = params
        // A caller of the key's own input type gets the body's output as it is returned.
        var typedCaller = false
        if let input {
            if let contract, let keyed = contract.keyed, input.type == keyed.inputType {
                if contract.passesTypedInputAsIs { return .success((keyed.run.bound(to: input.value), params)) }
                typedCaller = true
            }
            switch plainParams(params, input: input) {
            case .success(let plain): params = plain
            case .failure(let error): return .failure(error.named(target: target, action: action))
            }
        }
        guard let contract else { return .success((run, params)) }
        let undeclared = undeclaredHandling(contract, origin: origin)
        if undeclared == .dropped { params = contract.droppingUndeclared(from: params) }
        let validated = contract.validate(params, refuseUndeclared: undeclared == .refused, target: target, action: action)
        guard case .success(let checked) = validated else { return .failure(validated.failure) }
        // A keyed action by name: its input decoded now, before any instance is made (and by dry runs).
        if let keyed = contract.keyed {
            do throws(MediatorError) {
                let decoded = try keyed.decode(checked)
                return .success((typedCaller ? keyed.run.bound(to: decoded) : keyed.run.bound(to: decoded, encoding: keyed.encode), checked))
            } catch {
                return .failure(error.named(target: target, action: action))
            }
        }
        return .success((run, checked))
    }

    /// What a call from `origin` does with params `contract`'s action did not declare: the
    /// action's own policy, else the mediator's.
    @inline(__always)
    func undeclaredHandling(_ contract: ActionContract, origin: CallOrigin) -> UndeclaredHandling {
        (contract.policy ?? undeclaredParameters).handling(for: origin)
    }

    /// `params`, or a typed key's input encoded to plain params for an action that does not
    /// take it as is (one registered by name, `notFound`, a fallback).
    func plainParams(_ params: Params, input: TypedInput?) -> Result<Params, MediatorError> {
        guard let input = input?.value else { return .success(params) }
        let encoded: (any Sendable)?
        do {
            encoded = try ValueEncoder.encode(input)
        } catch {
            return .failure(MediatorError(.invalidParameter, reason: "the input (\(typeName(type(of: input)))) cannot be encoded to params: \(error)"))
        }
        switch encoded {
        case let values as [String: any Sendable]: return .success(Params(values))
        case nil: return .success([:])
        default:
            return .failure(
                MediatorError(.invalidParameter, reason: "the input (\(typeName(type(of: input)))) is not encoded as named fields, so it cannot be params"))
        }
    }
}

/// A typed key's input on its way through the pipeline (the slow path: the hot one calls the
/// keyed body directly). A class, so the pipeline's functions pass one word, `nil` for every
/// call by name.
@usableFromInline
final class TypedInput: Sendable {
    let value: any Encodable & Sendable
    /// The input's dynamic type, compared with a keyed body's input type.
    let type: ObjectIdentifier

    /// The input with its static type: the key's `Input`, whatever subclass a class instance is,
    /// so that every path treats it alike (a keyed body of that type gets it as is).
    init<T: Encodable & Sendable>(_ value: T) {
        self.value = value
        self.type = ObjectIdentifier(T.self)
    }
}
