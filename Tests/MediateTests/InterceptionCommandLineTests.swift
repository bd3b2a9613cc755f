import Foundation
import Mediator
import MediatorCommandLine
import TestSupport
import Testing

/// `--log`, `batch --stats` and `--redirects FILE`, on the built binary, and
/// what the tool's calls look like to observers.
@Suite("mediate: --log, batch --stats, --redirects")
struct InterceptionCommandLineTests {
    /// One log line: `mediate: log: [line N: ]TIME ORIGIN depth=N ROUTE ok|failed DURATION[ ...]`.
    struct LogLine {
        let line: Int?
        let time: String
        let origin: String
        let depth: Int
        let route: String
        let outcome: String
        let rest: String

        init?(_ text: String) {
            guard text.hasPrefix("mediate: log: ") else { return nil }
            var fields = text.dropFirst("mediate: log: ".count).split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            if fields.first == "line", fields.count > 1, let number = Int(fields[1].dropLast()) {
                line = number
                fields.removeFirst(2)
            } else {
                line = nil
            }
            guard fields.count >= 5, let depth = fields[2].hasPrefix("depth=") ? Int(fields[2].dropFirst(6)) : nil,
                let outcome = fields.firstIndex(where: { $0 == "ok" || $0 == "failed" }), outcome >= 4
            else { return nil }
            time = fields[0]
            origin = fields[1]
            self.depth = depth
            route = fields[3..<outcome].joined(separator: " ")
            self.outcome = fields[outcome]
            rest = fields[(outcome + 1)...].joined(separator: " ")
        }

        /// `2025-03-01T09:30:12.047Z`: 24 characters, digits where digits go.
        var timeIsWellFormed: Bool {
            let pattern = Array("dddd-dd-ddTdd:dd:dd.dddZ")
            let characters = Array(time)
            return characters.count == pattern.count
                && zip(characters, pattern).allSatisfy { character, expected in
                    expected == "d" ? character.isASCII && character.isNumber : character == expected
                }
        }
    }

    private func logLines(_ run: Run) -> [LogLine] {
        run.errorLines.compactMap(LogLine.init)
    }

