import Mediator

/// The source of a typed extension module for one target, made from its declared schemas: what
/// `mediate describe <Target> --swift` prints. It depends on `Mediator` alone, compiles as it is
/// (Swift 6, no warnings) and never imports the provider.
///
/// ```sh
/// mediate describe Notes --swift
/// # public func notesList(tag: Swift.String? = nil) throws(MediatorError) -> [NotesListResultItem]
/// ```
///
/// No declared name can change what the generated code means: the standard library's types are
/// written in full (`Swift.String`, `Swift.Decodable`), the mediator is called as `self.call`,
/// and the few names a method's body uses besides its arguments (`self`, `Swift`, its result
/// struct) are never the name of an argument inside the method.
///
/// Naming rules (the same input always gives the same text):
/// - Methods: each action becomes a method on `Mediator` named after the target, its first word
///   in lower case (leading capitals too: `URLCache` gives `urlCache`), then the action with its
///   first letter capitalized: `Notes/list` is `notesList`. The `-` and `.` that names may hold
///   end a word and are dropped (`user-profile/get.by-id` is `userProfileGetById`); a name
///   starting with a digit gets a leading `_`, one with no letter or digit gets `action`. Actions
///   are taken in name order: when two give the same name, the later gets `2`, `3`, ...; a name
///   that `Mediator` already has (`registryDescription`, ..., and `init`) gets `Action` appended.
/// - Forms: a synchronous action gets a synchronous method and an async twin of the same name
///   (chosen in async code; it also reaches main-actor actions); an async action only the async
///   method.
/// - Parameters keep their declared names as labels, declaration order, and send the declared
///   key. Swift keywords are written in backticks (`` `default`: Swift.Int ``); other names that are not
///   identifiers lose their other characters and join in lower camel case (`first-name` is
///   `firstName`, `2fa` is `_2fa`, `naïve` is `naVe`; a name with no letter or digit is `value`);
///   a name taken twice gets `2`, `3`, ... Inside the method an argument labelled `self`, `Swift`
///   or with its result struct's name is called by the label and `Value` (`` `self` selfValue ``).
///   Required parameters are not optional; optional ones are `T? = nil` and sent only when not
///   `nil`, so the target's defaults apply. Types: string `Swift.String`, integer `Swift.Int`,
///   number `Swift.Double`, boolean `Swift.Bool`, array `[T]`, object (with or without fields)
///   `[Swift.String: any Swift.Sendable]`, and a `value` type `any Swift.Sendable`: the generated
///   module cannot name a Swift type it does not import. A parameter declared twice is generated
///   once (the first declaration).
/// - An action that declares no parameters takes `params: Params = [:]`, passed as they are
///   (unchecked, as the action does not check them); one that declares an empty list takes none.
/// - Results: an object with fields decodes into `public struct <Method>Result: Swift.Decodable,
///   Swift.Sendable, Swift.Equatable` (`NotesGetResult`; the method's leading `_` dropped and
///   `Action` put before a digit, so the name starts with a capital as no method does), an array
///   of such objects into `[<Method>ResultItem]`; a nested object is a nested struct named after
///   its field (`Owner`, `TagsItem` for an array; `Value` is appended to a name a nested struct
///   cannot take: `Swift`, `CodingKeys`, `Type`, the library's types and common standard ones such
///   as `String` or `CodingKey`). Fields follow the parameter rules (a renamed field gets
///   `CodingKeys`; a field named `CodingKeys` is renamed `CodingKeys2`); an optional field is
///   optional; a field whose type is not decodable (an object without fields, a `value`) is left
///   out and named in the struct's comment. Other results: `Swift.String`, `Swift.Int`,
///   `Swift.Double`, `Swift.Bool`, arrays of them, an object without fields or a `value` as the
///   parameter types, cast rather than decoded. No declared result: `(any Swift.Sendable)?`,
///   discardable.
///
/// Names are unique within one target's file; two targets whose names run together (`Ab/cD` and
/// `AbC/d`) would collide if generated into one module.
enum SwiftWrappers {
    /// The source of the extension module for `target`, headed as printed by `mediate`.
    static func source(for target: TargetInfo) -> String {
        source(for: target, program: "mediate")
    }

