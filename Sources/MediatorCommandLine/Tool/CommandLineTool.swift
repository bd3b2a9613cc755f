import Mediator

/// The command-line invoker: `perform`, `open`, `list`, `routes`, `describe`, `verify` and `batch` over a
/// `Mediator`, with stable output and exit codes. `mediate` is one program built on it; any program can expose
/// its own mediator the same way from its `main`:
///
/// ```swift
/// let mediator = Mediator()
/// try MyFeature.register(in: mediator)
/// let tool = CommandLineTool(mediator: mediator, name: "myapp", version: "1.0.0")
/// exit(await tool.run(Array(CommandLine.arguments.dropFirst())))
/// ```
///
/// Calls go through the mediator's async entry points (`try await mediator.call(url:)`, and for
/// `perform` the entry point of calls from outside the program, which refuses params an action did
/// not declare unless its policy says otherwise), so sync and async actions run alike. Cancelling the task that runs ``run(_:input:write:)`` interrupts
/// it: the request under way gets the cancellation (an async action sees `Task.isCancelled` or
/// `CancellationError`), is reported as failed with code `cancelled`, whatever it returned, a
/// batch reads no further line, and `run` returns 130, the status of a command stopped by
/// Ctrl-C. `mediate` cancels it on `SIGINT`.
///
/// Output: a result is printed as JSON (keys sorted) on standard output; a failure prints nothing
/// there and one line `NAME: error: ...` on standard error. With `--json`, standard output carries
/// one object per request: `{"ok":true,"result":...}` or `{"ok":false,"error":{"code":...,"message":...}}`.
/// Exit codes: 0 success, 64 usage, 65 invalid URL or parameter (or a `--redirects` or `--routes`
/// file that cannot be used), 69 target, action or route not found, 70 the action failed, 74 the environment failed
/// (see `aroundRequest`) or a standard stream did, 77 forbidden, 130 interrupted (see above);
/// `batch` exits 0 when every line succeeded, 1
/// otherwise, 74 when its input cannot be read or its output cannot be written; `verify` exits 0
/// when `Mediator.verify()` finds nothing, 1 with one line per problem otherwise.
///
/// Options for any command, anywhere on the line: `--json` (above), `--log` (one line per call on
/// standard error, written by a `CallLogger`), `--redirects FILE` (a JSON redirect table
/// the run's calls follow), `--routes FILE` (a JSON route table, `Mediator.addRoutes(json:)`,
/// added to the mediator's routes); and `batch --stats` (a `CallStatistics` snapshot as JSON,
/// the last line on standard error). They last for the run: the tool takes its observers and the
/// file's routes off and puts the mediator's previous redirect table back when `run` returns.
///
/// `routes [--json]` lists the mediator's deep-link routes in the order URLs are matched against
/// them (`Mediator.routes`), one `URLRoute.description` per line (`[scheme] pattern ->
/// Target/action (priority n)`), or `(no routes registered)`; `open` and a batch's URL lines
/// follow them, as any URL call does.
///
/// `describe [<Target> [<action>]]` prints what actions declare (a usage line, the params, the
/// result, an example URL and command line), and `perform <Target> <action> --help` the same for
/// one action; `describe --json` prints the registry description (`RegistryDescription`) itself.
///
/// A result that cannot be written (a full disk, a closed pipe with `SIGPIPE` ignored) is a
/// failure: one line on standard error, exit 74, and a batch stops there. With `SIGPIPE` at its
/// default, writing to a closed pipe ends the process with that signal, as for any Unix filter.
///
/// `batch` reads its input in chunks with a per-line limit (16 MiB unless ``BatchInput`` says
/// otherwise): a longer line, or one that is not UTF-8, fails alone (usage) and the batch goes
/// on; input that cannot be read ends the batch with 74.
public struct CommandLineTool: Sendable {
    /// Where a line of output goes.
    public enum Stream: Sendable {
        /// `output` is standard output (results, listings, help, `--json` objects); `error` is
        /// standard error (one line per failure, `NAME: error: ...`).
        case output, error
    }

    /// Runs around each request (each `perform`, `open`, or `batch` line) and awaits it. An error
    /// it throws fails the request with code `environment` (exit 74) and its description. `mediate`
    /// uses it to hold its data file's lock and load and save state around every request.
    ///
    /// ```swift
    /// let wrapper: CommandLineTool.RequestWrapper = { request in
    ///     try store.load()
    ///     await request()
    ///     // Cancelled: the tool reports the request as interrupted, so keep none of its effects.
    ///     if !Task.isCancelled { try store.save() }
    /// }
    /// ```
    ///
    /// When the task running the tool is cancelled, the request is reported as failed with code
    /// `cancelled` whatever it returned: a wrapper that sees `Task.isCancelled` after `request`
    /// should not commit the request's effects.
    public typealias RequestWrapper = @Sendable (_ request: () async -> Void) async throws -> Void

