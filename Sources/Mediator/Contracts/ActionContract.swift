/// What an action declared beyond its body: its parameters, its result, its policy for undeclared
/// params, and (for an action registered against an ``ActionKey``) its typed body. Immutable; a
/// class so a call copies one reference out of the registry's lock.
@usableFromInline
final class ActionContract: Sendable {
    /// The declared parameters; `nil` when the action declared none (its params are not checked).
    let parameters: [Parameter]?
    let result: ParameterType?
    /// `nil`: the mediator's policy.
    let policy: UndeclaredParameterPolicy?
    let keyed: KeyedImplementation?
    /// What the action declared it does beyond returning its result; `nil` when it declared nothing.
    let effects: ActionEffects?
    /// Whether a typed input of the key's own type is passed to the keyed body as it is: its type
    /// guarantees everything declared, unless the declaration says more than the type can (a
    /// bound, `integer(minimum:maximum:)`, or a default for an optional field, at any depth). Such an input is
    /// checked as params first, with defaults filled in, on every path, observed or not (the
    /// keyed fast paths are then off: ``KeyedImplementation/direct`` is `nil`).
    let passesTypedInputAsIs: Bool
    /// The names in declaration order, for the linear scan of the quick check.
    private let names: ContiguousArray<String>
    /// The same names, for finding undeclared params.
    private let declaredNames: Set<String>
    /// Whether no two declared names are equal as `String`s (a precomposed and a decomposed `é`
    /// are): only then does the quick check look for a param's name just after the last one
    /// found, since otherwise which declaration a param matches would depend on the params' order.
    private let namesAreDistinct: Bool
    /// For each parameter, the one Swift type whose values it accepts as they are (`String` for a
    /// string, `Int` for an unbounded integer, ...); `nil` where values must be checked further.
    private let exactTypes: ContiguousArray<ObjectIdentifier?>
    /// Bit `i` set when parameter `i` is required (for up to 64 parameters).
    private let requiredMask: UInt64
    private let allMask: UInt64
    /// Whether some optional parameter has a default to fill in.
    private let hasDefaults: Bool

    init(parameters: [Parameter]?, result: ParameterType?, policy: UndeclaredParameterPolicy?, keyed: KeyedImplementation?, effects: ActionEffects? = nil) {
        let parameters = parameters?.map { $0.withDefaultConverted }
        self.parameters = parameters
        self.result = result
        self.policy = policy
        self.effects = effects
        let declared = parameters ?? []
        let saysMoreThanTypes = declared.contains(where: \.saysMoreThanSwiftTypes)
        var keyed = keyed
        if saysMoreThanTypes { keyed?.direct = nil }
        self.keyed = keyed
        passesTypedInputAsIs = !saysMoreThanTypes
        names = ContiguousArray(declared.map(\.name))
        exactTypes = ContiguousArray(declared.map { $0.type.exactType })
        var required: UInt64 = 0
        for (index, parameter) in declared.prefix(64).enumerated() where parameter.isRequired { required |= 1 << UInt64(index) }
        requiredMask = required
        allMask = declared.count >= 64 ? .max : (1 << UInt64(declared.count)) - 1
        hasDefaults = declared.contains { $0.defaultValue != nil }
        declaredNames = Set(declared.map(\.name))
        namesAreDistinct = declaredNames.count == declared.count
    }

    /// The contract of a plain action; `nil` when it declared neither parameters nor result.
    @usableFromInline
    convenience init?(declaring parameters: [Parameter]?, result: ParameterType?) {
        guard parameters != nil || result != nil else { return nil }
        self.init(parameters: parameters, result: result, policy: nil, keyed: nil)
    }

    /// The same contract with another undeclared-params policy.
    func with(policy: UndeclaredParameterPolicy) -> ActionContract {
        ActionContract(parameters: parameters, result: result, policy: policy, keyed: keyed, effects: effects)
    }

    /// The same contract with declared effects.
    func with(effects: ActionEffects) -> ActionContract {
        ActionContract(parameters: parameters, result: result, policy: policy, keyed: keyed, effects: effects)
    }

    // MARK: Validation

    /// The names in `params` that the action did not declare, with a value (a `nil` value counts as
    /// absent). The keys a routed call's params carry for every action (`@route`, `@url`, ...)
    /// are never undeclared: no action has to declare them.
    func undeclaredNames(in params: Params) -> [String] {
        guard parameters != nil else { return [] }
        return params.values.compactMap { key, value in
            !declaredNames.contains(key) && !URLRoute.reservedKeys.contains(key) && !isNil(value) ? key : nil
        }
    }