    /// The source of the extension module for `target`, headed as printed by `program`'s
    /// `describe <Target> --swift`.
    static func source(for target: TargetInfo, program: String) -> String {
        var out = Output()
        let methods = methods(for: target)
        out.header(target: target, program: program, methods: methods.count)
        out.line("import Mediator")
        let structures = methods.flatMap { $0.result?.structures ?? [] }
        if !structures.isEmpty {
            out.line()
            out.line("// MARK: - Results")
            for structure in structures {
                out.line()
                out.structure(structure, indent: "")
            }
        }
        if !methods.isEmpty {
            out.line()
            out.line("// MARK: - Calls to \(comment(target.name))")
            out.line()
            out.line("extension Mediator {")
            for (index, method) in methods.enumerated() {
                if index > 0 { out.line() }
                if !method.action.isAsync {
                    out.method(method, target: target, isAsync: false)
                    out.line()
                }
                out.method(method, target: target, isAsync: true)
            }
            out.line("}")
        }
        return out.text
    }

    // MARK: - Plan

    /// One generated method (and its async twin for a synchronous action).
    struct Method {
        let action: ActionInfo
        /// The method's name, an identifier (see ``code(_:)`` for how it is written).
        let name: String
        /// The declared parameters as arguments; `nil` when the action declared none.
        let arguments: [Argument]?
        /// The local holding the params, a name no argument has.
        let paramsVariable: String
        /// `nil`: no declared result.
        let result: ResultType?
    }

    /// One argument: the key it is sent under, its label and the name the method's body uses.
    struct Argument {
        let parameter: Parameter
        /// The argument label, an identifier (see ``code(_:)`` for how it is written).
        let name: String
        /// The parameter's name inside the method: the label, unless the label is a name the body
        /// refers to (`self`, `Swift`, the result struct), which it would hide.
        let localName: String
        let swiftType: String
    }

    /// A declared result: its Swift type and the structs it needs.
    struct ResultType {
        let swiftType: String
        let structures: [Structure]
    }

    /// A generated result struct.
    struct Structure {
        let name: String
        let summary: String
        let fields: [Field]
        /// Fields left out: no decodable Swift type exists for them.
        let omitted: [Parameter]
        let nested: [Structure]
    }

    /// A field of a result struct.
    struct Field {
        let parameter: Parameter
        let name: String
        let swiftType: String
    }

    /// The methods for `target`'s actions, in the actions' (name) order, with names made unique.
    static func methods(for target: TargetInfo) -> [Method] {
        var taken = mediatorMembers
        var structNames: Set<String> = []
        return target.actions.map { action in
            var name = methodName(target: target.name, action: action.name)
            if mediatorMembers.contains(name) { name += "Action" }
            name = unique(name, in: &taken)
            let result = action.result.map { type in
                resultType(
                    type, structName: unique(resultStructName(method: name) + (itemSuffix(type) ?? ""), in: &structNames),
                    summary: "The result of `\(target.name)/\(action.name)`" + (action.summary.map { ": " + $0 } ?? "."))
            }
            // What the body names besides the arguments: `self.call`, `Swift.String.self`, the struct.
            let bodyNames = Set(["self", "Swift"] + (result?.structures.first.map { [$0.name] } ?? []))
            var labels: Set<String> = []
            var seenKeys: Set<String> = []
            let declared = action.parameters.map { parameters in
                parameters.filter { seenKeys.insert($0.name).inserted }.map { ($0, unique(identifier($0.name), in: &labels)) }
            }
            var localNames = labels
            let arguments = declared.map { declared in
                declared.map { parameter, label in
                    Argument(
                        parameter: parameter, name: label,
                        localName: bodyNames.contains(label) ? unique(label + "Value", in: &localNames) : label,
                        swiftType: parameterType(parameter.type))
                }
            }
            var variable = "params"
            while localNames.contains(variable) { variable = "_" + variable }
            return Method(action: action, name: name, arguments: arguments, paramsVariable: variable, result: result)
        }
    }

    /// The Swift type of a parameter of `type`. The standard library's types are written in full,
    /// as no declared name can hide `Swift` (a nested struct never takes it, an argument that
    /// would is renamed inside the method).
    static func parameterType(_ type: ParameterType) -> String {
        switch type.kind {
        case .string: "Swift.String"
        case .integer: "Swift.Int"
        case .number: "Swift.Double"
        case .boolean: "Swift.Bool"
        case .array(let element): "[\(parameterType(element))]"
        case .object: "[Swift.String: any Swift.Sendable]"
        case .value: "any Swift.Sendable"
        }
    }

