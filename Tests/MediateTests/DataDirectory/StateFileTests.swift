import Foundation
import Testing

/// What `mediate` accepts in `state.json`, and what it writes back.
@Suite("mediate: the state file's format, migration and consistency")
struct StateFileTests {
    /// A format-1 file as mediate 0.1.0 wrote it: one user, one guessable session, one note.
    static let formatOne = """
        {"accounts":{"nextID":2,"nextToken":2,"tokens":{"token-1":"ada"},"users":[{"id":1,"password":"analytical","username":"ada"}]},\
        "format":1,"notes":{"nextID":2,"notes":[{"body":"","id":1,"owner":"ada","tags":[],"title":"Kept"}]}}

        """

    @Test("A format-1 file loads without its guessable sessions; its users log in again and the next write is format 2")
    func formatOneMigrated() throws {
        let directory = PlantedDirectory()
        try directory.write(Self.formatOne, to: "state.json")
        // The old sequential token no longer works, for reading who it is or for deleting a note.
        let whoAmI = directory.mediate("perform", "Accounts", "whoAmI", "token=token-1")
        #expect(whoAmI.status == 70, "\(whoAmI.errorText)")
        let delete = directory.mediate("open", "app://Notes/delete?token=token-1&id=1")
        #expect(delete.status == 70, "\(delete.errorText)")
        #expect(directory.contents("state.json") == Self.formatOne, "a failed or read-only request rewrote the file")
        // The users and notes are kept.
        #expect(directory.mediate("perform", "Notes", "get", "id=1").outputText.contains(#""title":"Kept""#))
        let logIn = directory.mediate("perform", "Accounts", "logIn", "username=ada", "password=analytical")
        let token = try #require(sessionToken(String(logIn.outputText.dropLast())), "\(logIn.outputText)")
        let saved = try #require(directory.contents("state.json"))
        #expect(saved.hasPrefix(#"{"accounts":{"nextID":2,"tokens":{""# + token + #"":"ada"},"users":"#), "\(saved)")
        #expect(saved.contains(#""format":2"#))
        #expect(!saved.contains("nextToken") && !saved.contains("token-1"))
        #expect(directory.mediate("perform", "Accounts", "whoAmI", "token=\(token)").status == 0)
    }

    @Test("A format-1 file that is otherwise invalid is refused and left as it is")
    func formatOneInvalid() throws {
        let directory = PlantedDirectory()
        let broken = Self.formatOne.replacingOccurrences(of: #""nextToken":2,"#, with: "")
        try directory.write(broken, to: "state.json")
        let run = directory.mediate("perform", "Notes", "list")
        #expect(run.status == 74)
        #expect(
            run.errorText
                == "mediate: error: the data file \(directory.file("state.json")) is corrupt (at \"accounts.nextToken\": missing); it was left unchanged: repair or move it away\n"
        )
        #expect(directory.contents("state.json") == broken)
    }

    @Test("Tokens issued across processes are random: the next one is not the previous plus one")
    func tokensAcrossProcesses() throws {
        let directory = PlantedDirectory()
        expectSuccess(directory.signUp())
        let tokens = (0..<3).compactMap { _ in
            sessionToken(String(directory.mediate("perform", "Accounts", "logIn", "username=ada", "password=analytical").outputText.dropLast()))
        }
        #expect(tokens.count == 3)
        #expect(Set(tokens).count == 3)
        #expect(!tokens.contains { $0.hasPrefix("token-") })
    }

    // MARK: - Ids running out

