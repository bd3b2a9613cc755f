/// Something a module needs another module to provide, checked at start-up by
/// ``Mediator/verify()``: a typed key, or an action by name with the params it sends.
///
/// ```swift
/// // in the Feed module, which calls Notes without importing it:
/// mediator.require([
///     .action(.notesCreate),
///     .action(target: "Accounts", action: "login", params: [.required("user", .string)], result: .string),
/// ], by: "Feed")
/// ```
public struct Requirement: Sendable, CustomStringConvertible {
    /// The target required.
    public let target: String
    /// The action required.
    public let action: String
    /// The params the call carries when it reaches the action: those the requiring module sends,
    /// and those an interceptor adds on the way; `nil` when it does not say (the types are not
    /// compared).
    public let parameters: [Parameter]?
    /// The result type the requiring module reads; `nil` when it does not say.
    public let result: ParameterType?
    /// The key's input and output types, for a key.
    let key: (input: ObjectIdentifier, output: ObjectIdentifier, inputName: String, outputName: String)?

    /// The action a typed key names, with the key's types: the provider must register that action
    /// with parameters and result of the same shape (best: against the same key).
    ///
    /// - Parameter key: the key.
    /// - Returns: the requirement.
    public static func action<Input, Output>(_ key: ActionKey<Input, Output>) -> Requirement {
        Requirement(
            target: key.target, action: key.action, parameters: SchemaReader.parameters(of: Input.self).checked,
            result: SchemaReader.type(of: Output.self),
            key: (ObjectIdentifier(Input.self), ObjectIdentifier(Output.self), typeName(Input.self), typeName(Output.self)))
    }

    /// An action by name; with `params`, the params the call carries when it reaches the action
    /// (every one the action requires must be among them, each of the declared type), and with
    /// `result` the type it reads.
    ///
    /// A param that an interceptor adds on the way (a session token) belongs in `params` too:
    /// ``Mediator/verify()`` cannot read an interceptor's code, so it reports a required param
    /// left out, naming the interceptors in the call's way, and checks the type of one listed.
    ///
    /// ```swift
    /// // Feed sends "title"; the app's RequireToken interceptor adds "token" to every Notes call.
    /// .action(target: "Notes", action: "create", params: [.required("title", .string), .required("token", .string)])
    /// ```
    ///
    /// - Parameters:
    ///   - target: the target's name, short or full.
    ///   - action: the action's name, short or full.
    ///   - params: the params sent (and added by interceptors), if the types should be checked.
    ///   - result: the result type read, if it should be checked.
    /// - Returns: the requirement.
    public static func action(target: String, action: String, params: [Parameter]? = nil, result: ParameterType? = nil) -> Requirement {
        Requirement(target: target, action: action, parameters: params, result: result, key: nil)
    }

    /// `Notes/create`.
    public var description: String { "\(target)/\(action)" }
}

/// One thing ``Mediator/verify()`` found wrong, as a sentence a person can act on.
public struct ContractProblem: Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The kind's name.
        public let rawValue: String
        /// A kind called `rawValue`.
        ///
        /// - Parameter rawValue: the kind's name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The kind's name.
        public var description: String { rawValue }

        /// A required target is not registered.
        public static let missingTarget = Kind(rawValue: "missingTarget")
        /// A required action is not registered.
        public static let missingAction = Kind(rawValue: "missingAction")
        /// A required action's declared params or result do not match what the requirement sends or reads.
        public static let typeMismatch = Kind(rawValue: "typeMismatch")
        /// A required action declares no params (or result) to compare with the requirement.
        public static let undeclared = Kind(rawValue: "undeclared")
        /// An action's declared params contradict each other (a default of the wrong type, a
        /// required param with a default, bounds the wrong way round, an input type whose
        /// declared params disagree with its conformance). A name declared twice is refused at
        /// registration instead (``MediatorError/Code/duplicateParameter``).
        public static let contradictoryParameters = Kind(rawValue: "contradictoryParameters")
        /// A name breaks the naming rules (a requirement's target or action, a param's name, a
        /// key registered under another target).
        public static let invalidName = Kind(rawValue: "invalidName")
    }

    /// The kind of problem.
    public let kind: Kind
    /// The target concerned.
    public let target: String?
    /// The action concerned.
    public let action: String?
    /// The problem in words, with what to do about it.
    public let message: String

    /// `Notes/create: ...`, one line.
    public var description: String {
        switch (target, action) {
        case (let target?, let action?): "\(oneLine(target, limit: 100))/\(oneLine(action, limit: 100)): \(message)"
        case (let target?, nil): "\(oneLine(target, limit: 100)): \(message)"
        default: message
        }
    }
}
