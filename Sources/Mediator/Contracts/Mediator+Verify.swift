// MARK: - Requirements and verify()

extension Mediator {
    /// Records what `module` needs other modules to provide, for ``verify()`` to check.
    ///
    /// ```swift
    /// mediator.require(NotesRequirements.all, by: "NotesMediator")
    /// ```
    ///
    /// - Parameters:
    ///   - requirements: the actions needed (typed keys, or names with the params sent).
    ///   - module: who needs them, named in problems.
    public func require(_ requirements: [Requirement], by module: String) {
        state.withLock { registry in registry.requirements += requirements.map { (module, $0) } }
    }

    /// Checks the registry as a start-up check: every requirement has a provider whose declared
    /// types match, no action declares contradictory params, and every name follows the rules.
    /// Runs nothing (no factory, no action, no interceptor). (A name declared twice never gets
    /// this far: registration refuses it with ``MediatorError/Code/duplicateParameter``.)
    ///
    /// ```swift
    /// let problems = mediator.verify()
    /// precondition(problems.isEmpty, problems.map(\.description).joined(separator: "\n"))
    /// ```
    ///
    /// A requirement is met where its calls go: a redirect (``RedirectTable``) to a registered
    /// action meets it, and the requirement's params and result are compared with that action's.
    /// A degradation does not: the required action is reported missing, with where its calls
    /// degrade meanwhile (the fallback gets the failure, not the requirement's params).
    ///
    /// Interceptors are code that verify cannot read: a param an interceptor adds on the way (a
    /// session token) is not known to be sent. List such a param in the requirement's params
    /// (``Requirement/action(target:action:params:result:)``), which then describe the call as it
    /// reaches the action, and verify checks its type. A required param the requirement leaves
    /// out is reported, and when interceptors stand in the call's way the problem names them.
    ///
    /// Each problem is a ``MediatorError`` whose ``MediatorError/reason`` says what to do, and
    /// whose code says what kind of problem it is:
    ///
    /// | Code | Problem |
    /// |---|---|
    /// | ``MediatorError/Code/targetNotFound`` | a required target is not registered |
    /// | ``MediatorError/Code/actionNotFound`` | a required action is not registered, or its redirects never reach an action |
    /// | ``MediatorError/Code/invalidParameter`` | the params a requirement sends do not match those the action declares, or an action's declared params or result contradict each other |
    /// | ``MediatorError/Code/resultTypeMismatch`` | the result a requirement reads does not match the one the action declares |
    /// | ``MediatorError/Code/undeclaredContract`` | a requirement sends typed params or reads a typed result, and the action declares none |
    /// | ``MediatorError/Code/invalidName`` | a requirement's name, a param's name, or a key registered under another target |
    ///
    /// - Returns: every problem found, sorted by target and action; empty when all is well.
    public func verify() -> [MediatorError] {
        let (definitions, requirements, interception) = state.withReadLock { registry in
            (registry.slots.values.map(\.definition), registry.requirements, registry.interception)
        }
        var problems: [MediatorError] = []
        for definition in definitions {
            for action in definition.actions.values {
                problems += Verification.problems(of: action, in: definition.name)
            }
        }
        let byName = Dictionary(definitions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for (module, requirement) in requirements {
            problems += Verification.problems(of: requirement, by: module, in: byName, interception: interception) { target, action in
                plan(target: target, action: action, remote: false)
            }
        }
        return problems.sorted { ($0.target ?? "", $0.action ?? "", $0.reason) < ($1.target ?? "", $1.action ?? "", $1.reason) }
    }
}

/// The checks of ``Mediator/verify()``.
enum Verification {
    // MARK: Declarations

