import Mediator

/// What `describe` prints as text, and `perform <Target> <action> --help`: for each action a
/// usage line, its params, result, reach, typed key, and an example URL and command line.
///
/// ```
/// Notes/list: List notes
///   usage: mediate perform Notes list token=<string> [limit=<integer>]
///   params:
///     token: string, required - A session token
///     limit: integer (1...100), optional, default 20 - How many notes
///   result: array of object
///   reach: remote (URL calls allowed)
///   async: no
///   undeclared params: dropped from URLs, refused from the command line, passed on in-process
///   example URL: app://Notes/list?token=text&limit=20
///   example: mediate perform Notes list token=text limit=20
/// ```
///
/// Names and summaries are escaped as `list` rows are (`oneLine`, uncut).
struct DescriptionText {
    /// The program's name, as help writes it.
    let program: String
    /// Which URLs the mediator accepts: the example URL uses an allowed scheme, and there is none
    /// for a target the policy keeps out.
    let urlPolicy: URLPolicy

    /// Every target in `targets`, each with all its actions, separated by blank lines.
    func text(of targets: [TargetInfo]) -> String {
        guard !targets.isEmpty else { return "(no targets registered)" }
        return targets.map(text(of:)).joined(separator: "\n\n")
    }

    /// The target's line (as `list` shows it), then each action.
    func text(of target: TargetInfo) -> String {
        var blocks = ["\(shown(target.name)) (\(shown(target.fullName)))" + (target.summary.map { ": \(shown($0))" } ?? "")]
        blocks += target.actions.map { text(of: $0, in: target) }
        return blocks.joined(separator: "\n\n")
    }

    /// One action's description, with no blank line in it.
    func text(of action: ActionInfo, in target: TargetInfo) -> String {
        var lines = ["\(shown(target.name))/\(shown(action.name))" + (action.summary.map { ": \(shown($0))" } ?? "")]
        lines.append("  usage: " + usage(of: action, in: target))
        if let parameters = action.parameters {
            if parameters.isEmpty {
                lines.append("  params: none")
            } else {
                lines.append("  params:")
                lines += parameters.map { "    " + line(for: $0) }
            }
        } else {
            lines.append("  params: not declared")
        }
        lines.append("  result: " + (action.result.map { shown($0.description) } ?? "not declared"))
        lines.append("  reach: " + (action.isLocalOnly ? "local-only (URL calls are refused)" : "remote (URL calls allowed)"))
        lines.append("  async: " + (action.isAsync ? "yes" : "no"))
        if let key = action.keyTypes {
            lines.append("  typed key: ActionKey<\(shown(key.input)), \(shown(key.output))>")
        }
        if action.parameters != nil {
            lines.append("  undeclared params: " + policy(action.undeclaredParameters))
        }
        let example = ExampleCall(action.parameters ?? [])
        if let missing = example.inProcessOnly.first {
            let why = "none: \(quotedName(missing)) takes an in-process value"
            lines += ["  example URL: " + why, "  example: " + why]
        } else {
            lines.append("  example URL: " + exampleURL(of: action, in: target, example))
            lines.append("  example: " + ([program, "perform", target.name, action.name] + example.arguments).joined(separator: " "))
        }
        return lines.joined(separator: "\n")
    }

    // MARK: Parts

    /// `mediate perform Notes list token=<string> [limit=<integer>]`; `[key=value ...]` where
    /// params are not declared or undeclared ones are passed on.
    private func usage(of action: ActionInfo, in target: TargetInfo) -> String {
        var words = [program, "perform", shown(target.name), shown(action.name)]
        for parameter in action.parameters ?? [] {
            guard let placeholder = placeholder(for: parameter.type) else { continue }
            let word = shown(ExampleCall.commandLineKey(parameter.name)) + placeholder
            words.append(parameter.isRequired ? word : "[\(word)]")
        }
        if action.parameters == nil || action.undeclaredParameters == .ignored { words.append("[key=value ...]") }
        return words.joined(separator: " ")
    }

    /// `=<integer>`, `=<string>...` (repeat the key), `:=<object>` (JSON); `nil` for an in-process
    /// value, which no command line can send.
    private func placeholder(for type: ParameterType) -> String? {
        switch type.kind {
        case .string: "=<string>"
        case .integer: "=<integer>"
        case .number: "=<number>"
        case .boolean: "=<boolean>"
        case .array(let element):
            switch element.kind {
            case .string, .integer, .number, .boolean: placeholder(for: element).map { $0 + "..." }
            case .array, .object, .value: ":=<array>"
            }
        case .object: ":=<object>"
        case .value: nil
        }
    }

    /// `limit: integer (1...100), optional, default 20 - How many notes`.
    private func line(for parameter: Parameter) -> String {
        var text = shown(parameter.name) + ": " + shown(parameter.type.description) + (parameter.isRequired ? ", required" : ", optional")
        if let value = parameter.defaultValue { text += ", default " + shown(JSONValue(result: value).serialized) }
        if case .value = parameter.type.kind { text += ", in-process only" }
        if let summary = parameter.summary { text += " - " + shown(summary) }
        return text
    }

    private func policy(_ policy: UndeclaredParameterPolicy) -> String {
        switch policy {
        case .refused: "refused"
        case .ignored: "passed on to the action"
        case .refusedFromOutside: "refused from URLs and the command line, passed on in-process"
        default: "dropped from URLs, refused from the command line, passed on in-process"
        }
    }

    /// `app://Notes/list?token=text&limit=20`, in a scheme the URL policy allows, or why there is none.
    private func exampleURL(of action: ActionInfo, in target: TargetInfo, _ example: ExampleCall) -> String {
        if action.isLocalOnly { return "none: the action is local-only" }
        if let allowed = urlPolicy.allowedTargets, !allowed.contains(target.name) {
            return "none: the URL policy does not allow target \(quotedName(target.name))"
        }
        guard let query = example.query else { return "none: a required param is not text, a number or a boolean" }
        let scheme = urlPolicy.allowedSchemes?.sorted().first ?? "app"
        return "\(scheme)://\(target.name)/\(action.name)" + (query.isEmpty ? "" : "?" + query)
    }

    private func shown(_ text: String) -> String { oneLine(text, limit: .max) }

    private func quotedName(_ name: String) -> String { "\"" + shown(name) + "\"" }
}
