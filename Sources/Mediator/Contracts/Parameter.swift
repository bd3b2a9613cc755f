/// One declared parameter of an action: its name, type, whether it is required (or its default
/// when not), and a one-line description.
///
/// ```swift
/// Action<Target_Notes>(
///     "list", summary: "List notes",
///     params: [
///         .required("token", .string, "A session token"),
///         .optional("limit", .integer(minimum: 1, maximum: 100), default: 20, "How many notes"),
///     ]
/// ) { notes, params in
///     try notes.list(token: params.value("token"), limit: params.value("limit"), tags: [])
/// }
/// ```
///
/// Before the action runs, the mediator checks every declared parameter, converts text to the
/// declared type, and fills in defaults; the action reads the params as usual
/// (`params.value("limit", as: Int.self)`). See <doc:ContractsAndTypedKeys>.
public struct Parameter: Sendable, Equatable, CustomStringConvertible {
    /// The key the caller uses.
    public let name: String
    /// What the value must be.
    public let type: ParameterType
    /// Whether a call without it is refused.
    public let isRequired: Bool
    /// The value an optional parameter takes when absent (`nil`: it stays absent).
    public let defaultValue: (any Sendable)?
    /// A one-line description, shown by descriptions and help.
    public let summary: String?

    /// A parameter every call must send.
    ///
    /// - Parameters:
    ///   - name: the key.
    ///   - type: what the value must be.
    ///   - summary: a one-line description.
    /// - Returns: the declaration.
    public static func required(_ name: String, _ type: ParameterType, _ summary: String? = nil) -> Parameter {
        Parameter(name: name, type: type, isRequired: true, defaultValue: nil, summary: summary)
    }

    /// A parameter a call may leave out; when absent the action sees `defaultValue` (if any).
    ///
    /// - Parameters:
    ///   - name: the key.
    ///   - type: what the value must be when sent.
    ///   - defaultValue: the value used when the call leaves it out; must itself be of `type`
    ///     (``Mediator/verify()`` reports one that is not).
    ///   - summary: a one-line description.
    /// - Returns: the declaration.
    public static func optional(_ name: String, _ type: ParameterType, default defaultValue: (any Sendable)? = nil, _ summary: String? = nil)
        -> Parameter
    {
        Parameter(name: name, type: type, isRequired: false, defaultValue: defaultValue, summary: summary)
    }

    init(name: String, type: ParameterType, isRequired: Bool, defaultValue: (any Sendable)?, summary: String?) {
        self.name = name
        self.type = type
        self.isRequired = isRequired
        if let defaultValue, !isNil(defaultValue) { self.defaultValue = defaultValue } else { self.defaultValue = nil }
        self.summary = summary
    }

    /// `name: type`, with `?` for an optional parameter and its default: `limit?: integer = 20`.
    public var description: String {
        var text = name + (isRequired ? "" : "?") + ": \(type)"
        if let defaultValue { text += " = " + Self.text(of: defaultValue, limit: 40) }
        return text
    }

    /// Equal when every field is; defaults compare by type and by their text (plain values as
    /// JSON with sorted keys).
    ///
    /// - Parameters:
    ///   - lhs: one value.
    ///   - rhs: the other.
    public static func == (lhs: Parameter, rhs: Parameter) -> Bool {
        lhs.name == rhs.name && lhs.type == rhs.type && lhs.isRequired == rhs.isRequired && lhs.summary == rhs.summary
            && sameDefault(lhs.defaultValue, rhs.defaultValue)
    }

    /// A default as text that does not depend on the order a dictionary keeps its keys in: plain
    /// values as JSON (keys sorted), anything else as Swift describes it.
    private static func text(of value: any Sendable, limit: Int) -> String {
        guard let tree = JSONTree(plain: value) else { return describe(value, limit: limit) }
        return oneLine(tree.compact, limit: limit)
    }

    private static func sameDefault(_ lhs: (any Sendable)?, _ rhs: (any Sendable)?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let lhs?, let rhs?): Swift.type(of: lhs) == Swift.type(of: rhs) && text(of: lhs, limit: .max) == text(of: rhs, limit: .max)
        default: false
        }
    }
}

/// What happens to params an action with declared parameters did not declare.
///
/// ```swift
/// let mediator = Mediator(undeclaredParameters: .refused)   // strict everywhere
/// Action<Target_Notes>("get", params: [.required("id", .integer)]) { notes, params in
///     try notes.get(id: params.value("id"))
/// }
///     .undeclaredParameters(.ignored)                         // except this action
/// ```
public struct UndeclaredParameterPolicy: Sendable, Hashable, CustomStringConvertible {
    enum Rule: Sendable, Hashable { case droppedFromURLs, refusedFromOutside, refused, ignored }
    let rule: Rule

    /// The default: from a URL call (or a route), the action gets only the params it declared;
    /// the others (the `utm_source`, `fbclid` or `ref` a link picks up on its way, and any a caller
    /// gave with the URL or an interceptor added) are dropped, and the call goes on. Observers
    /// still see the params as the call asked them. Refused from the command line, where they
    /// are a typing mistake; passed on as they are for in-process calls, which may add values
    /// such as callbacks.
    public static let droppedFromURLs = UndeclaredParameterPolicy(rule: .droppedFromURLs)
    /// Refused for URL and command-line calls, passed on as they are for in-process calls: the
    /// strict choice for an action whose links are made only by the app itself.
    public static let refusedFromOutside = UndeclaredParameterPolicy(rule: .refusedFromOutside)
    /// Refused for every caller: a call with a param the action did not declare fails with
    /// ``MediatorError/Code/invalidParameter``.
    public static let refused = UndeclaredParameterPolicy(rule: .refused)
    /// Passed on to the action as they are, for every caller.
    public static let ignored = UndeclaredParameterPolicy(rule: .ignored)

    /// `droppedFromURLs`, `refusedFromOutside`, `refused` or `ignored`.
    public var description: String {
        switch rule {
        case .droppedFromURLs: "droppedFromURLs"
        case .refusedFromOutside: "refusedFromOutside"
        case .refused: "refused"
        case .ignored: "ignored"
        }
    }

    /// What a call from `origin` does with an undeclared param: the one place the policy is read.
    func handling(for origin: CallOrigin) -> UndeclaredHandling {
        switch (rule, origin) {
        case (.ignored, _), (.droppedFromURLs, .inProcess), (.refusedFromOutside, .inProcess): .passed
        case (.droppedFromURLs, .url): .dropped
        default: .refused
        }
    }
}

/// What one call does with the params its action did not declare.
enum UndeclaredHandling {
    /// Given to the action as they are.
    case passed
    /// Left out of what the action gets; the call goes on.
    case dropped
    /// The call fails with `invalidParameter`, naming the first of them.
    case refused
}
