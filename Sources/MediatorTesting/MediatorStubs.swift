import Mediator

/// Answers calls in place of the targets a test leaves out: by target and action, or by typed key,
/// with a value or a closure. In strict mode, any other call fails, naming itself, unless its
/// target is the module under test.
///
/// ```swift
/// let mediator = Mediator()
/// try Target_Notes.register(in: mediator)            // the module under test; no Accounts at all
///
/// let stubs = MediatorStubs(strict: true, passingThrough: ["Notes"])
/// stubs.stub(.accountsWhoAmI) { input in
///     guard input.token == "good" else { throw InvalidToken() }
///     return AccountsUser(id: 1, username: "ada")
/// }
/// stubs.install(in: mediator)
///
/// let note = try mediator.callNow(.notesCreate, CreateNote(token: "good", title: "hi"))
/// #expect(note.owner == "ada")
/// ```
///
/// A stub answers whether or not its target is registered (interceptors run for missing targets
/// too), and in front of it when it is: the target's action does not run. ``install(in:)`` puts
/// the stubs last in the chain, so the app's own interceptors still see the call first.
///
/// A stub's closure runs where the action would, at the call's own depth: a stub of an action
/// that calls itself through the mediator stops where the action would
/// (`Mediator.maximumCallDepth`), and a `callDepthExceeded` it throws passes up unchanged.
///
/// A stub's closure that throws fails the call as the real action throwing the same error does:
/// `actionFailed` with the error as `underlying` and the call's target and action, or a thrown
/// `MediatorError` as it is (its names filled in when it has none); a degradation then applies as
/// it would to the action. In strict mode, a call nothing answers fails as `rejected`, with a
/// ``NotStubbed`` error that names the call and the fix:
///
/// ```text
/// Accounts/verifyToken: rejected by interceptor "MediatorStubs": Accounts/verifyToken is not
/// stubbed: add stubs.stub(target: "Accounts", action: "verifyToken") { params in ... } (or a
/// typed stub), or pass "Accounts" through
/// ```
///
/// Stubs may be added, replaced and removed while calls run on other threads; each test uses its
/// own `MediatorStubs` on its own `Mediator()`, so tests run in parallel.
public final class MediatorStubs: Interceptor {
    /// Whether calls that no stub answers fail (see ``NotStubbed``), unless passed through.
    public let isStrict: Bool
    /// What strict mode lets through to the mediator: targets (`Notes`) and actions (`Notes/get`).
    private let passing: [CallName]
    /// The stubs by the call they answer, behind the package's lock: stubs may change while calls run.
    private let stubs = ReadWriteLock<[CallName: Stub]>([:])

    /// Stubs with no answers yet.
    ///
    /// ```swift
    /// let lenient = MediatorStubs()                                      // others go on as usual
    /// let strict = MediatorStubs(strict: true, passingThrough: ["Notes"])  // others fail
    /// ```
    ///
    /// - Parameters:
    ///   - strict: fail every call no stub answers (`false` by default: such calls go on to the
    ///     mediator as if there were no stubs).
    ///   - passingThrough: in strict mode, what may still reach the mediator: targets (`"Notes"`,
    ///     every action) and actions (`"Notes/get"`), short or full names. Usually the module under
    ///     test. A stub answers even a call that would pass through.
    public init(strict: Bool = false, passingThrough: [String] = []) {
        isStrict = strict
        passing = passingThrough.map(CallName.init(parsing:))
    }

    // MARK: - Stubs by name

    /// Answers every call to `target`/`action` with `value`.
    ///
    /// ```swift
    /// stubs.stub(target: "Accounts", action: "whoAmI", answer: ["id": 1, "username": "ada"])
    /// ```
    ///
    /// Replaces a stub of the same call.
    ///
    /// - Parameters:
    ///   - target: the target's name, short (`Accounts`) or full (`Target_Accounts`).
    ///   - action: the action's name, short (`whoAmI`) or full (`Action_whoAmI`).
    ///   - value: what the call returns (`nil` for an action that returns nothing).
    public func stub(target: String, action: String, answer value: (any Sendable)?) {
        put(.value(value), for: CallName(target: target, action: action))
    }