    static func problems(of action: RegisteredAction, in target: String) -> [MediatorError] {
        guard let contract = action.contract else { return [] }
        var found: [String] = []
        func invalid(_ code: MediatorError.Code, _ message: String) -> MediatorError {
            MediatorError(code, target: target, action: action.name, reason: message)
        }
        var problems: [MediatorError] = []
        for parameter in contract.parameters ?? [] {
            if let problem = nameProblem(parameter.name) {
                problems.append(
                    invalid(.invalidName, "parameter name \(describe(parameter.name, limit: 60)) \(problem); use letters, digits, \"_\", \"-\" or \".\""))
            }
            found += declarationProblems(of: parameter)
        }
        if let result = contract.result { found += typeProblems(result, at: "the result") }
        if let keyed = contract.keyed {
            if Names.canonical(keyed.keyTarget, as: .target) != target {
                problems.append(
                    invalid(
                        .invalidName,
                        "registered against a key for target \(describe(keyed.keyTarget, limit: 60)); register it under that target, or declare a key for \"\(target)\""
                    ))
            }
            let reading = keyed.decodedParameters()
            if let problem = reading.problem { found.append(problem) }
            if keyed.inputDeclaresParameters, let decoded = reading.parameters {
                found += disagreements(declared: contract.parameters ?? [], decoded: decoded, input: keyed.inputTypeName)
            }
        }
        return problems + found.map { invalid(.invalidParameter, $0) }
    }

    /// Why a parameter name breaks the rules (it must travel in URLs and command lines), or `nil`.
    /// The first offending character is named whole (``describe(character:)``), never one byte of it.
    static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.utf8.count > 100 { return "is longer than 100 bytes" }
        if let character = name.first(where: { !$0.utf8.allSatisfy(Names.isNameByte) }) {
            return "contains \(describe(character: character))"
        }
        return nil
    }

    private static func declarationProblems(of parameter: Parameter, at place: String? = nil) -> [String] {
        let place = place ?? "parameter \"\(parameter.name)\""
        var problems = typeProblems(parameter.type, at: place)
        if parameter.isRequired && parameter.defaultValue != nil {
            problems.append("\(place) is required and has a default; make it optional or drop the default")
        }
        if let value = parameter.defaultValue, case .refused(let why) = parameter.type.coerce(value) {
            problems.append("the default of \(place) does not fit its type (\(why)); fix the default or the type")
        }
        return problems
    }

    private static func typeProblems(_ type: ParameterType, at place: String) -> [String] {
        switch type.kind {
        case .integer(let minimum?, let maximum?) where minimum > maximum:
            return ["\(place) has a minimum (\(minimum)) above its maximum (\(maximum)); swap them"]
        case .number(let minimum, let maximum) where !(minimum?.isFinite ?? true) || !(maximum?.isFinite ?? true):
            return ["\(place) has a bound that is not a finite number; leave it out (nil) for no bound"]
        case .number(let minimum?, let maximum?) where minimum > maximum:
            return ["\(place) has a minimum (\(minimum)) above its maximum (\(maximum)); swap them"]
        case .array(let element):
            return typeProblems(element, at: "the elements of \(place)")
        case .object(let fields?):
            // A field declared twice is refused at registration (``MediatorError/Code/duplicateParameter``).
            return fields.flatMap { declarationProblems(of: $0, at: "field \"\($0.name)\" of \(place)") }
        default:
            return []
        }
    }

    /// Where an input type's own declaration disagrees with what its conformance decodes.
    private static func disagreements(declared: [Parameter], decoded: [Parameter], input: String) -> [String] {
        var problems: [String] = []
        let paired = pairedByName(decoded, with: declared)
        for (field, parameter) in paired.pairs {
            switch parameter {
            case nil:
                problems.append("\(input) decodes \"\(field.name)\" (\(field.type)) but does not declare it; add it to \(input).parameters")
            case let parameter? where !sameBase(parameter.type, field.type):
                problems.append("\(input) declares \"\(field.name)\" as \(parameter.type) but decodes it as \(field.type); make them agree")
            case let parameter? where field.isRequired && !parameter.isRequired && parameter.defaultValue == nil:
                problems.append("\(input) declares \"\(field.name)\" optional without a default but decoding requires it; make it required or give a default")
            default:
                break
            }
        }
        for parameter in paired.unnamed {
            problems.append("\(input) declares \"\(parameter.name)\" but never decodes it; remove it or decode it")
        }
        return problems
    }

    /// Each of `parameters` with the one of `declared` that has its name (or `nil`), and the
    /// declared ones that no parameter names: how both comparisons with a declaration (what an
    /// input type decodes, what a requirement sends) pair the two lists.
    private static func pairedByName(
        _ parameters: [Parameter], with declared: [Parameter]
    ) -> (pairs: [(Parameter, declared: Parameter?)], unnamed: [Parameter]) {
        let pairs = parameters.map { parameter in (parameter, declared: declared.first(where: { $0.name == parameter.name })) }
        let unnamed = declared.filter { declared in !parameters.contains(where: { $0.name == declared.name }) }
        return (pairs, unnamed)
    }

