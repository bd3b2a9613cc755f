import Mediator

/// Serves a mediator's actions to AI agents as Model Context Protocol tools: Claude Desktop,
/// Claude Code, IDE agents and any other MCP client call the program's modules the way a URL
/// would, under the same rules.
///
/// ```swift
/// let server = MCPServer(mediator: mediator, name: "myapp", version: "1.0.0")
/// let response = await server.handle(#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
/// ```
///
/// Each action that a remote caller may reach is a tool named `Target.action`: not local-only,
/// its target allowed by `URLPolicy.allowedTargets`, its name not starting with `native`. Its
/// description is the action's summary; its input schema is the declared params (the JSON Schema
/// `mediate describe --json` prints), and a declared result gives an output schema. A call runs
/// through the mediator's one pipeline with origin `CallOrigin.agent(_:)`: interceptors,
/// redirects, degradations and observers see it, and it is a remote call for every rule.
///
/// A result is returned as `structuredContent` (the value when it is a JSON object, else
/// `{"result": value}`) and as the same JSON in a text block. A `MediatorError` is a tool
/// result with `isError: true`, its message as text and `{code, message, target, action, ...}` as
/// structured content, so the model can read it and fix its call. Requests run concurrently; a
/// `notifications/cancelled` cancels the call it names, which then gets no response.
///
/// The protocol versions are 2025-11-25 and 2025-06-18 (the `initialize` handshake), JSON-RPC 2.0
/// one message per line. ``handle(_:)`` answers one message without any transport; ``run(input:write:)``
/// serves standard input and output, as `mediate mcp` does.
public final class MCPServer: Sendable {
    /// The protocol versions served, newest first. A client asking for another gets the newest.
    public static let protocolVersions = ["2025-11-25", "2025-06-18"]

    /// How many tools one `tools/list` page holds unless told otherwise.
    public static let defaultPageSize = 100

    let mediator: Mediator
    let name: String
    let version: String
    let instructions: String?
    let pageSize: Int
    /// Runs around each tool call (the command-line tool's ``CommandLineTool/RequestWrapper``:
    /// `mediate` loads and saves its data there).
    let aroundCall: CommandLineTool.RequestWrapper?

    /// A call under way: its task once made, and whether the client cancelled it.
    private struct Running {
        var task: Task<CallOutcome, Never>?
        var isCancelled = false
    }

    /// The session: who the client is, and the calls under way, by request id.
    private struct State {
        var client = "unknown"
        var running: [RequestID: Running] = [:]
        /// Ids cancelled before their request arrived (both are read, then handled concurrently),
        /// the most recent ones: such a request is not run.
        var earlyCancels: [RequestID] = []
    }

    private let state = ReadWriteLock(State())

    /// The most early cancellations remembered.
    private static let earlyCancelLimit = 1_000

    /// A server for `mediator`.
    ///
    /// - Parameters:
    ///   - mediator: the mediator whose actions are offered as tools.
    ///   - name: the server's name, as `initialize` tells the client (`serverInfo.name`).
    ///   - version: the server's version (`serverInfo.version`).
    ///   - instructions: what the client may show the model about the tools, or `nil`.
    ///   - pageSize: how many tools one `tools/list` page holds (at least 1).
    public convenience init(mediator: Mediator, name: String, version: String, instructions: String? = nil, pageSize: Int = defaultPageSize) {
        self.init(mediator: mediator, name: name, version: version, instructions: instructions, pageSize: pageSize, aroundCall: nil)
    }

    init(mediator: Mediator, name: String, version: String, instructions: String?, pageSize: Int, aroundCall: CommandLineTool.RequestWrapper?) {
        precondition(pageSize > 0, "a tools/list page holds at least one tool")
        self.mediator = mediator
        self.name = name
        self.version = version
        self.instructions = instructions
        self.pageSize = pageSize
        self.aroundCall = aroundCall
    }

