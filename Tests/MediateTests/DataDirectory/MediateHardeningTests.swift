import Foundation
import Testing

/// The data directory and batch against hostile files and input, each case pinned.
@Suite("mediate: repeated keys, the directories above the data directory, leftovers, batch trimming")
struct MediateHardeningTests {
    @Test("A state file with a repeated key is refused and left untouched, not read with one copy dropped")
    func repeatedKeys() throws {
        let directory = Mediate.temporaryDirectory()
        let text =
            #"{"format":2,"accounts":{"nextID":2,"users":[{"id":1,"username":"ada","password":"analytical"}],"tokens":{}},"notes":{"nextID":1,"notes":[]},"accounts":{"nextID":1,"users":[],"tokens":{}}}"#
        try text.write(toFile: directory + "/state.json", atomically: false, encoding: .utf8)
        let run = try Mediate.run(["--data-dir", directory, "perform", "Accounts", "signUp", "username=zed", "password=analytical"])
        #expect(run.status == 74)
        #expect(run.error.contains("repeated key \"accounts\""), "\(run.error)")
        #expect(try String(contentsOfFile: directory + "/state.json", encoding: .utf8) == text)
    }

    @Test("A repeated key in --params-json is a usage error naming it")
    func repeatedParameterKey() throws {
        let run = try Mediate.run(["--in-memory", "perform", "Echo", "echo", "--params-json", #"{"a":1,"a":2}"#])
        #expect(run.status == 64)
        #expect(run.error.contains("repeated key \"a\""), "\(run.error)")
    }

    @Test("A data directory below a directory that others can write to (without the sticky bit) is refused")
    func looseParent() throws {
        let base = Mediate.temporaryDirectory()
        let loose = base + "/loose"
        try FileManager.default.createDirectory(atPath: loose, withIntermediateDirectories: false)
        chmod(loose, 0o777)
        let data = loose + "/data"
        let refused = try Mediate.run(["--data-dir", data, "perform", "Accounts", "signUp", "username=ada", "password=analytical"])
        #expect(refused.status == 74)
        #expect(
            refused.error
                == "mediate: error: refusing \(data): its parent directory is writable by group or others without the sticky bit (mode 0777): they could replace it\n"
        )
        // With the sticky bit (as /tmp has), nobody else can rename or remove our entry in it.
        chmod(loose, 0o1777)
        #expect(try Mediate.run(["--data-dir", data, "perform", "Accounts", "signUp", "username=ada", "password=analytical"]).status == 0)
    }

    @Test("A data directory below a directory of another user is refused (run as root)", .enabled(if: geteuid() == 0, "needs root to chown"))
    func foreignParent() throws {
        let base = Mediate.temporaryDirectory()
        let foreign = base + "/foreign"
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: false)
        chmod(foreign, 0o755)
        chown(foreign, 65_534, 65_534)
        let data = foreign + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let run = try Mediate.run(["--data-dir", data, "perform", "Notes", "list"])
        #expect(run.status == 74)
        #expect(run.error == "mediate: error: refusing \(data): its parent directory is owned by uid 65534, who could replace it\n")
    }

    @Test("Only mediate's own temporary names are removed as leftovers, nothing that merely starts like them")
    func leftoverNames() throws {
        let directory = Mediate.temporaryDirectory()
        let hex = String(repeating: "0123456789abcdef", count: 2)
        let kept = [
            "state.json.tmp.important", "state.json.tmpl", "state.json.tmp-notours", "state.json.tmp-" + hex.uppercased(), "state.json.tmp-" + hex + "0",
        ]
        let removed = ["state.json.tmp", "state.json.tmp-" + hex]
        for name in kept + removed { try "x".write(toFile: directory + "/" + name, atomically: false, encoding: .utf8) }
        #expect(try Mediate.run(["--data-dir", directory, "perform", "Accounts", "signUp", "username=ada", "password=analytical"]).status == 0)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
        #expect(left == Set(kept + ["state.json", "state.lock"]), "\(left.sorted())")
    }

    @Test("A batch line keeps a no-break space and an escaped trailing space; CRLF, leading tabs and indented comments still work")
    func batchTrimming() throws {
        let input = "Echo echo a=x\u{00A0}\nEcho echo b=y\\ \n\t Echo echo c=z\r\n   # a comment\n"
        let run = try Mediate.run(["--in-memory", "batch"], input: input)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.lines == ["{\"a\":\"x\u{00A0}\"}", #"{"b":"y "}"#, #"{"c":"z"}"#])
    }

    @Test("--data-dir followed by an option is a usage error, not a directory named after the option")
    func dataDirOption() throws {
        let run = try Mediate.run(["--data-dir", "--json", "perform", "Echo", "echo", "a=1"])
        #expect(run.status == 64)
        #expect(run.error.contains("--data-dir needs a directory"), "\(run.error)")
        #expect(!FileManager.default.fileExists(atPath: "--json"))
    }

    @Test(
        "A state file with a key the format does not name is refused and left untouched, at every level",
        arguments: [
            (#"{"format":2,"accounts":{"nextID":1,"users":[],"tokens":{}},"notes":{"nextID":1,"notes":[]},"x":1}"#, "x"),
            (#"{"format":2,"accounts":{"nextID":1,"users":[],"tokens":{},"x":1},"notes":{"nextID":1,"notes":[]}}"#, "accounts.x"),
            (
                #"{"format":2,"accounts":{"nextID":2,"users":[{"id":1,"username":"ada","password":"analytical","extra":1}],"tokens":{}},"notes":{"nextID":1,"notes":[]}}"#,
                "accounts.users[0].extra"
            ),
            (#"{"format":2,"accounts":{"nextID":1,"users":[],"tokens":{}},"notes":{"nextID":1,"notes":[],"x":[]}}"#, "notes.x"),
            (
                #"{"format":2,"accounts":{"nextID":2,"users":[{"id":1,"username":"ada","password":"analytical"}],"tokens":{}},"notes":{"nextID":2,"notes":[{"id":1,"title":"t","body":"","tags":[],"owner":"ada","pinned":true}]}}"#,
                "notes.notes[0].pinned"
            ),
        ])
    func unknownKeys(text: String, path: String) throws {
        let directory = Mediate.temporaryDirectory()
        try text.write(toFile: directory + "/state.json", atomically: false, encoding: .utf8)
        let run = try Mediate.run(["--data-dir", directory, "perform", "Accounts", "signUp", "username=zed", "password=analytical"])
        #expect(run.status == 74)
        #expect(run.error.contains("at \"\(path)\": not part of the format"), "\(run.error)")
        #expect(try String(contentsOfFile: directory + "/state.json", encoding: .utf8) == text)
    }
}
