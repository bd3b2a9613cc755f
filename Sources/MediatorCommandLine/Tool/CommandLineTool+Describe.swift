import Mediator
import MediatorDiagnostics

// `describe`: what each action takes and returns, as text, as JSON (the registry description) or
// as Swift wrappers.

extension CommandLineTool {
    /// `describe [<Target> [<action>]] [--json | --swift]`: the text to print. `json` is the
    /// global `--json`, which asks for the registry description document itself.
    func describe(_ arguments: [String], json: Bool) throws(CommandError) -> String {
        var words: [String] = []
        var swift = false
        for argument in arguments {
            if argument == "--swift" {
                swift = true
            } else if argument.hasPrefix("--") {
                throw .usage("unknown option \(quoted(argument)) for describe")
            } else {
                words.append(argument)
            }
        }
        guard words.count <= 2 else { throw .usage("describe takes at most a target and an action: \(name) describe [<Target> [<action>]]") }
        if swift && json { throw .usage("describe takes --swift or --json, not both") }
        guard let wanted = words.first else {
            if swift { throw .usage("describe --swift needs a target: \(name) describe <Target> --swift") }
            let targets = mediator.targets
            return json ? document(RegistryDescription(targets: targets).json) : descriptionText.text(of: targets)
        }
        guard let target = mediator.target(named: wanted) else { throw .call(mediator.unknownTargetError(wanted)) }
        guard words.count == 2 else {
            if swift { return document(SwiftWrappers.source(for: target, program: name)) }
            return json ? document(RegistryDescription(targets: [target]).json) : descriptionText.text(of: target)
        }
        if swift { throw .usage("describe --swift takes a target, not an action: \(name) describe <Target> --swift") }
        let action = try self.action(named: words[1], in: target)
        if json { return document(RegistryDescription(targets: [target.restricted(toAction: action.name)]).json) }
        return descriptionText.text(of: action, in: target)
    }

    /// `perform <Target> <action> ... --help`: the target and action it names, if it names both.
    /// Words are read as `perform` reads them: options (`--` words, and `--params-json`'s JSON)
    /// are not names, and neither is `-h`; any other word, `-n` included, is.
    func performedAction(_ arguments: [String]) -> (target: String, action: String)? {
        var positional: [String] = []
        var words = arguments.makeIterator()
        while positional.count < 2, let argument = words.next() {
            if argument == "--params-json" {
                _ = words.next()
            } else if !argument.utf8.starts(with: "--".utf8) && argument != "-h" {
                positional.append(argument)
            }
        }
        return positional.count == 2 ? (positional[0], positional[1]) : nil
    }

    var descriptionText: DescriptionText { DescriptionText(program: name, urlPolicy: mediator.urlPolicy) }

    /// The action `wanted` (short, full or selector name) of `target`, or the mediator's own
    /// error for it: `actionNotFound` with the names that exist and the closest one.
    private func action(named wanted: String, in target: TargetInfo) throws(CommandError) -> ActionInfo {
        var name = Substring(wanted)
        if name.utf8.starts(with: "Action_".utf8) { name = name.dropFirst("Action_".count) }
        if name.utf8.last == UInt8(ascii: ":") { name = name.dropLast() }
        // Byte for byte, as the mediator compares names.
        if let action = target.actions.first(where: { $0.name.utf8.elementsEqual(name.utf8) }) { return action }
        do {
            // Runs nothing; for a name that does not exist it throws the error a call would.
            try mediator.validate(target: target.name, action: wanted, params: [:])
        } catch  where error.code == .actionNotFound || error.code == .targetNotFound {
            throw .call(error)
        } catch {}
        // Registered since the target was read.
        throw .call(MediatorError(.actionNotFound, target: target.name, action: wanted, reason: "target \"\(target.name)\" has no action \(quoted(wanted))"))
    }

    /// Printed text without its final newline (the writer adds one).
    private func document(_ text: String) -> String {
        text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