    // MARK: Requirements

    /// The problems of one requirement, checked where its calls go (`plan`, the call's own plan:
    /// the redirect table followed hop by hop, then a degradation).
    static func problems(
        of requirement: Requirement, by module: String, in definitions: [String: TargetDefinition], interception: Interception?,
        plan: (_ target: String, _ action: String) -> CallPlan
    ) -> [MediatorError] {
        func problem(_ code: MediatorError.Code, _ message: String, target: String? = nil, action: String? = nil) -> MediatorError {
            MediatorError(code, target: target ?? requirement.target, action: action ?? requirement.action, reason: message)
        }
        guard let targetName = Names.canonical(requirement.target, as: .target) else {
            let why = Names.problem(with: requirement.target, as: .target) ?? "not a valid name"
            return [problem(.invalidName, "\(module) requires a target with an invalid name: \(why); fix the requirement")]
        }
        guard let actionName = Names.canonical(requirement.action, as: .action) else {
            let why = Names.problem(with: requirement.action, as: .action) ?? "not a valid name"
            return [problem(.invalidName, "\(module) requires an action with an invalid name: \(why); fix the requirement", target: targetName)]
        }
        func required(_ code: MediatorError.Code, _ message: String) -> MediatorError {
            problem(code, message, target: targetName, action: actionName)
        }
        let route = plan(targetName, actionName)
        let reached: (target: String, action: String)
        var fallback: String?
        switch route.end {
        case .refused(let error):
            // A route too long to follow, or a degradation's hop that comes round (an in-process
            // plan meets no URL rule).
            return [required(.actionNotFound, "\(module) requires it, but its redirects never reach an action: \(error.reason); fix the redirect table")]
        case .missing(let target, let action):
            reached = route.degradedFrom ?? (target, action)
        case .action(let target, let found):
            if let failed = route.degradedFrom {
                reached = failed
                fallback = "\(target)/\(found.name)"
                break
            }
            let redirect = (target, found.name) == (targetName, actionName) ? "" : "redirected to \(target)/\(found.name): "
            let interceptors = interception?.chain(target: target, action: found.name).map(\.interceptor.name) ?? []
            return messages(of: requirement, by: module, for: found.contract, interceptors: interceptors).map { required($0.0, redirect + $0.1) }
        }
        // The action the calls reach is missing (a degradation is a fallback for failures, not a
        // provider: its fallback gets the failure, not the requirement's params).
        let redirected = reached != (targetName, actionName)
        let redirect = redirected ? "redirected to \(reached.target)/\(reached.action): " : ""
        let orFixTheRedirect = redirected ? " or fix the redirect" : ""
        let meanwhile = fallback.map { " (meanwhile its calls degrade to \($0))" } ?? ""
        guard let definition = definitions[reached.target] else {
            let suggestion = Suggestions.closest(to: reached.target, in: definitions.keys).map { " (did you mean \"\($0)\"?)" } ?? ""
            return [
                required(
                    .targetNotFound,
                    "\(redirect)\(module) requires it, but no target \"\(reached.target)\" is registered\(suggestion); register Target_\(reached.target)"
                        + orFixTheRedirect + meanwhile)
            ]
        }
        let suggestion = Suggestions.closest(to: reached.action, in: definition.actions.keys).map { " (did you mean \"\($0)\"?)" } ?? ""
        return [
            required(
                .actionNotFound,
                "\(redirect)\(module) requires it, but target \"\(reached.target)\" has no action \"\(reached.action)\"\(suggestion); add the action"
                    + orFixTheRedirect + meanwhile)
        ]
    }

