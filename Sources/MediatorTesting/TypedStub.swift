import Mediator

/// A typed stub's body as a stub by name: it takes the call's params and answers as an action
/// registered against the key answers a caller by name.
enum TypedStub {
    /// `body` wrapped to take params and answer with plain values. The params are read by a
    /// private mediator that holds one action registered against `key`, so they are checked and
    /// decoded exactly as for the real action: against `Input`'s parameters, defaults filled in,
    /// text converted, with the action's own error when they do not fit. `body` itself runs here,
    /// in the stub, not inside that private call: there it would run one call level deeper than
    /// the real action (nested calls count through every mediator), and a stub of an action that
    /// calls itself would stop short of the real action's depth.
    static func body<Input, Output>(
        for key: ActionKey<Input, Output>, _ body: @escaping @Sendable (Input) throws -> Output
    ) -> @Sendable (Params) throws -> (any Sendable)? {
        let reader = InputReader(key)
        return { params in
            let input: Input
            do throws(MediatorError) {
                input = try reader.input(from: params)
            } catch {
                throw StandInFailure.refused(error)
            }
            do {
                return try plainValues(try body(input))
            } catch {
                throw StandInFailure.thrown(error)
            }
        }
    }

    /// The output as an action registered against a key returns it to a caller by name.
    private static func plainValues<Output: Encodable>(_ output: Output) throws -> (any Sendable)? {
        do {
            return try ValueEncoder.encode(output)
        } catch {
            // The real action's error for an output with no plain form (`KeyedInput.encode`).
            throw MediatorError(
                .actionFailed, underlying: error, reason: "its result (\(String(describing: Output.self))) cannot be encoded to plain values: \(error)")
        }
    }
}

// MARK: - Reading the input

extension TypedStub {
    /// Reads a key's input from params as the action registered against the key would.
    private struct InputReader<Input: Codable & Sendable, Output: Codable & Sendable>: Sendable {
        let key: ActionKey<Input, Output>
        /// The private mediator, or why the key's names cannot be registered.
        let stand: Result<Mediator, MediatorError>

        init(_ key: ActionKey<Input, Output>) {
            self.key = key
            // No depth limit of its own: reading the input nests nothing, and the stub may be
            // called at any depth the caller's mediator allows.
            let stand = Mediator(maximumCallDepth: .max)
            // The action hands the input it was given back to `input(from:)`, the one way out of
            // a call that leaves its output type free.
            let action = Action<Mediator>(key) { _, input in throw Read(input: input) }
            do {
                try stand.register(target: key.target, actions: [action])
                self.stand = .success(stand)
            } catch {
                // An invalid name: every call the stub would answer fails with the reason.
                self.stand = .failure(error)
            }
        }

        /// The input `params` decode to, or the error the real action would give for them.
        func input(from params: Params) throws(MediatorError) -> Input {
            let stand = try stand.get()
            do throws(MediatorError) {
                _ = try stand.callNow(target: key.target, action: key.action, params: params)
            } catch {
                if let read = error.underlying as? Read { return read.input }
                throw error
            }
            preconditionFailure("the reading action of \(key) returned instead of handing its input back")
        }

        /// The decoded input, thrown by the reading action to hand it back.
        struct Read: Error, CustomStringConvertible {
            let input: Input

            /// Constant: the private mediator puts it in an error message that no one reads.
            var description: String { "the input, read" }
        }
    }
}
