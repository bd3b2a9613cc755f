import Mediator

/// What a listing command prints: its text, or with `--json` the result of an `{"ok":true}` object.
protocol CommandListing {
    /// The result of the `--json` object.
    var json: JSONValue { get }
    /// The text printed without `--json`.
    var text: String { get }
}

extension Listing: CommandListing {}
extension RouteListing: CommandListing {}

/// Writes the outcome of each request of one run in the chosen mode and computes exit statuses.
struct Session {
    let tool: CommandLineTool
    let json: Bool
    let write: CommandLineTool.Writer
    /// The batch line being answered, named before error messages and log lines (`line 3: `).
    /// Kept as a number: the prefix is made only when something is written with it.
    var lineNumber: Int?
    /// Put before error messages and log lines (`line 3: ` in batch).
    var linePrefix: String { lineNumber.map { "line \($0): " } ?? "" }
    /// `--log`: the lines of finished calls, written by ``flushLog()``.
    var log: CallLog?
    /// Whether standard output refused a line. Nothing more can be delivered, so the run ends
    /// (a batch stops at that line).
    private(set) var outputFailed = false

    init(tool: CommandLineTool, json: Bool, write: @escaping CommandLineTool.Writer) {
        self.tool = tool
        self.json = json
        self.write = write
    }

    /// Runs a request inside the program's `aroundRequest` and reports it. When the calling task
    /// was cancelled, the request is reported as interrupted (code `cancelled`, 130) whatever it
    /// returned: the program's `aroundRequest` may have kept none of its effects.
    mutating func request(_ body: () async throws(CommandError) -> Any?) async -> Int32 {
        var outcome: Result<Any?, CommandError> = .failure(.environment("the request did not run"))
        do {
            if let around = tool.aroundRequest {
                try await around { outcome = await Self.outcome(of: body) }
            } else {
                outcome = await Self.outcome(of: body)
            }
        } catch {
            outcome = .failure(.environment(String(describing: error)))
        }
        // The request's calls, before its result.
        flushLog()
        if Task.isCancelled {
            switch outcome {
            // The call itself ended cancelled: its own message names the target and action.
            case .failure(let error) where error.code == CommandError.interrupted.code: break
            default: outcome = .failure(.interrupted)
            }
        }
        switch outcome {
        case .success(let value): return succeed(serialized: JSONValue.serialized(result: value))
        case .failure(let error): return fail(error)
        }
    }

    private static func outcome(of body: () async throws(CommandError) -> Any?) async -> Result<Any?, CommandError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// Reports a request that needs no `aroundRequest` (a listing: `list`, `routes`).
    mutating func respond(_ body: () throws(CommandError) -> some CommandListing) -> Int32 {
        do {
            let listing = try body()
            if json { return succeed(listing.json) }
            return show(listing.text, what: "the listing")
        } catch {
            return fail(error)
        }
    }

    /// Reports a command that prints text of its own in either mode (`describe`: its text, or with
    /// `--json` the registry description document itself); a failure is reported as any other.
    mutating func respondText(_ body: () throws(CommandError) -> String) -> Int32 {
        do {
            let text = try body()
            return emit(text, what: "the description")
        } catch {
            return fail(error)
        }
    }

    /// Prints text that is not a request's result (help, version): 0, or 74 when it cannot be written.
    mutating func show(_ text: String, what: String) -> Int32 {
        emit(text, what: what)
    }

    mutating func succeed(_ result: JSONValue) -> Int32 {
        succeed(serialized: result.serialized)
    }

    /// Reports a result already written as JSON text.
    mutating func succeed(serialized result: String) -> Int32 {
        // The envelope keeps the documented order ("ok" first); everything inside is key-sorted.
        emit(json ? "{\"ok\":true,\"result\":" + result + "}" : result, what: "the result")
    }

    mutating func fail(_ error: CommandError) -> Int32 {
        if json {
            let status = emit("{\"ok\":false,\"error\":\(error.json.serialized)}", what: "the error")
            if status != 0 { return status }
        }
        report(error)
        return error.exitStatus
    }

    /// Writes one line on standard output. Returns 0, or, when the system refuses the line, reports
    /// that instead (one line on standard error) and returns its exit status (74): a result that
    /// cannot be delivered is a failure, never a silent success.
    mutating func emit(_ line: String, what: String) -> Int32 {
        do {
            try write(.output, line)
            return 0
        } catch {
            outputFailed = true
            let failure = CommandError.environment("cannot write \(what) to standard output: \(error)")
            report(failure)
            return failure.exitStatus
        }
    }

    /// The error line on standard error. When even that cannot be written nothing more can be
    /// said; the exit status still tells.
    private func report(_ error: CommandError) {
        writeError(error.message)
    }

    /// Writes the log's lines on standard error, `NAME: log: ` and the line (after the line
    /// prefix, in a batch), and a line saying how many were dropped, if any.
    func flushLog() {
        guard let log else { return }
        let (lines, dropped) = log.drain()
        for line in lines { try? write(.error, "\(tool.name): log: \(linePrefix)\(line)") }
        if dropped > 0 {
            try? write(.error, "\(tool.name): log: \(linePrefix)\(dropped) more calls not logged (over \(CallLog.limit) in one request)")
        }
    }

    /// One line `NAME: error: ...` on standard error; `message` is already one line.
    func writeError(_ message: String) {
        try? write(.error, "\(tool.name): error: \(linePrefix)\(message)")
    }
}