    /// Answers one JSON-RPC message (one line of the stdio transport, without its newline).
    ///
    /// ```swift
    /// let response = await server.handle(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
    /// // {"id":1,"jsonrpc":"2.0","result":{}}
    /// ```
    ///
    /// Messages may be handled concurrently. A tool call returns when the action does; cancelling
    /// the calling task cancels the call. The call runs in a task of its own (so that
    /// `notifications/cancelled` can cancel it), which starts on the calling thread where the
    /// system has `Task.immediate` (macOS 26, iOS 26 and later; Linux): until the action first
    /// waits it runs as if called directly, and a cancellation meanwhile reaches it only there.
    ///
    /// - Parameter message: the message's JSON text.
    /// - Returns: the response's JSON text on one line, or `nil` for a notification, a response
    ///   from the client, and a call the client cancelled.
    public func handle(_ message: String) async -> String? {
        // An outline, not a `JSONValue`: a request's few members are found without hashing.
        let outline: JSONOutline
        do {
            outline = try JSONOutline(parsing: message)
        } catch {
            return Self.error(id: nil, code: .parseError, "Parse error: \(error)")
        }
        guard outline.isObject(outline.root) else {
            return Self.error(id: nil, code: .invalidRequest, "Invalid Request: a message is one JSON object (batches are not supported)")
        }
        func member(_ key: StaticString) -> JSONValue? { outline.member(key, of: outline.root).map(outline.value(of:)) }
        let id: RequestID?
        switch member("id") {
        case nil: id = nil
        case .int(let number)?: id = .number(number)
        case .string(let text)?: id = .text(text)
        default: return Self.error(id: nil, code: .invalidRequest, "Invalid Request: \"id\" must be a string or an integer")
        }
        guard member("jsonrpc") == .string("2.0") else {
            return id.map { Self.error(id: $0, code: .invalidRequest, "Invalid Request: \"jsonrpc\" must be \"2.0\"") }
        }
        guard case .string(let method)? = member("method") else {
            // A response to a request of ours (the server sends none): nothing to answer.
            if outline.member("result", of: outline.root) != nil || outline.member("error", of: outline.root) != nil { return nil }
            return Self.error(id: id, code: .invalidRequest, "Invalid Request: no \"method\"")
        }
        let paramsNode = outline.member("params", of: outline.root)
        if let paramsNode, !outline.isObject(paramsNode) {
            return id.map { Self.error(id: $0, code: .invalidParams, "Invalid params: \"params\" must be an object") }
        }
        // Every method but a tool call reads its params as a dictionary.
        var params: [String: JSONValue] {
            guard let paramsNode, case .object(let object) = outline.value(of: paramsNode) else { return [:] }
            return object
        }
        guard let id else {
            notification(method, params)
            return nil
        }
        let answer: Answer
        switch method {
        case "initialize": answer = initialize(params)
        case "ping": answer = .result(.object([:]))
        case "tools/list": answer = listTools(params)
        case "tools/call":
            guard let outcome = await callTool(paramsNode.map { ToolCallParams(outline: outline, params: $0) }, id: id) else { return nil }
            answer = outcome
        default: answer = .error(.methodNotFound, "Method not found: \(quoted(oneLine(method, limit: 200)))")
        }
        switch answer {
        case .result(let result): return JSONValue.object(["jsonrpc": .string("2.0"), "id": id.json, "result": result]).serialized
        case .serializedResponse(let response): return String(decoding: response, as: UTF8.self)
        case .error(let code, let message): return Self.error(id: id, code: code, message)
        }
    }

    /// A `tools/call` request's params, read from the message's outline.
    private struct ToolCallParams {
        let outline: JSONOutline
        let params: JSONOutline.Node

        func member(_ key: StaticString) -> JSONOutline.Node? { outline.member(key, of: params) }
    }

    // MARK: - Methods

    /// What a request gets: a result, or a JSON-RPC error.
    enum Answer {
        case result(JSONValue)
        /// The whole response, already written as JSON text (a tool call's).
        case serializedResponse([UInt8])
        case error(ErrorCode, String)
    }

