import Foundation
import Testing

@Suite("mediate: describe, perform --help, list with params, verify")
struct DescribeCommandTests {
    static let checkedEcho = [
        "Echo/checkedEcho: Like echo, for declared params: returns them validated, text coerced, defaults filled in",
        "  usage: mediate perform Echo checkedEcho text=<string> [count=<integer>] [loud=<boolean>] [tags=<string>...]",
        "  params:",
        "    text: string, required - Any text",
        "    count: integer (1...10), optional, default 1 - A whole number from 1 to 10",
        "    loud: boolean, optional - Whether to shout",
        "    tags: array of string, optional - Labels; give the key again for more",
        "  result: object",
        "  reach: remote (URL calls allowed)",
        "  async: no",
        "  undeclared params: dropped from URLs, refused from the command line, passed on in-process",
        "  example URL: app://Echo/checkedEcho?text=text&count=1",
        "  example: mediate perform Echo checkedEcho text=text count=1",
    ]

    @Test("describe <Target> <action> prints the action's usage, params, result, reach and examples")
    func describeDeclaredAction() throws {
        let run = try Mediate.run(["--in-memory", "describe", "Echo", "checkedEcho"])
        #expect(run.status == 0, "\(run)")
        #expect(run.error.isEmpty)
        #expect(run.lines == Self.checkedEcho)
    }

