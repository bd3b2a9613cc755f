// MARK: - Actions registered against a typed key

extension Action {
    /// The action a key names, implemented with the key's types: the compiler checks that the
    /// closure takes `Input` and returns `Output`.
    ///
    /// ```swift
    /// Action<Target_Notes>(.notesCreate, summary: "Create a note") { notes, request in
    ///     try notes.create(request)   // request: CreateNote; returns a Note
    /// }
    /// ```
    ///
    /// A caller using the key gets the returned value as is; a caller by name, URL or command
    /// line sends params, which are checked against the parameters of `Input` (see
    /// ``DeclaresParameters``) and decoded into it, and gets the result encoded to plain values.
    ///
    /// - Parameters:
    ///   - key: the key: its action name becomes this action's name.
    ///   - summary: a one-line description, shown by listings.
    ///   - localOnly: refuse the action to remote (URL) calls.
    ///   - body: the action: gets the target instance and the input, returns the output.
    @_disfavoredOverload
    public init<Input, Output>(
        _ key: ActionKey<Input, Output>,
        summary: String? = nil,
        localOnly: Bool = false,
        _ body: @escaping @Sendable (Target, Input) throws -> Output
    ) {
        let run = TypedRun.sync { instance, input in try body(unsafeDowncast(instance, to: Target.self), KeyedInput.cast(input)) }
        let direct = TypedBody<Input, Output> { instance, input in try body(unsafeDowncast(instance, to: Target.self), input) }
        self.init(
            name: key.action, summary: summary, localOnly: localOnly,
            body: .sync { target, params in try KeyedInput.encode(try body(target, try KeyedInput.decode(Input.self, from: params))) },
            contract: KeyedInput.contract(for: key, run: run, direct: direct))
    }

    /// An async action a key names: as the synchronous form, and its body may `await`.
    ///
    /// ```swift
    /// Action<Target_Notes>(.notesExport) { notes, request async throws in
    ///     try await notes.export(request)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: the key: its action name becomes this action's name.
    ///   - summary: a one-line description, shown by listings.
    ///   - localOnly: refuse the action to remote (URL) calls.
    ///   - body: the action; only the async entry points run it.
    @_disfavoredOverload
    public init<Input, Output>(
        _ key: ActionKey<Input, Output>,
        summary: String? = nil,
        localOnly: Bool = false,
        _ body: @escaping @Sendable (Target, Input) async throws -> Output
    ) {
        let run = TypedRun.async { instance, input in try await body(unsafeDowncast(instance, to: Target.self), KeyedInput.cast(input)) }
        self.init(
            name: key.action, summary: summary, localOnly: localOnly,
            body: .async { target, params in try KeyedInput.encode(try await body(target, try KeyedInput.decode(Input.self, from: params))) },
            contract: KeyedInput.contract(for: key, run: run))
    }
}

extension Action where Target: MainActorTarget {
    /// The action a key names, of a main-actor target: its body runs on the main actor.
    ///
    /// ```swift
    /// Action<Target_Profile>(.profileRename) { screen, request in screen.rename(request) }
    /// ```
    ///
    /// - Parameters:
    ///   - key: the key: its action name becomes this action's name.
    ///   - summary: a one-line description, shown by listings.
    ///   - localOnly: refuse the action to remote (URL) calls.
    ///   - body: the action, run on the main actor.
    public init<Input, Output>(
        _ key: ActionKey<Input, Output>,
        summary: String? = nil,
        localOnly: Bool = false,
        _ body: @escaping @MainActor @Sendable (Target, Input) throws -> Output
    ) {
        let run = TypedRun.mainActor { @MainActor instance, input in try body(unsafeDowncast(instance, to: Target.self), KeyedInput.cast(input)) }
        self.init(
            name: key.action, summary: summary, localOnly: localOnly,
            body: .mainActor { @MainActor target, params in try KeyedInput.encode(try body(target, try KeyedInput.decode(Input.self, from: params))) },
            contract: KeyedInput.contract(for: key, run: run))
    }

    /// An async action a key names, of a main-actor target.
    ///
    /// - Parameters:
    ///   - key: the key: its action name becomes this action's name.
    ///   - summary: a one-line description, shown by listings.
    ///   - localOnly: refuse the action to remote (URL) calls.
    ///   - body: the action, run on the main actor; only the async entry points run it.
    public init<Input, Output>(
        _ key: ActionKey<Input, Output>,
        summary: String? = nil,
        localOnly: Bool = false,
        _ body: @escaping @MainActor @Sendable (Target, Input) async throws -> Output
    ) {
        let run = TypedRun.async { instance, input in try await body(unsafeDowncast(instance, to: Target.self), KeyedInput.cast(input)) }
        self.init(
            name: key.action, summary: summary, localOnly: localOnly,
            body: .async { target, params in try KeyedInput.encode(try await body(target, try KeyedInput.decode(Input.self, from: params))) },
            contract: KeyedInput.contract(for: key, run: run))
    }
}

/// The conversions between a keyed action's types and plain values.
enum KeyedInput {
    /// The typed input. Safe: the mediator passes a typed input only after checking that its
    /// dynamic type is exactly the key's `Input` (``KeyedImplementation/inputType``); any other
    /// caller goes through params and ``decode(_:from:)``.
    @inline(__always)
    static func cast<Input>(_ input: any Sendable) -> Input {
        input as! Input
    }

    /// Params decoded into the input type; a failure names the parameter at fault.
    static func decode<Input: Decodable>(_ type: Input.Type, from params: Params) throws(MediatorError) -> Input {
        do {
            return try ValueDecoder.decode(Input.self, from: params)
        } catch {
            guard let parameter = error.path.first?.stringValue else {
                throw MediatorError(.invalidParameter, reason: "invalid parameters for \(typeName(Input.self)): \(error.message)")
            }
            throw MediatorError(
                .invalidParameter, parameter: parameter,
                reason: "invalid parameter \"\(MediatorError.shortened(parameter))\": \(error.message) (decoding \(typeName(Input.self)))")
        }
    }

    /// A result encoded to plain values, for callers by name, URL or command line.
    static func encode<Output: Encodable>(_ output: Output) throws(MediatorError) -> (any Sendable)? {
        do {
            return try ValueEncoder.encode(output)
        } catch {
            throw MediatorError(.actionFailed, underlying: error, reason: "its result (\(typeName(Output.self))) cannot be encoded to plain values: \(error)")
        }
    }

    /// A keyed action's contract: parameters from `Input`, the result from `Output`.
    static func contract<Input, Output>(for key: ActionKey<Input, Output>, run: TypedRun, direct: TypedBody<Input, Output>? = nil) -> ActionContract {
        ActionContract(
            parameters: SchemaReader.parameters(of: Input.self).checked,
            result: SchemaReader.type(of: Output.self),
            policy: nil,
            keyed: KeyedImplementation(
                keyTarget: key.target, inputType: ObjectIdentifier(Input.self), outputType: ObjectIdentifier(Output.self),
                inputTypeName: typeName(Input.self), outputTypeName: typeName(Output.self),
                inputDeclaresParameters: Input.self is any DeclaresParameters.Type,
                decodedParameters: { SchemaReader.decodedParameters(of: Input.self) },
                decode: { params throws(MediatorError) in try decode(Input.self, from: params) },
                // The force cast is safe: only this key's typed body produces what is encoded here.
                encode: { output throws(MediatorError) in try encode(output as! Output) }, run: run, direct: direct))
    }
}
