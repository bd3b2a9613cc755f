import Foundation
import Testing

@Suite("mediate: async actions run through perform, open and batch")
struct AsyncActionTests {
    @Test("perform runs Echo/delayedEcho and prints its other params")
    func perform() throws {
        let run = try Mediate.run(["--in-memory", "perform", "Echo", "delayedEcho", "ms:=50", "a=1"])
        #expect(run.status == 0, "\(run)")
        #expect(run.line == #"{"a":"1"}"#)
        #expect(run.error.isEmpty)
    }

    @Test("open runs an async action by URL, ms given as text")
    func open() throws {
        let run = try Mediate.run(["--in-memory", "open", "app://Echo/delayedEcho?ms=20&b=2&b=3"])
        #expect(run.status == 0, "\(run)")
        #expect(run.line == #"{"b":["2","3"]}"#)
    }

    @Test("batch answers async and sync lines in input order, each after the one before")
    func batchInOrder() throws {
        // The first line waits longest: answered out of order, its output would come last.
        let input = """
            Echo delayedEcho ms:=200 n=1
            Echo echo n=2
            app://Echo/delayedEcho?ms=50&n=3
            Echo delayedEcho ms:=0 n=4
            Echo echo n=5

            """
        let run = try Mediate.run(["--in-memory", "batch"], input: input)
        #expect(run.status == 0, "\(run)")
        #expect(run.lines == (1...5).map { #"{"n":"\#($0)"}"# })
    }

    @Test("batch --json: an async line that fails is reported in its place and the batch goes on")
    func batchFailure() throws {
        let run = try Mediate.run(["--in-memory", "batch", "--json"], input: "Echo delayedEcho n=1\nEcho delayedEcho ms:=1 n=2\n")
        #expect(run.status == 1, "\(run)")
        #expect(run.lines.count == 2)
        #expect(run.lines.first?.contains(#""code":"invalidParameter""#) == true, "\(run)")
        #expect(run.lines.last == #"{"ok":true,"result":{"n":"2"}}"#)
        #expect(run.errorLines.map { $0.hasPrefix("mediate: error: line 1: Echo/delayedEcho:") } == [true])
    }

    @Test("delayedEcho without ms, or with a negative one, is an invalidParameter naming ms (exit 65)")
    func invalidDelay() throws {
        for arguments in [["a=1"], ["ms:=-1"], ["ms=-5"], ["ms=soon"]] {
            let run = try Mediate.run(["--in-memory", "--json", "perform", "Echo", "delayedEcho"] + arguments)
            #expect(run.status == 65, "\(arguments): \(run)")
            let error = run.json?["error"] as? [String: Any]
            #expect(error?["code"] as? String == "invalidParameter", "\(arguments): \(run)")
            #expect(error?["parameter"] as? String == "ms", "\(arguments): \(run)")
        }
    }

    @Test("list Echo shows delayedEcho with its summary")
    func listed() throws {
        let run = try Mediate.run(["--in-memory", "list", "Echo"])
        let row = run.lines.first { $0.contains("delayedEcho") }
        #expect(row?.contains("Action_delayedEcho") == true, "\(run)")
        #expect(row?.contains("Async: waits ms milliseconds (cancellable), then returns its other params") == true, "\(run)")
    }
}

@Suite("mediate: Ctrl-C cancels an async action and exits 130")
struct InterruptTests {
    /// The line `MEDIATE_TRACE=1` writes on standard error as each request starts: from then on a
    /// Ctrl-C reaches the request.
    static let started = "mediate: trace: request started"

    /// Sends Ctrl-C after `mediate` has written `started` on standard error `count` times, so the
    /// signal reaches the `count`-th request, whatever the machine's speed.
    static func interrupt(_ mediate: InteractiveMediate, afterStarting count: Int = 1) throws {
        var seen = 0
        while seen < count {
            let line = try #require(try mediate.nextErrorLine(), "mediate ended before its request started")
            if line == started { seen += 1 }
        }
        mediate.signal(SIGINT)
    }

    /// Waits for the end of both outputs (a hang fails there), then for the exit.
    static func finish(_ mediate: InteractiveMediate) throws -> (status: Int32, output: [String], errors: [String]) {
        let output = try mediate.remainingLines()
        let errors = try mediate.remainingErrorLines()
        let end = mediate.waitForExit()
        #expect(end.reason == .exit, "mediate ended by a signal")
        return (end.status, output, errors)
    }

    /// The data directory's entries and the state file's bytes.
    static func snapshot(_ directory: String) throws -> (entries: [String], state: Data) {
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        return (entries, try Data(contentsOf: URL(fileURLWithPath: directory + "/state.json")))
    }

    @Test("Ctrl-C during a long delayedEcho cancels it: exit 130, a cancelled error, the data file untouched")
    func performInterrupted() throws {
        let directory = Mediate.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try Mediate.run(["--data-dir", directory, "perform", "Accounts", "signUp", "username=ada", "password=analytical"]).status == 0)
        let before = try Self.snapshot(directory)

