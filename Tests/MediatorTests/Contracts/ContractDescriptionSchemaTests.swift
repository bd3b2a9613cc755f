import Foundation
import Mediator
import MediatorDiagnostics
import TestSupport
import Testing

// The registry description as JSON, checked against its own JSON Schema
// (Schemas/registry-description.schema.json), and each action's params schema checked against
// what the mediator accepts.

/// The schema of the description document, read from the repository.
enum DescriptionSchema {
    /// `Schemas/registry-description.schema.json`, found from this file's path
    /// (`Tests/MediatorTests/Contracts/` is three levels below the repository's root).
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Schemas").appendingPathComponent("registry-description.schema.json")

    static func load() throws -> JSONSchemaCheck {
        JSONSchemaCheck(schema: try JSONReader.read(String(contentsOf: url, encoding: .utf8)))
    }
}

/// One step into a JSON document: a key or an index.
enum Step: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case key(String)
    case index(Int)
    init(stringLiteral value: String) { self = .key(value) }
    init(integerLiteral value: Int) { self = .index(value) }
}

extension JSONDocument {
    /// The value at `path`, or `nil`.
    func at(_ path: [Step]) -> JSONDocument? {
        guard let step = path.first else { return self }
        switch step {
        case .key(let key): return self[key]?.at(Array(path.dropFirst()))
        case .index(let index): return elements.flatMap { index < $0.count ? $0[index].at(Array(path.dropFirst())) : nil }
        }
    }

    /// The document with the value at `path` replaced (`nil`: removed).
    func setting(_ value: JSONDocument?, at path: [Step]) -> JSONDocument {
        guard let step = path.first else { return value ?? .null }
        let rest = Array(path.dropFirst())
        switch (step, self) {
        case (.key(let key), .object(var fields)):
            if rest.isEmpty {
                fields[key] = value
            } else {
                fields[key] = (fields[key] ?? .null).setting(value, at: rest)
            }
            return .object(fields)
        case (.index(let index), .array(var items)):
            if rest.isEmpty, value == nil {
                items.remove(at: index)
            } else {
                items[index] = items[index].setting(value, at: rest)
            }
            return .array(items)
        default:
            return self
        }
    }
}

/// A registry that uses every parameter type, every policy, sync, async, local-only and keyed
/// actions, and targets with and without instances.
struct DescribedWorld {
    let mediator = Mediator()

    static let all: [Parameter] = [
        .required("s", .string, "Text"),
        .optional("i", .integer, default: 3, "An integer"),
        .optional("limit", .integer(minimum: 1, maximum: 100), default: 20, "How many"),
        .optional("low", .integer(minimum: 0)),
        .optional("n", .number, default: 0.5),
        .optional("ratio", .number(minimum: 0, maximum: 1)),
        .optional("flag", .boolean, default: false),
        .optional("names", .array(of: .string), default: ["a"]),
        .optional("ids", .array(of: .integer(minimum: 0, maximum: 9))),
        .optional("weights", .array(of: .number)),
        .optional("flags", .array(of: .boolean)),
        .optional("meta", .object),
        .optional("author", .object([.required("name", .string, "Who"), .optional("age", .integer(minimum: 0))]), "The author"),
        .optional("authors", .array(of: .object([.required("name", .string)]))),
        .optional("marker", .value(Marker.self), "In-process only"),
    ]

    init() throws {
        try mediator.register(
            target: "Everything", summary: "One of each",
            make: { _ in ContractBox() },
            actions: [
                Action("all", summary: "Every type", params: Self.all, result: .object([.required("id", .integer), .optional("tags", .array(of: .string))])) {
                    _, _ in ["id": 1, "tags": ["a"]] as [String: any Sendable]
                },
                Action("open", params: [.required("q", .string)]) { _, _ in nil }.undeclaredParameters(.ignored),
                Action("strict", params: [.optional("x", .integer)]) { _, _ in nil }.undeclaredParameters(.refused),
                Action("local", result: .value(Marker.self), localOnly: true) { _, _ in Marker(id: 1) },
                Action("later", params: [], result: .boolean) { _, _ async in true },
                Action("plain") { _, _ in nil },
            ])
        try mediator.register(
            target: "Keys", make: { _ in ContractBox() },
            actions: [
                Action(.summarize) { _, draft in draft.summary() },
                Action(.summarizeLater) { _, draft async in draft.summary() },
                Action(.search) { _, search in search.answer() },
                Action(.list) { _, list in Array(0..<(list.limit ?? 0)) },
            ])
        try mediator.register(target: "Cached", alwaysCached: true, make: { _ in ContractBox() }, actions: [Action("x") { _, _ in nil }])
        try mediator.register(target: "Closures", actions: [Action<Mediator>("ping") { _, _ in "pong" }])
    }

