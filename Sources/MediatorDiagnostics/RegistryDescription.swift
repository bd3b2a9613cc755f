import Mediator

/// A structured description of targets and their actions (summaries, params with types, required
/// flags, defaults and descriptions, results, remote or local-only, cached or not), exportable as
/// JSON whose params and results are JSON Schema (draft 2020-12).
///
/// ```swift
/// let json = RegistryDescription(targets: mediator.targets).json
/// ```
///
/// The JSON document is an object: `format` (`"mediator-registry"`), `version` (1) and `targets`,
/// each with `name`, `fullName`, `summary`, `alwaysCached`, `hasInstances` and `actions`; each
/// action has `name`, `fullName`, `summary`, `remote`, `async`, `undeclaredParameters`, and when
/// declared `effects` (names of `ActionEffects`: `readOnly`, `destructive`,
/// `idempotent`, `openWorld`), `params` (a JSON Schema of the params object), `result` (a JSON
/// Schema) and `key` (the typed key's `input` and `output` type names). Absent values are left out. See
/// the Mediator library's "Contracts and typed keys" article for an example and for the schema
/// of the document itself.
public struct RegistryDescription: Sendable {
    /// The targets described, in the order given.
    public let targets: [TargetInfo]

    /// A description of `targets` (all of `mediator.targets`, or a selection).
    ///
    /// - Parameter targets: the targets to describe.
    public init(targets: [TargetInfo]) {
        self.targets = targets
    }

    /// The version of the JSON format, in its `version` field.
    public static let formatVersion = 1

    /// The description as JSON text, indented by two spaces, keys in a fixed order.
    public var json: String {
        var text = ""
        JSONTree.object([
            ("format", .string("mediator-registry")),
            ("version", .integer(Self.formatVersion)),
            ("targets", .array(targets.map(Self.tree(of:)))),
        ]).write(to: &text, indent: "")
        return text + "\n"
    }

    private static func tree(of target: TargetInfo) -> JSONTree {
        var fields: [(String, JSONTree)] = [("name", .string(target.name)), ("fullName", .string(target.fullName))]
        if let summary = target.summary { fields.append(("summary", .string(summary))) }
        fields += [
            ("alwaysCached", .boolean(target.isAlwaysCached)), ("hasInstances", .boolean(target.hasInstances)),
            ("actions", .array(target.actions.map(tree(of:)))),
        ]
        return .object(fields)
    }

    private static func tree(of action: ActionInfo) -> JSONTree {
        var fields: [(String, JSONTree)] = [("name", .string(action.name)), ("fullName", .string(action.fullName))]
        if let summary = action.summary { fields.append(("summary", .string(summary))) }
        fields += [
            ("remote", .boolean(!action.isLocalOnly)), ("async", .boolean(action.isAsync)),
            ("undeclaredParameters", .string(action.undeclaredParameters.description)),
        ]
        if let effects = action.effects {
            fields.append(("effects", .array(effects.names.map(JSONTree.string))))
        }
        if let keyTypes = action.keyTypes {
            fields.append(("key", .object([("input", .string(keyTypes.input)), ("output", .string(keyTypes.output))])))
        }
        if let schema = parametersSchema(of: action) {
            fields.append(("params", .object([("$schema", .string("https://json-schema.org/draft/2020-12/schema"))] + schema)))
        }
        if let schema = resultSchema(of: action) {
            fields.append(("result", .object([("$schema", .string("https://json-schema.org/draft/2020-12/schema"))] + schema)))
        }
        return .object(fields)
    }

    /// The JSON Schema keywords of the params object `action` declares (closed to other
    /// properties unless the action passes undeclared params on), `nil` when it declares none.
    /// The one source of a params schema: this description's `params`, and a tool's input schema
    /// in the command-line layer's Model Context Protocol bridge.
    package static func parametersSchema(of action: ActionInfo) -> [(String, JSONTree)]? {
        action.parameters.map { paramsSchema($0, closed: action.undeclaredParameters != .ignored) }
    }

    /// The JSON Schema keywords of the result `action` declares, `nil` when it declares none.
    package static func resultSchema(of action: ActionInfo) -> [(String, JSONTree)]? {
        action.result.map { schema(of: $0) }
    }

    /// An object schema for `parameters`: properties, required names, and (when undeclared params
    /// are refused from outside) no other properties.
    private static func paramsSchema(_ parameters: [Parameter], closed: Bool) -> [(String, JSONTree)] {
        var fields: [(String, JSONTree)] = [
            ("type", .string("object")),
            ("properties", .object(parameters.map { ($0.name, .object(schema(of: $0))) })),
            ("required", .array(parameters.filter(\.isRequired).map { .string($0.name) })),
        ]
        if closed { fields.append(("additionalProperties", .boolean(false))) }
        return fields
    }

    private static func schema(of parameter: Parameter) -> [(String, JSONTree)] {
        var fields = schema(of: parameter.type)
        if let summary = parameter.summary { fields.append(("description", .string(summary))) }
        if let value = parameter.defaultValue, let tree = JSONTree(plain: value) { fields.append(("default", tree)) }
        return fields
    }

    /// The JSON Schema keywords for a type. A `value` type has no JSON form: it is described by
    /// annotations only (`x-swiftType`, `x-inProcessOnly`).
    static func schema(of type: ParameterType) -> [(String, JSONTree)] {
        switch type.kind {
        case .string: return [("type", .string("string"))]
        case .integer(let minimum, let maximum):
            return [("type", .string("integer"))] + bounds(minimum.map { .integer($0) }, maximum.map { .integer($0) })
        case .number(let minimum, let maximum):
            // A bound that is not finite has no JSON form (and bounds nothing a caller can send).
            return [("type", .string("number"))]
                + bounds(minimum.flatMap { $0.isFinite ? .number($0) : nil }, maximum.flatMap { $0.isFinite ? .number($0) : nil })
        case .boolean: return [("type", .string("boolean"))]
        case .array(let element): return [("type", .string("array")), ("items", .object(schema(of: element)))]
        case .object(nil): return [("type", .string("object"))]
        case .object(let fields?): return paramsSchema(fields, closed: false)
        case .value(let name, _): return [("x-swiftType", .string(name)), ("x-inProcessOnly", .boolean(true))]
        }
    }

    private static func bounds(_ minimum: JSONTree?, _ maximum: JSONTree?) -> [(String, JSONTree)] {
        var fields: [(String, JSONTree)] = []
        if let minimum { fields.append(("minimum", minimum)) }
        if let maximum { fields.append(("maximum", maximum)) }
        return fields
    }
}
