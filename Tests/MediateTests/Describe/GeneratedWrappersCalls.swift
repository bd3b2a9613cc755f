import Mediator

@testable import MediatorCommandLine

/// Writes the checks of the wrappers generated for targets the test does not know in advance
/// (the example modules, whatever they declare): for each method, a call with every parameter and
/// one with the required ones only (a method without declared parameters: with the values below,
/// and with none), in each of its forms, each compared with the call by name.
///
/// Values come from the declared types, or for the names the example modules use, from the
/// starting state of the program (GeneratedWrappersWorld.swift), so that the calls can succeed:
/// `token` is the session token of `ada`, `id` the note she owns.
enum GeneratedWrappersCalls {
    /// Strings for known names (an array of strings takes them too).
    static let knownStrings = [
        "token": "sampleToken", "username": "\"ada\"", "password": "\"correct-horse-battery\"", "title": "\"Shopping\"",
        "body": "\"bread\"", "tag": "\"home\"", "tags": "\"home\"",
    ]

    /// The `Params` literal sent to an action that declares no parameters.
    static let knownParams =
        "[\"token\": sampleToken, \"username\": \"ada\", \"password\": \"correct-horse-battery\", \"id\": 1, \"title\": \"Shopping\", "
        + "\"body\": \"bread\", \"tags\": [\"home\"], \"tag\": \"home\"]"

    /// The source of `extension WrapperVerdict { mutating func checkExamples() async }` for `targets`.
    static func source(for targets: [TargetInfo]) -> String {
        var lines = ["import Generated", "import Mediator", "", "extension WrapperVerdict {", "    mutating func checkExamples() async {"]
        for target in targets {
            for method in SwiftWrappers.methods(for: target) {
                for call in calls(for: method) {
                    let label = "\(target.name)/\(method.action.name), \(call.description)"
                    lines += checks(of: method, target: target.name, label: label, arguments: call.arguments, params: call.params)
                }
            }
        }
        lines += ["    }", "}", ""]
        return lines.joined(separator: "\n")
    }

    /// The calls to make: their description, the wrapper's arguments and the params by name.
    static func calls(for method: SwiftWrappers.Method) -> [(description: String, arguments: String, params: String)] {
        guard let arguments = method.arguments else {
            return [("known params", "params: \(knownParams)", knownParams), ("no params", "", "[:]")]
        }
        func call(_ description: String, _ sent: [SwiftWrappers.Argument]) -> (String, String, String) {
            let values = sent.map { "(\(sample($0.parameter.type, name: $0.parameter.name)) as \($0.swiftType))" }
            let labelled = zip(sent, values).map { "\(SwiftWrappers.code($0.name)): \($1)" }
            let params = zip(sent, values).map { "\(SwiftWrappers.stringLiteral($0.parameter.name)): \($1)" }
            return (description, labelled.joined(separator: ", "), params.isEmpty ? "[:]" : "[" + params.joined(separator: ", ") + "]")
        }
        let required = arguments.filter(\.parameter.isRequired)
        var result = [call("every parameter", arguments)]
        if required.count < arguments.count { result.append(call("required parameters", required)) }
        return result
    }

    /// The comparisons for one call: the synchronous form (for a synchronous action) and the async one.
    static func checks(of method: SwiftWrappers.Method, target: String, label: String, arguments: String, params: String) -> [String] {
        let kind: String
        if let result = method.action.result {
            kind = SwiftWrappers.isDecodable(result) ? "agree" : "agreeCast"
        } else {
            kind = "agreeUntyped"
        }
        let head = "target: \(SwiftWrappers.stringLiteral(target)), action: \(SwiftWrappers.stringLiteral(method.action.name)), params: \(params)"
        var lines: [String] = []
        if !method.action.isAsync {
            lines.append("        \(kind)(\(SwiftWrappers.stringLiteral(label)), \(head)) {")
            lines.append("            try $0.\(SwiftWrappers.code(method.name))(\(arguments))")
            lines.append("        }")
        }
        lines.append("        await \(kind)Async(\(SwiftWrappers.stringLiteral(label + ", async")), \(head)) {")
        lines.append("            try await $0.\(SwiftWrappers.code(method.name))(\(arguments))")
        lines.append("        }")
        return lines
    }

    /// A Swift expression for a value of `type` (`name` picks known values).
    static func sample(_ type: ParameterType, name: String) -> String {
        switch type.kind {
        case .string: return knownStrings[name] ?? "\"sample\""
        case .integer(let minimum, let maximum):
            let preferred = name == "id" ? 1 : 7
            return String(min(max(preferred, minimum ?? preferred), maximum ?? preferred))
        case .number(let minimum, let maximum): return String(min(max(0.5, minimum ?? 0.5), maximum ?? 0.5))
        case .boolean: return "true"
        case .array(let element): return "[\(sample(element, name: name))]"
        case .object(nil): return "([\"key\": \"value\"] as [String: any Sendable])"
        case .object(let fields?):
            let entries = fields.map { "\(SwiftWrappers.stringLiteral($0.name)): \(sample($0.type, name: $0.name))" }
            return "([\(entries.isEmpty ? ":" : entries.joined(separator: ", "))] as [String: any Sendable])"
        case .value: return "(\"sample\" as any Sendable)"
        }
    }
}
