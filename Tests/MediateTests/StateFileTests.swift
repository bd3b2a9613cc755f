import Foundation
import Testing

/// What `mediate` accepts in `state.json`, and what it writes back (issue 10, items 7, 11, 12, 13).
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
        #expect(run.errorText == "mediate: error: the data file \(directory.file("state.json")) is corrupt (at \"accounts.nextToken\": missing); it was left unchanged: repair or move it away\n")
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

    // MARK: - Ids running out (item 11)

    @Test("With nextID at Int.max, sign-up and create fail with one clear line (exit 70), never a crash, and the file is unchanged")
    func idsRunOut() throws {
        let directory = PlantedDirectory()
        // Format 1, as mediate 0.1.0 would have read it too.
        let text = Self.formatOne.replacingOccurrences(of: #""nextID":2"#, with: #""nextID":\#(Int.max)"#)
        try directory.write(text, to: "state.json")
        let signUp = directory.signUp("grace")
        #expect(signUp.signal == nil && signUp.status == 70, "\(signUp)")
        #expect(signUp.errorText == "mediate: error: Accounts/signUp: the action failed: no account id left: ids have reached the largest integer (\(Int.max))\n")
        #expect(directory.contents("state.json") == text)

        let logIn = directory.mediate("perform", "Accounts", "logIn", "username=ada", "password=analytical")
        let token = String(logIn.outputText.dropLast().dropFirst().dropLast())
        let saved = directory.contents("state.json")
        let create = directory.mediate("perform", "Notes", "create", "token=\(token)", "title=One too many")
        #expect(create.signal == nil && create.status == 70, "\(create)")
        #expect(create.errorText == "mediate: error: Notes/create: the action failed: no note id left: ids have reached the largest integer (\(Int.max))\n")
        #expect(directory.contents("state.json") == saved)
    }
}
