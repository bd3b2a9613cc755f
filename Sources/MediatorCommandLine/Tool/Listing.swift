import Mediator

/// What `list` prints: targets with their actions, summaries, whether URLs may reach them, and
/// the params each declares.
struct Listing {
    let targets: [TargetInfo]

    var json: JSONValue {
        .object([
            "targets": .array(
                targets.map { target in
                    .object([
                        "name": .string(target.name),
                        "fullName": .string(target.fullName),
                        "summary": target.summary.map(JSONValue.string) ?? .null,
                        "actions": .array(
                            target.actions.map { action in
                                .object([
                                    "name": .string(action.name),
                                    "fullName": .string(action.fullName),
                                    "remote": .bool(!action.isLocalOnly),
                                    "summary": action.summary.map(JSONValue.string) ?? .null,
                                    "params": action.parameters.map { .array($0.map(Self.json(of:))) } ?? .null,
                                ])
                            }),
                    ])
                })
        ])
    }

    /// A declared param in `list --json`: name, type in words, required, and its default and
    /// description when it has them (`describe --json` gives the JSON Schema).
    private static func json(of parameter: Parameter) -> JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(parameter.name), "type": .string(parameter.type.description), "required": .bool(parameter.isRequired),
        ]
        if let value = parameter.defaultValue { object["default"] = JSONValue(result: value) }
        if let summary = parameter.summary { object["summary"] = .string(summary) }
        return .object(object)
    }

    /// ```
    /// Notes (Target_Notes): Notes: create, get, ...
    ///   create  Action_create  remote      Create a note (token, title, body?, tags?)
    /// ```
    ///
    /// The params in parentheses are the declared ones (`?` for optional), after the summary;
    /// an action that declares none shows its summary alone, as it always did.
    ///
    /// Names and summaries are the program's own, but each row is still escaped as error lines
    /// are (`oneLine`, uncut): a summary cannot break a row or drive the terminal.
    var text: String {
        guard !targets.isEmpty else { return "(no targets registered)" }
        func shown(_ text: String) -> String { oneLine(text, limit: .max) }
        var lines: [String] = []
        for target in targets {
            lines.append("\(shown(target.name)) (\(shown(target.fullName)))" + (target.summary.map { ": \(shown($0))" } ?? ""))
            let names = target.actions.map { (name: shown($0.name), fullName: shown($0.fullName)) }
            let nameWidth = names.map(\.name.count).max() ?? 0
            let fullWidth = names.map(\.fullName.count).max() ?? 0
            for (action, name) in zip(target.actions, names) {
                let reach = action.isLocalOnly ? "local-only" : "remote    "
                var line = "  " + name.name.padded(to: nameWidth) + "  " + name.fullName.padded(to: fullWidth) + "  " + reach
                if let summary = action.summary { line += "  " + shown(summary) }
                if let parameters = action.parameters {
                    let names = parameters.map { shown($0.name) + ($0.isRequired ? "" : "?") }
                    line += (action.summary == nil ? "  (" : " (") + names.joined(separator: ", ") + ")"
                }
                while line.last == " " { line.removeLast() }
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
