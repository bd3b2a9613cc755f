import Foundation
import Testing

@Suite("mediate: commands, output and exit codes")
struct CommandTests {
    @Test("perform prints the result as JSON with sorted keys, nothing on stderr, exit 0")
    func performSuccess() throws {
        let run = try Mediate.run(["--in-memory", "perform", "Echo", "echo", "b=2", "a=1"])
        #expect(run.status == 0)
        #expect(run.line == #"{"a":"1","b":"2"}"#)
        #expect(run.error.isEmpty)
    }

    @Test("key=value passes text, key:=json passes typed JSON")
    func textAndJSON() throws {
        let run = try Mediate.run([
            "--in-memory", "perform", "Echo", "echo", "text=3", "number:=3", "real:=2.5", "flag:=true",
            "nothing:=null", "list:=[\"a\",\"b\"]", "object:={\"k\":[1,{\"z\":null}]}",
        ])
        #expect(run.status == 0, "\(run)")
        #expect(run.line == #"{"flag":true,"list":["a","b"],"nothing":null,"number":3,"object":{"k":[1,{"z":null}]},"real":2.5,"text":"3"}"#)
    }

    @Test("A key given more than once collects its values in order")
    func repeatedKeys() throws {
        #expect(try Mediate.run(["--in-memory", "perform", "Echo", "echo", "tag=a", "tag=b", "tag=c"]).line == #"{"tag":["a","b","c"]}"#)
        #expect(try Mediate.run(["--in-memory", "perform", "Echo", "echo", "x=1", "x:=2"]).line == #"{"x":["1",2]}"#)
        #expect(try Mediate.run(["--in-memory", "perform", "Echo", "echo", "--params-json", #"{"x":"j"}"#, "x=a"]).line == #"{"x":["j","a"]}"#)
    }

    @Test("Typed JSON reaches actions as typed values; text is coerced where unambiguous")
    func typedParamsReachActions() throws {
        let directory = Mediate.temporaryDirectory()
        #expect(try Mediate.run(["--data-dir", directory, "perform", "Accounts", "signUp", "username=ada", "password=analytical"]).status == 0)
        let token = try #require(
            sessionToken(try Mediate.run(["--data-dir", directory, "perform", "Accounts", "logIn", "username=ada", "password=analytical"]).line))
        let created = try Mediate.run(["--data-dir", directory, "perform", "Notes", "create", "token=\(token)", "title=T", "tags:=[\"x\",\"y\"]"])
        #expect(created.line == #"{"body":"","id":1,"owner":"ada","tags":["x","y"],"title":"T"}"#)
        #expect(try Mediate.run(["--data-dir", directory, "perform", "Notes", "get", "id=1"]).status == 0)
        #expect(try Mediate.run(["--data-dir", directory, "perform", "Notes", "get", "id:=1"]).status == 0)
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let status: Int32
        let code: String
        let message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let failures: [Failure] = [
        Failure(arguments: [], status: 64, code: "usage", message: "no command given"),
        // Found by the fuzzer: names holding line breaks or escapes must not break the one-line error.
        Failure(arguments: ["perform", "Ec\nho", "echo"], status: 69, code: "targetNotFound", message: "\"Ec\\nho\""),
        Failure(arguments: ["perform", "Echo", "ec\u{1B}[31mho"], status: 69, code: "actionNotFound", message: "\"ec\\u{1B}[31mho\""),
        Failure(arguments: ["frobnicate"], status: 64, code: "usage", message: "unknown command \"frobnicate\""),
        Failure(arguments: ["perfom", "Echo", "echo"], status: 64, code: "usage", message: "did you mean \"perform\"?"),
        Failure(arguments: ["perform", "Echo"], status: 64, code: "usage", message: "perform needs a target and an action"),
        Failure(arguments: ["perform", "Echo", "echo", "noequals"], status: 64, code: "usage", message: "expected key=value or key:=json, got \"noequals\""),
        Failure(arguments: ["perform", "Echo", "echo", "n:={bad"], status: 64, code: "usage", message: "invalid JSON after \"n:=\" in \"n:={bad\""),
        Failure(arguments: ["perform", "Echo", "echo", "=v"], status: 64, code: "usage", message: "empty key"),
        Failure(arguments: ["perform", "Echo", "echo", "--frob"], status: 64, code: "usage", message: "unknown option \"--frob\""),
        Failure(arguments: ["perform", "Echo", "echo", "--params-json", "[1]"], status: 64, code: "usage", message: "--params-json needs a JSON object"),
        Failure(arguments: ["open"], status: 64, code: "usage", message: "open needs exactly one URL"),
        Failure(arguments: ["list", "A", "B"], status: 64, code: "usage", message: "list takes at most one target"),
        Failure(arguments: ["batch", "extra"], status: 64, code: "usage", message: "unknown argument \"extra\""),
        Failure(arguments: ["open", "not a url"], status: 65, code: "invalidURL", message: "invalid URL \"not a url\""),
        Failure(arguments: ["open", "app://Echo/echo?t=%zz"], status: 65, code: "invalidURL", message: "malformed percent-escape"),
        Failure(arguments: ["perform", "Notes", "get", "id=4x"], status: 65, code: "invalidParameter", message: "expected integer, got String \"4x\""),
        Failure(arguments: ["perform", "Notes", "get"], status: 65, code: "invalidParameter", message: "missing required parameter \"id\""),
        Failure(arguments: ["perform", "Note", "get", "id=1"], status: 69, code: "targetNotFound", message: "did you mean \"Notes\"?"),
        Failure(arguments: ["perform", "Notes", "gte", "id=1"], status: 69, code: "actionNotFound", message: "did you mean \"get\"?"),
        Failure(arguments: ["list", "Eco"], status: 69, code: "targetNotFound", message: "did you mean \"Echo\"?"),
        Failure(arguments: ["perform", "Echo", "fail", "message=boom"], status: 70, code: "actionFailed", message: "Echo/fail: the action failed: boom"),
        Failure(arguments: ["perform", "Notes", "get", "id=99"], status: 70, code: "actionFailed", message: "no note with id 99"),
        Failure(arguments: ["open", "app://Echo/nativeEcho?a=1"], status: 77, code: "forbidden", message: "begins with \"native\""),
    ]