    /// The Swift type of a result of `type`; the struct for an object with fields (inside any
    /// arrays) is called `structName`.
    static func resultType(_ type: ParameterType, structName: String, summary: String) -> ResultType {
        switch type.kind {
        case .array(let element):
            let inner = resultType(element, structName: structName, summary: summary)
            return ResultType(swiftType: "[\(inner.swiftType)]", structures: inner.structures)
        case .object(let fields?):
            return ResultType(swiftType: structName, structures: [structure(name: structName, summary: summary, fields: fields)])
        default:
            return ResultType(swiftType: parameterType(type), structures: [])
        }
    }

    /// `Item` for each array around an object with fields in `type`, `nil` when it has none.
    static func itemSuffix(_ type: ParameterType) -> String? {
        switch type.kind {
        case .object(_?): ""
        case .array(let element): itemSuffix(element).map { $0 + "Item" }
        default: nil
        }
    }

    /// Whether a result of `type` decodes (has no object without fields and no `value` in it).
    static func isDecodable(_ type: ParameterType) -> Bool {
        switch type.kind {
        case .string, .integer, .number, .boolean, .object(_?): true
        case .array(let element): isDecodable(element)
        case .object(nil), .value: false
        }
    }

    private static func structure(name: String, summary: String, fields parameters: [Parameter]) -> Structure {
        var seenKeys: Set<String> = []
        let unique = parameters.filter { seenKeys.insert($0.name).inserted }
        let decodable = unique.filter { isDecodable($0.type) }
        // A field named `CodingKeys` would stop `Decodable` from finding (or making) its keys.
        var fieldNames: Set<String> = ["CodingKeys"]
        let names = decodable.map { Self.unique(identifier($0.name), in: &fieldNames) }
        var typeNames = reservedTypeNames.union([name]).union(fieldNames)
        var fields: [Field] = []
        var nested: [Structure] = []
        for (parameter, fieldName) in zip(decodable, names) {
            var swiftType = parameterType(parameter.type)
            if let suffix = itemSuffix(parameter.type) {
                let typeName = Self.unique(typeName(for: fieldName) + suffix, suffix: "Value", in: &typeNames)
                let type = resultType(parameter.type, structName: typeName, summary: parameter.summary ?? "The `\(parameter.name)` field.")
                swiftType = type.swiftType
                nested += type.structures
            }
            fields.append(Field(parameter: parameter, name: fieldName, swiftType: swiftType + (parameter.isRequired ? "" : "?")))
        }
        return Structure(name: name, summary: summary, fields: fields, omitted: unique.filter { !isDecodable($0.type) }, nested: nested)
    }

    /// `limit?: integer (1...100) = 20`, as `Parameter.description` but with a default shown the
    /// same way in every run (dictionary keys sorted, text escaped).
    static func declaration(of parameter: Parameter) -> String {
        let text = parameter.name + (parameter.isRequired ? "" : "?") + ": \(parameter.type)"
        return parameter.defaultValue.map { text + " = " + valueText($0) } ?? text
    }

    private static func valueText(_ value: Any) -> String {
        switch value {
        case let text as String: literal(text)
        case let params as Params: valueText(params.values)
        case let dictionary as [String: any Sendable]:
            dictionary.isEmpty
                ? "[:]" : "[" + dictionary.sorted { $0.key < $1.key }.map { literal($0.key) + ": " + valueText($0.value) }.joined(separator: ", ") + "]"
        case let array as [any Sendable]: "[" + array.map(valueText).joined(separator: ", ") + "]"
        default: String(describing: value)
        }
    }

    // MARK: - Names

    /// `name` written as Swift: in backticks when it is a keyword.
    static func code(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// The method name for `target`/`action` (see the naming rules above).
    static func methodName(target: String, action: String) -> String {
        let targetWords = words(target)
        let actionWords = words(action)
        var name = lowerFirstWord(targetWords.first ?? "") + targetWords.dropFirst().map(upperFirst).joined()
        name += actionWords.map(upperFirst).joined()
        // Names of dots and underscores alone (`./.`, `_/.`) leave no word, or only `_`.
        if !name.contains(where: { $0.isLetter || $0.isNumber }) { name += "action" }
        return name.first?.isNumber == true ? "_" + name : name
    }

    /// The name of the struct the object result of the method `name` decodes into: `notesGet`
    /// gives `NotesGetResult`, `_2faCheck` `Action2faCheckResult`. It begins with a capital, as no
    /// method does, so no method (of this target or another) can hide it in a method's body.
    static func resultStructName(method name: String) -> String {
        let trimmed = String(name.drop { $0 == "_" })
        return (trimmed.first?.isLetter == true ? upperFirst(trimmed) : "Action" + trimmed) + "Result"
    }

    /// `name` as an identifier: itself when it is one, else its words in lower camel case.
    static func identifier(_ name: String) -> String {
        // Underscores alone (`_`, a valid identifier) would make a label callers must escape.
        let parts = words(name)
        guard let first = parts.first, !parts.allSatisfy({ $0.allSatisfy { $0 == "_" } }) else { return "value" }
        if isIdentifier(name) { return name }
        let joined = first + parts.dropFirst().map(upperFirst).joined()
        return joined.first?.isNumber == true ? "_" + joined : joined
    }

    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy(isIdentifierScalar)
    }