    /// Answers every call to `target`/`action` with a dictionary of plain values, as an action
    /// registered by name returns a record (a literal of mixed values reads as this type here).
    ///
    /// ```swift
    /// stubs.stub(target: "Accounts", action: "whoAmI", answer: ["id": 1, "username": "ada"])
    /// ```
    ///
    /// - Parameters:
    ///   - target: the target's name, short or full.
    ///   - action: the action's name, short or full.
    ///   - values: what the call returns.
    public func stub(target: String, action: String, answer values: [String: any Sendable]) {
        put(.value(values), for: CallName(target: target, action: action))
    }

    /// Answers every call to `target`/`action` with what `body` returns for the call's params.
    ///
    /// ```swift
    /// stubs.stub(target: "Accounts", action: "whoAmI") { params in
    ///     let token = try params.value("token", as: String.self)
    ///     guard token == "good" else { throw InvalidToken() }
    ///     return ["id": 1, "username": "ada"] as [String: any Sendable]
    /// }
    /// ```
    ///
    /// Replaces a stub of the same call. `body` runs on the caller's thread with no lock held, so
    /// it may call the mediator; it cannot `await` (interceptors are synchronous).
    ///
    /// - Parameters:
    ///   - target: the target's name, short or full.
    ///   - action: the action's name, short or full.
    ///   - body: gets the call's params (as the interceptors before the stubs left them) and
    ///     returns the answer; what it throws fails the call as the action's error would
    ///     (`actionFailed`, the error as `underlying`).
    public func stub(target: String, action: String, _ body: @escaping @Sendable (Params) throws -> (any Sendable)?) {
        put(
            .closure { params in
                do {
                    return try body(params)
                } catch {
                    throw StandInFailure.thrown(error)
                }
            }, for: CallName(target: target, action: action))
    }

    // MARK: - Stubs by typed key

    /// Answers every call to the action `key` names with `output`.
    ///
    /// ```swift
    /// stubs.stub(.accountsWhoAmI, answer: AccountsUser(id: 1, username: "ada"))
    /// ```
    ///
    /// As ``stub(_:_:)``, with a body that always returns `output`: the call's params are still
    /// checked against `Input`.
    ///
    /// - Parameters:
    ///   - key: the action and its types.
    ///   - output: what the call returns.
    public func stub<Input, Output>(_ key: ActionKey<Input, Output>, answer output: Output) {
        stub(key) { _ in output }
    }

    /// Answers every call to the action `key` names with what `body` returns for the call's input.
    ///
    /// ```swift
    /// stubs.stub(.accountsVerifyToken) { input in
    ///     guard input.token == "good" else { throw InvalidToken() }
    ///     return AccountsUser(id: 1, username: "ada")
    /// }
    /// ```
    ///
    /// The stub stands where a provider's action registered against `key` would: the params are
    /// checked against `Input`'s parameters (defaults filled in, text from a URL or a command line
    /// converted) and decoded into `Input`, and the output is returned as such an action returns
    /// it to a caller by name, as plain values, which a typed caller decodes back into `Output`.
    /// Params that do not fit fail the call with the error the action would give
    /// (`invalidParameter`).
    ///
    /// `body` runs at the call's own depth, as the action's body would (the params are read
    /// through a private mediator, but `body` does not run inside that call). Works for keys of
    /// async actions too (`verifyToken`): the stub answers at once. Replaces a stub of the same
    /// call, by name or by key.
    ///
    /// - Parameters:
    ///   - key: the action and its types.
    ///   - body: gets the decoded input and returns the output; what it throws fails the call as
    ///     the action's error would (`actionFailed`, the error as `underlying`).
    public func stub<Input, Output>(_ key: ActionKey<Input, Output>, _ body: @escaping @Sendable (Input) throws -> Output) {
        put(.closure(TypedStub.body(for: key, body)), for: CallName(target: key.target, action: key.action))
    }

    // MARK: - Removing stubs