    @Test("With nextID at Int.max, sign-up and create fail with one clear line (exit 70), never a crash, and the file is unchanged")
    func idsRunOut() throws {
        let directory = PlantedDirectory()
        // Format 1, as mediate 0.1.0 would have read it too.
        let text = Self.formatOne.replacingOccurrences(of: #""nextID":2"#, with: #""nextID":\#(Int.max)"#)
        try directory.write(text, to: "state.json")
        let signUp = directory.signUp("grace")
        #expect(signUp.signal == nil && signUp.status == 70, "\(signUp)")
        #expect(
            signUp.errorText
                == "mediate: error: Accounts/signUp: the action failed: no account id left: the next id would be the largest integer (\(Int.max)), which is never given out\n"
        )
        #expect(directory.contents("state.json") == text)

        let logIn = directory.mediate("perform", "Accounts", "logIn", "username=ada", "password=analytical")
        let token = String(logIn.outputText.dropLast().dropFirst().dropLast())
        let saved = directory.contents("state.json")
        let create = directory.mediate("perform", "Notes", "create", "token=\(token)", "title=One too many")
        #expect(create.signal == nil && create.status == 70, "\(create)")
        #expect(
            create.errorText
                == "mediate: error: Notes/create: the action failed: no note id left: the next id would be the largest integer (\(Int.max)), which is never given out\n"
        )
        #expect(directory.contents("state.json") == saved)
    }

    // MARK: - Consistency

    /// Format 1 (so mediate 0.1.0 reads it too): users 1 and 2, notes 1 and 5, counters past them.
    static let consistent = """
        {"accounts":{"nextID":3,"nextToken":1,"tokens":{},"users":[{"id":1,"password":"analytical","username":"ada"},\
        {"id":2,"password":"analytical","username":"grace"}]},"format":1,"notes":{"nextID":6,"notes":[\
        {"body":"","id":1,"owner":"ada","tags":[],"title":"One"},{"body":"","id":5,"owner":"grace","tags":[],"title":"Five"}]}}

        """

    /// One inconsistency planted in ``consistent`` (or in its format-2 form, for tokens).
    struct Inconsistency: Sendable, CustomTestStringConvertible {
        let replacing: String
        let with: String
        let formatTwo: Bool
        let problem: String
        var testDescription: String { problem }

        init(_ replacing: String, _ with: String, formatTwo: Bool = false, _ problem: String) {
            self.replacing = replacing
            self.with = with
            self.formatTwo = formatTwo
            self.problem = problem
        }

        var text: String {
            var text = StateFileTests.consistent
            if formatTwo { text = text.replacingOccurrences(of: #""nextToken":1,"#, with: "").replacingOccurrences(of: #""format":1"#, with: #""format":2"#) }
            precondition(text.contains(replacing))
            return text.replacingOccurrences(of: replacing, with: with)
        }
    }

    static let token = String(repeating: "0f", count: 16)
    static let usernameRule = "1 to 32 characters, each an ASCII letter, digit, '.', '_' or '-'"
    static let inconsistencies: [Inconsistency] = [
        Inconsistency(#""nextID":6"#, #""nextID":3"#, #"at "notes.nextID": 3 is not greater than the largest note id 5"#),
        Inconsistency(#""nextID":6"#, #""nextID":5"#, #"at "notes.nextID": 5 is not greater than the largest note id 5"#),
        Inconsistency(#""nextID":6"#, #""nextID":0"#, #"at "notes.nextID": 0 is not a valid id (ids start at 1)"#),
        Inconsistency(#""nextID":3,"#, #""nextID":2,"#, #"at "accounts.nextID": 2 is not greater than the largest account id 2"#),
        Inconsistency(#""nextID":3,"#, #""nextID":-1,"#, #"at "accounts.nextID": -1 is not a valid id (ids start at 1)"#),
        Inconsistency(#""id":5,"#, #""id":1,"#, #"at "notes.notes[1].id": 1 is also the id of notes.notes[0]"#),
        Inconsistency(#""id":1,"owner""#, #""id":0,"owner""#, #"at "notes.notes[0].id": 0 is not a valid id (ids start at 1)"#),
        Inconsistency(#""id":2,"#, #""id":1,"#, #"at "accounts.users[1].id": 1 is also the id of accounts.users[0]"#),
        Inconsistency(#""username":"grace""#, #""username":"ada""#, #"at "accounts.users[1].username": "ada" is also the username of accounts.users[0]"#),
        Inconsistency(
            #""username":"grace""#, #""username":"\#u{FF47}race""#,
            #"at "accounts.users[1].username": "\#u{FF47}race" is not a valid username (\#(usernameRule))"#),
        Inconsistency(#""username":"grace""#, #""username":"""#, #"at "accounts.users[1].username": "" is not a valid username (\#(usernameRule))"#),
        Inconsistency(#""owner":"grace""#, #""owner":"bob""#, #"at "notes.notes[1].owner": "bob" is not a user"#),
        Inconsistency(
            #""tokens":{}"#, #""tokens":{"token-1":"ada"}"#, formatTwo: true,
            #"at "accounts.tokens": "token-1" is not a session token (32 lowercase hexadecimal digits)"#),
        Inconsistency(
            #""tokens":{}"#, #""tokens":{"\#(token.uppercased())":"ada"}"#, formatTwo: true,
            #"at "accounts.tokens": "\#(token.uppercased())" is not a session token (32 lowercase hexadecimal digits)"#),
        Inconsistency(#""tokens":{}"#, #""tokens":{"\#(token)":"bob"}"#, formatTwo: true, #"at "accounts.tokens.\#(token)": "bob" is not a user"#),
        // Values of the wrong type, in an array and as one.
        Inconsistency(#""tags":[]"#, #""tags":["work",7]"#, #"at "notes.notes[0].tags[1]": expected a string"#),
        Inconsistency(#""tags":[]"#, #""tags":{}"#, #"at "notes.notes[0].tags": expected an array"#),
        Inconsistency(#""notes":["#, #""notes":[[],"#, #"at "notes.notes[0]": expected an object"#),
    ]

    @Test("An inconsistent state file is refused (74) with one line naming the file and the problem, and left byte for byte", arguments: inconsistencies)
    func inconsistent(_ inconsistency: Inconsistency) throws {
        let directory = PlantedDirectory()
        let text = inconsistency.text
        try directory.write(text, to: "state.json")
        let expected =
            "mediate: error: the data file \(directory.file("state.json")) is corrupt (\(inconsistency.problem)); it was left unchanged: repair or move it away\n"
        for run in [
            directory.mediate("perform", "Notes", "list"), directory.signUp("alan"),
            directory.mediate("perform", "Accounts", "logIn", "username=ada", "password=analytical"),
        ] {
            #expect(run.status == 74, "\(run.errorText)")
            #expect(run.errorText == expected)
            #expect(run.output.isEmpty)
        }
        #expect(directory.contents("state.json") == text)
    }

    @Test("The consistent file the inconsistencies start from loads, in format 1 and 2")
    func consistentLoads() throws {
        let directory = PlantedDirectory()
        try directory.write(Inconsistency(#""tokens":{}"#, #""tokens":{"\#(Self.token)":"grace"}"#, formatTwo: true, "").text, to: "state.json")
        expectSuccess(directory.mediate("perform", "Accounts", "whoAmI", "token=\(Self.token)"))
        try directory.write(Self.consistent, to: "state.json")
        let list = directory.mediate("perform", "Notes", "list")
        expectSuccess(list)
        #expect(list.outputText.contains(#""id":5"#))
    }

    // MARK: - Changes of normalisation alone

    @Test(
        "A change only in Unicode normalisation (NFC to NFD and back) is saved, byte for byte",
        arguments: [
            ("caf\u{E9}", "cafe\u{301}"), ("cafe\u{301}", "caf\u{E9}"), ("\u{212B}ngstr\u{F6}m", "A\u{30A}ngstro\u{308}m"),
        ])
    func normalisationOnlyChange(from original: String, to changed: String) throws {
        #expect(original == changed, "the two forms must be canonically equivalent for this test to mean anything")
        let directory = PlantedDirectory()
        expectSuccess(directory.signUp())
        let logIn = directory.mediate("perform", "Accounts", "logIn", "username=ada", "password=analytical")
        // The JSON string's content, whatever form tokens have.
        let token = String(logIn.outputText.dropLast().dropFirst().dropLast())
        expectSuccess(directory.mediate("perform", "Notes", "create", "token=\(token)", "title=\(original)", "body=\(original)", "tags=\(original)"))
        let update = directory.mediate("perform", "Notes", "update", "token=\(token)", "id=1", "title=\(changed)", "body=\(changed)", "tags=\(changed)")
        expectSuccess(update)
        let changedNote = Array(#"{"body":"\#(changed)","id":1,"owner":"ada","tags":["\#(changed)"],"title":"\#(changed)"}"#.utf8) + [0x0A]
        #expect(update.output == changedNote, "update answered \(update.outputText.unicodeScalars.map { String($0.value, radix: 16) })")
        // Another process reads what was saved: the new bytes, not the old ones.
        let get = directory.mediate("perform", "Notes", "get", "id=1")
        #expect(get.output == changedNote, "get answered \(get.outputText.unicodeScalars.map { String($0.value, radix: 16) })")
    }
}
