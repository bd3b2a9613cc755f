import Mediator

/// What `list` prints: targets with their actions, summaries and whether URLs may reach them.
struct Listing {
    let targets: [TargetInfo]

    var json: JSONValue {
        .object(["targets": .array(targets.map { target in
            .object([
                "name": .string(target.name),
                "fullName": .string(target.fullName),
                "summary": target.summary.map(JSONValue.string) ?? .null,
                "actions": .array(target.actions.map { action in
                    .object([
                        "name": .string(action.name),
                        "fullName": .string(action.fullName),
                        "remote": .bool(!action.isLocalOnly),
                        "summary": action.summary.map(JSONValue.string) ?? .null,
                    ])
                }),
            ])
        })])
    }

    /// ```
    /// Notes (Target_Notes): Notes: create, get, ...
    ///   create  Action_create  remote      Create a note (token, title, body?, tags?)
    /// ```
    var text: String {
        guard !targets.isEmpty else { return "(no targets registered)" }
        var lines: [String] = []
        for target in targets {
            lines.append("\(target.name) (\(target.fullName))" + (target.summary.map { ": \($0)" } ?? ""))
            let nameWidth = target.actions.map(\.name.count).max() ?? 0
            let fullWidth = target.actions.map(\.fullName.count).max() ?? 0
            for action in target.actions {
                let reach = action.isLocalOnly ? "local-only" : "remote    "
                var line = "  " + action.name.padded(to: nameWidth) + "  " + action.fullName.padded(to: fullWidth) + "  " + reach
                if let summary = action.summary { line += "  " + summary }
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
