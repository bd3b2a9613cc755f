// MARK: - Validation: the pipeline's step before the instance, and the dry run

extension Mediator {
    /// Whether a call would be accepted, without running anything: the target and action exist,
    /// and `params` fit the action's declared parameters.
    ///
    /// ```swift
    /// if mediator.canPerform(target: "Notes", action: "create", params: ["title": "hi"]) { ... }
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
    /// action, no `notFound`, no fallback.
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
    ///   `actionNotFound` (a fallback might still answer such a call; it is not consulted), or
    ///   `invalidParameter`.
    public func validate(target: String, action: String, params: Params) throws(MediatorError) {
        try check(target: target, action: action, params: params, remote: false, outside: false)
    }

    /// Checks a URL call as ``open(_:)-7epki`` would before running it, and runs nothing.
    ///
    /// ```swift
    /// try mediator.validate(url: "app://Notes/list?limit=5&color=red")
    /// // throws: Notes/list: undeclared parameter "color": the action takes token, limit?
    /// ```
    ///
    /// - Parameter url: the URL, as text.
    /// - Throws: what the URL call would fail with before running: `invalidURL`, `forbidden`
    ///   (``urlPolicy``, local-only actions), `targetNotFound`, `actionNotFound` or
    ///   `invalidParameter` (undeclared params are refused from URLs by default).
    public func validate(url: String) throws(MediatorError) {
        let request = try parse(url: url).get()
        try check(target: request.target, action: request.action, params: request.params, remote: true, outside: true)
    }

    /// The dry run of the command-line layer: as ``validate(target:action:params:)``, with the
    /// undeclared-params policy of calls from outside.
    package func validateFromOutside(target: String, action: String, params: Params) throws(MediatorError) {
        try check(target: target, action: action, params: params, remote: false, outside: true)
    }

    /// A call from outside the program that is not a URL (the command-line layer): as the async
    /// `call`, with undeclared params refused by the default policy. Local-only actions stay
    /// reachable: the person at the command line is the program's user.
    package func callFromOutside(target: String, action: String, params: Params, shouldCacheTarget: Bool) async throws(MediatorError) -> (any Sendable)? {
        try await dispatchAwaiting(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget, outside: true).value(self)
    }

    private func check(target asked: String, action askedAction: String, params: Params, remote: Bool, outside: Bool) throws(MediatorError) {
        // Where the redirect table sends the call (interceptors decide only when it is made).
        let (target, action, moved) = try redirected(target: asked, action: askedAction)
        if remote && moved, let refusal = redirectRefusal(target: target, action: action) { throw refusal }
        let found: RegisteredAction? = state.withReadLock { $0.slot(named: target)?.definition.action(named: action) }
        guard let found, let canonicalTarget = Names.canonical(target, as: .target) else {
            throw notAnsweredError(target: target, action: action)
        }
        if remote && found.isLocalOnly { throw localOnlyError(target: canonicalTarget, action: found.name) }
        _ = try arguments(found.run, found.contract, params: params, input: nil, outside: outside, target: canonicalTarget, action: found.name).get()
    }

    // MARK: Internals

    /// The names as asked, or where the redirect table sends them.
    private func redirected(target: String, action: String) throws(MediatorError) -> (String, String, moved: Bool) {
        guard state.withReadLock({ $0.interception?.redirects.isEmpty == false }) else { return (target, action, false) }
        let found = try destination(target: target, action: action)
        return found.redirectedFrom.isEmpty ? (target, action, false) : (found.target, found.action, true)
    }

    /// An action's arguments: a typed input passed as is to a keyed body of its type; otherwise
    /// params (the input encoded, if there is one) checked against the declared parameters, with
    /// text coerced and defaults filled in.
    func arguments(
        _ run: ActionRun, _ contract: ActionContract?, params: Params, input: TypedInput?, outside: Bool, target: String, action: String
    ) -> Result<(ActionRun, Params), MediatorError> {
        var params = params
        if let input {
            if let keyed = contract?.keyed, input.type == keyed.inputType {
                return .success((keyed.run.bound(to: input.value), params))
            }
            switch plainParams(params, input: input) {
            case .success(let plain): params = plain
            case .failure(let error): return .failure(error.named(target: target, action: action))
            }
        }
        guard let contract else { return .success((run, params)) }
        let validated = contract.validate(params, refuseUndeclared: refusesUndeclared(contract, outside: outside), target: target, action: action)
        guard case .success(let checked) = validated else { return .failure(validated.failure) }
        // A keyed action by name: its input decoded now, before any instance is made (and by dry runs).
        if let keyed = contract.keyed {
            do throws(MediatorError) {
                return .success((keyed.run.bound(to: try keyed.decode(checked), encoding: keyed.encode), checked))
            } catch {
                return .failure(error.named(target: target, action: action))
            }
        }
        return .success((run, checked))
    }

    /// Whether `contract`'s action refuses undeclared params from this caller: its own policy,
    /// else the mediator's.
    @inline(__always)
    func refusesUndeclared(_ contract: ActionContract, outside: Bool) -> Bool {
        (contract.policy ?? undeclaredParameters).refuses(fromOutside: outside)
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
