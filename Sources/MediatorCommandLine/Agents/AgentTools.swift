import Mediator
import MediatorDiagnostics

/// The tools a mediator offers an agent: one per action a remote caller may reach (not local-only,
/// and allowed by the URL rules for the names asked), named `Target.action`.
///
/// A name is used only when it fits the Model Context Protocol's tool names (1 to 128 of
/// `A`-`Z`, `a`-`z`, `0`-`9`, `_`, `-`, `.`). Names may hold `.` themselves, so two pairs can make
/// the same tool name (`a.b`/`c` and `a`/`b.c`): such a name names neither.
struct AgentTools {
    /// One tool and the action it calls, as the listing shows it.
    struct Tool {
        let name: String
        let targetName: String
        let targetSummary: String?
        let action: ActionInfo
    }

    /// One tool, as a call needs it: the action it calls, and how its results are given.
    struct Callable {
        let targetName: String
        let actionName: String
        let shape: ResultShape
    }

    /// The longest tool name the protocol accepts.
    static let maximumNameLength = 128

    /// Every tool, sorted by name (byte order, as cursors compare).
    static func all(in mediator: Mediator) -> [Tool] {
        var tools: [String: Tool] = [:]
        var ambiguous: Set<String> = []
        for target in mediator.targets {
            for action in target.actions where mediator.agentCallable(target: target.name, action: action.name) != nil {
                guard let name = toolName(target: target.name, action: action.name) else { continue }
                let tool = Tool(name: name, targetName: target.name, targetSummary: target.summary, action: action)
                if tools.updateValue(tool, forKey: name) != nil { ambiguous.insert(name) }
            }
        }
        for name in ambiguous { tools[name] = nil }
        return tools.values.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// The tool called `name`, or nil when no action is offered under that name (or two are).
    /// Looks up each way of cutting the name at a `.` rather than listing every tool.
    static func callable(named name: String, in mediator: Mediator) -> Callable? {
        guard isToolName(name) else { return nil }
        return withUTF8Bytes(of: name) { bytes in
            var found: Callable?
            for index in bytes.indices where bytes[index] == UInt8(ascii: ".") {
                let targetName = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<index]), as: UTF8.self)
                let actionName = String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)...]), as: UTF8.self)
                // Names as registered only: `Target_Notes.create` is not a second name of `Notes.create`.
                guard let callable = mediator.agentCallable(target: targetName, action: actionName) else { continue }
                if found != nil { return nil }
                found = Callable(targetName: targetName, actionName: actionName, shape: resultShape(of: callable.result))
            }
            return found
        }
    }

    /// `Target.action`, or nil when that is not a tool name the protocol accepts.
    static func toolName(target: String, action: String) -> String? {
        let name = target + "." + action
        return isToolName(name) ? name : nil
    }

    /// Whether `name` fits the protocol's tool names.
    static func isToolName(_ name: String) -> Bool {
        withUTF8Bytes(of: name) { utf8 in
            !utf8.isEmpty && utf8.count <= maximumNameLength
                && utf8.allSatisfy { byte in
                    switch byte {
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
                    case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."): true
                    default: false
                    }
                }
        }
    }

    /// The tool as `tools/list` shows it: its name, a title, the action's summary as its
    /// description, the declared params as its input schema (an open object when none are
    /// declared), where a result is declared an output schema, and where effects are declared the
    /// four hints (each `true` when the effect is declared, `false` when not).
    static func listing(of tool: Tool) -> JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(tool.name),
            "title": .string("\(tool.targetName)/\(tool.action.name)"),
            "inputSchema": RegistryDescription.parametersSchema(of: tool.action).map { JSONValue(tree: .object($0)) } ?? .object(["type": .string("object")]),
        ]
        let summary = [tool.action.summary, tool.targetSummary.map { "(\(tool.targetName): \($0))" }].compactMap { $0 }
        object["description"] = .string(summary.isEmpty ? "Calls \(tool.targetName)/\(tool.action.name)." : summary.joined(separator: " "))
        if let effects = tool.action.effects {
            object["annotations"] = .object([
                "readOnlyHint": .bool(effects.contains(.readOnly)), "destructiveHint": .bool(effects.contains(.destructive)),
                "idempotentHint": .bool(effects.contains(.idempotent)), "openWorldHint": .bool(effects.contains(.openWorld)),
            ])
        }
        if let fields = RegistryDescription.resultSchema(of: tool.action) {
            let schema = JSONValue(tree: .object(fields))
            switch resultShape(of: tool.action.result) {
            case .object: object["outputSchema"] = schema
            case .wrapped:
                object["outputSchema"] = .object([
                    "type": .string("object"), "properties": .object(["result": schema]), "required": .array([.string("result")]),
                ])
            case .free: break
            }
        }
        return .object(object)
    }

    /// How a tool's results are given as structured content (which must be an object), decided
    /// from the declared result's type, for the output schema and for every call alike.
    enum ResultShape {
        /// A declared object: the result itself, and a result that is not an object is an error.
        case object
        /// A declared value of another JSON type: `{"result": value}`.
        case wrapped
        /// No declared result, or one with no JSON form (an in-process value): no output schema;
        /// an object as it is, anything else as `{"result": value}`.
        case free
    }

    /// The shape of `action`'s results: read from its declared type's kind, without building
    /// the schema (a call needs only this).
    static func resultShape(of result: ParameterType?) -> ResultShape {
        switch result?.kind {
        case nil, .value?: .free
        case .object?: .object
        case .string?, .integer?, .number?, .boolean?, .array?: .wrapped
        }
    }

    /// A result as structured content, as `shape` says; nil for a declared object the result is not.
    static func structuredContent(_ value: JSONValue, shape: ResultShape) -> JSONValue? {
        switch (shape, value) {
        case (.object, .object), (.free, .object): value
        case (.object, _): nil
        case (.wrapped, _), (.free, _): .object(["result": value])
        }
    }
}

extension JSONValue {
    /// A tree written for people (keys in a chosen order) as a value (keys sorted when written).
    init(tree: JSONTree) {
        switch tree {
        case .object(let fields): self = .object(Dictionary(fields.map { ($0, JSONValue(tree: $1)) }, uniquingKeysWith: { _, last in last }))
        case .array(let items): self = .array(items.map(JSONValue.init(tree:)))
        case .string(let text): self = .string(text)
        case .integer(let value): self = .int(value)
        case .number(let value): self = .double(value)
        case .boolean(let value): self = .bool(value)
        }
    }
}
