import Mediator
import MediatorCommandLine
import TestSupport
import Testing

struct TillOrder: Codable, Sendable {
    var item: String
    var quantity: Int
}

struct TillReceipt: Codable, Sendable {
    var number: Int
}

extension ActionKey where Input == TillOrder, Output == TillReceipt {
    fileprivate static var tillOrder: Self { Self(target: "Till", action: "order") }
}

typealias TillCallback = @Sendable (Int) -> Void

/// A mediator with one target whose actions declare params of every kind, and a tool over it.
private struct Shop {
    let mediator = Mediator()
    let ran = Counter()
    var tool: CommandLineTool { CommandLineTool(mediator: mediator, name: "tool", version: "1") }

    init() throws {
        let ran = ran
        try mediator.register(
            target: "Shop", summary: "Orders",
            actions: [
                Action(
                    "list", summary: "List orders",
                    params: [
                        .required("token", .string, "A session token"),
                        .optional("limit", .integer(minimum: 1, maximum: 100), default: 20, "How many orders"),
                        .optional("tags", .array(of: .integer)),
                    ],
                    result: .array(of: .object)
                ) { _, params in params }.undeclaredParameters(.refused),
                Action("peek", summary: "Returns its params", params: [.required("id", .integer)]) { _, params in params },
                Action(
                    "everything",
                    params: [
                        .required("name", .string), .required("size", .integer(minimum: 5)), .required("ratio", .number(minimum: 0.5, maximum: 0.9)),
                        .required("on", .boolean), .required("ids", .array(of: .integer)),
                        .optional("note", .string, default: #"it's a "note""#), .optional("words", .array(of: .string), default: ["a b", "c"]),
                        .optional("unsent", .string),
                    ]
                ) { _, params in params },
                Action("filtered", params: [.required("filter", .object)]) { _, params in params },
                Action("notify", params: [.required("onDone", .value(TillCallback.self))]) { _, _ in nil },
                Action("counted", params: [.optional("x", .integer)]) { _, _ in
                    ran.increment()
                    return nil
                },
            ])
        try mediator.register(
            target: "Till", make: { _ in TillInstance() },
            actions: [
                Action(.tillOrder, summary: "Place an order", localOnly: true) { _, order async throws in TillReceipt(number: order.quantity) }
            ])
    }
}

private final class TillInstance: Sendable {}

/// The lines of `run`'s output after the one starting with `prefix`, that prefix removed.
private func value(of prefix: String, in lines: [String]) -> String? {
    lines.first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
}

@Suite("Command line: contracts (describe, perform --help, verify, undeclared params)")
struct ContractCommandLineTests {
    @Test("describe prints a declared action's usage, params, result, reach, policy and examples, line by line")
    func describeText() async throws {
        let shop = try Shop()
        let run = await ToolRun.run(shop.tool, ["describe", "Shop", "list"])
        #expect(run.status == 0, "\(run)")
        #expect(run.errors.isEmpty)
        #expect(
            run.output.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false) == [
                "Shop/list: List orders",
                "  usage: tool perform Shop list token=<string> [limit=<integer>] [tags=<integer>...]",
                "  params:",
                "    token: string, required - A session token",
                "    limit: integer (1...100), optional, default 20 - How many orders",
                "    tags: array of integer, optional",
                "  result: array of object",
                "  reach: remote (URL calls allowed)",
                "  async: no",
                "  undeclared params: refused",
                "  example URL: app://Shop/list?token=text&limit=20",
                "  example: tool perform Shop list token=text limit=20",
            ])
    }

    @Test("The example URL uses a scheme the URL policy allows, and there is none for a target it keeps out")
    func exampleURLFollowsPolicy() async throws {
        let shop = try Shop()
        shop.mediator.urlPolicy = URLPolicy(allowedSchemes: ["zshop", "shop"])
        var run = await ToolRun.run(shop.tool, ["describe", "Shop", "peek"])
        #expect(value(of: "  example URL: ", in: run.output.flatMap { $0.split(separator: "\n").map(String.init) }) == "shop://Shop/peek?id=1")
        shop.mediator.urlPolicy = URLPolicy(allowedTargets: ["Till"])
        run = await ToolRun.run(shop.tool, ["describe", "Shop", "peek"])
        #expect(run.output.first?.contains("  example URL: none: the URL policy does not allow target \"Shop\"\n") == true, "\(run)")
    }

    @Test("A keyed, async, local-only action shows its key's types, and no example URL")
    func describeKeyedAction() async throws {
        let shop = try Shop()
        let run = await ToolRun.run(shop.tool, ["describe", "Till", "Action_order:"])
        let lines = run.output.joined(separator: "\n").split(separator: "\n").map(String.init)
        #expect(run.status == 0, "\(run)")
        #expect(lines.first == "Till/order: Place an order")
        #expect(lines.contains("  usage: tool perform Till order item=<string> quantity=<integer>"), "\(lines)")
        #expect(lines.contains("  reach: local-only (URL calls are refused)"))
        #expect(lines.contains("  async: yes"))
        #expect(lines.contains { $0.hasPrefix("  typed key: ActionKey<") && $0.contains("TillOrder") && $0.contains("TillReceipt") }, "\(lines)")
        #expect(lines.contains("  example URL: none: the action is local-only"))
        #expect(lines.contains("  example: tool perform Till order item=text quantity=1"))
    }

    @Test("Examples send what the action accepts: the example URL validates, and the example command line runs")
    func examplesAreAccepted() async throws {
        let shop = try Shop()
        for action in ["list", "peek", "everything", "filtered", "counted"] {
            let run = await ToolRun.run(shop.tool, ["describe", "Shop", action])
            let lines = run.output.joined(separator: "\n").split(separator: "\n").map(String.init)
            let url = try #require(value(of: "  example URL: ", in: lines))
            // The command line, as a POSIX shell would split it: a batch line splits the same way.
            let command = try #require(value(of: "  example: tool perform ", in: lines))
            let performed = await ToolRun.run(shop.tool, ["batch"], input: command)
            #expect(performed.status == 0, "\(command): \(performed)")
            if action == "filtered" {
                #expect(url == "none: a required param is not text, a number or a boolean")
            } else {
                // The URL sends the same params as the command line.
                do {
                    try shop.mediator.validate(url: url)
                    let result = try await shop.mediator.call(url: url)
                    #expect([JSONValue(result: result).serialized] == performed.output, "\(url)")
                } catch {
                    Issue.record("\(url): \(error)")
                }
            }
            if action == "everything" {
                #expect(url == "app://Shop/everything?name=text&size=5&ratio=0.5&on=true&ids=1&note=it%27s%20a%20%22note%22&words=a%20b&words=c")
                #expect(
                    command == #"Shop everything name=text size=5 ratio=0.5 on=true ids=1 'note=it'\''s a "note"' 'words=a b' words=c"#)
                #expect(performed.output == [#"{"ids":[1],"name":"text","note":"it's a \"note\"","on":true,"ratio":0.5,"size":5,"words":["a b","c"]}"#])
            }
        }
    }

    @Test("A required param no command line can send: no example, and the usage leaves it out")
    func inProcessOnlyParam() async throws {
        let shop = try Shop()
        let run = await ToolRun.run(shop.tool, ["describe", "Shop", "notify"])
        let lines = run.output.joined(separator: "\n").split(separator: "\n").map(String.init)
        #expect(lines.contains("  usage: tool perform Shop notify"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("    onDone: value of type ") && $0.hasSuffix(", required, in-process only") }, "\(lines)")
        #expect(lines.contains(#"  example URL: none: "onDone" takes an in-process value"#))
        #expect(lines.contains(#"  example: none: "onDone" takes an in-process value"#))
    }

    @Test("perform <Target> <action> --help (or -h) prints describe's text for that action, exits 0 and runs nothing")
    func performHelp() async throws {
        let shop = try Shop()
        let described = await ToolRun.run(shop.tool, ["describe", "Shop", "counted"])
        for arguments in [
            ["perform", "Shop", "counted", "--help"], ["perform", "Shop", "counted", "-h"], ["perform", "--help", "Shop", "counted", "x=1"],
            ["perform", "--params-json", "{}", "Shop", "counted", "-h"], ["perform", "Shop", "Action_counted", "--cache", "--help"],
        ] {
            let run = await ToolRun.run(shop.tool, arguments)
            #expect(run.status == 0, "\(arguments): \(run)")
            #expect(run.output == described.output, "\(arguments)")
            #expect(run.errors.isEmpty)
        }
        #expect(shop.ran.value == 0)
        #expect(await ToolRun.run(shop.tool, ["perform", "Shop", "counted"]).status == 0)
        #expect(shop.ran.value == 1)
        // Without both names it is still the command's help; an unknown action is reported as describe reports it.
        #expect(await ToolRun.run(shop.tool, ["perform", "Shop", "--help"]).output.first?.hasPrefix("USAGE: tool perform") == true)
        let unknown = await ToolRun.run(shop.tool, ["perform", "Shop", "cuonted", "--help"])
        #expect(unknown.status == 69)
        #expect(unknown.errors.count == 1)
        #expect(unknown.errors.first?.contains(#"did you mean "counted"?"#) == true, "\(unknown)")
    }

    @Test("An undeclared param is accepted in-process, refused from the command line in perform and in batch, and dropped from a batch's URL")
    func undeclaredRefusedFromCommandLine() async throws {
        let shop = try Shop()
        let inProcess = try await shop.mediator.call(target: "Shop", action: "peek", params: ["id": "1", "extra": "x"])
        let params = try #require(inProcess as? Params)
        #expect(params.values["extra"] as? String == "x")
        #expect(params.values["id"] as? Int == 1)
        let expected = #"tool: error: Shop/peek: undeclared parameter "extra": the action takes id"#
        let performed = await ToolRun.run(shop.tool, ["perform", "Shop", "peek", "id=1", "extra=x"])
        #expect(performed.status == 65)
        #expect(performed.output.isEmpty)
        #expect(performed.errors == [expected])
        let batch = await ToolRun.run(shop.tool, ["batch"], input: "Shop peek id=1 extra=x\napp://Shop/peek?id=1&extra=x\nShop peek id=1\n")
        #expect(batch.status == 1)
        #expect(batch.errors == [expected.replacingOccurrences(of: "error: ", with: "error: line 1: ")])
        #expect(batch.output == [#"{"id":1}"#, #"{"id":1}"#])
    }

    struct BadInput: Sendable, CustomTestStringConvertible {
        let pairs: [(String, String)]
        var testDescription: String { pairs.isEmpty ? "(none)" : pairs.map { "\($0)=\($1)" }.joined(separator: " ") }
    }

    static let badInputs: [BadInput] = [
        BadInput(pairs: []), BadInput(pairs: [("token", "t"), ("limit", "abc")]), BadInput(pairs: [("token", "t"), ("limit", "500")]),
        BadInput(pairs: [("token", "t"), ("color", "red")]), BadInput(pairs: [("token", "t"), ("tags", "x")]),
        BadInput(pairs: [("limit", "0"), ("colour", "red")]),
    ]

    @Test("The same bad input gives the same error through mediator.call, call(url:), perform and a batch line", arguments: badInputs)
    func sameErrorEverywhere(_ input: BadInput) async throws {
        let shop = try Shop()
        var values: [String: any Sendable] = [:]
        for (key, value) in input.pairs { values[key] = value }
        let direct = await #expect(throws: MediatorError.self) { try await shop.mediator.call(target: "Shop", action: "list", params: Params(values)) }
        let message = try #require(direct?.description)
        #expect(direct?.code == .invalidParameter)
        let query = input.pairs.map { "\($0)=\($1)" }.joined(separator: "&")
        let viaURL = await #expect(throws: MediatorError.self) { try await shop.mediator.call(url: "app://Shop/list?" + query) }
        #expect(viaURL?.description == message)
        let words = input.pairs.map { "\($0)=\($1)" }
        let performed = await ToolRun.run(shop.tool, ["perform", "Shop", "list"] + words)
        #expect(performed.status == 65)
        #expect(performed.errors == ["tool: error: " + message])
        let batch = await ToolRun.run(shop.tool, ["batch"], input: (["Shop", "list"] + words).joined(separator: " "))
        #expect(batch.errors == ["tool: error: line 1: " + message])
    }

    @Test("The table's errors are the ones documented")
    func sameErrorTexts() async throws {
        let shop = try Shop()
        var texts: [String] = []
        for input in Self.badInputs {
            texts += await ToolRun.run(shop.tool, ["perform", "Shop", "list"] + input.pairs.map { "\($0)=\($1)" }).errors
        }
        #expect(
            texts == [
                #"tool: error: Shop/list: missing required parameter "token" (expected string)"#,
                #"tool: error: Shop/list: invalid parameter "limit": expected integer (1...100), got String "abc""#,
                #"tool: error: Shop/list: invalid parameter "limit": expected integer (1...100), got String "500" (out of range)"#,
                #"tool: error: Shop/list: undeclared parameter "color": the action takes token, limit?, tags?"#,
                #"tool: error: Shop/list: invalid parameter "tags": expected array of integer, got String "x""#,
                #"tool: error: Shop/list: missing required parameter "token" (expected string)"#,
            ])
    }

    @Test("verify with no problem prints nothing and exits 0; with --json, an empty list")
    func verifyClean() async throws {
        let shop = try Shop()
        shop.mediator.require([.action(target: "Shop", action: "peek", params: [.required("id", .integer)])], by: "Tests")
        let run = await ToolRun.run(shop.tool, ["verify"])
        #expect(run.status == 0)
        #expect(run.output.isEmpty)
        #expect(run.errors.isEmpty)
        let json = await ToolRun.run(shop.tool, ["verify", "--json"])
        #expect(json.status == 0)
        #expect(json.output == [#"{"ok":true,"result":{"problems":[]}}"#])
    }

    @Test("verify with problems prints one line per problem on standard error and exits 1; with --json, their list")
    func verifyProblems() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Shop", actions: [Action("bad", params: [.required("a", .string), .optional("b", .integer, default: "x")]) { _, _ in nil }])
        mediator.require([.action(target: "Billing", action: "charge"), .action(target: "Shop", action: "refund")], by: "Checkout")
        let problems = mediator.verify()
        #expect(problems.count >= 3, "\(problems)")
        let tool = CommandLineTool(mediator: mediator, name: "tool", version: "1")
        let run = await ToolRun.run(tool, ["verify"])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.errors == problems.map { "tool: error: \($0.description)" })
        #expect(run.errors.contains { $0.hasPrefix("tool: error: Billing/charge: ") }, "\(run)")

        let json = await ToolRun.run(tool, ["--json", "verify"])
        #expect(json.status == 1)
        #expect(json.errors == run.errors)
        let object = try JSONValue(parsing: try #require(json.output.first))
        guard case .object(let fields) = object, case .object(let error)? = fields["error"], case .array(let listed)? = error["problems"] else {
            Issue.record("not an error object: \(json)")
            return
        }
        #expect(fields["ok"] == .bool(false))
        #expect(error["code"] == .string("contractProblems"))
        #expect(error["message"] == .string("verify found \(problems.count) problems"))
        #expect(listed.count == problems.count)
        var first: [String: JSONValue] = [
            "code": .string(problems[0].code.rawValue), "message": .string(problems[0].reason), "description": .string(problems[0].description),
        ]
        if let target = problems[0].target { first["target"] = .string(target) }
        if let action = problems[0].action { first["action"] = .string(action) }
        #expect(listed.first == .object(first))
        #expect(await ToolRun.run(tool, ["verify", "Shop"]).status == 64)
    }

    @Test("list shows each declared action's params after its summary; --json lists them, null where not declared")
    func listParams() async throws {
        let shop = try Shop()
        try shop.mediator.register(target: "Plain", actions: [Action("go", summary: "Goes") { _, _ in nil }])
        let run = await ToolRun.run(shop.tool, ["list"])
        let lines = run.output.joined(separator: "\n").split(separator: "\n").map(String.init)
        #expect(lines.contains("  list        Action_list        remote      List orders (token, limit?, tags?)"), "\(lines)")
        #expect(lines.contains("  counted     Action_counted     remote      (x?)"), "\(lines)")
        #expect(lines.contains("  go  Action_go  remote      Goes"), "\(lines)")
        let json = await ToolRun.run(shop.tool, ["list", "--json"])
        let parsed = try JSONValue(parsing: try #require(json.output.first))
        guard case .object(let root) = parsed, case .object(let result)? = root["result"], case .array(let targets)? = result["targets"] else {
            Issue.record("not a listing: \(json)")
            return
        }
        var params: [String: JSONValue] = [:]
        for case .object(let target) in targets {
            guard case .array(let actions)? = target["actions"] else { continue }
            for case .object(let action) in actions {
                if case .string(let name)? = action["name"] { params[name] = action["params"] }
            }
        }
        #expect(params["go"] == .null)
        #expect(
            params["list"]
                == .array([
                    .object(["name": .string("token"), "type": .string("string"), "required": .bool(true), "summary": .string("A session token")]),
                    .object([
                        "name": .string("limit"), "type": .string("integer (1...100)"), "required": .bool(false), "default": .int(20),
                        "summary": .string("How many orders"),
                    ]),
                    .object(["name": .string("tags"), "type": .string("array of integer"), "required": .bool(false)]),
                ]))
    }
}