    /// Prints one line (the writer adds the newline). It throws when the line cannot be written,
    /// and the tool then reports the failure and ends the run with exit 74.
    ///
    /// ```swift
    /// var lines: [String] = []
    /// let status = await tool.run(["perform", "Echo", "echo"], write: { stream, line in lines.append(line) })
    /// ```
    public typealias Writer = (_ stream: Stream, _ line: String) throws(StreamError) -> Void

    let mediator: Mediator
    let name: String
    let version: String
    let help: Help
    let aroundRequest: RequestWrapper?

    /// A tool for `mediator`, called `name` in messages and help.
    ///
    /// ```swift
    /// let tool = CommandLineTool(
    ///     mediator: mediator, name: "myapp", version: "1.0.0",
    ///     extraOptions: ["--profile NAME   the settings profile to load"]
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - mediator: the mediator whose targets the tool calls and lists.
    ///   - name: the program's name, in error lines (`myapp: error: ...`) and help.
    ///   - version: what `--version` prints after the name.
    ///   - about: the first paragraph of `--help`.
    ///   - extraOptions: lines describing options the program handles itself (shown in `--help`).
    ///   - aroundRequest: runs around each request (see ``RequestWrapper``); `nil` for none.
    public init(
        mediator: Mediator,
        name: String,
        version: String,
        about: String = "Calls the actions registered in this program's mediator.",
        extraOptions: [String] = [],
        aroundRequest: RequestWrapper? = nil
    ) {
        self.mediator = mediator
        self.name = name
        self.version = version
        self.help = Help(name: name, about: about, extraOptions: extraOptions)
        self.aroundRequest = aroundRequest
    }