    private static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
    }

    /// The runs of ASCII letters, digits and `_` in `name`.
    private static func words(_ name: String) -> [String] {
        name.unicodeScalars.split { !isIdentifierScalar($0) }.map { String(String.UnicodeScalarView($0)) }
    }

    /// The name of a nested struct for the field `name`: `owner` gives `Owner`, `_id` gives `Id`.
    private static func typeName(for name: String) -> String {
        let trimmed = name.drop { $0 == "_" }
        return trimmed.first?.isLetter == true ? upperFirst(String(trimmed)) : upperFirst(name)
    }

    private static func upperFirst(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst()
    }

    /// `Notes` to `notes`, `URLCache` to `urlCache`, `ID` to `id`, `iPhone` unchanged.
    private static func lowerFirstWord(_ word: String) -> String {
        let capitals = word.prefix { ("A"..."Z").contains($0) }
        guard !capitals.isEmpty else { return word }
        let rest = word.dropFirst(capitals.count)
        if capitals.count > 1, let next = rest.first, ("a"..."z").contains(next) {
            return capitals.dropLast().lowercased() + capitals.suffix(1) + rest
        }
        return capitals.lowercased() + rest
    }

    private static func unique(_ name: String, suffix: String = "", in taken: inout Set<String>) -> String {
        var candidate = taken.contains(name) ? name + suffix : name
        var number = 2
        while taken.contains(candidate) {
            candidate = name + suffix + String(number)
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }

    /// Members `Mediator` has (its public API, kept whole by a test), and names a member cannot
    /// sensibly take (`init`, `self`): a method of the same name would collide or confuse.
    static let mediatorMembers: Set<String> = [
        "addActions", "addInterceptor", "addObserver", "addRoutes", "call", "callFromOutside", "callNow", "canOpen", "canPerform",
        "defaultMaximumCallDepth", "deinit", "destination", "handle", "hasCachedInstance", "init", "maximumCallDepth", "open", "perform",
        "redirects", "register", "registryDescription", "releaseAllCachedTargets", "releaseCachedTarget", "removeAllRoutes",
        "removeInterception", "removeRoute", "require", "route", "routes", "self", "setFallback", "setRedirects", "shared", "subscript",
        "target", "targets", "undeclaredParameters", "unmatchedURLHandler", "unregister", "urlPolicy", "validate",
        "validateFromOutside", "verify",
    ]

    /// Names a nested struct cannot take: `Type` and `Protocol` are not allowed; `Swift`,
    /// `CodingKeys` and the library's types would hide what the generated code names; the
    /// standard library's other common names are kept clear so that a reader is never misled.
    ///
    /// The library's types (`Mediator`, `Params`, `MediatorError`) are written unqualified:
    /// `Mediator.Params` would look `Params` up in the class `Mediator`, which hides its module.
    /// They are only ever written where a type is expected, where only a type can hide them, and
    /// no generated type takes their names (top-level structs end in `Result`, `Item` or a number).
    private static let reservedTypeNames: Set<String> = [
        "Any", "AnyObject", "Array", "Bool", "Codable", "CodingKey", "CodingKeys", "Decodable", "Decoder", "Dictionary", "Double",
        "Encodable", "Encoder", "Equatable", "Error", "Float", "Hashable", "Int", "Mediator", "MediatorError", "Never", "Optional",
        "Params", "Protocol", "Result", "Self", "Sendable", "Set", "String", "Swift", "Type", "Void",
    ]

    /// Words written in backticks when used as names (backticks around any other name are harmless).
    private static let keywords: Set<String> = [
        "Any", "Protocol", "Self", "Type", "_", "actor", "any", "as", "associatedtype", "async", "await", "borrowing", "break", "case",
        "catch", "class", "consume", "consuming", "continue", "copy", "default", "defer", "deinit", "discard", "do", "each", "else",
        "enum", "extension", "fallthrough", "false", "fileprivate", "for", "func", "guard", "if", "import", "in", "init", "inout",
        "internal", "is", "let", "macro", "nil", "nonisolated", "open", "operator", "package", "precedencegroup", "private",
        "protocol", "public", "repeat", "rethrows", "return", "self", "some", "static", "struct", "subscript", "super", "switch",
        "throw", "throws", "true", "try", "typealias", "var", "where", "while",
    ]
}