    /// The JSON-RPC error codes the server sends.
    enum ErrorCode: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case internalError = -32603
    }

    private func initialize(_ params: [String: JSONValue]) -> Answer {
        guard case .string(let requested)? = params["protocolVersion"] else {
            return .error(.invalidParams, "Invalid params: initialize needs a \"protocolVersion\" string")
        }
        if case .object(let info)? = params["clientInfo"], case .string(let client)? = info["name"] {
            state.withLock { $0.client = client }
        }
        let version = Self.protocolVersions.contains(requested) ? requested : Self.protocolVersions[0]
        var result: [String: JSONValue] = [
            "protocolVersion": .string(version),
            // The registry can change, but nothing announces it: tools/list is read again for that.
            "capabilities": .object(["tools": .object(["listChanged": .bool(false)])]),
            "serverInfo": .object(["name": .string(name), "version": .string(self.version)]),
        ]
        if let instructions { result["instructions"] = .string(instructions) }
        return .result(.object(result))
    }

    /// `tools/list`: the tools sorted by name, a page at a time. The cursor is the last name of
    /// the page before, so a page is right even when the registry changed in between.
    private func listTools(_ params: [String: JSONValue]) -> Answer {
        let tools = AgentTools.all(in: mediator)
        var remaining = tools[...]
        switch params["cursor"] {
        case nil: break
        case .string(let cursor)? where AgentTools.isToolName(cursor):
            remaining = tools.drop { !cursor.utf8.lexicographicallyPrecedes($0.name.utf8) }
        default: return .error(.invalidParams, "Invalid params: the cursor is not one this server gave")
        }
        let page = remaining.prefix(pageSize)
        var result: [String: JSONValue] = ["tools": .array(page.map(AgentTools.listing(of:)))]
        if page.count < remaining.count, let last = page.last { result["nextCursor"] = .string(last.name) }
        return .result(.object(result))
    }

    /// `tools/call`: the action run with the arguments as params; nil when the client cancelled it.
    private func callTool(_ params: ToolCallParams?, id: RequestID) async -> Answer? {
        guard let params, let node = params.member("name"), case .string(let name) = params.outline.value(of: node) else {
            return .error(.invalidParams, "Invalid params: tools/call needs a tool \"name\" string")
        }
        let arguments: [(key: String, value: JSONOutline.Node)]
        if let node = params.member("arguments") {
            if let members = params.outline.members(of: node) {
                arguments = members
            } else if params.outline.value(of: node) == .null {
                arguments = []
            } else {
                return .error(.invalidParams, "Invalid params: \"arguments\" must be an object")
            }
        } else {
            arguments = []
        }
        guard let tool = AgentTools.callable(named: name, in: mediator) else {
            return .error(.invalidParams, "Unknown tool: \(quoted(oneLine(name, limit: 200)))")
        }
        let call = Params(distinctPairs: arguments.map { ($0.key, params.outline.value(of: $0.value).parameterValue) })
        // The id is the call's from here on, unless the client cancelled it already.
        let reservation = state.withLock { state -> Reservation in
            guard state.running[id] == nil else { return .duplicate }
            if let index = state.earlyCancels.firstIndex(of: id) {
                state.earlyCancels.remove(at: index)
                return .cancelled
            }
            state.running[id] = Running()
            return .reserved(client: state.client)
        }
        let client: String
        switch reservation {
        case .duplicate: return .error(.invalidRequest, "Invalid Request: the id \(id.json.serialized) belongs to a call still running")
        case .cancelled: return nil
        case .reserved(let name): client = name
        }
        // (Not under the lock: the task may run the whole call before it returns.)
        let (task, isOver) = startCall(tool, call, client: client)
        let outcome: CallOutcome
        if isOver {
            // (The task has ended: its value is there without waiting.)
            outcome = await task.value
        } else {
            // (Cancelling runs the action's cancellation handlers: never under the lock.)
            let cancelledMeanwhile = state.withLock { state -> Bool in
                state.running[id]?.task = task
                return state.running[id]?.isCancelled ?? false
            }
            if cancelledMeanwhile { task.cancel() }
            outcome = await withTaskCancellationHandler {
                await task.value
            } onCancel: {
                task.cancel()
            }
        }
        let abandoned = state.withLock { state in state.running.removeValue(forKey: id)?.isCancelled ?? false }
        // The client said it no longer wants the answer: none is sent.
        if abandoned { return nil }
        // The text `.result` would give, keys in order: "id", "jsonrpc", "result".
        var response: [UInt8] = []
        response.reserveCapacity(256)
        append(#"{"id":"#, to: &response)
        response += id.json.serialized.utf8
        append(#","jsonrpc":"2.0","result":"#, to: &response)
        outcome.writeToolResult(tool.shape, target: tool.targetName, action: tool.actionName, to: &response)
        response.append(UInt8(ascii: "}"))
        return .serializedResponse(response)
    }

    /// What reserving a request's id found.
    private enum Reservation {
        /// The id is the call's; the client is who the client said it is.
        case reserved(client: String)
        case duplicate, cancelled
    }

    /// Starts a tool call: its task, and whether the call was over before the task was returned.
    /// Where the system has it (macOS 26, iOS 26 and later, Linux), the task starts at once on the
    /// calling thread, and a call that does not wait is over by then: no thread to wake, no hop,
    /// no cancellation handler to install. A calling task already cancelled gets a task that
    /// starts later, so that the cancellation reaches the call before it begins.
    private func startCall(_ tool: AgentTools.Callable, _ params: Params, client: String) -> (task: Task<CallOutcome, Never>, isOver: Bool) {
        let (mediator, aroundCall) = (self.mediator, self.aroundCall)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *), !Task.isCancelled {
            let over = AtomicWord()
            let task = Task.immediate {  // availability: guarded
                let outcome = await Self.outcome(of: tool, params, on: mediator, for: client, around: aroundCall)
                over.store(1)
                return outcome
            }
            return (task, over.load() == 1)
        }
        return (Task { await Self.outcome(of: tool, params, on: mediator, for: client, around: aroundCall) }, false)
    }

    /// How a tool call ends, run inside `aroundCall` if there is one.
    private static func outcome(
        of tool: AgentTools.Callable, _ params: Params, on mediator: Mediator, for client: String, around aroundCall: CommandLineTool.RequestWrapper?
    ) async -> CallOutcome {
        var outcome = CallOutcome.failure(.environment("the call did not run"))
        do {
            if let aroundCall {
                try await aroundCall { outcome = await run(tool, params, on: mediator, for: client) }
            } else {
                outcome = await run(tool, params, on: mediator, for: client)
            }
        } catch {
            outcome = .failure(.environment(String(describing: error)))
        }
        return outcome
    }

    /// One tool call through the mediator's pipeline, as an agent's.
    private static func run(_ tool: AgentTools.Callable, _ params: Params, on mediator: Mediator, for client: String) async -> CallOutcome {
        do throws(MediatorError) {
            return .value(try await mediator.callFromAgent(target: tool.targetName, action: tool.actionName, params: params, client: client))
        } catch {
            return .failure(.call(error))
        }
    }

    /// A notification: `notifications/cancelled` cancels the call it names; others need nothing.
    private func notification(_ method: String, _ params: [String: JSONValue]) {
        guard method == "notifications/cancelled" else { return }
        let id: RequestID
        switch params["requestId"] {
        case .int(let number)?: id = .number(number)
        case .string(let text)?: id = .text(text)
        default: return
        }
        let running: Task<CallOutcome, Never>? = state.withLock { state in
            if state.running[id] != nil {
                state.running[id]?.isCancelled = true
                return state.running[id]?.task
            }
            state.earlyCancels.append(id)
            if state.earlyCancels.count > Self.earlyCancelLimit { state.earlyCancels.removeFirst(state.earlyCancels.count - Self.earlyCancelLimit) }
            return nil
        }
        // Outside the lock: cancelling runs the action's cancellation handlers.
        running?.cancel()
    }

    /// A JSON-RPC error response on one line.
    static func error(id: RequestID?, code: ErrorCode, _ message: String) -> String {
        JSONValue.object([
            "jsonrpc": .string("2.0"), "id": id?.json ?? .null,
            "error": .object(["code": .int(code.rawValue), "message": .string(oneLine(message, limit: 500))]),
        ]).serialized
    }
}

