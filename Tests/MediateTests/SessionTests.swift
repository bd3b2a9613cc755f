import Foundation
import Testing

@Suite("mediate: batch, persistence and concurrency")
struct SessionTests {
    @Test("batch answers each line in order, skips blanks and comments, goes on after failures, exits 1")
    func batchLines() throws {
        let input = """
            # a comment
            Echo echo a=1

            app://Echo/echo?b=2
            Echo echo 'single quoted'=x "dq=a \\"b\\" c" plain\\ word=y
            Echo echo x='back\\slash' y="esc\\q"
            Echo fail message=boom
            Echo echo 'unterminated
            Echo echo "unterminated
            app://Echo/nativeEcho
            Echo echo last=yes
            """
        let run = try Mediate.run(["--in-memory", "batch"], input: input)
        #expect(run.status == 1)
        // Single quotes keep a backslash; double quotes keep one that escapes neither `"` nor `\`.
        #expect(
            run.lines == [
                #"{"a":"1"}"#, #"{"b":"2"}"#, #"{"dq":"a \"b\" c","plain word":"y","single quoted":"x"}"#, #"{"x":"back\\slash","y":"esc\\q"}"#,
                #"{"last":"yes"}"#,
            ])
        #expect(run.errorLines.count == 4)
        #expect(run.errorLines[0].hasPrefix("mediate: error: line 7: Echo/fail"))
        #expect(run.errorLines[1].hasPrefix("mediate: error: line 8: unterminated single quote"))
        #expect(run.errorLines[2].hasPrefix("mediate: error: line 9: unterminated double quote"))
        #expect(run.errorLines[3].hasPrefix("mediate: error: line 10: Echo/nativeEcho"))
    }

    @Test("batch --json writes one object per request line, and exits 0 when all succeed")
    func batchJSON() throws {
        let mixed = try Mediate.run(["--in-memory", "batch", "--json"], input: "Echo echo a=1\nNope x\n")
        #expect(mixed.status == 1)
        #expect(mixed.lines.count == 2)
        #expect(mixed.lines[0] == #"{"ok":true,"result":{"a":"1"}}"#)
        #expect(mixed.lines[1].hasPrefix(#"{"ok":false,"error":{"#) && mixed.lines[1].contains(#""code":"targetNotFound""#))
        #expect(try Mediate.run(["--in-memory", "batch"], input: "Echo echo\n\n# only comments\n").status == 0)
        #expect(try Mediate.run(["--in-memory", "batch"], input: "").status == 0)
    }

    @Test("A session in one batch: sign up, log in, create, list, get, delete")
    func sessionInOneBatch() throws {
        // Tokens are random: read the one logIn gives before sending the lines that use it.
        let batch = try InteractiveMediate(["--in-memory", "batch"])
        batch.send("Accounts signUp username=ada password=analytical\nAccounts logIn username=ada password=analytical\n")
        #expect(try batch.nextLine() == #"{"id":1,"username":"ada"}"#)
        let token = try #require(try batch.nextLine().flatMap(sessionToken))
        batch.send(
            """
            Notes create token=\(token) title='First note' tags=work
            Notes list
            Notes get id=1
            Notes delete token=\(token) id=1
            Notes list

            """)
        try batch.closeInput()
        let note = #"{"body":"","id":1,"owner":"ada","tags":["work"],"title":"First note"}"#
        #expect(try batch.remainingLines() == [note, "[\(note)]", note, "null", "[]"])
        let exit = batch.waitForExit()
        #expect(exit.reason == .exit && exit.status == 0)
    }

    @Test("The same session across separate processes sharing a data directory")
    func sessionAcrossProcesses() throws {
        let directory = Mediate.temporaryDirectory()
        func mediate(_ arguments: String...) throws -> Run { try Mediate.run(["--data-dir", directory] + arguments) }
        #expect(try mediate("perform", "Accounts", "signUp", "username=ada", "password=analytical").status == 0)
        let token = try #require(sessionToken(try mediate("perform", "Accounts", "logIn", "username=ada", "password=analytical").line))
        #expect(try mediate("perform", "Accounts", "whoAmI", "token=\(token)").line == #"{"id":1,"username":"ada"}"#)
        let note = #"{"body":"b","id":1,"owner":"ada","tags":[],"title":"Kept"}"#
        #expect(try mediate("perform", "Notes", "create", "token=\(token)", "title=Kept", "body=b").line == note)
        #expect(try mediate("perform", "Notes", "list").line == "[\(note)]")
        #expect(try mediate("open", "app://Notes/get?id=1").line == note)
        #expect(try mediate("perform", "Notes", "delete", "token=\(token)", "id=1").status == 0)
        #expect(try mediate("perform", "Notes", "list").line == "[]")
        // A read-only request leaves the file untouched: a write would have renamed a new file
        // (a new inode) over it, whatever the clock's resolution.
        let path = directory + "/state.json"
        let before = try FileManager.default.attributesOfItem(atPath: path)
        _ = try mediate("perform", "Notes", "list")
        let after = try FileManager.default.attributesOfItem(atPath: path)
        #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
    }

    @Test("2 processes x 200 concurrent creates in one data directory: all 400 notes are there")
    func concurrentWriters() throws {
        let directory = Mediate.temporaryDirectory()
        let session = try Mediate.run(
            ["--data-dir", directory, "batch"], input: "Accounts signUp username=ada password=analytical\nAccounts logIn username=ada password=analytical\n")
        let token = try #require(session.lines.last.flatMap(sessionToken))
        let processes = try (0..<2).map { writer in
            let lines = (0..<200).map { "Notes create token=\(token) title=w\(writer)-\($0)" }.joined(separator: "\n")
            return try Mediate.start(["--data-dir", directory, "batch"], input: lines + "\n")
        }
        for started in processes {
            let run = try Mediate.finish(started)
            #expect(run.status == 0, "\(run.error)")
            #expect(run.lines.count == 200)
        }
        let list = try Mediate.run(["--data-dir", directory, "perform", "Notes", "list"])
        let notes = (try JSONSerialization.jsonObject(with: Data(list.line.utf8))) as? [[String: Any]] ?? []
        #expect(notes.count == 400)
        #expect(Set(notes.compactMap { $0["id"] as? Int }) == Set(1...400))
        let titles = Set(notes.compactMap { $0["title"] as? String })
        #expect(titles == Set((0..<2).flatMap { writer in (0..<200).map { "w\(writer)-\($0)" } }))
    }

    @Test("A corrupt data file is reported by name, exit 74, and never overwritten")
    func corruptFile() throws {
        let directory = Mediate.temporaryDirectory()
        let path = directory + "/state.json"
        for corrupt in ["{not json", #"{"format":1}"#, #"{"format":2}"#, #"{"format":3,"accounts":{},"notes":{}}"#] {
            try corrupt.write(toFile: path, atomically: true, encoding: .utf8)
            let run = try Mediate.run(["--data-dir", directory, "perform", "Accounts", "signUp", "username=ada", "password=analytical"])
            #expect(run.status == 74)
            #expect(run.output.isEmpty)
            #expect(run.error.contains("the data file \(path) is corrupt"), "\(run)")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == corrupt)
            let json = try Mediate.run(["--data-dir", directory, "--json", "perform", "Notes", "list"])
            #expect(json.status == 74)
            #expect(json.line.contains(#""code":"environment""#))
        }
        // Commands that need no state still work.
        #expect(try Mediate.run(["--data-dir", directory, "list"]).status == 0)
    }

    @Test("--data-dir without a directory is a usage error; an unusable directory is exit 74")
    func badDataDirectory() throws {
        let missing = try Mediate.run(["perform", "Echo", "echo", "--data-dir"])
        #expect(missing.status == 64)
        #expect(missing.error.contains("--data-dir needs a directory"))
        let file = Mediate.temporaryDirectory() + "/plain-file"
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        let unusable = try Mediate.run(["--data-dir", file, "perform", "Echo", "echo"])
        #expect(unusable.status == 74)
        #expect(unusable.error.contains(file))
    }
}