// MARK: - Text

/// `text` fit for a `//` or `///` comment: one line, no control or format characters.
private func comment(_ text: String) -> String {
    String(
        String.UnicodeScalarView(
            text.unicodeScalars.map { scalar in
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator: " "
                default: scalar
                }
            }))
}

extension SwiftWrappers {
    /// `text` as a Swift string literal: ASCII only, everything else escaped.
    static func stringLiteral(_ text: String) -> String {
        literal(text)
    }
}

/// `text` as a Swift string literal: ASCII only, everything else escaped.
private func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        if let escape = backslashEscape(scalar) {
            result += escape
        } else if (" "..."~").contains(scalar) {
            result.unicodeScalars.append(scalar)
        } else {
            result += "\\u{" + String(scalar.value, radix: 16) + "}"
        }
    }
    return result + "\""
}

/// The generated text, line by line.
private struct Output {
    var text = ""

    mutating func line(_ content: String = "") {
        text += content + "\n"
    }

    mutating func header(target: TargetInfo, program: String, methods: Int) {
        let name = comment(target.name)
        line("// Generated by `\(comment(program)) describe \(name) --swift` from the registry of `\(comment(program))`:")
        line("// target \(name) (\(comment(target.fullName))), \(methods) action\(methods == 1 ? "" : "s").")
        if let summary = target.summary { line("// \(comment(summary))") }
        line("// Do not edit: generate it again when the target's declarations change.")
        line("//")
        line("// Each action `a` of `\(name)` is a method on `Mediator`: the target's name with a lower-case first")
        line("// word, then the action's with a capital (`\(name)/list` is `\(SwiftWrappers.methodName(target: target.name, action: "list"))`);")
        line("// a synchronous action also has an async twin. Labels are the declared parameter names")
        line("// (keywords in backticks, other characters dropped); required parameters are not optional,")
        line("// optional ones are `T? = nil`, sent only when not nil so the target's defaults apply.")
        line("// string String, integer Int, number Double, boolean Bool, array [T], object")
        line("// [String: any Sendable], value `any Sendable` (a Swift type this module cannot import),")
        line("// written `Swift.String` and so on so that no declared name can hide them.")
        line("// An object result with fields decodes into `<Method>Result`; no declared result gives")
        line("// `(any Sendable)?`; an action without declared parameters takes `params: Params = [:]`.")
        line()
    }

    mutating func structure(_ structure: SwiftWrappers.Structure, indent: String) {
        line(indent + "/// " + comment(structure.summary))
        if !structure.omitted.isEmpty {
            line(indent + "///")
            let names = structure.omitted.map { "`\(comment($0.name))` (\(comment($0.type.description)))" }.joined(separator: ", ")
            line(indent + "/// Not decoded, having no Decodable Swift type: \(names); call the action by name to read it.")
        }
        let opening = indent + "public struct \(structure.name): Swift.Decodable, Swift.Sendable, Swift.Equatable {"
        guard !structure.fields.isEmpty || !structure.nested.isEmpty else { return line(opening + "}") }
        line(opening)
        for field in structure.fields {
            let summary = field.parameter.summary.map(comment) ?? "The `\(comment(field.parameter.name))` field"
            line(indent + "    /// \(summary) (`\(comment(SwiftWrappers.declaration(of: field.parameter)))`).")
            line(indent + "    public let \(SwiftWrappers.code(field.name)): \(field.swiftType)")
        }
        for nested in structure.nested {
            line()
            self.structure(nested, indent: indent + "    ")
        }
        if structure.fields.contains(where: { $0.name != $0.parameter.name }) {
            line()
            line(indent + "    private enum CodingKeys: Swift.String, Swift.CodingKey {")
            for field in structure.fields {
                let rename = field.name == field.parameter.name ? "" : " = " + literal(field.parameter.name)
                line(indent + "        case \(SwiftWrappers.code(field.name))\(rename)")
            }
            line(indent + "    }")
        }
        line(indent + "}")
    }