    /// Removes the stub of `target`/`action`: later calls go on to the mediator (or fail, in
    /// strict mode).
    ///
    /// ```swift
    /// stubs.removeStub(target: "Accounts", action: "whoAmI")
    /// ```
    ///
    /// - Parameters:
    ///   - target: the target's name, short or full.
    ///   - action: the action's name, short or full.
    /// - Returns: whether there was one.
    @discardableResult
    public func removeStub(target: String, action: String) -> Bool {
        let removed = stubs.withLock { $0.removeValue(forKey: CallName(target: target, action: action)) }
        // Released here, after the lock: a closure may hold objects with a `deinit`.
        return removed != nil
    }

    /// Removes the stub of the action `key` names.
    ///
    /// ```swift
    /// stubs.removeStub(.accountsWhoAmI)
    /// ```
    ///
    /// - Parameter key: the action.
    /// - Returns: whether there was one.
    @discardableResult
    public func removeStub<Input, Output>(_ key: ActionKey<Input, Output>) -> Bool {
        removeStub(target: key.target, action: key.action)
    }

    // MARK: - Installing

    /// Adds these stubs to `mediator`, last in every call's chain (the lowest priority), so the
    /// app's own interceptors see each call before a stub answers it.
    ///
    /// ```swift
    /// let stubs = MediatorStubs(strict: true, passingThrough: ["Notes"])
    /// stubs.install(in: mediator)
    /// ```
    ///
    /// The same as `mediator.addInterceptor(stubs, scope: .all, priority: .min)`. Stubs added,
    /// replaced or removed later apply at once.
    ///
    /// - Parameter mediator: the mediator whose calls the stubs answer.
    /// - Returns: the ID `Mediator.removeInterception(_:)` takes to remove them.
    @discardableResult
    public func install(in mediator: Mediator) -> InterceptionID {
        mediator.addInterceptor(self, scope: .all, priority: .min)
    }

    // MARK: - Interceptor

    /// Answers the call when a stub matches it; otherwise lets it go on, or in strict mode fails it
    /// with ``NotStubbed`` unless it passes through. The mediator calls it.
    ///
    /// - Parameter request: the call.
    /// - Returns: `.answer(_:)` with the stub's answer, or `.proceed`.
    /// - Throws: what a stub's closure throws, or ``NotStubbed``.
    public func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
        let name = CallName(target: request.target, action: request.action)
        // Read under the lock, run after it: a stub's closure is user code.
        if let stub = stubs.withReadLock({ $0[name] }) {
            switch stub {
            case .value(let value): return .answer(value)
            case .closure(let body): return .answer(try body(request.params))
            }
        }
        guard isStrict, !passing.contains(where: { $0.matches(target: request.target, action: request.action) }) else { return .proceed }
        throw NotStubbed(target: request.target, action: request.action)
    }

    /// Puts `stub` in place for `name`, releasing the one it replaces after the lock.
    private func put(_ stub: Stub, for name: CallName) {
        let replaced = stubs.withLock { $0.updateValue(stub, forKey: name) }
        _ = replaced
    }
}

// MARK: - Errors and stubs

extension MediatorStubs {
    /// Why a strict ``MediatorStubs`` failed a call: no stub answers it and its target does not
    /// pass through. Its text names the call and how to fix the test.
    ///
    /// ```swift
    /// do {
    ///     try mediator.callNow(target: "Accounts", action: "logIn")
    /// } catch where error.underlying is MediatorStubs.NotStubbed {
    ///     print(error)   // names the call and the stub to add
    /// }
    /// ```
    public struct NotStubbed: Error, CustomStringConvertible, Equatable {
        /// The target called (its canonical name).
        public let target: String
        /// The action called (its canonical name).
        public let action: String

        /// `Accounts/verifyToken is not stubbed: add stubs.stub(target: "Accounts", action:
        /// "verifyToken") { params in ... } (or a typed stub), or pass "Accounts" through`.
        public var description: String {
            "\(target)/\(action) is not stubbed: add stubs.stub(target: \"\(target)\", action: \"\(action)\") { params in ... } (or a typed stub), "
                + "or pass \"\(target)\" through"
        }
    }

    /// What a stub answers with.
    enum Stub: Sendable {
        case value((any Sendable)?)
        case closure(@Sendable (Params) throws -> (any Sendable)?)
    }
}