    @Test("An action that declares no params says so, and takes any key=value")
    func describeUndeclaredAction() throws {
        let run = try Mediate.run(["--in-memory", "describe", "Echo", "echo"])
        #expect(
            run.lines == [
                "Echo/echo: Returns its params as received",
                "  usage: mediate perform Echo echo [key=value ...]",
                "  params: not declared",
                "  result: not declared",
                "  reach: remote (URL calls allowed)",
                "  async: no",
                "  example URL: app://Echo/echo",
                "  example: mediate perform Echo echo",
            ])
    }

    @Test("describe <Target> prints the target's line, then each action; describe alone, every target")
    func describeTargets() throws {
        let target = try Mediate.run(["--in-memory", "describe", "Echo"])
        #expect(target.status == 0)
        #expect(target.lines.first == "Echo (Target_Echo): Diagnostics: shows exactly what a call receives")
        #expect(target.output.contains("\n\n" + Self.checkedEcho.joined(separator: "\n") + "\n\n"))
        #expect(target.lines.filter { $0.hasPrefix("Echo/") }.count == 5)
        let all = try Mediate.run(["--in-memory", "describe"])
        #expect(all.status == 0)
        for line in ["Accounts (Target_Accounts)", "Echo (Target_Echo)", "Notes (Target_Notes)"] {
            #expect(all.lines.contains { $0.hasPrefix(line) }, "\(line)")
        }
        #expect(all.output.contains(target.output))
    }

    @Test("perform <Target> <action> --help and -h print describe's text, exit 0 and run nothing")
    func performHelp() throws {
        for flag in ["--help", "-h"] {
            let run = try Mediate.run(["--in-memory", "perform", "Echo", "checkedEcho", "text=hi", flag])
            #expect(run.status == 0)
            #expect(run.lines == Self.checkedEcho)
            // Echo/fail would exit 70 if it ran.
            let fail = try Mediate.run(["--in-memory", "perform", "Echo", "fail", flag])
            #expect(fail.status == 0, "\(fail)")
            #expect(fail.output == (try Mediate.run(["--in-memory", "describe", "Echo", "fail"])).output)
        }
    }

    @Test("describe --json is the registry description, with every target's fields")
    func describeJSON() throws {
        let run = try Mediate.run(["--in-memory", "describe", "--json"])
        #expect(run.status == 0, "\(run)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(document["format"] as? String == "mediator-registry")
        #expect(document["version"] as? Int == 1)
        let targets = try #require(document["targets"] as? [[String: Any]])
        #expect(targets.map { $0["name"] as? String } == ["Accounts", "Echo", "Notes"])
        let notes = try #require(targets.first { $0["name"] as? String == "Notes" })
        #expect(notes["fullName"] as? String == "Target_Notes")
        #expect(notes["alwaysCached"] is Bool)
        #expect(notes["hasInstances"] as? Bool == true)
        let actions = try #require(notes["actions"] as? [[String: Any]])
        #expect(actions.map { $0["name"] as? String }.contains("create"))
        for action in actions {
            #expect(action["fullName"] as? String == "Action_" + (action["name"] as? String ?? ""))
            #expect(action["remote"] is Bool)
            #expect(action["async"] is Bool)
            #expect(action["undeclaredParameters"] is String)
        }
        #expect(actions.first { $0["name"] as? String == "export" }?["async"] as? Bool == true)
    }

    @Test("describe <Target> <action> --json holds that target with only that action, params as JSON Schema")
    func describeOneActionJSON() throws {
        let run = try Mediate.run(["--in-memory", "describe", "Echo", "checkedEcho", "--json"])
        #expect(run.status == 0, "\(run)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let targets = try #require(document["targets"] as? [[String: Any]])
        #expect(targets.count == 1)
        let actions = try #require(targets.first?["actions"] as? [[String: Any]])
        #expect(actions.map { $0["name"] as? String } == ["checkedEcho"])
        let params = try #require(actions.first?["params"] as? [String: Any])
        #expect(params["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect(params["required"] as? [String] == ["text"])
        #expect(params["additionalProperties"] as? Bool == false)
        let count = try #require((params["properties"] as? [String: Any])?["count"] as? [String: Any])
        #expect(count["type"] as? String == "integer")
        #expect(count["minimum"] as? Int == 1)
        #expect(count["maximum"] as? Int == 10)
        #expect(count["default"] as? Int == 1)
        // The last action, and one in the middle, come out whole too.
        for name in ["nativeEcho", "echo"] {
            let one = try Mediate.run(["--in-memory", "describe", "Echo", name, "--json"])
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(one.output.utf8)) as? [String: Any], "\(one)")
            let only = ((parsed["targets"] as? [[String: Any]])?.first?["actions"] as? [[String: Any]])?.map { $0["name"] as? String }
            #expect(only == [name])
        }
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let status: Int32
        let message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let failures: [Failure] = [
        Failure(arguments: ["describe", "Eco"], status: 69, message: #"no target named "Eco" is registered; did you mean "Echo"?"#),
        Failure(arguments: ["describe", "Echo", "ehco"], status: 69, message: #"target "Echo" has no action "ehco"; did you mean "echo"?"#),
        Failure(arguments: ["describe", "Echo", "ehco", "--json"], status: 69, message: #"did you mean "echo"?"#),
        Failure(arguments: ["perform", "Echo", "ehco", "--help"], status: 69, message: #"did you mean "echo"?"#),
        // A word with one dash is a name to perform, so it is to perform --help too.
        Failure(arguments: ["perform", "Echo", "-n", "echo", "--help"], status: 69, message: #"has no action "-n""#),
        Failure(arguments: ["describe", "A", "B", "C"], status: 64, message: "describe takes at most a target and an action"),
        Failure(arguments: ["describe", "--swift"], status: 64, message: "describe --swift needs a target"),
        Failure(arguments: ["describe", "Echo", "echo", "--swift"], status: 64, message: "describe --swift takes a target, not an action"),
        Failure(arguments: ["describe", "Echo", "--swift", "--json"], status: 64, message: "describe takes --swift or --json, not both"),
        Failure(arguments: ["describe", "--frob"], status: 64, message: #"unknown option "--frob" for describe"#),
        Failure(arguments: ["verify", "Echo"], status: 64, message: #"verify takes no arguments; got "Echo""#),
        Failure(arguments: ["verfy"], status: 64, message: #"did you mean "verify"?"#),
        Failure(
            arguments: ["perform", "Echo", "checkedEcho", "text=hi", "bogus=1"], status: 65,
            message: #"Echo/checkedEcho: undeclared parameter "bogus": the action takes text, count?, loud?, tags?"#),
        Failure(
            arguments: ["perform", "Echo", "checkedEcho", "count=11"], status: 65,
            message: #"Echo/checkedEcho: missing required parameter "text" (expected string)"#),
        Failure(arguments: ["perform", "Echo", "checkedEcho", "text=a", "count=11"], status: 65, message: #"got String "11" (out of range)"#),
    ]

    @Test("Each failure: nothing on stdout (its error object with --json), one 'mediate: error:' line with its message, its exit code", arguments: failures)
    func failure(_ failure: Failure) throws {
        let run = try Mediate.run(["--in-memory"] + failure.arguments)
        #expect(run.status == failure.status, "\(run)")
        if failure.arguments.contains("--json") {
            #expect(run.lines.count == 1 && run.line.hasPrefix(#"{"ok":false,"error":{"#), "\(run)")
        } else {
            #expect(run.output.isEmpty, "\(run)")
        }
        #expect(run.errorLines.count == 1, "\(run)")
        #expect(run.errorLines.first?.hasPrefix("mediate: error: ") == true, "\(run)")
        #expect(run.errorLines.first?.contains(failure.message) == true, "\(run)")
    }

    @Test("An undeclared param is refused by perform and batch alike and dropped from a URL by open; the declared ones are coerced")
    func undeclaredParamRefused() throws {
        let message = #"Echo/checkedEcho: undeclared parameter "bogus": the action takes text, count?, loud?, tags?"#
        let performed = try Mediate.run(["--in-memory", "perform", "Echo", "checkedEcho", "text=hi", "bogus=1"])
        #expect(performed.status == 65)
        #expect(performed.errorLines == ["mediate: error: " + message])
        let opened = try Mediate.run(["--in-memory", "--log", "open", "app://Echo/checkedEcho?text=hi&bogus=1&utm_source=mail"])
        #expect(opened.status == 0, "\(opened)")
        #expect(opened.lines == [#"{"count":1,"text":"hi"}"#], "\(opened)")
        // The log shows the call as the URL asked it, the dropped items included.
        #expect(opened.errorLines.count == 1, "\(opened)")
        #expect(opened.errorLines.first?.contains(" url=app://Echo/checkedEcho?text=hi&bogus=1&utm_source=mail ") == true, "\(opened)")
        let batch = try Mediate.run(["--in-memory", "batch"], input: "Echo checkedEcho text=hi bogus=1\nEcho checkedEcho text=hi count=3 loud=true tags=a\n")
        #expect(batch.status == 1)
        #expect(batch.errorLines == ["mediate: error: line 1: " + message])
        #expect(batch.lines == [#"{"count":3,"loud":true,"tags":["a"],"text":"hi"}"#])
    }

    @Test("list shows each declared action's params after its summary; others look as before")
    func listParams() throws {
        let run = try Mediate.run(["--in-memory", "list", "Echo"])
        #expect(run.status == 0)
        #expect(
            run.lines.contains(
                "  checkedEcho  Action_checkedEcho  remote      Like echo, for declared params: returns them validated, text coerced, defaults filled in (text, count?, loud?, tags?)"
            ), "\(run)")
        #expect(run.lines.contains("  echo         Action_echo         remote      Returns its params as received"), "\(run)")
        let json = try Mediate.run(["--in-memory", "list", "Echo", "--json"])
        let actions = ((json.json?["result"] as? [String: Any])?["targets"] as? [[String: Any]])?.first?["actions"] as? [[String: Any]]
        let checked = try #require(actions?.first { $0["name"] as? String == "checkedEcho" })
        let params = try #require(checked["params"] as? [[String: Any]])
        #expect(params.map { $0["name"] as? String } == ["text", "count", "loud", "tags"])
        #expect(params.map { $0["required"] as? Bool } == [true, false, false, false])
        #expect(params[1]["default"] as? Int == 1)
        #expect(params[1]["type"] as? String == "integer (1...10)")
        #expect(actions?.first { $0["name"] as? String == "echo" }?["params"] is NSNull)
    }

    @Test("verify on mediate's registry prints nothing and exits 0")
    func verifyMediate() throws {
        let run = try Mediate.run(["--in-memory", "verify"])
        #expect(run.status == 0, "\(run)")
        #expect(run.output.isEmpty)
        #expect(run.error.isEmpty)
        #expect(try Mediate.run(["--in-memory", "verify", "--json"]).line == #"{"ok":true,"result":{"problems":[]}}"#)
    }

    @Test("--help documents describe, perform --help and verify")
    func help() throws {
        let main = try Mediate.run(["--help"])
        for needle in [
            "mediate describe [<Target> [<action>]] [--json | --swift]", "mediate perform <Target> <action> --help", "mediate verify [--json]",
            "verify: 0 when it finds no problem",
        ] {
            #expect(main.output.contains(needle), "missing \(needle)")
        }
        for (command, needle) in [("describe", "--swift"), ("verify", "exit 1"), ("perform", "that action's description")] {
            let run = try Mediate.run([command, "--help"])
            #expect(run.status == 0)
            #expect(run.output.contains("USAGE: mediate \(command)"))
            #expect(run.output.contains(needle), "\(command): missing \(needle)")
        }
    }
}