    mutating func method(_ method: SwiftWrappers.Method, target: TargetInfo, isAsync: Bool) {
        let action = method.action
        let call = "`\(comment(target.name))/\(comment(action.name))`"
        line("    /// " + (action.summary.map(comment) ?? "Calls \(call)."))
        line("    ///")
        if action.isAsync {
            line("    /// Calls \(call), an async action: await it; cancelling the task reaches the action.")
        } else if isAsync {
            line("    /// Calls \(call) from async code, in the calling task (main-actor actions after a hop).")
        } else {
            line("    /// Calls \(call) synchronously.")
        }
        if action.isLocalOnly { line("    /// The action is local-only: URL calls cannot reach it.") }
        line("    ///")
        var signature: [String] = []
        var sent: [String] = []
        var optional: [SwiftWrappers.Argument] = []
        if let arguments = method.arguments {
            let documented = arguments.map { argument in
                let declared = "`\(comment(SwiftWrappers.declaration(of: argument.parameter)))`"
                return "\(argument.localName): " + (argument.parameter.summary.map { comment($0) + " (\(declared))" } ?? declared)
            }
            if documented.count == 1 {
                line("    /// - Parameter " + documented[0])
            } else if !documented.isEmpty {
                line("    /// - Parameters:")
                for text in documented { line("    ///   - " + text) }
            }
            for argument in arguments {
                let name = SwiftWrappers.code(argument.localName)
                let label = argument.localName == argument.name ? name : SwiftWrappers.code(argument.name) + " " + name
                if argument.parameter.isRequired {
                    signature.append("\(label): \(argument.swiftType)")
                    sent.append("\(literal(argument.parameter.name)): \(name)")
                } else {
                    let type = argument.swiftType.hasPrefix("any ") ? "(\(argument.swiftType))?" : argument.swiftType + "?"
                    signature.append("\(label): \(type) = nil")
                    optional.append(argument)
                }
            }
        } else {
            line("    /// - Parameter params: the call's params, passed as they are (the action declares none).")
            signature.append("params: Params = [:]")
        }
        let returnType = method.result?.swiftType ?? "(any Swift.Sendable)?"
        if let result = method.result, !result.structures.isEmpty {
            line("    /// - Returns: the result, decoded into `\(result.swiftType)`.")
        } else if let result = action.result {
            line("    /// - Returns: the result (`\(comment(result.description))`).")
        } else {
            line("    /// - Returns: the action's result, `nil` for none (the action declares no result type).")
        }
        line("    /// - Throws: `MediatorError`: `invalidParameter` for a refused value, `actionFailed` with the")
        if method.result != nil {
            line("    ///   action's error, `resultTypeMismatch` for a result not of type `\(returnType)`, and the")
            line("    ///   other codes of `Mediator.\(isAsync ? "call" : "callNow")(target:action:params:)`.")
        } else {
            line("    ///   action's error, and the other codes of `Mediator.\(isAsync ? "call" : "callNow")(target:action:params:)`.")
        }
        if method.result == nil { line("    @discardableResult") }
        let effects = (isAsync ? "async " : "") + "throws(MediatorError)"
        line("    public func \(SwiftWrappers.code(method.name))(\(signature.joined(separator: ", "))) \(effects) -> \(returnType) {")
        var arguments = "target: \(literal(target.name)), action: \(literal(action.name))"
        let variable = method.paramsVariable
        if method.arguments == nil {
            arguments += ", params: params"
        } else if !optional.isEmpty {
            line("        var \(variable): Params = [\(sent.isEmpty ? ":" : sent.joined(separator: ", "))]")
            for argument in optional { line("        \(variable)[\(literal(argument.parameter.name))] = \(SwiftWrappers.code(argument.localName))") }
            arguments += ", params: \(variable)"
        } else if !sent.isEmpty {
            arguments += ", params: [\(sent.joined(separator: ", "))]"
        }
        if let result = method.result { arguments += ", as: \(result.swiftType.hasPrefix("any ") ? "(\(result.swiftType))" : result.swiftType).self" }
        let prefix = optional.isEmpty ? "" : "return "
        // Through `self`: a parameter may be named `call` (none is named `self` inside the method).
        line("        \(prefix)try \(isAsync ? "await self.call" : "self.callNow")(\(arguments))")
        line("    }")
    }
}