        let mediate = try InteractiveMediate(
            ["--data-dir", directory, "--json", "perform", "Echo", "delayedEcho", "ms:=600000", "a=1"],
            environment: ["MEDIATE_TRACE": "1"], readsErrors: true)
        try Self.interrupt(mediate)
        let end = try Self.finish(mediate)

        #expect(end.status == 130)
        #expect(end.output.count == 1)
        #expect(end.output.first?.hasPrefix(#"{"ok":false,"error":{"action":"delayedEcho","code":"cancelled""#) == true, "\(end.output)")
        #expect(end.errors == ["mediate: error: Echo/delayedEcho: cancelled: the calling task was cancelled"])
        let after = try Self.snapshot(directory)
        #expect(after.entries == before.entries)
        #expect(after.state == before.state)
    }

    @Test("Ctrl-C in a batch of async lines: the lines answered are printed, later lines do not run, exit 130")
    func batchInterrupted() throws {
        let mediate = try InteractiveMediate(["--in-memory", "batch"], environment: ["MEDIATE_TRACE": "1"], readsErrors: true)
        mediate.send("Echo delayedEcho ms:=1 n=1\nEcho echo n=2\nEcho delayedEcho ms:=600000 n=3\nEcho echo n=4\n")
        try Self.interrupt(mediate, afterStarting: 3)
        let end = try Self.finish(mediate)

        #expect(end.status == 130)
        #expect(end.output == [#"{"n":"1"}"#, #"{"n":"2"}"#])
        // After the three starts already read: line 3's error, and no start of line 4.
        #expect(end.errors == ["mediate: error: line 3: Echo/delayedEcho: cancelled: the calling task was cancelled"])
    }

    @Test("Ctrl-C twice in a row during an async action still ends mediate with 130")
    func twice() throws {
        let mediate = try InteractiveMediate(
            ["--in-memory", "perform", "Echo", "delayedEcho", "ms:=600000"], environment: ["MEDIATE_TRACE": "1"], readsErrors: true)
        try Self.interrupt(mediate)
        mediate.signal(SIGINT)
        let end = try Self.finish(mediate)
        #expect(end.status == 130)
        #expect(end.output.isEmpty)
    }

    @Test("Ctrl-C outside an action (a batch waiting for input) ends mediate at once with 130")
    func waitingForInput() throws {
        let mediate = try InteractiveMediate(["--in-memory", "batch"], environment: ["MEDIATE_TRACE": "1"], readsErrors: true)
        mediate.send("Echo echo n=1\n")
        // The answer is printed: mediate now waits for the next line, its input still open.
        #expect(try mediate.nextLine() == #"{"n":"1"}"#)
        mediate.signal(SIGINT)
        let end = try Self.finish(mediate)
        #expect(end.status == 130)
        #expect(end.output.isEmpty)
        #expect(end.errors == [Self.started])
    }

    @Test("Ctrl-C while waiting for the data file's lock ends mediate with 130; the file is untouched")
    func waitingForLock() throws {
        let directory = Mediate.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try Mediate.run(["--data-dir", directory, "perform", "Accounts", "signUp", "username=ada", "password=analytical"]).status == 0)
        let before = try Self.snapshot(directory)
        // Hold the lock as another mediate would, so the request cannot start.
        let lock = open(directory + "/state.lock", O_RDWR | O_CLOEXEC)
        try #require(lock >= 0)
        defer { close(lock) }
        try #require(flock(lock, LOCK_EX) == 0)

        let mediate = try InteractiveMediate(
            ["--data-dir", directory, "perform", "Accounts", "signUp", "username=bob", "password=analytical"],
            environment: ["MEDIATE_TRACE": "1"], readsErrors: true)
        try Self.waitUntilCatchingInterrupts(mediate.process.processIdentifier)
        mediate.signal(SIGINT)
        let end = try Self.finish(mediate)
        #expect(end.status == 130)
        #expect(end.output.isEmpty)
        #expect(end.errors.isEmpty, "the request never started")
        _ = flock(lock, LOCK_UN)
        let after = try Self.snapshot(directory)
        #expect(after.entries == before.entries)
        #expect(after.state == before.state)
    }

    /// Waits until the process catches `SIGINT` (`SigCgt` in `/proc/PID/status`): mediate installs
    /// its handler first thing, so from then on a Ctrl-C is its to handle. A limit only a hang reaches.
    static func waitUntilCatchingInterrupts(_ pid: Int32) throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            let field = status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }
            let mask = field.flatMap { UInt64($0.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) } ?? 0
            if mask & (1 << (UInt64(SIGINT) - 1)) != 0 { return }
            usleep(1_000)
        }
        Issue.record("mediate did not install its SIGINT handler within 60 s")
    }
}