    /// A data directory with the user ada signed up, and her session token.
    private func signedUp() throws -> (directory: PlantedDirectory, token: String) {
        let directory = PlantedDirectory()
        try #require(try Mediate.run(["--data-dir", directory.path, "perform", "Accounts", "signUp", "username=ada", "password=analytical"]).status == 0)
        let login = try Mediate.run(["--data-dir", directory.path, "perform", "Accounts", "logIn", "username=ada", "password=analytical"])
        return (directory, try #require(sessionToken(login.line)))
    }

    // MARK: - --log

    @Test("--log: one line per call on standard error; Notes create shows its Accounts call, one level deeper, first")
    func logShowsNestedCall() throws {
        let (directory, token) = try signedUp()
        let run = try Mediate.run(["--data-dir", directory.path, "--log", "perform", "Notes", "create", "token=\(token)", "title=hello"])
        #expect(run.status == 0, "\(run)")
        #expect(run.json?["title"] as? String == "hello")
        let lines = logLines(run)
        try #require(lines.count == 2, "\(run)")
        #expect(run.errorLines.count == 2)
        #expect(lines[0].route.hasPrefix("Accounts/"))
        #expect(lines[0].origin == "in-process")
        #expect(lines[0].depth == 2)
        #expect(lines[1].route == "Notes/create")
        #expect(lines[1].origin == "command-line")
        #expect(lines[1].depth == 1)
        for line in lines {
            #expect(line.outcome == "ok")
            #expect(line.timeIsWellFormed, "\(line.time)")
            #expect(line.rest.hasSuffix("s"), "a duration: \(line.rest)")
            #expect(line.line == nil)
        }
    }

    @Test("--log in a batch: each line's calls after \"line N: \", URL calls with their URL, failures with their code")
    func logInBatch() throws {
        let run = try Mediate.run(["--in-memory", "batch", "--log"], input: "Echo echo a=1\nEcho fail message=boom\napp://Echo/echo?x=1\n")
        #expect(run.status == 1)
        #expect(run.lines == [#"{"a":"1"}"#, #"{"x":"1"}"#])
        let lines = logLines(run)
        try #require(lines.count == 3, "\(run)")
        #expect(lines.map(\.line) == [1, 2, 3])
        #expect(lines.map(\.route) == ["Echo/echo", "Echo/fail", "Echo/echo"])
        #expect(lines.map(\.origin) == ["command-line", "command-line", "url=app://Echo/echo?x=1"])
        #expect(lines[1].outcome == "failed")
        #expect(lines[1].rest.contains(" actionFailed: Echo/fail: "))
        #expect(lines[1].rest.hasSuffix("boom"))
        // The error line of line 2 is still there, after its call's log line.
        let errorLine = try #require(run.errorLines.firstIndex { $0.hasPrefix("mediate: error: line 2: ") })
        #expect(errorLine > 0 && run.errorLines[errorLine - 1].hasPrefix("mediate: log: line 2: "), "\(run)")
    }

    @Test("Without --log nothing is logged; --log before the command, after it, or with --json alike")
    func logPlacement() throws {
        #expect(try Mediate.run(["--in-memory", "perform", "Echo", "echo"]).error.isEmpty)
        for arguments in [["--log", "perform", "Echo", "echo"], ["perform", "Echo", "echo", "--log"], ["perform", "--log", "--json", "Echo", "echo"]] {
            let run = try Mediate.run(["--in-memory"] + arguments)
            #expect(run.status == 0)
            #expect(logLines(run).map(\.route) == ["Echo/echo"], "\(arguments)")
        }
    }

    @Test("A name a caller made up is quoted and escaped in its log line, which stays one line")
    func logHostileName() throws {
        let run = try Mediate.run(["--in-memory", "--log", "perform", "No such\u{1B}[2J", "x"])
        #expect(run.status == 69)
        let lines = logLines(run)
        try #require(lines.count == 1, "\(run)")
        #expect(lines[0].route == #""No such\u001b[2J/x""#)
        #expect(!run.error.unicodeScalars.contains("\u{1B}"))
    }

    // MARK: - batch --stats

    @Test("batch --stats: the last line on standard error is one JSON object of calls, failures and latencies per action")
    func batchStatistics() throws {
        let (directory, token) = try signedUp()
        let input = "Echo echo a=1\nEcho echo a=2\nEcho fail\nNotes create token=\(token) title=x\nNope go\n"
        let run = try Mediate.run(["--data-dir", directory.path, "--json", "batch", "--stats"], input: input)
        #expect(run.status == 1)
        // Standard output still holds one object per request, and nothing else.
        #expect(run.lines.count == 5)
        let last = try #require(run.errorLines.last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any], "\(run)")
        #expect(object["calls"] as? Int == 6)
        #expect(object["failures"] as? Int == 2)
        let actions = try #require(object["actions"] as? [String: [String: Any]])
        #expect(actions["Echo/echo"]?["calls"] as? Int == 2)
        #expect(actions["Echo/echo"]?["failures"] as? Int == 0)
        #expect(actions["Echo/fail"]?["failures"] as? Int == 1)
        #expect(actions["Notes/create"]?["calls"] as? Int == 1)
        #expect(actions["Nope/go"]?["failures"] as? Int == 1)
        // Notes/create's call to Accounts is counted too.
        #expect(actions.keys.contains { $0.hasPrefix("Accounts/") })
        let latency = try #require(actions["Echo/echo"]?["latencyNanoseconds"] as? [String: Int])
        #expect(Set(latency.keys) == ["min", "mean", "p50", "p90", "p99", "max"])
        let ordered = try ["min", "p50", "p90", "p99", "max"].map { try #require(latency[$0]) }
        #expect(ordered == ordered.sorted() && ordered[0] > 0, "\(latency)")
    }

    @Test("batch --stats with nothing to run prints empty statistics; without --stats none; batch --bogus is a usage error")
    func batchStatisticsEdges() throws {
        let empty = try Mediate.run(["--in-memory", "batch", "--stats"], input: "# nothing\n")
        #expect(empty.status == 0)
        #expect(empty.errorLines == [#"{"actions":{},"calls":0,"failures":0}"#])
        #expect(try Mediate.run(["--in-memory", "batch"], input: "Echo echo\n").error.isEmpty)
        let bogus = try Mediate.run(["--in-memory", "batch", "--stats", "--bogus"], input: "Echo echo\n")
        #expect(bogus.status == 64)
        #expect(bogus.errorLines == [#"mediate: error: unknown argument "--bogus" for batch"#])
    }

    // MARK: - --redirects

    @Test("--redirects FILE: a pair and a whole target are redirected, in both spellings, and the log shows the route")
    func redirects() throws {
        let directory = PlantedDirectory()
        try directory.write(#"{"redirects": {"Old/repeat": "Echo/echo", "Legacy": "Echo"}}"#, to: "table.json")
        let table = directory.file("table.json")
        let pair = try Mediate.run(["--in-memory", "--redirects", table, "--log", "perform", "Old", "repeat", "a=1"])
        #expect(pair.status == 0, "\(pair)")
        #expect(pair.line == #"{"a":"1"}"#)
        #expect(logLines(pair).map(\.route) == ["Old/repeat -> Echo/echo"])
        let target = try Mediate.run(["--in-memory", "perform", "Legacy", "echo", "b=2", "--redirects=\(table)"])
        #expect(target.line == #"{"b":"2"}"#, "\(target)")
        let url = try Mediate.run(["--in-memory", "--redirects", table, "open", "app://Legacy/echo?c=3"])
        #expect(url.line == #"{"c":"3"}"#, "\(url)")
        // A symbolic link to the file is followed.
        directory.link("link.json", to: table)
        #expect(try Mediate.run(["--in-memory", "--redirects", directory.file("link.json"), "perform", "Old", "repeat"]).status == 0)
        // Without the option, nothing is redirected.
        #expect(try Mediate.run(["--in-memory", "perform", "Old", "repeat"]).status == 69)
    }

    @Test("--redirects with degradations: a missing target's calls go to the fallback with the names and params")
    func degradations() throws {
        let directory = PlantedDirectory()
        try directory.write(#"{"degradations": {"Shop": "Echo/echo"}}"#, to: "table.json")
        let run = try Mediate.run(["--in-memory", "--redirects", directory.file("table.json"), "perform", "Shop", "buy", "item=7"])
        #expect(run.status == 0, "\(run)")
        #expect(run.json?["target"] as? String == "Shop")
        #expect(run.json?["action"] as? String == "buy")
        #expect(run.json?["params"] as? [String: String] == ["item": "7"])
    }

    /// A `--redirects` file that must be refused: its text, or how to plant it.
    struct BadFile: Sendable, CustomStringConvertible {
        let name: String
        let plant: @Sendable (PlantedDirectory) throws -> Void
        let code: String
        let message: String
        var description: String { name }
    }

    static let badFiles: [BadFile] = [
        BadFile(name: "not JSON", plant: { try $0.write(#"{"redirects": "#, to: "f") }, code: "invalidRedirect", message: "is not valid JSON"),
        BadFile(
            // Where the cycle is said to start depends on the table's hash order (see the report).
            name: "a cycle", plant: { try $0.write(#"{"redirects": {"A/x": "B/x", "B/x": "A/x"}}"#, to: "f") }, code: "redirectCycle",
            message: "redirect cycle: "),
        BadFile(
            name: "a target cycle", plant: { try $0.write(#"{"redirects": {"A": "B", "B": "C", "C": "A"}}"#, to: "f") }, code: "redirectCycle",
            message: "redirect cycle: "),
        BadFile(
            name: "a chain too long",
            plant: { try $0.write(#"{"redirects": {"# + (0..<10).map { #""T\#($0)": "T\#($0 + 1)""# }.joined(separator: ",") + "}}", to: "f") },
            code: "tooManyRedirects", message: "more than 8 redirects"),
        BadFile(
            name: "an unknown member", plant: { try $0.write(#"{"redirect": {"A": "B"}}"#, to: "f") }, code: "invalidRedirect",
            message: #"unknown member "redirect""#),
        BadFile(
            name: "an invalid name", plant: { try $0.write(#"{"redirects": {"A b/x": "B/x"}}"#, to: "f") }, code: "invalidRedirect",
            message: "is not a valid Target/action pair"),
        BadFile(name: "a missing file", plant: { _ in }, code: "invalidRedirect", message: "cannot read it: No such file or directory"),
        BadFile(name: "a FIFO", plant: { $0.fifo("f") }, code: "invalidRedirect", message: "it is a FIFO (named pipe), not a regular file"),
        BadFile(
            name: "a directory", plant: { try FileManager.default.createDirectory(atPath: $0.file("f"), withIntermediateDirectories: false) },
            code: "invalidRedirect", message: "it is a directory, not a regular file"),
        BadFile(
            name: "a link to a FIFO",
            plant: {
                $0.fifo("fifo")
                $0.link("f", to: $0.file("fifo"))
            }, code: "invalidRedirect",
            message: "it is a FIFO (named pipe), not a regular file"),
        BadFile(
            name: "a file over 8 MiB",
            plant: { _ = FileManager.default.createFile(atPath: $0.file("f"), contents: Data(repeating: 0x20, count: (8 << 20) + 1)) }, code: "invalidRedirect",
            message: "it is larger than the limit of 8 MiB (8388608 bytes)"),
        BadFile(
            name: "not UTF-8", plant: { _ = FileManager.default.createFile(atPath: $0.file("f"), contents: Data([0x7B, 0xFF, 0x7D])) }, code: "invalidRedirect",
            message: "it is not UTF-8 text"),
    ]

    @Test("A --redirects file that cannot be used: exit 65, one line naming the file and the problem, nothing run", arguments: badFiles)
    func badRedirectsFile(_ bad: BadFile) throws {
        let directory = PlantedDirectory()
        try bad.plant(directory)
        let path = directory.file("f")
        let run = try Mediate.run(["--data-dir", directory.path, "--redirects", path, "perform", "Accounts", "signUp", "username=ada", "password=analytical"])
        #expect(run.status == 65, "\(run)")
        #expect(run.output.isEmpty)
        #expect(run.errorLines.count == 1, "\(run)")
        #expect(run.error.hasPrefix("mediate: error: --redirects \"\(path.count > 80 ? String(path.prefix(80)) + "…" : path)\": "), "\(run)")
        #expect(run.error.contains(bad.message), "\(run)")
        // Nothing ran: the sign-up was not saved.
        #expect(directory.contents("state.json") == nil)
        let json = try Mediate.run(["--in-memory", "--json", "--redirects", path, "perform", "Echo", "echo"])
        #expect(json.status == 65)
        #expect((json.json?["error"] as? [String: Any])?["code"] as? String == bad.code, "\(json)")
    }

    @Test("The same cyclic file gets the same message on every run (RedirectTable walks its entries in hash order)")
    func cycleMessageIsStable() throws {
        let directory = PlantedDirectory()
        try directory.write(#"{"redirects": {"A/x": "B/x", "B/x": "C/x", "C/x": "A/x"}}"#, to: "f")
        // Swift seeds its hashing per process: eight runs agree by chance once in 3^7.
        let messages = try (0..<8).map { _ in try Mediate.run(["--in-memory", "--redirects", directory.file("f"), "perform", "Echo", "echo"]).error }
        #expect(Set(messages).count == 1, "\(Set(messages))")
        #expect(messages.first?.hasSuffix("redirect cycle: A/x -> B/x -> C/x -> A/x\n") == true, "\(messages.first ?? "")")
    }

    @Test("--redirects without a file is a usage error (64); so is giving it twice")
    func redirectsUsage() throws {
        for arguments in [["--redirects"], ["--redirects", "--json"], ["--redirects="], ["--redirects", "a", "--redirects", "b"]] {
            let run = try Mediate.run(["--in-memory", "perform", "Echo", "echo"] + arguments)
            #expect(run.status == 64, "\(arguments): \(run)")
            #expect(run.errorLines.count == 1)
            #expect(run.error.contains("--redirects"))
        }
    }

    // MARK: - Help

    @Test("--help documents --log, --redirects FILE and batch --stats, and exit 65 for a bad file")
    func help() throws {
        let main = try Mediate.run(["--help"])
        #expect(main.status == 0)
        for needle in ["--log", "--redirects FILE", "batch [--json] [--stats]", "65 invalid URL or parameter, or a --redirects file", "redirectCycle"] {
            #expect(main.output.contains(needle), "missing \(needle)")
        }
        let batch = try Mediate.run(["batch", "--help"])
        #expect(batch.output.contains("--stats"))
        #expect(batch.output.contains("latencyNanoseconds"))
    }

    // MARK: - In process: what observers see of the tool's calls

    /// Records the origin and depth of every finished call.
    final class Origins: CallObserver {
        private let seen = ReadWriteLockBox()
        func callDidFinish(_ record: CallRecord) { seen.append("\(record.name) \(record.request.origin) \(record.request.depth)") }
        var all: [String] { seen.all }
    }

    @Test("The tool's perform and batch lines reach observers as command-line calls, open and URL lines as URL calls")
    func origins() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Echo",
            actions: [
                Action("echo") { _, params in params },
                Action("twice") { mediator, _ in try mediator.callNow(target: "Echo", action: "echo") },
            ])
        let origins = Origins()
        mediator.addObserver(origins)
        let tool = CommandLineTool(mediator: mediator, name: "tool", version: "1")
        #expect(await ToolRun.run(tool, ["perform", "Echo", "twice"]).status == 0)
        #expect(await ToolRun.run(tool, ["open", "app://Echo/echo"]).status == 0)
        #expect(await ToolRun.run(tool, ["batch"], input: "Echo echo\napp://Echo/echo\n").status == 0)
        #expect(
            origins.all == [
                "Echo/echo in-process 2", "Echo/twice command line 1", "Echo/echo url 1", "Echo/echo command line 1", "Echo/echo url 1",
            ])
    }

    @Test("--log keeps at most 100,000 lines for one request and says how many more there were")
    func logLimit() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Loop",
            actions: [
                Action("leaf") { _, _ in nil },
                Action("run") { mediator, _ in
                    for _ in 0..<100_002 { _ = try mediator.callNow(target: "Loop", action: "leaf") }
                    return "done"
                },
            ])
        let tool = CommandLineTool(mediator: mediator, name: "tool", version: "1")
        let run = await ToolRun.run(tool, ["--log", "perform", "Loop", "run"])
        #expect(run.status == 0)
        #expect(run.output == [#""done""#])
        #expect(run.errors.count == 100_001)
        #expect(run.errors.last == "tool: log: 3 more calls not logged (over 100000 in one request)")
    }

    @Test("A --redirects file that cannot be read is one line and exit 65", .enabled(if: geteuid() != 0, "root reads any file"))
    func unreadableRedirectsFile() throws {
        let directory = PlantedDirectory()
        try directory.write("{}", to: "f", mode: 0o000)
        let run = try Mediate.run(["--in-memory", "--redirects", directory.file("f"), "perform", "Echo", "echo"])
        #expect(run.status == 65)
        #expect(run.errorLines.count == 1)
        #expect(run.error.hasSuffix(": cannot open it: Permission denied\n"), "\(run)")
    }

    @Test("What --log and --redirects change on the tool's mediator lasts for the run only")
    func optionsLastForTheRun() async throws {
        let mediator = Mediator()
        try mediator.registerEcho()
        let directory = PlantedDirectory()
        try directory.write(#"{"redirects": {"Old": "Echo"}}"#, to: "table.json")
        let tool = CommandLineTool(mediator: mediator, name: "tool", version: "1")
        let first = await ToolRun.run(tool, ["--log", "--redirects", directory.file("table.json"), "perform", "Old", "echo"])
        #expect(first.status == 0, "\(first)")
        #expect(first.errors.count == 1 && first.errors[0].hasPrefix("tool: log: "), "\(first)")
        #expect(mediator.redirects.isEmpty)
        let second = await ToolRun.run(tool, ["perform", "Echo", "echo"])
        #expect(second.errors.isEmpty)
        #expect(await ToolRun.run(tool, ["perform", "Old", "echo"]).status == 69)
    }
}

/// A list of strings behind a lock, for observers called from any thread.
final class ReadWriteLockBox: Sendable {
    private let lines = ReadWriteLock<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withReadLock { $0 } }
}