    /// `params` with only what the action declared (and the keys every routed call carries): what
    /// a URL call's action gets under the default policy. The same params when nothing is to go.
    func droppingUndeclared(from params: Params) -> Params {
        let names = undeclaredNames(in: params)
        guard !names.isEmpty else { return params }
        var values = params.values
        for name in names { values[name] = nil }
        return Params(values)
    }

    /// `params` checked against the declared parameters: text converted to the declared types,
    /// defaults filled in; or the first problem, in declaration order (then undeclared params, by
    /// name), so that the same input gives the same error whichever way it came.
    ///
    /// Params that are fine as they are (``acceptsQuickly(_:passUndeclared:)``, the common
    /// in-process case) are returned without a copy; everything else is checked in order.
    /// Undeclared params are refused when `refuseUndeclared`, else passed on as they are.
    func validate(_ params: Params, refuseUndeclared: Bool, target: String, action: String) -> Result<Params, MediatorError> {
        guard let parameters, !acceptsQuickly(params, passUndeclared: !refuseUndeclared) else { return .success(params) }
        var values = params.values
        do throws(MediatorError) {
            try Self.check(&values, against: parameters, path: "")
        } catch {
            return .failure(error.named(target: target, action: action))
        }
        if refuseUndeclared {
            if let key = undeclaredNames(in: params).min() {
                return .failure(
                    MediatorError(
                        .invalidParameter, target: target, action: action, parameter: key,
                        suggestion: Suggestions.closest(to: key, in: names.filter { params.values[$0] == nil }),
                        reason: "undeclared parameter \"\(MediatorError.shortened(key))\": the action takes \(Self.signature(of: parameters))"))
            }
        }
        return .success(Params(values))
    }

    /// Whether `params` are fine as they are: every value already exactly of its declared type,
    /// nothing required missing, no default to fill in, nothing undeclared unless `passUndeclared`;
    /// `false` otherwise (``validate(_:refuseUndeclared:target:action:)`` then checks in order). The hot
    /// path of a declared action: it compares names and type identities, no casts, no copies.
    @inline(__always)
    func acceptsQuickly(_ params: Params, passUndeclared: Bool) -> Bool {
        // A keyed action's params are decoded into its input before it runs: the general path.
        guard keyed == nil, let count = parameters?.count, count <= 64 else { return false }
        var seen: UInt64 = 0
        // Callers usually send params in declaration order: each name is first looked for just
        // after the last one found (with distinct names; else from the first, so that a param
        // always matches the first declaration its name equals).
        var next = 0
        let acceptable = params.allSatisfy { key, raw in
            var index = namesAreDistinct ? next : 0
            if index >= count || names[index] != key {
                index = 0
                while index < count && names[index] != key { index += 1 }
                guard index < count else { return passUndeclared }
            }
            next = index + 1
            guard let exact = exactTypes[index], storedType(of: raw) == exact else { return false }
            seen |= 1 << UInt64(index)
            return true
        }
        guard acceptable else { return false }
        return seen == allMask || (requiredMask & ~seen == 0 && !hasDefaults)
    }

    /// Checks and coerces `values` in place against `parameters`, in declaration order; nested
    /// objects are checked the same way, with dotted paths in messages.
    private static func check(_ values: inout [String: any Sendable], against parameters: [Parameter], path: String) throws(MediatorError) {
        for parameter in parameters {
            let name = path + parameter.name
            guard let raw = values[parameter.name], !isNil(raw) else {
                if parameter.isRequired {
                    throw MediatorError(
                        .invalidParameter, parameter: name,
                        reason: "missing required parameter \"\(MediatorError.shortened(name))\" (expected \(parameter.type))")
                }
                values[parameter.name] = parameter.defaultValue
                continue
            }
            switch parameter.type.coerce(raw) {
            case .accepted: break
            case .converted(let value): values[parameter.name] = value
            case .refused(let why):
                throw MediatorError(.invalidParameter, parameter: name, reason: "invalid parameter \"\(MediatorError.shortened(name))\": \(why)")
            }
            switch parameter.type.kind {
            case .object(let fields?):
                if var object = Self.dictionary(values[parameter.name]) {
                    try check(&object, against: fields, path: name + ".")
                    values[parameter.name] = object
                }
            case .array(let element):
                if case .object(let fields?) = element.kind, let items = values[parameter.name] as? [Any] {
                    var checked: [any Sendable] = []
                    for (index, item) in items.enumerated() {
                        guard var object = Self.dictionary(item) else { continue }
                        try check(&object, against: fields, path: name + ".[\(index)].")
                        checked.append(object)
                    }
                    if checked.count == items.count { values[parameter.name] = checked }
                }
            default:
                break
            }
        }
    }