    var document: JSONDocument {
        get throws { try JSONReader.read(RegistryDescription(targets: mediator.targets).json) }
    }

    /// The path of an action in the document (targets and actions are sorted by name).
    func path(_ target: String, _ action: String) throws -> [Step] {
        let document = try document
        let targets = try #require(document["targets"]?.elements)
        let targetIndex = try #require(targets.firstIndex { $0["name"]?.text == target })
        let actions = try #require(targets[targetIndex]["actions"]?.elements)
        let actionIndex = try #require(actions.firstIndex { $0["name"]?.text == action })
        return ["targets", .index(targetIndex), "actions", .index(actionIndex)]
    }

    /// The params schema of an action, as a validator.
    func paramsSchema(_ target: String, _ action: String) throws -> JSONSchemaCheck {
        JSONSchemaCheck(schema: try #require(try document.at(try path(target, action) + ["params"])))
    }
}

@Suite("Registry description: the JSON against its own schema")
struct ContractDescriptionSchemaTests {
    @Test("The schema file is itself strict JSON, and standard JSON tools read the description too")
    func wellFormed() throws {
        let schema = try JSONReader.read(String(contentsOf: DescriptionSchema.url, encoding: .utf8))
        #expect(schema["$schema"]?.text == "https://json-schema.org/draft/2020-12/schema")
        let json = try RegistryDescription(targets: DescribedWorld().mediator.targets).json
        #expect(json.hasSuffix("}\n"))
        #expect(throws: Never.self) { try JSONReader.read(json) }
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(json.utf8)) }
    }

    @Test("The description of a registry that uses every parameter type validates against the schema")
    func validates() throws {
        let check = try DescriptionSchema.load()
        let document = try DescribedWorld().document
        #expect(check.errors(document) == [])
        #expect(document["format"] == .string("mediator-registry"))
        #expect(document["version"] == .integer(RegistryDescription.formatVersion))
        #expect(RegistryDescription.formatVersion == 1)
        #expect(document["targets"]?.elements?.compactMap { $0["name"]?.text } == ["Cached", "Closures", "Everything", "Keys"])
    }

    @Test("An empty registry's description validates too")
    func emptyRegistry() throws {
        let document = try JSONReader.read(RegistryDescription(targets: Mediator().targets).json)
        #expect(try DescriptionSchema.load().errors(document) == [])
        #expect(document == .object(["format": .string("mediator-registry"), "version": .integer(1), "targets": .array([])]))
    }

    @Test("Every parameter type becomes the JSON Schema written here by hand")
    func paramsSchemaByHand() throws {
        let world = try DescribedWorld()
        let params = try #require(try world.document.at(try world.path("Everything", "all") + ["params"]))
        let expected = try JSONReader.read(
            #"""
            {
              "$schema": "https://json-schema.org/draft/2020-12/schema",
              "type": "object",
              "properties": {
                "s": {"type": "string", "description": "Text"},
                "i": {"type": "integer", "description": "An integer", "default": 3},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "How many", "default": 20},
                "low": {"type": "integer", "minimum": 0},
                "n": {"type": "number", "default": 0.5},
                "ratio": {"type": "number", "minimum": 0, "maximum": 1},
                "flag": {"type": "boolean", "default": false},
                "names": {"type": "array", "items": {"type": "string"}, "default": ["a"]},
                "ids": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 9}},
                "weights": {"type": "array", "items": {"type": "number"}},
                "flags": {"type": "array", "items": {"type": "boolean"}},
                "meta": {"type": "object"},
                "author": {
                  "type": "object",
                  "properties": {"name": {"type": "string", "description": "Who"}, "age": {"type": "integer", "minimum": 0}},
                  "required": ["name"],
                  "description": "The author"
                },
                "authors": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}},
                "marker": {"x-swiftType": "Marker", "x-inProcessOnly": true, "description": "In-process only"}
              },
              "required": ["s"],
              "additionalProperties": false
            }
            """#)
        #expect(params.sameValue(as: expected), "\(params)")
        let result = try #require(try world.document.at(try world.path("Everything", "all") + ["result"]))
        let expectedResult = try JSONReader.read(
            #"""
            {
              "$schema": "https://json-schema.org/draft/2020-12/schema",
              "type": "object",
              "properties": {"id": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}},
              "required": ["id"]
            }
            """#)
        #expect(result.sameValue(as: expectedResult), "\(result)")
    }

    @Test("Each action's fields say what the registration said: summary, remote, async, policy, key")
    func actionFields() throws {
        let world = try DescribedWorld()
        let document = try world.document
        func action(_ target: String, _ name: String) throws -> JSONDocument { try #require(document.at(try world.path(target, name))) }
        let all = try action("Everything", "all")
        #expect(all["fullName"] == .string("Action_all"))
        #expect(all["summary"] == .string("Every type"))
        #expect(all["remote"] == .boolean(true))
        #expect(all["async"] == .boolean(false))
        #expect(all["undeclaredParameters"] == .string("droppedFromURLs"))
        #expect(all["key"] == nil)
        #expect(try action("Everything", "open")["undeclaredParameters"] == .string("ignored"))
        #expect(try action("Everything", "open")["params"]?["additionalProperties"] == nil)
        #expect(try action("Everything", "strict")["params"]?["additionalProperties"] == .boolean(false))
        #expect(try action("Everything", "strict")["undeclaredParameters"] == .string("refused"))
        #expect(try action("Everything", "local")["remote"] == .boolean(false))
        #expect(try action("Everything", "local")["result"]?["x-inProcessOnly"] == .boolean(true))
        #expect(try action("Everything", "later")["async"] == .boolean(true))
        #expect(try action("Everything", "later")["params"]?["properties"] == .object([:]))
        #expect(try action("Everything", "plain")["params"] == nil)
        #expect(try action("Everything", "plain")["result"] == nil)
        #expect(try action("Everything", "plain")["summary"] == nil)
        #expect(try action("Keys", "summarize")["key"] == .object(["input": .string("KeyedDraft"), "output": .string("KeyedSummary")]))
        #expect(try action("Keys", "summarizeLater")["async"] == .boolean(true))
        let targets = try #require(document["targets"]?.elements)
        let byName = Dictionary(uniqueKeysWithValues: targets.map { ($0["name"]?.text ?? "", $0) })
        #expect(byName["Everything"]?["summary"] == .string("One of each"))
        #expect(byName["Everything"]?["fullName"] == .string("Target_Everything"))
        #expect(byName["Everything"]?["hasInstances"] == .boolean(true))
        #expect(byName["Everything"]?["alwaysCached"] == .boolean(false))
        #expect(byName["Cached"]?["alwaysCached"] == .boolean(true))
        #expect(byName["Closures"]?["hasInstances"] == .boolean(false))
    }

    @Test("Hand-broken documents fail validation where they were broken: the validator and the schema can say no", arguments: 0..<13)
    func brokenDocuments(_ index: Int) throws {
        let world = try DescribedWorld()
        let document = try world.document
        let check = try DescriptionSchema.load()
        #expect(check.errors(document) == [])
        let all = try world.path("Everything", "all")
        let open = try world.path("Everything", "open")
        func pointer(_ path: [Step]) -> String {
            path.map { step in
                switch step {
                case .key(let key): "/" + key
                case .index(let index): "/\(index)"
                }
            }.joined()
        }
        // Each broken document, and where (a JSON pointer prefix) an error must be reported.
        let broken: [(String, JSONDocument, String)] = [
            ("no version", document.setting(nil, at: ["version"]), #"/: missing required property "version""#),
            ("version 2", document.setting(.integer(2), at: ["version"]), "/version: "),
            ("another format", document.setting(.string("other"), at: ["format"]), "/format: "),
            ("an unknown top-level field", document.setting(.boolean(true), at: ["extra"]), #"/: property "extra" is not allowed"#),
            ("alwaysCached as text", document.setting(.string("yes"), at: ["targets", 0, "alwaysCached"]), "/targets/0/alwaysCached: "),
            ("an action without remote", document.setting(nil, at: all + ["remote"]), pointer(all) + ": "),
            ("a prefixed short name", document.setting(.string("Action_all"), at: all + ["name"]), pointer(all) + ": "),
            ("params open although undeclared params are refused", document.setting(nil, at: all + ["params", "additionalProperties"]), pointer(all) + ": "),
            (
                "params closed although undeclared params are ignored", document.setting(.boolean(false), at: open + ["params", "additionalProperties"]),
                pointer(open) + ": "
            ),
            ("an unknown type", document.setting(.object(["type": .string("date")]), at: all + ["params", "properties", "s"]), pointer(all) + ": "),
            (
                "a value type without x-inProcessOnly", document.setting(nil, at: all + ["params", "properties", "marker", "x-inProcessOnly"]),
                pointer(all) + ": "
            ),
            ("a fractional integer bound", document.setting(.number(1.5), at: all + ["params", "properties", "limit", "minimum"]), pointer(all) + ": "),
            ("a default of another type", document.setting(.string("three"), at: all + ["params", "properties", "i", "default"]), pointer(all) + ": "),
        ]
        #expect(broken.count == 13)
        let (name, value, place) = broken[index]
        #expect(value != document, "\(name): the mutation did nothing")
        let errors = check.errors(value)
        #expect(errors.contains { $0.hasPrefix(place) }, "\(name): \(errors)")
        // Nothing else is wrong: every error is on the path to the broken place.
        #expect(errors.allSatisfy { place.hasPrefix($0.prefix { $0 != ":" }) || $0.hasPrefix(place) }, "\(name): \(errors)")
    }

    @Test("Defaults satisfy their own schemas, at every level")
    func defaultsFitTheirSchemas() throws {
        let world = try ContractWorld([
            .optional("n", .number, default: 1), .optional("tags", .array(of: .string), default: "a"), .optional("i", .integer, default: 2.0),
            .optional("o", .object([.optional("deep", .array(of: .integer), default: [1, 2])]), default: ["deep": [3]] as [String: any Sendable]),
        ])
        for document in [try JSONReader.read(RegistryDescription(targets: world.mediator.targets).json), try DescribedWorld().document] {
            var checked = 0
            func walk(_ schema: JSONDocument, at path: String) {
                if let fields = schema.fields {
                    if let value = fields["default"] {
                        checked += 1
                        let errors = JSONSchemaCheck(schema: schema.setting(nil, at: ["default"])).errors(value)
                        #expect(errors == [], "the default at \(path)")
                    }
                    for (key, item) in fields { walk(item, at: path + "/" + key) }
                } else if let items = schema.elements {
                    for (index, item) in items.enumerated() { walk(item, at: path + "/\(index)") }
                }
            }
            walk(document, at: "")
            #expect(checked >= 4)
        }
    }

    @Test("What actions return fits their result schemas")
    func resultsFitTheirSchemas() throws {
        let world = try DescribedWorld()
        let document = try world.document
        let draft = KeyedDraft(title: "t", body: "b", tags: ["x"], priority: 1, weight: nil, pinned: true, author: KeyedAuthor(name: "n", age: 3), color: .red)
        let calls: [(String, String, Params)] = [
            ("Everything", "all", ["s": "x"]), ("Keys", "summarize", Params(draft.plain)), ("Keys", "search", ["text": "q", "exact": true]),
            ("Keys", "list", ["token": "t", "limit": 2]),
        ]
        for (target, action, params) in calls {
            let schema = try #require(document.at(try world.path(target, action) + ["result"]))
            let result = try #require(json(try world.mediator.callNow(target: target, action: action, params: params)))
            #expect(JSONSchemaCheck(schema: schema).errors(result) == [], "\(target)/\(action)")
        }
    }

    @Test("The JSON stays valid JSON whatever the names, summaries and bounds hold")
    func alwaysValidJSON() throws {
        let mediator = Mediator()
        let summary = "tab\there \u{01} \u{7F} \u{2028} \"quoted\" back\\slash é 🙂"
        try mediator.register(
            target: "Odd", summary: summary, make: { _ in ContractBox() },
            actions: [
                Action(
                    "bounds", summary: summary,
                    params: [
                        .optional("x", .number(maximum: .infinity)), .optional("y", .number(minimum: -.infinity, maximum: .nan)),
                        .optional("z", .number, default: Double.nan), .optional("w", .number(minimum: 1e300, maximum: 1e-300)),
                        .optional("\u{01}odd \"name\"", .string, summary),
                    ]
                ) { _, _ in nil }
            ])
        let json = RegistryDescription(targets: mediator.targets).json
        let document = try JSONReader.read(json)
        #expect(document.at(["targets", 0, "summary"]) == .string(summary))
        #expect(document.at(["targets", 0, "actions", 0, "params", "properties", "\u{01}odd \"name\"", "description"]) == .string(summary))
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(json.utf8)) }
    }
}

@Suite("Registry description: params schemas agree with validation")
struct ContractSchemaAgreementTests {
    /// A params object that both JSON Schema and the mediator judge, with their expected verdict.
    struct Row: Sendable, CustomTestStringConvertible {
        let target: String
        let action: String
        let params: [String: any Sendable]
        let valid: Bool
        var testDescription: String { "\(target)/\(action) \(json(params).map(\.description) ?? "?") \(valid ? "valid" : "invalid")" }
    }

    static func row(_ action: String, _ params: [String: any Sendable], _ valid: Bool) -> Row {
        Row(target: "Everything", action: action, params: params, valid: valid)
    }

    static let plainDraft = KeyedDraft(
        title: "t", body: nil, tags: ["a"], priority: 1, weight: 2.5, pinned: false, author: KeyedAuthor(name: "n", age: nil), color: .red
    ).plain

    static func draft(_ change: (inout [String: any Sendable]) -> Void) -> [String: any Sendable] {
        var params = plainDraft
        change(&params)
        return params
    }

    static let rows: [Row] = [
        row("all", ["s": "x"], true),
        row("all", ["s": "", "i": -5, "limit": 1, "low": 0, "n": 2, "ratio": 0, "flag": true], true),
        row("all", ["s": "x", "i": 2.0, "limit": 100, "n": -1.5, "ratio": 1.0], true),
        row("all", ["s": "x", "names": [String](), "ids": [0, 9], "weights": [1, 2.5] as [any Sendable], "flags": [false]], true),
        row("all", ["s": "x", "meta": ["any": ["thing": 1]] as [String: any Sendable]], true),
        row("all", ["s": "x", "author": ["name": "a"] as [String: any Sendable]], true),
        row("all", ["s": "x", "author": ["name": "a", "age": 0, "other": 1] as [String: any Sendable]], true),
        row("all", ["s": "x", "authors": [[String: any Sendable]]()], true),
        row("all", ["s": "x", "authors": [["name": "a"]] as [[String: any Sendable]]], true),
        row("all", [:], false),
        row("all", ["i": 1], false),
        row("all", ["s": 1], false),
        row("all", ["s": true], false),
        row("all", ["s": "x", "i": 1.5], false),
        row("all", ["s": "x", "i": true], false),
        row("all", ["s": "x", "limit": 0], false),
        row("all", ["s": "x", "limit": 101], false),
        row("all", ["s": "x", "limit": 50.5], false),
        row("all", ["s": "x", "low": -1], false),
        row("all", ["s": "x", "n": "many"], false),
        row("all", ["s": "x", "ratio": 1.5], false),
        row("all", ["s": "x", "ratio": -0.1], false),
        row("all", ["s": "x", "flag": 1], false),
        row("all", ["s": "x", "names": [1]], false),
        row("all", ["s": "x", "ids": [10]], false),
        row("all", ["s": "x", "ids": [1.5]], false),
        row("all", ["s": "x", "flags": ["maybe"]], false),
        row("all", ["s": "x", "meta": "x"], false),
        row("all", ["s": "x", "meta": [1]], false),
        row("all", ["s": "x", "author": "a"], false),
        row("all", ["s": "x", "author": [String: any Sendable]()], false),
        row("all", ["s": "x", "author": ["name": 1] as [String: any Sendable]], false),
        row("all", ["s": "x", "author": ["name": "a", "age": -1] as [String: any Sendable]], false),
        row("all", ["s": "x", "authors": [["age": 1]] as [[String: any Sendable]]], false),
        row("all", ["s": "x", "authors": [["name": 1]] as [[String: any Sendable]]], false),
        row("all", ["s": "x", "authors": ["a"]], false),
        row("all", ["s": "x", "extra": 1], false),
        row("open", ["q": "x", "extra": 1], true),
        row("open", ["extra": 1], false),
        row("strict", ["x": 1], true),
        row("strict", [:], true),
        row("strict", ["x": 1, "y": 1], false),
        row("later", [:], true),
        row("later", ["x": 1], false),
        Row(target: "Keys", action: "summarize", params: plainDraft, valid: true),
        Row(
            target: "Keys", action: "summarize",
            params: draft {
                $0["body"] = "b"
                $0["author"] = ["name": "n", "age": 3] as [String: any Sendable]
            }, valid: true),
        Row(target: "Keys", action: "summarize", params: draft { $0["title"] = nil }, valid: false),
        Row(target: "Keys", action: "summarize", params: draft { $0["priority"] = 1.5 }, valid: false),
        Row(target: "Keys", action: "summarize", params: draft { $0["author"] = ["age": 3] as [String: any Sendable] }, valid: false),
        Row(target: "Keys", action: "summarize", params: draft { $0["extra"] = 1 }, valid: false),
        Row(target: "Keys", action: "list", params: ["token": "t", "limit": 100], valid: true),
        Row(target: "Keys", action: "list", params: ["token": "t", "limit": 101], valid: false),
        Row(target: "Keys", action: "search", params: ["text": "q", "exact": false, "tags": ["a"]], valid: true),
        Row(target: "Keys", action: "search", params: ["text": "q"], valid: false),
    ]

    @Test("For JSON values, the params schema and the mediator (as an outside caller) give the same verdict", arguments: rows)
    func agreement(_ row: Row) throws {
        let world = try DescribedWorld()
        let instance = try #require(json(row.params))
        let bySchema = try world.paramsSchema(row.target, row.action).accepts(instance)
        let byMediator =
            mediatorError { () throws(MediatorError) in
                try world.mediator.validateFromOutside(target: row.target, action: row.action, params: Params(row.params))
            } == nil
        #expect(bySchema == row.valid, "JSON Schema")
        #expect(byMediator == row.valid, "mediator")
    }

    static let coercions: [Row] = [
        row("all", ["s": "x", "i": "5"], true),
        row("all", ["s": "x", "n": "1.5"], true),
        row("all", ["s": "x", "flag": "true"], true),
        row("all", ["s": "x", "names": "a"], true),
        row("all", ["s": "x", "ids": "3"], true),
        row("all", ["s": "x", "ids": ["3"]], true),
    ]

    @Test("Text and single values the mediator coerces are beyond JSON Schema: the mediator accepts more, never less", arguments: coercions)
    func coercionsBeyondSchema(_ row: Row) throws {
        let world = try DescribedWorld()
        let instance = try #require(json(row.params))
        #expect(try !world.paramsSchema(row.target, row.action).accepts(instance))
        #expect(throws: Never.self) { try world.mediator.validateFromOutside(target: row.target, action: row.action, params: Params(row.params)) }
    }
}

@Suite("JSON Schema check: the validator itself")
struct JSONSchemaCheckTests {
    func check(_ schema: String, _ instance: String) throws -> Bool {
        JSONSchemaCheck(schema: try JSONReader.read(schema)).accepts(try JSONReader.read(instance))
    }

    @Test("Types: integer takes integral numbers only, number takes no booleans")
    func types() throws {
        #expect(try check(#"{"type":"integer"}"#, "1"))
        #expect(try check(#"{"type":"integer"}"#, "1.0"))
        #expect(try !check(#"{"type":"integer"}"#, "1.5"))
        #expect(try !check(#"{"type":"integer"}"#, #""1""#))
        #expect(try !check(#"{"type":"number"}"#, "true"))
        #expect(try check(#"{"type":["string","null"]}"#, "null"))
        #expect(try !check(#"{"type":"object"}"#, "[]"))
        #expect(try !check(#"{"type":"array"}"#, "{}"))
    }

    @Test("Objects: required, properties, additionalProperties")
    func objects() throws {
        let schema = #"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}"#
        #expect(try check(schema, #"{"a":"x"}"#))
        #expect(try !check(schema, #"{}"#))
        #expect(try !check(schema, #"{"a":1}"#))
        #expect(try !check(schema, #"{"a":"x","b":1}"#))
        #expect(try check(#"{"additionalProperties":{"type":"integer"}}"#, #"{"b":1}"#))
        #expect(try !check(#"{"additionalProperties":{"type":"integer"}}"#, #"{"b":"x"}"#))
    }

    @Test("Arrays, bounds, enum, const, minLength, uniqueItems, pattern")
    func keywords() throws {
        #expect(try !check(#"{"items":{"type":"integer"}}"#, #"[1,"x"]"#))
        #expect(try check(#"{"minimum":1,"maximum":2}"#, "2"))
        #expect(try !check(#"{"minimum":1,"maximum":2}"#, "2.5"))
        #expect(try !check(#"{"minimum":1}"#, "0"))
        #expect(try check(#"{"enum":["a",1]}"#, "1.0"))
        #expect(try !check(#"{"enum":["a",1]}"#, #""b""#))
        #expect(try !check(#"{"const":false}"#, "true"))
        #expect(try !check(#"{"minLength":1}"#, #""""#))
        #expect(try !check(#"{"uniqueItems":true}"#, "[1,1.0]"))
        #expect(try check(#"{"pattern":"^(?!Target_)[a-z]+$"}"#, #""abc""#))
        #expect(try !check(#"{"pattern":"^(?!Target_)[A-Za-z_]+$"}"#, #""Target_X""#))
    }

    @Test("oneOf wants exactly one match; $ref reaches $defs")
    func composition() throws {
        #expect(try check(#"{"oneOf":[{"type":"string"},{"type":"integer"}]}"#, "1"))
        #expect(try !check(#"{"oneOf":[{"type":"number"},{"type":"integer"}]}"#, "1"))
        #expect(try !check(#"{"oneOf":[{"type":"string"}]}"#, "1"))
        #expect(try !check(#"{"anyOf":[{"type":"string"}]}"#, "1"))
        #expect(try !check(##"{"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s"}"##, "1"))
        #expect(try check(##"{"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s"}"##, #""x""#))
        #expect(try !check(##"{"$ref":"#/$defs/missing"}"##, "1"))
    }

    @Test("An unknown keyword is an error, annotations and x- keywords are not")
    func unknownKeywords() throws {
        #expect(try !check(#"{"format":"date"}"#, #""x""#))
        #expect(try check(#"{"description":"d","default":1,"x-swiftType":"T","title":"t"}"#, #""x""#))
    }

    @Test("The reader is strict: duplicate keys, trailing commas, NaN and raw control characters are refused")
    func strictReader() {
        for text in [#"{"a":1,"a":2}"#, "[1,]", "nan", "inf", "\"a\u{01}\"", "01", "1.", "{} {}", #"{"a" 1}"#] {
            #expect(throws: JSONSyntaxError.self, "\(text)") { try JSONReader.read(text) }
        }
        #expect(throws: Never.self) { try JSONReader.read(#" {"a": [1, -2.5e3, "\u00e9\ud83d\ude42", true, null]} "#) }
        #expect((try? JSONReader.read(#""\u00e9\ud83d\ude42""#)) == .string("é🙂"))
    }
}