/// A JSON-RPC request id: a string or an integer, compared as sent.
enum RequestID: Hashable, Sendable {
    case number(Int)
    case text(String)

    var json: JSONValue {
        switch self {
        case .number(let number): .int(number)
        case .text(let text): .string(text)
        }
    }
}

/// How a tool call ended.
enum CallOutcome: Sendable {
    case value((any Sendable)?)
    /// The call failed (``CommandError/call(_:)``), or what runs around it did (`environment`).
    case failure(CommandError)

    /// The `tools/call` result: structured content (shaped as the tool's output schema says) and
    /// the same JSON as text; a failure as a result with `isError`, its message as text and its
    /// `--json` error object as structured content.
    func toolResult(_ shape: AgentTools.ResultShape, target: String, action: String) -> JSONValue {
        switch self {
        case .value(let value):
            guard let content = AgentTools.structuredContent(JSONValue(result: value), shape: shape) else {
                let error = MediatorError(
                    .resultTypeMismatch, target: target, action: action,
                    reason: "the result is not an object, as the action declares it: \(oneLine(JSONValue(result: value).serialized, limit: 200))")
                return CallOutcome.failure(.call(error)).toolResult(shape, target: target, action: action)
            }
            return .object(["content": .array([Self.text(content.serialized)]), "structuredContent": content])
        case .failure(let error):
            return .object(["content": .array([Self.text(error.message)]), "structuredContent": error.json, "isError": .bool(true)])
        }
    }