    private static func dictionary(_ value: Any?) -> [String: any Sendable]? {
        switch value {
        case let params as Params: params.values
        case let dictionary as [String: any Sendable]: dictionary
        default: nil
        }
    }

    /// The parameters as a short list: `title, body?, tags?`.
    static func signature(of parameters: [Parameter]) -> String {
        parameters.isEmpty ? "no parameters" : parameters.map { $0.name + ($0.isRequired ? "" : "?") }.joined(separator: ", ")
    }
}

// MARK: - Names declared twice

extension ActionContract {
    /// The first name declared twice in one list (the action's parameters, or the fields of a
    /// declared object at any depth, in the parameters or the result): `place` as a message names
    /// it (`field "a" of parameter "o"`) and the top-level parameter at fault (`nil` in the
    /// result); `nil` when no list repeats a name. Names are compared by their bytes, as every
    /// name of the package is.
    ///
    /// Registration refuses such a declaration: a call's params hold one value per name, and a JSON
    /// Schema of the declaration would repeat the property and its required name.
    var repeatedDeclaration: (place: String, parameter: String?)? {
        if let parameters, let repeated = Self.firstRepeated(in: parameters) {
            return ("parameter \(Self.quoted(repeated.name))", repeated.name)
        }
        for parameter in parameters ?? [] {
            if let place = Self.repeatedField(in: parameter.type, at: "parameter \(Self.quoted(parameter.name))") { return (place, parameter.name) }
        }
        return result.flatMap { Self.repeatedField(in: $0, at: "the result") }.map { ($0, nil) }
    }

    /// Where in a value of `type` (found at `place`) an object's fields repeat a name, in words.
    private static func repeatedField(in type: ParameterType, at place: String) -> String? {
        switch type.kind {
        case .object(let fields?):
            if let repeated = firstRepeated(in: fields) { return "field \(quoted(repeated.name)) of \(place)" }
            for field in fields {
                if let found = repeatedField(in: field.type, at: "field \(quoted(field.name)) of \(place)") { return found }
            }
            return nil
        case .array(let element):
            return repeatedField(in: element, at: "the elements of \(place)")
        default:
            return nil
        }
    }

    /// The first entry of `list` whose name an earlier entry has, byte for byte (`==` would take
    /// NFC and NFD "café" for one name, where a JSON object has two keys).
    private static func firstRepeated(in list: [Parameter]) -> Parameter? {
        guard list.count > 1 else { return nil }
        var seen: Set<[UInt8]> = []
        return list.first { !seen.insert(Array($0.name.utf8)).inserted }
    }

    private static func quoted(_ name: String) -> String {
        "\"\(MediatorError.shortened(name))\""
    }
}

extension MediatorError {
    /// The error with the call's names, for an error built before they were known.
    func named(target: String, action: String) -> MediatorError {
        var error = self
        error.target = target
        error.action = action
        return error
    }
}

/// The type a value was stored with in its existential box: read from the box (the existential is
/// opened), where `type(of:)` asks the runtime for the dynamic type (a subclass, say). Exactly what
/// the quick check wants: a value stored as another type goes the careful way.
@inline(__always)
private func storedType<T>(of value: T) -> ObjectIdentifier {
    ObjectIdentifier(T.self)
}

extension Parameter {
    /// The parameter with its default converted to the declared type once (an `Int32` default of
    /// an integer becomes an `Int`), so the action reads a default as it reads a sent value; nested
    /// fields likewise. A default that does not fit stays as given, for `verify` to report.
    var withDefaultConverted: Parameter {
        var type = self.type
        if case .object(let fields?) = type.kind { type = ParameterType(.object(fields.map(\.withDefaultConverted))) }
        var value = defaultValue
        if let given = defaultValue, case .converted(let converted) = type.coerce(given) { value = converted }
        return Parameter(name: name, type: type, isRequired: isRequired, defaultValue: value, summary: summary)
    }
}
