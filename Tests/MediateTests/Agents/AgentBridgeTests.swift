import Mediator
import MediatorCommandLine
import TestSupport
import Testing

/// The Model Context Protocol bridge's protocol layer, through ``MCPServer/handle(_:)`` and its
/// stdio transport over bytes in memory: framing, every error path, the tools offered, calls,
/// concurrency, cancellation and pagination.
@Suite("Agent bridge: a mediator's actions as Model Context Protocol tools", hangLimit)
struct AgentBridgeTests {
    /// A door an action waits at until the test opens it; opened once, it stays open.
    actor Gate {
        private var isOpen = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func wait() async {
            if isOpen { return }
            await withCheckedContinuation { waiting.append($0) }
        }

        func open() {
            isOpen = true
            for continuation in waiting { continuation.resume() }
            waiting = []
        }
    }

    struct Point: Encodable, Sendable {
        let x: Int
        let y: Int
    }

    /// What the fixture's actions saw.
    actor Seen {
        var cancelled = false
        func markCancelled() { cancelled = true }
    }

    /// The origin of every call an interceptor saw.
    struct OriginRecorder: Interceptor {
        let origins = ReadWriteLock<[CallOrigin]>([])
        func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
            let origin = request.origin
            origins.withLock { $0.append(origin) }
            return .proceed
        }
    }

    struct Fixture {
        let mediator = Mediator()
        let started = Gate()
        let release = Gate()
        let seen = Seen()
        let creations = ReadWriteLock(0)
        let recorder = OriginRecorder()
        let server: MCPServer

        init(pageSize: Int = MCPServer.defaultPageSize) throws {
            server = MCPServer(mediator: mediator, name: "tests", version: "9.9", instructions: "Use the notes.", pageSize: pageSize)
            let (started, release, seen, creations) = (self.started, self.release, self.seen, self.creations)
            try mediator.register(
                target: "Notes", summary: "Notes",
                actions: [
                    Action("create", summary: "Create a note", params: [.required("title", .string)], result: .object([.required("id", .integer)])) {
                        _, params in
                        creations.withLock { $0 += 1 }
                        return ["id": 7, "title": try params.value("title", as: String.self)] as [String: any Sendable]
                    },
                    Action("broken", result: .object([.required("id", .integer)])) { _, _ in 5 },
                    Action("point", result: .value(Point.self)) { _, _ in Point(x: 1, y: 2) },
                    Action("count", summary: "How many", result: .integer) { _, _ in 3 }.effects([.readOnly, .idempotent]),
                    Action("echo") { _, params in params },
                    Action("wipe", localOnly: true) { _, _ in "wiped" },
                    Action("nativeSecret") { _, _ in "secret" },
                    Action("fail") { _, _ in throw CancellationError() },
                    Action("wait") { _, _ async throws in
                        await started.open()
                        await release.wait()
                        return "done"
                    },
                    Action("waitForCancel") { _, _ async throws in
                        await started.open()
                        await withTaskCancellationHandler {
                            await release.wait()
                        } onCancel: {
                            Task {
                                await seen.markCancelled()
                                await release.open()
                            }
                        }
                        return "not cancelled"
                    },
                ])
            try mediator.register(target: "Other", actions: [Action("ping") { _, _ in "pong" }])
            _ = mediator.addInterceptor(recorder)
        }

        /// A request's response, parsed.
        func request(_ id: Int, _ method: String, _ params: String? = nil) async throws -> JSONValue {
            let message = #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)""# + (params.map { #","params":\#($0)"# } ?? "") + "}"
            let response = try #require(await server.handle(message))
            return try JSONValue(parsing: response)
        }
    }

    // MARK: - The handshake and framing

    @Test("initialize answers the version asked for when served, else the newest; names the server and says listChanged truthfully")
    func initialize() async throws {
        let fixture = try Fixture()
        let asked = try await fixture.request(1, "initialize", #"{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}"#)
        #expect(asked["result"]?["protocolVersion"] == .string("2025-06-18"))
        #expect(asked["result"]?["serverInfo"]?["name"] == .string("tests"))
        #expect(asked["result"]?["capabilities"]?["tools"]?["listChanged"] == .bool(false))
        #expect(asked["result"]?["instructions"] == .string("Use the notes."))
        let newer = try await fixture.request(2, "initialize", #"{"protocolVersion":"2099-01-01","capabilities":{}}"#)
        #expect(newer["result"]?["protocolVersion"] == .string("2025-11-25"))
        let missing = try await fixture.request(3, "initialize", #"{"capabilities":{}}"#)
        #expect(missing["error"]?["code"] == .int(-32602))
        let ping = try await fixture.request(4, "ping")
        #expect(ping["result"] == .object([:]))
    }

    @Test(
        "Malformed messages get the JSON-RPC errors the specification names, and nothing answers a notification or a response",
        arguments: [
            ("not json", -32700), ("[1,2]", -32600), (#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#, -32600),
            (#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, -32600), (#"{"jsonrpc":"2.0","id":1}"#, -32600),
            (#"{"jsonrpc":"2.0","id":1,"method":"tools/nope"}"#, -32601), (#"{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}"#, -32602),
            (#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#, -32602),
            (#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"Notes.echo","arguments":[1]}}"#, -32602),
            (#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"no such cursor!"}}"#, -32602),
            (String(repeating: "[", count: 300) + String(repeating: "]", count: 300), -32700),
        ]
    )
    func errors(message: String, code: Int) async throws {
        let fixture = try Fixture()
        let response = try JSONValue(parsing: try #require(await fixture.server.handle(message)))
        #expect(response["error"]?["code"] == .int(code), "\(response)")
        #expect(response["jsonrpc"] == .string("2.0"))
    }

    @Test("Notifications, unknown ones included, and responses from the client get no answer")
    func noAnswer() async throws {
        let fixture = try Fixture()
        for message in [
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, #"{"jsonrpc":"2.0","method":"notifications/whatever","params":{}}"#,
            #"{"jsonrpc":"2.0","id":5,"result":{}}"#, #"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}"#,
        ] {
            #expect(await fixture.server.handle(message) == nil, "\(message)")
        }
    }

    // MARK: - Tools

    @Test("The tools are the actions a URL could call, named Target.action, sorted, with the declared schemas")
    func tools() async throws {
        let fixture = try Fixture()
        let list = try await fixture.request(1, "tools/list")
        let tools = try #require(list["result"]?["tools"]?.array)
        #expect(
            tools.compactMap { $0["name"]?.string } == [
                "Notes.broken", "Notes.count", "Notes.create", "Notes.echo", "Notes.fail", "Notes.point", "Notes.wait", "Notes.waitForCancel", "Other.ping",
            ])
        let create = try #require(tools.first { $0["name"] == .string("Notes.create") })
        #expect(create["description"] == .string("Create a note (Notes: Notes)"))
        #expect(create["inputSchema"]?["required"] == .array([.string("title")]))
        #expect(create["inputSchema"]?["additionalProperties"] == .bool(false))
        #expect(create["outputSchema"]?["required"] == .array([.string("id")]))
        let count = try #require(tools.first { $0["name"] == .string("Notes.count") })
        #expect(count["outputSchema"]?["properties"]?["result"]?["type"] == .string("integer"))
        #expect(
            count["annotations"]
                == .object(["readOnlyHint": .bool(true), "destructiveHint": .bool(false), "idempotentHint": .bool(true), "openWorldHint": .bool(false)]))
        #expect(create["annotations"] == nil)
        #expect(fixture.mediator.target(named: "Notes")?.actions.first { $0.name == "count" }?.effects == [.readOnly, .idempotent])
        let echo = try #require(tools.first { $0["name"] == .string("Notes.echo") })
        #expect(echo["inputSchema"] == .object(["type": .string("object")]))
        #expect(echo["outputSchema"] == nil)
    }

    @Test("The URL allow-list narrows the tools and refuses calls to the others")
    func allowList() async throws {
        let fixture = try Fixture()
        fixture.mediator.urlPolicy = URLPolicy(allowedTargets: ["Other"])
        let list = try await fixture.request(1, "tools/list")
        #expect(list["result"]?["tools"]?.array?.compactMap { $0["name"]?.string } == ["Other.ping"])
        let call = try await fixture.request(2, "tools/call", #"{"name":"Notes.count"}"#)
        #expect(call["error"]?["code"] == .int(-32602))
    }

    @Test("tools/list pages: each page holds at most the page size, the cursors lead through every tool once")
    func pagination() async throws {
        let fixture = try Fixture(pageSize: 3)
        var names: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try await fixture.request(pages, "tools/list", cursor.map { #"{"cursor":"\#($0)"}"# })
            let tools = try #require(page["result"]?["tools"]?.array)
            #expect(tools.count <= 3)
            names += tools.compactMap { $0["name"]?.string }
            cursor = page["result"]?["nextCursor"]?.string
            pages += 1
        } while cursor != nil && pages < 10
        #expect(pages == 3)  // 9 tools, 3 a page
        #expect(
            names == [
                "Notes.broken", "Notes.count", "Notes.create", "Notes.echo", "Notes.fail", "Notes.point", "Notes.wait", "Notes.waitForCancel", "Other.ping",
            ])
    }

    @Test("Two actions whose names make the same tool name are neither offered nor callable")
    func ambiguousNames() async throws {
        let mediator = Mediator()
        try mediator.register(target: "a.b", actions: [Action("c") { _, _ in "first" }])
        try mediator.register(target: "a", actions: [Action("b.c") { _, _ in "second" }, Action("d") { _, _ in "plain" }])
        let server = MCPServer(mediator: mediator, name: "t", version: "1")
        let list = try JSONValue(parsing: try #require(await server.handle(#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)))
        #expect(list["result"]?["tools"]?.array?.compactMap { $0["name"]?.string } == ["a.d"])
        let call = try JSONValue(parsing: try #require(await server.handle(#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a.b.c"}}"#)))
        #expect(call["error"]?["code"] == .int(-32602))
    }

    // MARK: - Calls

    @Test("A call answers with structured content and the same JSON as text; a non-object result is {\"result\": value}")
    func calls() async throws {
        let fixture = try Fixture()
        let created = try await fixture.request(1, "tools/call", #"{"name":"Notes.create","arguments":{"title":"Engines"}}"#)
        #expect(created["result"]?["structuredContent"] == .object(["id": .int(7), "title": .string("Engines")]))
        #expect(created["result"]?["content"]?[0]?["text"] == .string(#"{"id":7,"title":"Engines"}"#))
        #expect(created["result"]?["isError"] == nil)
        let count = try await fixture.request(2, "tools/call", #"{"name":"Notes.count"}"#)
        #expect(count["result"]?["structuredContent"] == .object(["result": .int(3)]))
    }

    @Test("A failed call is a tool result with isError, its message as text and its code, target, action and parameter as structured content")
    func toolErrors() async throws {
        let fixture = try Fixture()
        let missing = try await fixture.request(1, "tools/call", #"{"name":"Notes.create","arguments":{}}"#)
        let details = missing["result"]?["structuredContent"]
        #expect(missing["result"]?["isError"] == .bool(true))
        #expect(details?["code"] == .string("invalidParameter"))
        #expect(details?["parameter"] == .string("title"))
        #expect(details?["target"] == .string("Notes"))
        #expect(details?["action"] == .string("create"))
        #expect(missing["result"]?["content"]?[0]?["text"]?.string?.contains("missing required parameter \"title\"") == true)
        let undeclared = try await fixture.request(2, "tools/call", #"{"name":"Notes.create","arguments":{"title":"x","owner":"eve"}}"#)
        #expect(undeclared["result"]?["structuredContent"]?["parameter"] == .string("owner"))
        let wrongType = try await fixture.request(3, "tools/call", #"{"name":"Notes.create","arguments":{"title":[1]}}"#)
        #expect(wrongType["result"]?["structuredContent"]?["parameter"] == .string("title"))
    }

    @Test(
        "Local-only and native actions, full names and unknown names are not tools",
        arguments: ["Notes.wipe", "Notes.nativeSecret", "Target_Notes.count", "Notes.Action_count", "Notes.nope", "Nope.count", "Notes", ""])
    func notTools(name: String) async throws {
        let fixture = try Fixture()
        let call = try await fixture.request(1, "tools/call", #"{"name":"\#(name)"}"#)
        #expect(call["error"]?["code"] == .int(-32602))
        #expect(call["error"]?["message"]?.string?.hasPrefix("Unknown tool") == true)
    }

    @Test("A redirect cannot lead an agent's call to a local-only action")
    func redirectToLocalOnly() async throws {
        let fixture = try Fixture()
        var table = RedirectTable()
        try table.redirect("Other/ping", to: "Notes/wipe")
        fixture.mediator.setRedirects(table)
        let call = try await fixture.request(1, "tools/call", #"{"name":"Other.ping"}"#)
        #expect(call["result"]?["structuredContent"]?["code"] == .string("forbidden"))
    }

    @Test("Interceptors see the agent origin, with the name the client gave itself")
    func origin() async throws {
        let fixture = try Fixture()
        _ = try await fixture.request(1, "initialize", #"{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"claude-code","version":"1"}}"#)
        _ = try await fixture.request(2, "tools/call", #"{"name":"Other.ping"}"#)
        #expect(fixture.recorder.origins.withReadLock { $0 } == [.agent("claude-code")])
        #expect(CallOrigin.agent("x").isRemote)
    }

    // MARK: - Concurrency and cancellation

    @Test("A call that waits never holds up another")
    func concurrency() async throws {
        let fixture = try Fixture()
        let slow = Task { try await fixture.request(1, "tools/call", #"{"name":"Notes.wait"}"#) }
        await fixture.started.wait()
        let quick = try await fixture.request(2, "tools/call", #"{"name":"Other.ping"}"#)
        #expect(quick["result"]?["structuredContent"] == .object(["result": .string("pong")]))
        await fixture.release.open()
        #expect(try await slow.value["result"]?["structuredContent"] == .object(["result": .string("done")]))
    }

    @Test("notifications/cancelled cancels the call it names, which gets no response; the id is free again")
    func cancellation() async throws {
        let fixture = try Fixture()
        let call = Task { await fixture.server.handle(#"{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"Notes.waitForCancel"}}"#) }
        await fixture.started.wait()
        #expect(await fixture.server.handle(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w"}}"#) == nil)
        #expect(await call.value == nil)
        #expect(await fixture.seen.cancelled)
        let again = try await fixture.request(3, "tools/call", #"{"name":"Other.ping"}"#)
        #expect(again["result"]?["structuredContent"] == .object(["result": .string("pong")]))
    }

    @Test("A second request with the id of a call still running is refused, and does not run", .bug(id: "mcp-duplicate-id-ran", "a refused duplicate ran"))
    func duplicateID() async throws {
        let fixture = try Fixture()
        let slow = Task { try await fixture.request(1, "tools/call", #"{"name":"Notes.wait"}"#) }
        await fixture.started.wait()
        let duplicate = try await fixture.request(1, "tools/call", #"{"name":"Notes.create","arguments":{"title":"twice"}}"#)
        #expect(duplicate["error"]?["code"] == .int(-32600))
        await fixture.release.open()
        #expect(try await slow.value["result"] != nil)
        #expect(fixture.creations.withReadLock { $0 } == 0)
    }

    @Test("A call cancelled before it arrives does not run and gets no response", .bug(id: "mcp-early-cancel-ran", "a pre-cancelled call ran"))
    func earlyCancel() async throws {
        let fixture = try Fixture()
        #expect(await fixture.server.handle(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}"#) == nil)
        let call = #"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"Notes.create","arguments":{"title":"x"}}}"#
        #expect(await fixture.server.handle(call) == nil)
        #expect(fixture.creations.withReadLock { $0 } == 0)
    }

    @Test(
        "A running call the client cancels gets no response however many other cancellations came before",
        .bug(id: "mcp-cancel-limit", "cancelled calls were answered past 1,000 outstanding cancellations"))
    func manyCancellations() async throws {
        let fixture = try Fixture()
        for id in 1_000..<2_200 {
            _ = await fixture.server.handle(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":\#(id)}}"#)
        }
        let call = Task { await fixture.server.handle(#"{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"Notes.waitForCancel"}}"#) }
        await fixture.started.wait()
        for id in 3_000..<4_200 {
            _ = await fixture.server.handle(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":\#(id)}}"#)
        }
        _ = await fixture.server.handle(#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w"}}"#)
        #expect(await call.value == nil)
    }

    @Test(
        "Structured content follows the output schema: a declared object must be one, an in-process value gets no output schema",
        .bug(id: "mcp-structured-content-schema", "structured content contradicted the output schema"))
    func resultShapes() async throws {
        let fixture = try Fixture()
        let list = try await fixture.request(1, "tools/list")
        let tools = try #require(list["result"]?["tools"]?.array)
        #expect(tools.first { $0["name"] == .string("Notes.point") }?["outputSchema"] == nil)
        let point = try await fixture.request(2, "tools/call", #"{"name":"Notes.point"}"#)
        #expect(point["result"]?["structuredContent"] == .object(["x": .int(1), "y": .int(2)]))
        let broken = try await fixture.request(3, "tools/call", #"{"name":"Notes.broken"}"#)
        #expect(broken["result"]?["isError"] == .bool(true))
        #expect(broken["result"]?["structuredContent"]?["code"] == .string("resultTypeMismatch"))
    }

    @Test("A command-line tool's mcp runs each call inside its request wrapper", .bug(id: "mcp-data-dir", "mediate mcp ignored the data directory"))
    func requestWrapper() async throws {
        let mediator = Mediator()
        try mediator.registerEcho()
        let wrapped = ReadWriteLock(0)
        let tool = CommandLineTool(mediator: mediator, name: "t", version: "1") { request in
            wrapped.withLock { $0 += 1 }
            await request()
        }
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"Echo.echo","arguments":{"a":1}}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"Echo.echo"}}"#,
        ]
        var output: [String] = []
        let status = await tool.run(["mcp"], input: BatchInput(bytes: Array(lines.joined(separator: "\n").utf8))) { stream, line in
            if stream == .output { output.append(line) }
        }
        #expect(status == 0)
        #expect(output.count == 3)
        #expect(wrapped.withReadLock { $0 } == 2)
    }

    // MARK: - The stdio transport

    @Test("Over stdio: one response per request line, a parse error for a line too long or not UTF-8, and the calls under way finish at the end of the input")
    func stdio() async throws {
        let fixture = try Fixture()
        var input = Array(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.utf8) + [10]
        input += Array(repeating: UInt8(ascii: "x"), count: 300) + [10]
        input += [0xFF, 0xFE, 10, 10]
        input += Array(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.utf8) + [10]
        input += Array(#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"Notes.count"}}"#.utf8)  // no final newline
        var output: [String] = []
        var errors: [String] = []
        let status = await fixture.server.run(input: BatchInput(bytes: input, lineLimit: 200)) { stream, line in
            if stream == .output { output.append(line) } else { errors.append(line) }
        }
        #expect(status == 0)
        #expect(errors.isEmpty)
        let responses = try output.map { try JSONValue(parsing: $0) }
        #expect(responses.count == 4)
        #expect(responses.contains { $0["id"] == .int(1) && $0["result"] == .object([:]) })
        #expect(responses.contains { $0["id"] == .int(2) && $0["result"]?["structuredContent"] == .object(["result": .int(3)]) })
        let parseErrors = responses.filter { $0["error"]?["code"] == .int(-32700) }
        #expect(parseErrors.count == 2)
        #expect(parseErrors.allSatisfy { $0["id"] == .null })
    }

    @Test("Over stdio: when the responses cannot be written, the server stops with 74 and one error line saying so")
    func outputGone() async throws {
        let fixture = try Fixture()
        let input = Array(String(repeating: #"{"jsonrpc":"2.0","id":1,"method":"ping"}"# + "\n", count: 3).utf8)
        var errors: [String] = []
        var attempts = 0
        let status = await fixture.server.run(input: BatchInput(bytes: input)) { stream, line throws(StreamError) in
            guard stream == .output else { return errors.append(line) }
            attempts += 1
            throw StreamError(errorNumber: EPIPE)
        }
        #expect(status == 74)
        #expect(attempts == 1)
        #expect(errors == ["tests: error: cannot write a response to standard output: \(StreamError(errorNumber: EPIPE))"])
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    subscript(index: Int) -> JSONValue? {
        if case .array(let values) = self, values.indices.contains(index) { return values[index] }
        return nil
    }

    var array: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

/// `mediate mcp` as a client starts it: its data directory is the one every other command uses.
@Suite("mediate mcp: the process an agent's client starts")
struct MediateMCPTests {
    @Test(
        "Accounts made by an agent over mcp are in the data directory for the next command", .bug(id: "mcp-data-dir", "mediate mcp ignored the data directory"))
    func dataDirectory() throws {
        let directory = Mediate.temporaryDirectory()
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"Accounts.signUp","arguments":{"username":"carol","password":"correct horse"}}}"#,
        ]
        let served = try Mediate.run(["--data-dir", directory, "mcp"], input: lines.joined(separator: "\n") + "\n")
        #expect(served.status == 0, "\(served)")
        #expect(served.lines.count == 2)
        #expect(served.lines.allSatisfy { !$0.contains("isError") }, "\(served)")
        let login = try Mediate.run(["--data-dir", directory, "perform", "Accounts", "logIn", "username=carol", "password=correct horse"])
        #expect(login.status == 0, "\(login)")
        #expect(sessionToken(login.line) != nil)
    }
}
