import Mediator

/// A typed stub's body as a stub by name: it takes the call's params and answers as an action
/// registered against the key answers a caller by name.
enum TypedStub {
    /// `body` behind a private mediator that holds one action, registered against `key` with
    /// `body` as its implementation. Calling it by name gives the stub exactly what the real
    /// action's caller would get: params checked against `Input`'s parameters (defaults filled
    /// in, text converted) and decoded into it, the output encoded to plain values, and the
    /// action's own error text when the params do not fit.
    static func body<Input, Output>(
        for key: ActionKey<Input, Output>, _ body: @escaping @Sendable (Input) throws -> Output
    ) -> @Sendable (Params) throws -> (any Sendable)? {
        let stand = Mediator()
        let action = Action<Mediator>(key) { _, input in
            do {
                return try body(input)
            } catch {
                throw StubBodyFailure(error: error)
            }
        }
        let refusal: MediatorError?
        do {
            try stand.register(target: key.target, actions: [action])
            refusal = nil
        } catch {
            // An invalid name: every call it would answer fails with the reason.
            refusal = error
        }
        return { params in
            if let refusal { throw refusal }
            do throws(MediatorError) {
                return try stand.call(target: key.target, action: key.action, params: params)
            } catch {
                // The body's own error reaches the caller as it was thrown, not wrapped by the
                // private mediator's `actionFailed`.
                if let failure = error.underlying as? StubBodyFailure { throw failure.error }
                throw error
            }
        }
    }

    /// An error the stub's body threw, marked to tell it from the private mediator's own errors.
    struct StubBodyFailure: Error {
        let error: any Error
    }
}