    /// What is wrong between a requirement and the contract of the action its calls reach, whose
    /// chain holds `interceptors` (by name, in order).
    private static func messages(
        of requirement: Requirement, by module: String, for contract: ActionContract?, interceptors: [String]
    ) -> [(MediatorError.Code, String)] {
        if let key = requirement.key, let keyed = contract?.keyed, keyed.inputType == key.input, keyed.outputType == key.output {
            return []  // the same key's types: the compiler checked both sides.
        }
        var messages: [(MediatorError.Code, String)] = []
        if let sent = requirement.parameters {
            if let declared = contract?.parameters {
                messages += compare(sent: sent, declared: declared, interceptors: interceptors).map { (.invalidParameter, "\(module) \($0)") }
            } else {
                messages.append((.undeclaredContract, "\(module) requires it with typed params, but the action declares none; declare its params"))
            }
        }
        if let read = requirement.result {
            if let result = contract?.result {
                if let mismatch = resultMismatch(read: read, declared: result, at: "the result") {
                    messages.append((.resultTypeMismatch, "\(module) reads \(mismatch)"))
                }
            } else {
                messages.append((.undeclaredContract, "\(module) reads its result as \(read), but the action declares no result; declare it"))
            }
        }
        return messages
    }

    /// What is wrong between the params a requirement sends and those an action declares. A
    /// required param left out may be one that `interceptors` (the action's chain) add: verify
    /// cannot tell, so it is reported, naming them and how to say so.
    private static func compare(sent: [Parameter], declared: [Parameter], interceptors: [String]) -> [String] {
        var problems: [String] = []
        let orSayWhoAddsIt =
            interceptors.isEmpty
            ? ""
            : ", or, if interceptor \(alternatives(interceptors)) adds it on the way, list it in the requirement's params (verify cannot read interceptors)"
        let paired = pairedByName(sent, with: declared)
        for parameter in paired.unnamed where parameter.isRequired {
            problems.append("does not send \"\(parameter.name)\" (\(parameter.type)), which the action requires; send it\(orSayWhoAddsIt)")
        }
        for (parameter, match) in paired.pairs {
            guard let match else {
                problems.append("sends \"\(parameter.name)\", which the action does not declare; remove it or declare it")
                continue
            }
            if !accepts(match.type, parameter.type) {
                problems.append("sends \"\(parameter.name)\" as \(parameter.type), but the action declares \(match.type); make them agree")
            }
        }
        return problems
    }

    /// `"A"`, `"A" or "B"`, `"A", "B" or "C"`: each name once, quoted and on one line.
    private static func alternatives(_ names: [String]) -> String {
        var seen = Set<String>()
        let quoted = names.filter { seen.insert($0).inserted }.map { "\"\(oneLine($0, limit: 100))\"" }
        guard let last = quoted.last, quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " or " + last
    }

    /// Whether values of `sent` are accepted where `declared` is declared (bounds aside).
    private static func accepts(_ declared: ParameterType, _ sent: ParameterType) -> Bool {
        switch (declared.kind, sent.kind) {
        case (.number, .integer): true
        case (.array(let declared), .array(let sent)): accepts(declared, sent)
        case (.object, .object): true
        default: sameBase(declared, sent)
        }
    }

    /// Where a result read as `read` does not fit the declared result, in words; `nil` when it fits.
    private static func resultMismatch(read: ParameterType, declared: ParameterType, at place: String) -> String? {
        switch (read.kind, declared.kind) {
        case (.object(let wanted?), .object(let fields?)):
            for field in wanted {
                guard let match = fields.first(where: { $0.name == field.name }) else {
                    if field.isRequired { return "field \"\(field.name)\" of \(place), which the action's result does not declare; make them agree" }
                    continue
                }
                if field.isRequired && !match.isRequired {
                    return "field \"\(field.name)\" of \(place) as required, but the action's result may leave it out; make it optional"
                }
                if let mismatch = resultMismatch(read: field.type, declared: match.type, at: "field \"\(field.name)\"") { return mismatch }
            }
            return nil
        case (.object, .object): return nil
        case (.array(let wanted), .array(let element)): return resultMismatch(read: wanted, declared: element, at: "the elements of \(place)")
        case (.number, .integer): return nil
        default:
            return sameBase(read, declared) ? nil : "\(place) as \(read), but the action declares \(declared); make them agree"
        }
    }

    /// The same kind of value, bounds and fields aside.
    static func sameBase(_ lhs: ParameterType, _ rhs: ParameterType) -> Bool {
        switch (lhs.kind, rhs.kind) {
        case (.string, .string), (.integer, .integer), (.number, .number), (.boolean, .boolean), (.object, .object): true
        case (.array(let lhs), .array(let rhs)): sameBase(lhs, rhs)
        case (.value(_, let lhs), .value(_, let rhs)): lhs == rhs
        default: false
        }
    }
}
