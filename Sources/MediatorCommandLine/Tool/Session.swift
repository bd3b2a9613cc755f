/// Writes the outcome of each request of one run in the chosen mode and computes exit statuses.
struct Session {
    let tool: CommandLineTool
    let json: Bool
    let write: (CommandLineTool.Stream, String) -> Void
    /// Put before error messages (`line 3: ` in batch).
    var linePrefix = ""

    init(tool: CommandLineTool, json: Bool, write: @escaping (CommandLineTool.Stream, String) -> Void) {
        self.tool = tool
        self.json = json
        self.write = write
    }

    /// Runs a request inside the program's `aroundRequest` and reports it.
    mutating func request(_ body: () throws(CommandError) -> Any?) -> Int32 {
        var outcome: Result<Any?, CommandError> = .failure(.environment("the request did not run"))
        do {
            if let around = tool.aroundRequest {
                try around { outcome = Result { () throws(CommandError) in try body() } }
            } else {
                outcome = Result { () throws(CommandError) in try body() }
            }
        } catch {
            outcome = .failure(.environment(String(describing: error)))
        }
        switch outcome {
        case .success(let value): return succeed(JSONValue(result: value))
        case .failure(let error): return fail(error)
        }
    }

    /// Reports a request that needs no `aroundRequest` (listing).
    mutating func respond(_ body: () throws(CommandError) -> Listing) -> Int32 {
        do {
            let listing = try body()
            if json { return succeed(listing.json) }
            write(.output, listing.text)
            return 0
        } catch {
            return fail(error)
        }
    }

    func succeed(_ result: JSONValue) -> Int32 {
        // The envelope keeps the documented order ("ok" first); everything inside is key-sorted.
        write(.output, json ? "{\"ok\":true,\"result\":\(result.serialized)}" : result.serialized)
        return 0
    }

    func fail(_ error: CommandError) -> Int32 {
        if json { write(.output, "{\"ok\":false,\"error\":\(error.json.serialized)}") }
        write(.error, "\(tool.name): error: \(linePrefix)\(error.message)")
        return error.exitStatus
    }
}