    /// Runs one command line (without the program name) and returns the exit status.
    ///
    /// ```swift
    /// let status = await tool.run(["batch", "--json"], input: BatchInput(bytes: Array("Echo echo a=1\n".utf8)))
    /// ```
    ///
    /// Actions are called through the mediator's async entry points, in the calling task, one
    /// request at a time (a batch's lines in order). Cancelling the calling task interrupts the
    /// run: the request under way is cancelled and reported as failed with code `cancelled`, a
    /// batch stops after it, and the status is 130.
    ///
    /// - Parameters:
    ///   - arguments: the command line without the program's name, as in
    ///     `Array(CommandLine.arguments.dropFirst())`.
    ///   - input: what `batch` reads (see ``BatchInput``); by default standard input.
    ///   - write: prints one line (see ``Writer``); by default to standard output or standard error.
    /// - Returns: the exit status: 0 on success, else the failure's status (64, 65, 69, 70, 74,
    ///   77, 130 when interrupted); for a `batch` that ran, 0 when every line succeeded, 1 when
    ///   any failed, 74 when its input or output failed, 130 when it was interrupted.
    public func run(
        _ arguments: [String],
        input: BatchInput = .standardInput(),
        write: @escaping Writer = { stream, line throws(StreamError) in try StandardStreams.write(line, to: stream) }
    ) async -> Int32 {
        // --json, --log, --redirects and --routes are global: accepted anywhere, before or after the command.
        var session = Session(tool: self, json: arguments.contains("--json"), write: write)
        var arguments = arguments.filter { $0 != "--json" }
        let options: GlobalOptions
        do {
            options = try GlobalOptions(extractingFrom: &arguments)
        } catch {
            return session.fail(error)
        }
        guard let command = arguments.first else {
            return session.fail(CommandError.usage("no command given; try \"\(name) --help\""))
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "--help", "-h", "help":
            return session.show(rest.first.flatMap(help.command) ?? help.main, what: "the help")
        case "--version":
            return session.show("\(name) \(version)", what: "the version")
        case "perform", "open", "list", "routes", "describe", "verify", "batch", "mcp":
            if rest.contains("--help") || rest.contains("-h") {
                // `perform <Target> <action> --help`: that action's description, as describe gives it.
                if command == "perform", let (target, action) = performedAction(rest) {
                    let json = session.json
                    return session.respondText({ () throws(CommandError) in try describe([target, action], json: json) })
                }
                return session.show(help.command(command)!, what: "the help")
            }
            let applied: AppliedOptions
            do {
                applied = try apply(options, to: &session)
            } catch {
                return session.fail(error)
            }
            defer { applied.undo() }
            let status = await run(command, rest, session: &session, input: input)
            session.flushLog()
            return status
        default:
            let suggestion = Suggestions.closest(to: command, in: ["perform", "open", "list", "routes", "describe", "verify", "batch", "mcp", "help"])
            return session.fail(
                CommandError.usage("unknown command \(quoted(command))" + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "") + "; try \"\(name) --help\""))
        }
    }

    /// Runs one command (`perform`, `open`, `list`, `routes`, `describe`, `verify`, `batch` or `mcp`).
    private func run(_ command: String, _ rest: [String], session: inout Session, input: BatchInput) async -> Int32 {
        switch command {
        case "perform": return await session.request { () async throws(CommandError) in try await perform(rest) }
        case "open": return await session.request { () async throws(CommandError) in try await open(rest) }
        case "list": return session.respond { () throws(CommandError) in try list(rest) }
        case "routes": return session.respond { () throws(CommandError) in try routes(rest) }
        case "describe":
            let json = session.json
            return session.respondText({ () throws(CommandError) in try describe(rest, json: json) })
        case "verify": return verify(rest, session: &session)
        case "mcp": return await serveAgents(rest, session: &session, input: input)
        default: return await batch(rest, session: &session, input: input)
        }
    }

    /// Reports a usage error found by the program itself (in its own options) the way the tool
    /// reports its own, and returns the exit status (64).
    ///
    /// ```swift
    /// if profile.isEmpty {
    ///     exit(tool.reportUsageError("--profile needs a name", json: arguments.contains("--json")))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - message: what is wrong, in one line.
    ///   - json: report it as a `--json` error object too, as the tool does when `--json` is given.
    ///   - write: prints one line (see ``Writer``); by default to standard output or standard error.
    /// - Returns: 64, or 74 when the `--json` object cannot be written.
    public func reportUsageError(
        _ message: String,
        json: Bool,
        write: @escaping Writer = { stream, line throws(StreamError) in try StandardStreams.write(line, to: stream) }
    ) -> Int32 {
        var session = Session(tool: self, json: json, write: write)
        return session.fail(.usage(message))
    }

    // MARK: Commands

    /// `perform <Target> <action> [key=value | key:=json ...] [--params-json JSON] [--cache] [--json]`
    func perform(_ arguments: [String]) async throws(CommandError) -> Any? {
        var positional: [String] = []
        var parameters = ParameterArguments()
        var cache = false
        var words = arguments.makeIterator()
        while let argument = words.next() {
            switch argument {
            case "--cache": cache = true
            case "--params-json":
                guard let json = words.next() else { throw .usage("--params-json needs a JSON object after it") }
                try parameters.add(jsonObject: json)
            // Bytes, not `hasPrefix` (which compares Characters, at a cost on every argument).
            case _ where argument.utf8.first == UInt8(ascii: "-") && argument.utf8.starts(with: "--params-json=".utf8):
                // Cut after the prefix's bytes (a combining mark after `=` stays in the JSON).
                try parameters.add(jsonObject: String(decoding: argument.utf8.dropFirst("--params-json=".utf8.count), as: UTF8.self))
            case _ where argument.utf8.first == UInt8(ascii: "-") && argument.utf8.starts(with: "--".utf8):
                throw .usage("unknown option \(quoted(argument)) for perform")
            case _ where positional.count < 2:
                positional.append(argument)
            default:
                try parameters.add(argument: argument)
            }
        }
        guard positional.count == 2 else {
            throw .usage("perform needs a target and an action: \(name) perform <Target> <action> [key=value ...]")
        }
        do {
            // A call from outside the program: undeclared params are refused by default (a typing
            // mistake); local-only actions stay reachable (the person at the command line is its user).
            return try await mediator.callFromOutside(target: positional[0], action: positional[1], params: parameters.params, shouldCacheTarget: cache)
        } catch {
            throw .call(error)
        }
    }

    /// `open <url> [--json]`
    func open(_ arguments: [String]) async throws(CommandError) -> Any? {
        let words = arguments
        if let option = words.first(where: { $0.hasPrefix("--") }) { throw .usage("unknown option \(quoted(option)) for open") }
        guard words.count == 1 else { throw .usage("open needs exactly one URL: \(name) open <url>") }
        do {
            return try await mediator.call(url: words[0])
        } catch {
            throw .call(error)
        }
    }

    /// `routes [--json]`: the mediator's routes, in match order (with those of `--routes FILE`).
    func routes(_ arguments: [String]) throws(CommandError) -> RouteListing {
        if let option = arguments.first(where: { $0.hasPrefix("--") }) { throw .usage("unknown option \(quoted(option)) for routes") }
        guard arguments.isEmpty else { throw .usage("routes takes no arguments: \(name) routes [--json]") }
        return RouteListing(routes: mediator.routes)
    }

    /// `list [<Target>] [--json]`
    func list(_ arguments: [String]) throws(CommandError) -> Listing {
        let words = arguments
        if let option = words.first(where: { $0.hasPrefix("--") }) { throw .usage("unknown option \(quoted(option)) for list") }
        guard words.count <= 1 else { throw .usage("list takes at most one target: \(name) list [<Target>]") }
        guard let wanted = words.first else { return Listing(targets: mediator.targets) }
        guard let target = mediator.target(named: wanted) else { throw .call(mediator.unknownTargetError(wanted)) }
        return Listing(targets: [target])
    }
}