    @Test("Each failure: nothing on stdout, one 'mediate: error:' line on stderr, its exit code", arguments: failures)
    func failureText(_ failure: Failure) throws {
        let run = try Mediate.run(["--in-memory"] + failure.arguments)
        #expect(run.status == failure.status, "\(run)")
        #expect(run.output.isEmpty || failure.arguments.isEmpty && run.output.isEmpty, "\(run)")
        let errorLine = run.errorLines.last ?? ""
        #expect(errorLine.hasPrefix("mediate: error: "), "\(run)")
        #expect(errorLine.contains(failure.message), "\(run)")
        #expect(run.errorLines.count == 1, "\(run)")
    }

    @Test(
        "With --json, each failure is one {\"ok\":false,...} object with its code, and the same exit code", arguments: failures.filter { !$0.arguments.isEmpty }
    )
    func failureJSON(_ failure: Failure) throws {
        let run = try Mediate.run(["--in-memory", "--json"] + failure.arguments)
        #expect(run.status == failure.status)
        #expect(run.lines.count == 1, "\(run)")
        #expect(run.line.hasPrefix(#"{"ok":false,"error":"#))
        let error = run.json?["error"] as? [String: Any]
        #expect(run.json?["ok"] as? Bool == false)
        #expect(error?["code"] as? String == failure.code, "\(run)")
        #expect((error?["message"] as? String)?.contains(failure.message) == true, "\(run)")
    }

    @Test("--json carries target and action where known")
    func jsonNames() throws {
        let run = try Mediate.run(["--in-memory", "--json", "perform", "Notes", "gte"])
        let error = run.json?["error"] as? [String: Any]
        #expect(error?["target"] as? String == "Notes")
        #expect(error?["action"] as? String == "gte")
        #expect(error?["suggestion"] as? String == "get")
        #expect(try Mediate.run(["--in-memory", "perform", "Echo", "echo", "a=1", "--json"]).line == #"{"ok":true,"result":{"a":"1"}}"#)
    }

    @Test("open refuses native actions that perform accepts")
    func nativeRefusedByOpenOnly() throws {
        #expect(try Mediate.run(["--in-memory", "open", "app://Echo/nativeEcho?a=1"]).status == 77)
        let local = try Mediate.run(["--in-memory", "perform", "Echo", "nativeEcho", "a=1"])
        #expect(local.status == 0)
        #expect(local.line == #"{"a":"1"}"#)
    }

    @Test("list shows targets, actions, full names, reachability and descriptions")
    func list() throws {
        let text = try Mediate.run(["--in-memory", "list"])
        #expect(text.status == 0)
        #expect(text.output.contains("Echo (Target_Echo): Diagnostics: shows exactly what a call receives"))
        #expect(text.lines.contains { $0.hasPrefix("  nativeEcho") && $0.contains("Action_nativeEcho") && $0.contains("local-only") })
        #expect(text.lines.contains { $0.hasPrefix("  create") && $0.contains("remote") && $0.contains("Create a note") })
        let json = try Mediate.run(["--in-memory", "list", "Echo", "--json"])
        let targets = (json.json?["result"] as? [String: Any])?["targets"] as? [[String: Any]]
        #expect(targets?.count == 1)
        let actions = targets?.first?["actions"] as? [[String: Any]]
        #expect(actions?.map { $0["name"] as? String } == ["checkedEcho", "delayedEcho", "echo", "fail", "nativeEcho"])
        #expect(actions?.map { $0["remote"] as? Bool } == [true, true, true, true, false])
    }

    @Test("--help for the tool and each command, and --version")
    func help() throws {
        let main = try Mediate.run(["--help"])
        #expect(main.status == 0)
        for needle in [
            "perform <Target> <action>", "open <url>", "list [<Target>]", "batch [--json]", "key:=json", "EXIT STATUS", "--data-dir DIR", "--in-memory",
            "77 forbidden",
        ] {
            #expect(main.output.contains(needle), "missing \(needle)")
        }
        for (command, needle) in [("perform", "--params-json"), ("open", "scheme://Target/action"), ("list", "local-only"), ("batch", "single quotes")] {
            let run = try Mediate.run([command, "--help"])
            #expect(run.status == 0)
            #expect(run.output.contains("USAGE: mediate \(command)"))
            #expect(run.output.contains(needle))
            #expect(try Mediate.run(["help", command]).output == run.output)
        }
        #expect(try Mediate.run(["--version"]).line == "mediate 0.1.0")
    }
}
