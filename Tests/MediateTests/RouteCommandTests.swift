import Foundation
import Mediator
import MediatorCommandLine
import Testing

/// `mediate --routes FILE`, `mediate routes` and routed URLs in `open` and `batch`, on the built
/// binary, and what the options change on a program's own mediator.
@Suite("mediate: --routes FILE, routes, routed URLs")
struct RouteCommandTests {
    /// The example modules' route table, `Targets/routes.json`, found from this file's path.
    static let exampleTable: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path + "/Targets/routes.json"
    }()

    /// `path` as the tool shows it in an error line (cut after 80 characters).
    static func shown(_ path: String) -> String {
        "\"" + (path.count > 80 ? String(path.prefix(80)) + "…" : path) + "\""
    }

    /// A data directory with the account `ada` and two notes (1 "Engines", tags work and math; 2
    /// "Looms", body "cards", tag work), and ada's session token.
    static func exampleWorld() throws -> (directory: PlantedDirectory, token: String) {
        let directory = PlantedDirectory()
        expectSuccess(directory.signUp())
        let logIn = directory.mediate("perform", "Accounts", "logIn", "username=ada", "password=analytical")
        expectSuccess(logIn)
        let token = try #require(sessionToken(logIn.outputText.trimmingCharacters(in: .newlines)))
        expectSuccess(directory.mediate("perform", "Notes", "create", "token=\(token)", "title=Engines", "tags=work", "tags=math"))
        expectSuccess(directory.mediate("perform", "Notes", "create", "token=\(token)", "title=Looms", "body=cards", "tags=work"))
        return (directory, token)
    }

    static let engines = #"{"body":"","id":1,"owner":"ada","tags":["work","math"],"title":"Engines"}"#
    static let looms = #"{"body":"cards","id":2,"owner":"ada","tags":["work"],"title":"Looms"}"#

    // MARK: - The example table

    @Test("The example table: /notes/7-style URLs reach Notes/get, tags Notes/list, app://me Accounts/whoAmI")
    func exampleTableOpens() throws {
        let (directory, token) = try Self.exampleWorld()
        let cases: [(url: String, output: String)] = [
            ("app://notes/1", Self.engines),
            ("app://notes/2", Self.looms),
            // The host is the first segment for a custom scheme; only the path for https.
            ("https://example.com/notes/2", Self.looms),
            ("app://notes/tag/work", "[\(Self.engines),\(Self.looms)]"),
            ("https://example.com/notes/tag/math", "[\(Self.engines)]"),
            ("app://notes/tag/none", "[]"),
            ("app://notes", "[\(Self.engines),\(Self.looms)]"),
            // The path's id is put over the query's.
            ("app://notes/1?id=2", Self.engines),
            // An async action through a route, its token from the query.
            ("app://notes/export?token=\(token)", #""# + "\"# Engines\\n\\n# Looms\\n\\ncards\\n\""),
            ("app://me?token=\(token)", #"{"id":1,"username":"ada"}"#),
            // The built-in form still works next to the routes.
            ("app://Notes/get?id=2", Self.looms),
        ]
        for (url, output) in cases {
            let run = directory.mediate("--routes", Self.exampleTable, "open", url)
            expectSuccess(run)
            #expect(run.outputText == output + "\n", "\(url)")
            #expect(run.errorText.isEmpty, "\(url): \(run.errorText)")
        }
        let json = directory.mediate("--json", "open", "app://notes/1", "--routes=\(Self.exampleTable)")
        #expect(json.outputText == #"{"ok":true,"result":"# + Self.engines + "}\n")
    }

    @Test("The example table: what no route takes falls to the built-in form or fails as the library says")
    func exampleTableMisses() throws {
        let (directory, token) = try Self.exampleWorld()
        // A note that does not exist: the route matched, the action failed.
        let missing = directory.mediate("--routes", Self.exampleTable, "open", "app://notes/9")
        #expect(missing.status == 70)
        #expect(missing.errorText == "mediate: error: Notes/get: the action failed: no note with id 9\n")
        // Not an integer: /notes/:id<int> does not match; read as Target/action, "notes" is no target.
        let text = directory.mediate("--routes", Self.exampleTable, "open", "app://notes/abc")
        #expect(text.status == 69)
        #expect(text.errorText.hasPrefix(#"mediate: error: notes/abc: no target named "notes" is registered; did you mean "Notes"?"#), "\(text.errorText)")
        // /me is for app:// only.
        let web = directory.mediate("--routes", Self.exampleTable, "open", "https://example.com/me?token=\(token)")
        #expect(web.status == 69, "\(web.errorText)")
        // Three segments, no route: routeNotFound, exit 69.
        let deep = directory.mediate("--routes", Self.exampleTable, "open", "app://notes/a/b")
        #expect(deep.status == 69)
        #expect(deep.errorText.hasPrefix(#"mediate: error: "app://notes/a/b": no route matches "/notes/a/b""#), "\(deep.errorText)")
        let deepJSON = directory.mediate("--routes", Self.exampleTable, "--json", "open", "app://notes/a/b")
        #expect(deepJSON.status == 69)
        #expect(deepJSON.outputText.hasPrefix(#"{"ok":false,"error":{"code":"routeNotFound","#), "\(deepJSON.outputText)")
        // Without --routes, nothing is routed.
        let plain = directory.mediate("open", "app://notes/1")
        #expect(plain.status == 69, "\(plain.errorText)")
    }

    @Test("routes lists the example table in match order, one description per line; --json every field")
    func exampleTableListing() throws {
        let run = try Mediate.run(["--in-memory", "--routes", Self.exampleTable, "routes"])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.output == """
                [app] /me -> Accounts/whoAmI
                /notes -> Notes/list
                /notes/export -> Notes/export
                /notes/tag/:tag -> Notes/list
                /notes/:id<int> -> Notes/get

                """)
        #expect(run.error.isEmpty)
        let json = try Mediate.run(["--in-memory", "routes", "--json", "--routes", Self.exampleTable])
        #expect(json.status == 0)
        #expect(
            json.output == #"{"ok":true,"result":{"routes":["#
                + #"{"action":"whoAmI","host":null,"pattern":"/me","priority":0,"scheme":"app","target":"Accounts"},"#
                + #"{"action":"list","host":null,"pattern":"/notes","priority":0,"scheme":null,"target":"Notes"},"#
                + #"{"action":"export","host":null,"pattern":"/notes/export","priority":0,"scheme":null,"target":"Notes"},"#
                + #"{"action":"list","host":null,"pattern":"/notes/tag/:tag","priority":0,"scheme":null,"target":"Notes"},"#
                + #"{"action":"get","host":null,"pattern":"/notes/:id<int>","priority":0,"scheme":null,"target":"Notes"}"#
                + "]}}\n")
    }

    @Test("No routes: routes prints (no routes registered), --json an empty array; an empty table loads")
    func noRoutes() throws {
        let none = try Mediate.run(["--in-memory", "routes"])
        #expect(none.status == 0)
        #expect(none.output == "(no routes registered)\n")
        #expect(none.error.isEmpty)
        #expect(try Mediate.run(["--in-memory", "routes", "--json"]).output == #"{"ok":true,"result":{"routes":[]}}"# + "\n")
        let directory = PlantedDirectory()
        try directory.write("[]", to: "empty.json")
        let empty = try Mediate.run(["--in-memory", "--routes", directory.file("empty.json"), "routes"])
        #expect(empty.status == 0)
        #expect(empty.output == "(no routes registered)\n")
    }

    // MARK: - Order, schemes, priorities, the @-keys

    /// A table with schemes, priorities and every kind of segment, registered out of order.
    static let mixedTable = """
        [
          {"pattern": "/files/*", "target": "Echo", "action": "echo"},
          {"pattern": "/u/:id", "target": "Echo", "action": "echo"},
          {"pattern": "/u/:count<int>", "target": "Echo", "action": "checkedEcho"},
          {"pattern": "/u/me", "target": "Echo", "action": "echo", "priority": -1},
          {"pattern": "/x", "target": "Echo", "action": "echo", "scheme": "zed"},
          {"pattern": "/x", "target": "Target_Echo", "action": "Action_fail", "scheme": "Beta", "priority": 2}
        ]
        """

    @Test("routes: each scheme's routes (sorted, lowercased) first, then priority, then literal < typed < untyped < wildcard")
    func listingOrder() throws {
        let directory = PlantedDirectory()
        try directory.write(Self.mixedTable, to: "mixed.json")
        let run = try Mediate.run(["--in-memory", "--routes", directory.file("mixed.json"), "routes"])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.lines == [
                "[beta] /x -> Echo/fail (priority 2)",
                "[zed] /x -> Echo/echo",
                "/u/:count<int> -> Echo/checkedEcho",
                "/u/:id -> Echo/echo",
                "/files/* -> Echo/echo",
                "/u/me -> Echo/echo (priority -1)",
            ])
    }

    @Test("A routed call gets the path's params as text and the @-keys; a lower priority loses to a placeholder")
    func routedParams() throws {
        let directory = PlantedDirectory()
        try directory.write(Self.mixedTable, to: "mixed.json")
        func open(_ url: String) throws -> Run { try Mediate.run(["--in-memory", "--routes", directory.file("mixed.json"), "open", url]) }
        #expect(try open("app://files/a/b%20c").line == #"{"@rest":["a","b c"],"@route":"/files/*","@scheme":"app","@url":"app://files/a/b%20c"}"#)
        // /u/me has priority -1: /u/:id wins.
        #expect(try open("app://u/me?x=1").line == #"{"@route":"/u/:id","@scheme":"app","@url":"app://u/me?x=1","id":"me","x":"1"}"#)
        // checkedEcho declares its params: the @-keys are never refused, the path's text "7" is
        // read as the declared integer.
        let typed = try open("app://u/7?text=hi")
        #expect(typed.status == 0, "\(typed)")
        #expect(typed.json?["text"] as? String == "hi", "\(typed)")
        #expect(typed.json?["count"] as? Int == 7, "\(typed)")
        // A path param the action does not declare is dropped as any undeclared param of a URL is.
        try directory.write(#"[{"pattern": "/c/:id", "target": "Echo", "action": "checkedEcho"}]"#, to: "undeclared.json")
        let undeclared = try Mediate.run(["--in-memory", "--routes", directory.file("undeclared.json"), "open", "app://c/1?text=hi&utm_source=mail"])
        #expect(undeclared.status == 0, "\(undeclared)")
        #expect(undeclared.json?["text"] as? String == "hi", "\(undeclared)")
        #expect(undeclared.json?["id"] == nil && undeclared.json?["utm_source"] == nil, "\(undeclared)")
        #expect(try open("zed://x").line == #"{"@route":"/x","@scheme":"zed","@url":"zed://x"}"#)
        let failing = try open("BETA://x")
        #expect(failing.status == 70, "\(failing)")
        #expect(failing.error.hasPrefix("mediate: error: Echo/fail: "), "\(failing)")
    }

    // MARK: - Tables that are refused

    /// A route table that must be refused, and the reason the error line must end with.
    struct BadTable: Sendable, CustomStringConvertible {
        let name: String
        let text: String
        let code: String
        let message: String
        var description: String { name }
    }

    static let badTables: [BadTable] = [
        BadTable(
            name: "not JSON", text: #"[{"pattern": "/a", "target": "Echo""#, code: "invalidRoute",
            message: "the route table is not valid JSON: unterminated object at byte 35"),
        BadTable(name: "empty", text: "", code: "invalidRoute", message: "the route table is not valid JSON: unexpected end of input at byte 0"),
        BadTable(
            name: "an object, not an array", text: #"{"pattern": "/a"}"#, code: "invalidRoute",
            message: #"the route table must be a JSON array of {"pattern", "target", "action"} objects"#),
        BadTable(name: "an entry that is not an object", text: "[3]", code: "invalidRoute", message: "route 1: an entry must be an object"),
        BadTable(
            name: "a pattern of the wrong type", text: #"[{"pattern": 1, "target": "Echo", "action": "echo"}]"#, code: "invalidRoute",
            message: #"route 1: "pattern" must be a string"#),
        BadTable(
            name: "a priority of the wrong type", text: #"[{"pattern": "/a", "target": "Echo", "action": "echo", "priority": "high"}]"#,
            code: "invalidRoute", message: #"route 1: "priority" must be an integer"#),
        BadTable(
            name: "a fractional priority", text: #"[{"pattern": "/a", "target": "Echo", "action": "echo", "priority": 1.5}]"#,
            code: "invalidRoute", message: #"route 1: "priority" must be an integer"#),
        BadTable(
            name: "a scheme of the wrong type", text: #"[{"pattern": "/a", "target": "Echo", "action": "echo", "scheme": 3}]"#,
            code: "invalidRoute", message: #"route 1: "scheme" must be a string"#),
        BadTable(
            name: "a missing member",
            text:
                #"[{"pattern": "/a", "target": "Echo", "action": "echo"}, {"pattern": "/b", "target": "Echo", "action": "echo"}, {"pattern": "/c", "target": "Echo"}]"#,
            code: "invalidRoute", message: #"route 3: "action" is missing"#),
        BadTable(
            name: "an unknown member", text: #"[{"pattern": "/a", "target": "Echo", "action": "echo", "tag": "x"}]"#, code: "invalidRoute",
            message: #"route 1: unknown member "tag" (an entry has action, host, pattern, priority, scheme, target)"#),
        BadTable(
            name: "a duplicate route",
            text: #"[{"pattern": "/u/:id", "target": "Echo", "action": "echo"}, {"pattern": "/u/:uid", "target": "Echo", "action": "checkedEcho"}]"#,
            code: "duplicateRoute",
            message: #"route 2: route "/u/:uid": matches exactly the URLs of route "/u/:id" (register with replacing: true to replace it)"#),
        BadTable(
            name: "an unbalanced group", text: #"[{"pattern": "/a/(b", "target": "Echo", "action": "echo"}]"#, code: "invalidRoute",
            message: #"route 1: route "/a/(b": unbalanced "(": no matching ")""#),
        BadTable(
            name: "an unknown placeholder type",
            text: #"[{"pattern": "/a", "target": "Echo", "action": "echo"}, {"pattern": "/x/:id<double>", "target": "Echo", "action": "echo"}]"#,
            code: "invalidRoute", message: #"route 2: route "/x/:id<double>": unknown placeholder type "double" (known: int, uuid, alpha, float)"#),
        BadTable(
            name: "an invalid target name",
            text: #"[{"pattern": "/a", "target": "Ec ho", "action": "echo"}, {"pattern": "/b", "target": "Echo", "action": "echo"}]"#,
            code: "invalidRoute",
            message: #"route 1: route "/a": invalid target name "Ec ho": names use only ASCII letters, digits, "_", "-" and "." (compared byte for byte)"#),
        BadTable(
            name: "a native action", text: #"[{"pattern": "/a", "target": "Echo", "action": "nativeEcho"}]"#, code: "invalidRoute",
            message: #"route 1: route "/a": actions whose name begins with "native" cannot be reached by URL"#),
        BadTable(
            name: "an invalid scheme", text: #"[{"pattern": "/a", "target": "Echo", "action": "echo", "scheme": "1app"}]"#, code: "invalidRoute",
            message: #"route 1: route "/a": the scheme "1app" must be a letter followed by letters, digits, "+", "-" or ".""#),
    ]

    @Test("A route table that is refused: exit 65, one line naming the file and the entry, nothing run", arguments: badTables)
    func badTable(_ bad: BadTable) throws {
        let directory = PlantedDirectory()
        try directory.write(bad.text, to: "routes.json")
        let path = directory.file("routes.json")
        let run = try Mediate.run(["--data-dir", directory.path, "--routes", path, "perform", "Accounts", "signUp", "username=ada", "password=analytical"])
        #expect(run.status == 65, "\(run)")
        #expect(run.output.isEmpty)
        #expect(run.errorLines == ["mediate: error: --routes \(Self.shown(path)): \(bad.message)"], "\(run)")
        // Nothing ran: the sign-up was not saved.
        #expect(directory.contents("state.json") == nil)
        let json = try Mediate.run(["--in-memory", "--json", "--routes", path, "routes"])
        #expect(json.status == 65)
        let error = json.json?["error"] as? [String: Any]
        #expect(error?["code"] as? String == bad.code, "\(json)")
        #expect(error?["message"] as? String == "--routes \(Self.shown(path)): \(bad.message)", "\(json)")
        #expect(json.errorLines.count == 1)
    }

    // MARK: - Files that cannot be used

    /// A routes file planted as something other than a readable regular file of UTF-8.
    struct BadFile: Sendable, CustomStringConvertible {
        let name: String
        let plant: @Sendable (PlantedDirectory) throws -> Void
        let message: String
        var description: String { name }
    }

    static let badFiles: [BadFile] = [
        BadFile(name: "a missing file", plant: { _ in }, message: "cannot read it: No such file or directory"),
        BadFile(name: "a dangling link", plant: { $0.link("f", to: $0.file("nowhere")) }, message: "cannot read it: No such file or directory"),
        BadFile(name: "a FIFO", plant: { $0.fifo("f") }, message: "it is a FIFO (named pipe), not a regular file"),
        BadFile(
            name: "a link to a FIFO",
            plant: {
                $0.fifo("fifo")
                $0.link("f", to: $0.file("fifo"))
            }, message: "it is a FIFO (named pipe), not a regular file"),
        BadFile(
            name: "a directory", plant: { try FileManager.default.createDirectory(atPath: $0.file("f"), withIntermediateDirectories: false) },
            message: "it is a directory, not a regular file"),
        BadFile(name: "a link to a directory", plant: { $0.link("f", to: $0.path) }, message: "it is a directory, not a regular file"),
        BadFile(name: "a character device", plant: { $0.link("f", to: "/dev/zero") }, message: "it is a character device, not a regular file"),
        BadFile(
            name: "a file over 8 MiB",
            plant: { _ = FileManager.default.createFile(atPath: $0.file("f"), contents: Data(repeating: 0x20, count: (8 << 20) + 1)) },
            message: "it is larger than the limit of 8 MiB (8388608 bytes)"),
        BadFile(
            name: "not UTF-8", plant: { _ = FileManager.default.createFile(atPath: $0.file("f"), contents: Data([0x5B, 0xFF, 0x5D])) },
            message: "it is not UTF-8 text"),
    ]

    @Test("A routes file that cannot be used: exit 65, one line naming the file and the problem, nothing run", arguments: badFiles)
    func badFile(_ bad: BadFile) throws {
        let directory = PlantedDirectory()
        try bad.plant(directory)
        let path = directory.file("f")
        let run = directory.mediate("--routes", path, "perform", "Accounts", "signUp", "username=ada", "password=analytical")
        #expect(!run.timedOut, "mediate hung")
        #expect(run.status == 65, "\(run.errorText)")
        #expect(run.output.isEmpty)
        #expect(run.errorText == "mediate: error: --routes \(Self.shown(path)): \(bad.message)\n")
        #expect(directory.contents("state.json") == nil)
        let json = directory.mediate("--json", "--routes", path, "routes")
        #expect(json.status == 65)
        #expect(json.outputText.hasPrefix(#"{"ok":false,"error":{"code":"invalidRoute","#), "\(json.outputText)")
    }

    @Test("A routes file that cannot be read is one line and exit 65", .enabled(if: geteuid() != 0, "root reads any file"))
    func unreadableFile() throws {
        let directory = PlantedDirectory()
        try directory.write("[]", to: "f", mode: 0o000)
        let run = try Mediate.run(["--in-memory", "--routes", directory.file("f"), "routes"])
        #expect(run.status == 65)
        #expect(run.errorLines == ["mediate: error: --routes \(Self.shown(directory.file("f"))): cannot open it: Permission denied"])
    }

    @Test("A symbolic link to a valid table is followed, as for --redirects")
    func linkToTable() throws {
        let directory = PlantedDirectory()
        directory.link("link.json", to: Self.exampleTable)
        let run = try Mediate.run(["--in-memory", "--routes", directory.file("link.json"), "routes"])
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.count == 5)
    }

    @Test("--routes without a file, or twice, is a usage error (64); so is routes with an argument")
    func usage() throws {
        for arguments in [["--routes"], ["--routes", "--json"], ["--routes="], ["--routes", "a", "--routes", "b"]] {
            let run = try Mediate.run(["--in-memory", "routes"] + arguments)
            #expect(run.status == 64, "\(arguments): \(run)")
            #expect(run.errorLines.count == 1)
            #expect(run.error.contains("--routes"))
        }
        let extra = try Mediate.run(["--in-memory", "routes", "Notes"])
        #expect(extra.status == 64)
        #expect(extra.errorLines == ["mediate: error: routes takes no arguments: mediate routes [--json]"])
        let option = try Mediate.run(["--in-memory", "routes", "--all"])
        #expect(option.errorLines == [#"mediate: error: unknown option "--all" for routes"#])
    }

    // MARK: - batch

    @Test("batch: routed URL lines reach their actions; a URL no route takes fails alone")
    func batchLines() throws {
        let (directory, _) = try Self.exampleWorld()
        let input = "app://notes/2\napp://notes/a/b\nNotes get id=1\nhttps://example.com/notes/tag/math\n"
        let run = try Mediate.run(["--data-dir", directory.path, "--routes", Self.exampleTable, "batch"], input: input)
        #expect(run.status == 1, "\(run)")
        #expect(run.lines == [Self.looms, Self.engines, "[\(Self.engines)]"])
        #expect(run.error.hasPrefix(#"mediate: error: line 2: "app://notes/a/b": no route matches "/notes/a/b""#), "\(run)")
        #expect(run.errorLines.count == 1)
    }

    // MARK: - Help

    @Test("--help documents --routes FILE, the routes command, its exit status and codes")
    func help() throws {
        let main = try Mediate.run(["--help"])
        #expect(main.status == 0)
        for needle in ["--routes FILE", "routes [--json]", "(or a --routes file that cannot be used)", "invalidRoute, duplicateRoute", "routeNotFound"] {
            #expect(main.output.contains(needle), "missing \(needle)")
        }
        let routes = try Mediate.run(["routes", "--help"])
        #expect(routes.status == 0)
        #expect(routes.output.hasPrefix("USAGE: mediate routes [--json]"))
        #expect(routes.output.contains("(no routes registered)"))
        #expect(try Mediate.run(["help", "routes"]).output == routes.output)
        #expect(try Mediate.run(["open", "--help"]).output.contains("routeNotFound"))
        let typo = try Mediate.run(["--in-memory", "rotues"])
        #expect(typo.errorLines == [#"mediate: error: unknown command "rotues"; did you mean "routes"?; try "mediate --help""#])
    }

    // MARK: - In process: a program's own mediator

    /// A tool over a mediator with `Echo/echo`, the local-only `Echo/secret` and one route of the
    /// program's own, `/own -> Echo/echo`.
    static func programTool() throws -> (mediator: Mediator, tool: CommandLineTool) {
        let mediator = Mediator()
        try mediator.register(
            target: "Echo",
            actions: [
                Action("echo") { _, params in params },
                Action("secret", localOnly: true) { _, _ in "classified" },
            ])
        try mediator.route("/own", to: "Echo", action: "echo")
        return (mediator, CommandLineTool(mediator: mediator, name: "tool", version: "1"))
    }

    @Test("A routed URL to a local-only action is refused (forbidden, 77); perform still reaches it")
    func localOnlyRefused() async throws {
        let (_, tool) = try Self.programTool()
        let directory = PlantedDirectory()
        try directory.write(#"[{"pattern": "/vault/:id<int>", "target": "Echo", "action": "secret"}]"#, to: "routes.json")
        let run = await ToolRun.run(tool, ["--routes", directory.file("routes.json"), "open", "app://vault/1"])
        #expect(run.status == 77, "\(run)")
        #expect(run.output.isEmpty)
        #expect(run.errors.count == 1)
        #expect(run.errors.first?.hasPrefix("tool: error: Echo/secret: ") == true, "\(run)")
        let json = await ToolRun.run(tool, ["--routes", directory.file("routes.json"), "--json", "batch"], input: "app://vault/2\n")
        #expect(json.status == 1)
        #expect(json.output.first?.hasPrefix(#"{"ok":false,"error":{"action":"secret","code":"forbidden","#) == true, "\(json)")
        #expect(await ToolRun.run(tool, ["perform", "Echo", "secret"]).output == [#""classified""#])
    }

    @Test("The file's routes last for the run, next to the program's own; a duplicate of one is refused (duplicateRoute, 65)")
    func routesLastForTheRun() async throws {
        let (mediator, tool) = try Self.programTool()
        let own = [URLRoute("/own", target: "Echo", action: "echo")]
        let directory = PlantedDirectory()
        try directory.write(#"[{"pattern": "/extra/:x", "target": "Echo", "action": "echo", "priority": 3}]"#, to: "routes.json")
        let listed = await ToolRun.run(tool, ["--routes", directory.file("routes.json"), "routes"])
        // The listing is one text, its routes on lines of their own.
        #expect(listed.output == ["/extra/:x -> Echo/echo (priority 3)\n/own -> Echo/echo"], "\(listed)")
        let opened = await ToolRun.run(tool, ["--routes", directory.file("routes.json"), "open", "app://extra/1"])
        #expect(opened.output == [#"{"@route":"/extra/:x","@scheme":"app","@url":"app://extra/1","x":"1"}"#], "\(opened)")
        #expect(mediator.routes == own)
        #expect(await ToolRun.run(tool, ["routes"]).output == ["/own -> Echo/echo"])
        #expect(await ToolRun.run(tool, ["open", "app://extra/1"]).status == 69)

        try directory.write(
            #"[{"pattern": "/:name", "target": "Echo", "action": "echo"}, {"pattern": "/own", "target": "Echo", "action": "secret"}]"#, to: "dup.json")
        let duplicate = await ToolRun.run(tool, ["--routes", directory.file("dup.json"), "--json", "routes"])
        #expect(duplicate.status == 65)
        #expect(duplicate.output.first?.hasPrefix(#"{"ok":false,"error":{"code":"duplicateRoute","#) == true, "\(duplicate)")
        #expect(
            duplicate.errors == [
                "tool: error: --routes \(Self.shown(directory.file("dup.json"))): route 2: route \"/own\": matches exactly the URLs of route \"/own\" (register with replacing: true to replace it)"
            ])
        // All or none: the first entry was not added either, and the program's route is untouched.
        #expect(mediator.routes == own)
    }

    @Test("A bad routes file leaves a good --redirects file unapplied; both good, a routed call follows the redirect")
    func withRedirects() async throws {
        let (mediator, tool) = try Self.programTool()
        let directory = PlantedDirectory()
        try directory.write(#"{"redirects": {"Old": "Echo"}}"#, to: "redirects.json")
        try directory.write(#"[{"pattern": "/old/:x", "target": "Old", "action": "echo"}]"#, to: "routes.json")
        try directory.write(#"[{"pattern": "/old/:x"}]"#, to: "bad.json")
        let bad = await ToolRun.run(tool, ["--redirects", directory.file("redirects.json"), "--routes", directory.file("bad.json"), "perform", "Old", "echo"])
        #expect(bad.status == 65)
        #expect(bad.errors == [#"tool: error: --routes \#(Self.shown(directory.file("bad.json"))): route 1: "target" is missing"#])
        #expect(mediator.redirects.isEmpty)
        let good = await ToolRun.run(
            tool, ["--redirects", directory.file("redirects.json"), "--routes", directory.file("routes.json"), "--log", "open", "app://old/5"])
        #expect(good.status == 0, "\(good)")
        #expect(good.output == [#"{"@route":"/old/:x","@scheme":"app","@url":"app://old/5","x":"5"}"#])
        #expect(good.errors.count == 1 && good.errors[0].contains("Old/echo -> Echo/echo"), "\(good)")
        #expect(mediator.redirects.isEmpty)
        #expect(mediator.routes.count == 1)
    }
}