    /// ``toolResult(_:target:action:)`` as JSON text, appended to `output`: written directly
    /// (without building the values and sorting their keys again) for every result but a declared
    /// object's that is not one.
    func writeToolResult(_ shape: AgentTools.ResultShape, target: String, action: String, to output: inout [UInt8]) {
        guard case .value(let value) = self else {
            output += toolResult(shape, target: target, action: action).serialized.utf8
            return
        }
        var json: [UInt8] = []
        json.reserveCapacity(64)
        JSONValue.write(result: value, to: &json)
        // The text of an object, and only of an object, starts with a brace.
        let isObject = json.first == UInt8(ascii: "{")
        if case .object = shape, !isObject {
            output += toolResult(shape, target: target, action: action).serialized.utf8
            return
        }
        if !isObject || shape == .wrapped {
            json.insert(contentsOf: #"{"result":"#.utf8, at: 0)
            json.append(UInt8(ascii: "}"))
        }
        output.reserveCapacity(output.count + 2 * json.count + 64)
        append(#"{"content":[{"text":""#, to: &output)
        // JSON text as a JSON string: the serializer escaped every control, bidi and invisible
        // character inside its strings already, and there is nothing else to escape outside
        // them, so only quotes and backslashes are left (as `writeJSONString` would write it).
        json.withUnsafeBufferPointer { json in
            var start = 0
            for index in json.indices where json[index] == UInt8(ascii: "\"") || json[index] == UInt8(ascii: "\\") {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: json[start..<index]))
                output.append(UInt8(ascii: "\\"))
                start = index
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: json[start...]))
        }
        append(#"","type":"text"}],"structuredContent":"#, to: &output)
        output += json
        output.append(UInt8(ascii: "}"))
    }

    private static func text(_ text: String) -> JSONValue {
        .object(["type": .string("text"), "text": .string(text)])
    }
}

/// Appends a literal's bytes (copied at once, not a byte at a time).
private func append(_ literal: StaticString, to output: inout [UInt8]) {
    output.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
}
