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
    /// mediator.require([
    ///     .action(target: "Notes", action: "create", params: [.required("title", .string), .required("token", .string)])
    /// ], by: "Feed")
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
