import Mediator
import TestSupport

@testable import MediatorCommandLine

/// Seeded registries whose names a generated Swift file could trip on: Swift keywords (contextual
/// ones too), standard-library names, the identifiers generated wrappers use, the library's own
/// names, the methods and structs the generator makes for the same registry, and text that is no
/// identifier at all. Each name is used where its kind allows it: target and action names must be
/// names the registry takes, parameter names names `verify()` takes; result fields take any text.
struct HostileRegistries {
    private var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// Keywords, contextual keywords, attributes and compiler directives' words.
    static let keywords = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "nonisolated", "open", "operator", "package", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await",
        "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_", "associativity", "async", "convenience", "didSet",
        "dynamic", "final", "get", "indirect", "infix", "lazy", "left", "mutating", "none", "nonmutating", "optional", "override",
        "postfix", "precedence", "prefix", "Protocol", "required", "right", "set", "some", "any", "Type", "unowned", "weak", "willSet",
        "actor", "macro", "each", "consume", "copy", "discard", "sending", "isolated", "unsafe", "then", "yield", "borrow", "_const",
        "__owned", "__shared", "__consuming", "_modify", "_read", "_move", "_borrow", "_forget", "distributed", "unchecked",
        "preconcurrency", "retroactive", "escaping", "autoclosure", "objc", "available", "selector", "keyPath", "file", "line",
        "function", "column", "dsohandle", "canImport", "targetEnvironment", "os", "arch", "compiler", "swift", "unavailable",
        "dynamicType", "Protocol", "Type",
    ]

    /// Names of the standard library's types, protocols and functions (and a few of Foundation's).
    static let standardNames = [
        "String", "Int", "Double", "Bool", "Float", "Character", "Optional", "Array", "Dictionary", "Set", "Codable", "Decodable",
        "Encodable", "CodingKey", "CodingKeys", "Error", "Result", "Never", "Void", "Any", "AnyObject", "Sendable", "Equatable",
        "Hashable", "Comparable", "Identifiable", "Swift", "Decoder", "Encoder", "Int64", "UInt8", "Range", "Sequence", "Collection",
        "Substring", "KeyPath", "Task", "MainActor", "print", "type", "min", "max", "fatalError", "precondition", "Unicode", "Foundation",
        "Data", "URL", "Date", "Hasher", "ObjectIdentifier", "Mirror", "string", "int", "double", "bool", "codingKey", "codingKeys",
        "error", "result", "optional", "array",
    ]

    /// Identifiers generated wrappers use or could use.
    static let wrapperNames = [
        "call", "mediator", "params", "_params", "__params", "Params", "result", "value", "value2", "Value", "target", "action",
        "shouldCacheTarget", "as", "from", "decoder", "container", "lhs", "rhs", "CodingKeys", "codingKey", "Swift", "Mediator",
        "MediatorError", "Item", "ResultItem", "StringValue", "nested", "field", "Structure", "summary", "description", "hashValue",
        "encode", "decode", "self", "Self", "super", "type", "T", "Answer", "arguments", "extension",
    ]

    /// The library's types and `Mediator`'s members.
    static let libraryNames = [
        "Mediator", "Params", "MediatorError", "Parameter", "ParameterType", "TargetInfo", "ActionInfo", "Action", "ActionKey",
        "ActionHandle", "Requirement", "RegistryDescription", "URLPolicy", "Fallback", "AsyncFallback", "CallRecord", "MediatorTarget",
        "MediatorCommandLine", "CommandLineTool", "SwiftWrappers", "Generated", "registryDescription", "shared", "perform", "register",
        "verify", "handle", "open", "targets", "callNow", "routes", "redirects", "canOpen", "destination", "unmatchedURLHandler",
        "addRoutes", "removeRoute", "setRedirects", "validate", "require",
    ]

    /// Text that is no identifier: empty, spaces, emoji, non-ASCII letters and digits, punctuation
    /// Swift gives a meaning to, control characters, very long.
    static let hostileText = [
        "", " ", "🙂", "👩‍💻 dev", "naïve", "a b", "9lives", "0", "-", "-x", ".", "..", "_", "__", "___", "a-b", "a.b", "a..b",
        String(repeating: "x", count: 300), String(repeating: "y", count: 100), String(repeating: "Long", count: 64), "\"quoted\"",
        "back\\slash", "line\nbreak", "*/", "/*", "`", "``", "#if", "$0", "@objc", "\u{202E}rtl", "\u{0}", "\t", "Ω", "\u{212A}elvin",
        "٣", "𝟘", "init(from:)", "a::b", "x.y.z", "-1", "1e3", "0x1F", "Target_X", "Action_y:", "Self.Type", "first-name", "2fa", "_2",
        "_id", "__x__", "a-", "a.", ".a", "_.", "0.0",
    ]

    static let allNames = keywords + standardNames + wrapperNames + libraryNames + hostileText

    /// Whether `name` is one the registry takes for a target or an action as it is (canonical).
    static func isRegistryName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 256 && name.utf8.first != UInt8(ascii: "-") && name.utf8.allSatisfy(isNameByte)
            && !name.hasPrefix("Target_") && !name.hasPrefix("Action_")
    }

    /// Whether `verify()` takes `name` for a parameter.
    static func isParameterName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 100 && name.utf8.allSatisfy(isNameByte)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || [UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: ".")].contains(byte)
    }

    static let targetNames = allNames.filter(isRegistryName)
    /// Action names with no letter or digit leave the method named after the target alone.
    static let actionNames = targetNames + [".", "..", "_.", "_", "0", "9"]
    static let parameterNames = allNames.filter(isParameterName)

    /// Target and action names whose method is exactly a member of `Mediator` (`can` and `open`
    /// give `canOpen`), or an initializer or keyword once the action adds nothing (`init` and `.`).
    static let memberSplits: [(target: String, action: String)] =
        SwiftWrappers.mediatorMembers.sorted().map { member in
            guard let capital = member.firstIndex(where: \.isUppercase) else { return (member, ".") }
            return (String(member[..<capital]), String(member[capital...]))
        } + ["init", "self", "deinit", "subscript", "Self", "_", "Swift", "call"].map { ($0, ".") }

    /// A registry that uses every name in every role it can take: each as a target (of one
    /// action), as an action of one target, as a parameter (twenty to an action) and as a result
    /// field holding an object or an array of objects (so a nested struct is named after it).
    static func everyName() throws -> Mediator {
        var seen: Set<String> = []
        let names = allNames.filter { seen.insert($0).inserted }
        let mediator = Mediator()
        func chunks(_ names: [String]) -> [[String]] {
            stride(from: 0, to: names.count, by: 20).map { Array(names[$0..<min($0 + 20, names.count)]) }
        }
        for name in names where isRegistryName(name) {
            try mediator.register(target: name, actions: [Action(name, params: [.required("id", .integer)], result: .string) { _, _ in "" }])
        }
        var actionNames: Set<String> = []
        let actions = (names + [".", "..", "_.", "_", "0", "9"]).filter { isRegistryName($0) && actionNames.insert($0).inserted }.enumerated().map {
            index, name in
            Action<Mediator>(name, params: index.isMultiple(of: 3) ? nil : [], result: index.isMultiple(of: 2) ? .string : nil) { _, _ in nil }
        }
        try mediator.register(target: "Actions", actions: actions)
        let parameters = chunks(names.filter(isParameterName)).enumerated().map { index, chunk in
            let declared = chunk.enumerated().map { position, name -> Parameter in
                position.isMultiple(of: 2) ? .required(name, .string) : .optional(name, position.isMultiple(of: 3) ? .value(Handle.self) : .integer)
            }
            return Action<Mediator>("p\(index)", params: declared, result: index.isMultiple(of: 2) ? .string : .value(Handle.self)) { _, _ in nil }
        }
        try mediator.register(target: "Parameters", actions: parameters)
        let fields = chunks(names).enumerated().map { index, chunk in
            let declared = chunk.enumerated().map { position, name -> Parameter in
                // A renamed field (`first-name`) makes the struct spell out its coding keys.
                let object = ParameterType.object([.required(name, .string)] + (name == "first-name" ? [] : [.optional("first-name", .string)]))
                return .required(name, position.isMultiple(of: 2) ? object : .array(of: object))
            }
            return Action<Mediator>("f\(index)", result: index.isMultiple(of: 2) ? .object(declared) : .array(of: .object(declared))) { _, _ in nil }
        }
        try mediator.register(target: "Fields", actions: fields)
        // Methods named as another method's result struct would be, were it to begin with `_`.
        for target in ["_underscored", "4x"] {
            let object = ParameterType.object([.required("id", .integer)])
            try mediator.register(
                target: target, actions: [Action("check", result: object) { _, _ in nil }, Action("checkResult", result: .integer) { _, _ in nil }])
        }
        return mediator
    }

    /// A type for a `value` parameter or result.
    struct Handle: Sendable {}

    /// An action as planned, before it is registered.
    private struct PlannedAction {
        var name: String
        var summary: String?
        var parameters: [Parameter]?
        var result: ParameterType?
        var isAsync: Bool
        var isLocalOnly: Bool
    }

    /// A mediator with one to five targets, or `nil` when what was drawn is not a registry
    /// `verify()` accepts (the caller draws again).
    mutating func registry() throws -> Mediator? {
        var planned: [(name: String, summary: String?, actions: [PlannedAction])] = []
        var targetNames: Set<String> = []
        for _ in 0..<Int.random(in: 1...5, using: &random) {
            var name = pick(Self.targetNames)
            var actions: [PlannedAction] = []
            if chance(0.3) {
                let split = pick(Self.memberSplits)
                name = split.target
                actions.append(action(named: split.action))
            }
            guard targetNames.insert(name).inserted else { continue }
            var actionNames = Set(actions.map(\.name))
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let action = action(named: pick(Self.actionNames))
                if actionNames.insert(action.name).inserted { actions.append(action) }
            }
            planned.append((name, chance(0.5) ? pick(Self.allNames) : nil, actions))
        }

        // The names the generator gives this registry, as parameter names of its own actions.
        guard let draft = register(planned) else { return nil }
        var generated: [String] = []
        for target in draft.targets {
            for method in SwiftWrappers.methods(for: target) {
                generated.append(method.name)
                generated += method.result?.structures.map(\.name) ?? []
            }
        }
        for targetIndex in planned.indices {
            for actionIndex in planned[targetIndex].actions.indices where chance(0.5) {
                guard var parameters = planned[targetIndex].actions[actionIndex].parameters else { continue }
                for name in generated.shuffled(using: &random).prefix(3)
                where Self.isParameterName(name) && !parameters.contains(where: { $0.name == name }) {
                    parameters.append(chance(0.5) ? .required(name, parameterType(depth: 2)) : .optional(name, parameterType(depth: 2)))
                }
                planned[targetIndex].actions[actionIndex].parameters = parameters
            }
        }
        guard let mediator = register(planned), mediator.verify().isEmpty else { return nil }
        return mediator
    }

    /// `planned` registered in a fresh mediator; a target the registry refuses is left out.
    private func register(_ planned: [(name: String, summary: String?, actions: [PlannedAction])]) -> Mediator? {
        let mediator = Mediator()
        for target in planned {
            let actions = target.actions.map { planned in
                planned.isAsync
                    ? Action<Mediator>(
                        planned.name, summary: planned.summary, params: planned.parameters, result: planned.result,
                        localOnly: planned.isLocalOnly
                    ) { _, _ async throws -> (any Sendable)? in nil }
                    : Action<Mediator>(
                        planned.name, summary: planned.summary, params: planned.parameters, result: planned.result,
                        localOnly: planned.isLocalOnly
                    ) { _, _ throws -> (any Sendable)? in nil }
            }
            try? mediator.register(target: target.name, summary: target.summary, actions: actions)
        }
        return mediator.targets.isEmpty ? nil : mediator
    }

    private mutating func action(named name: String) -> PlannedAction {
        var parameters: [Parameter]?
        if !chance(0.15) {
            var declared: [Parameter] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let name = pick(Self.parameterNames)
                guard !declared.contains(where: { $0.name == name }) else { continue }
                declared.append(parameter(named: name, depth: 2))
            }
            parameters = declared
        }
        return PlannedAction(
            name: name, summary: chance(0.4) ? pick(Self.allNames) : nil, parameters: parameters, result: chance(0.2) ? nil : resultType(),
            isAsync: chance(0.3), isLocalOnly: chance(0.2))
    }

    private mutating func parameter(named name: String, depth: Int) -> Parameter {
        let type = parameterType(depth: depth)
        let summary = chance(0.3) ? pick(Self.allNames) : nil
        guard chance(0.5) else { return .required(name, type, summary) }
        if type == .string, chance(0.5) { return .optional(name, type, default: pick(Self.allNames), summary) }
        return .optional(name, type, summary)
    }

    private mutating func parameterType(depth: Int) -> ParameterType {
        switch Int.random(in: 0..<(depth > 0 ? 9 : 6), using: &random) {
        case 0: .string
        case 1: .integer
        case 2: .number
        case 3: .boolean
        case 4: .object
        case 5: .value(Handle.self)
        case 6: .array(of: parameterType(depth: depth - 1))
        default: .object(fields(depth: depth - 1))
        }
    }

    private mutating func fields(depth: Int) -> [Parameter] {
        var fields: [Parameter] = []
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            let name = pick(Self.allNames)
            guard !fields.contains(where: { $0.name == name }) else { continue }
            fields.append(parameter(named: name, depth: depth))
        }
        return fields
    }

    private mutating func resultType() -> ParameterType {
        switch Int.random(in: 0..<10, using: &random) {
        case 0...3: .object(fields(depth: 3))
        case 4: .array(of: .object(fields(depth: 2)))
        default: parameterType(depth: 2)
        }
    }

    private mutating func pick<T>(_ values: [T]) -> T {
        values[Int.random(in: 0..<values.count, using: &random)]
    }

    private mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &random) < probability
    }
}
