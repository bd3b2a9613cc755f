import ExampleAccountsMediator
import ExampleNotes
import ExampleNotesMediator
import Mediator
import MediatorTesting
import Testing

/// `Notes`, real, in a mediator of its own with no `Accounts` at all: strict stubs answer the two
/// token checks Notes makes (`whoAmI` for its synchronous actions, `verifyToken` for `export`),
/// any other call outside `Notes` fails naming itself, and a recorder keeps every call.
struct NotesBench {
    let mediator = Mediator()
    let stubs = MediatorStubs(strict: true, passingThrough: ["Notes"])
    let recorder = CallRecorder()

    /// The tokens the stubbed `Accounts` knows.
    static let accounts = ["ada-token": AccountsUser(id: 1, username: "ada"), "grace-token": AccountsUser(id: 2, username: "grace")]

    init(checkingTokens: Bool = false) throws {
        try Target_Notes.register(in: mediator)
        if checkingTokens { Target_Notes.addTokenCheck(to: mediator) }
        stubs.stub(.accountsWhoAmI, Self.user(for:))
        stubs.stub(.accountsVerifyToken, Self.user(for:))
        stubs.install(in: mediator)
        mediator.addObserver(recorder)
    }

    /// What `Accounts` answers for a token: the user, or its `invalidToken` failure.
    @Sendable static func user(for input: CheckToken) throws -> AccountsUser {
        guard let user = accounts[input.token] else { throw AccountsRefusal.invalidToken }
        return user
    }
}

/// A refusal with the code the real `Accounts` gives (`AccountsFailure`), thrown by the stubs.
enum AccountsRefusal: CodedError {
    case invalidToken

    var code: String { AccountsFailure.invalidToken.rawValue }
}

@Suite("Notes tested without Accounts: stubbed token checks, strict mode, recorded calls")
struct NotesWithStubbedAccountsTests {
    @Test("A valid token: create makes the note for its account, after exactly one Accounts/whoAmI with that token")
    func createWithAValidToken() throws {
        let bench = try NotesBench()

        let note = try bench.mediator.callNow(.notesCreate, CreateNote(token: "ada-token", title: "Engines"))

        #expect(note.owner == "ada")
        #expect(bench.recorder.names == ["Accounts/whoAmI", "Notes/create"])
        let check = try #require(bench.recorder.records(target: "Accounts", action: "whoAmI").first)
        #expect(check.request.params["token"] as? String == "ada-token")
        #expect(check.request.depth == 2)
    }

    @Test("An invalid token: create fails as unauthorized after one Accounts/whoAmI, and no note is made")
    func createWithAnInvalidToken() throws {
        let bench = try NotesBench()

        let error = try #require(throws: MediatorError.self) { try bench.mediator.callNow(.notesCreate, CreateNote(token: "forged", title: "Engines")) }

        #expect(error.code == .actionFailed)
        #expect(error.notesFailure == .unauthorized)
        #expect(bench.recorder.names == ["Accounts/whoAmI", "Notes/create"])
        #expect(try bench.mediator.notesList().isEmpty)
    }

    @Test("Reads take no token: get and list make no Accounts call")
    func readsAskNothing() throws {
        let bench = try NotesBench()
        let note = try bench.mediator.callNow(.notesCreate, CreateNote(token: "ada-token", title: "Engines"))
        bench.recorder.removeAll()

        #expect(try bench.mediator.notesGet(id: note.id) == note)
        #expect(try bench.mediator.notesList() == [note])
        #expect(bench.recorder.names == ["Notes/get", "Notes/list"])
    }

    @Test("Another account's token cannot change or delete a note: notOwner, after one whoAmI each")
    func ownership() throws {
        let bench = try NotesBench()
        let note = try bench.mediator.callNow(.notesCreate, CreateNote(token: "ada-token", title: "Engines"))
        bench.recorder.removeAll()

        let update = try #require(throws: MediatorError.self) { try bench.mediator.notesUpdate(token: "grace-token", id: note.id, title: "Mine") }
        let delete = try #require(throws: MediatorError.self) { try bench.mediator.notesDelete(token: "grace-token", id: note.id) }

        #expect(update.notesFailure == .notOwner)
        #expect(delete.notesFailure == .notOwner)
        #expect(bench.recorder.names == ["Accounts/whoAmI", "Notes/update", "Accounts/whoAmI", "Notes/delete"])
    }

    @Test("export awaits Accounts/verifyToken: the token's notes for a valid one, unauthorized for another")
    func export() async throws {
        let bench = try NotesBench()
        _ = try bench.mediator.notesCreate(token: "ada-token", title: "Engines")
        bench.recorder.removeAll()

        #expect(try await bench.mediator.notesExport(token: "ada-token") == "# Engines\n")
        await #expect(throws: MediatorError.self) { try await bench.mediator.notesExport(token: "forged") }
        #expect(bench.recorder.names == ["Accounts/verifyToken", "Notes/export", "Accounts/verifyToken", "Notes/export"])
        #expect(bench.recorder.records.last?.error?.notesFailure == .unauthorized)
    }

    @Test("Accounts failing for another reason makes create fail as authorizationUnavailable, quoting it")
    func accountsUnavailable() throws {
        struct Offline: Error, CustomStringConvertible {
            var description: String { "accounts offline" }
        }
        let bench = try NotesBench()
        bench.stubs.stub(.accountsWhoAmI) { _ in throw Offline() }

        let error = try #require(throws: MediatorError.self) { try bench.mediator.notesCreate(token: "ada-token", title: "Engines") }

        #expect(error.notesFailure == .authorizationUnavailable)
        #expect(error.description.contains("accounts offline"))
    }

    @Test("Strict mode names an Accounts call the test did not stub")
    func strictModeNamesTheCall() throws {
        let bench = try NotesBench()
        bench.stubs.removeStub(.accountsWhoAmI)

        let error = try #require(throws: MediatorError.self) { try bench.mediator.notesCreate(token: "ada-token", title: "Engines") }

        #expect(error.notesFailure == .authorizationUnavailable)
        #expect(error.description.contains("Accounts/whoAmI is not stubbed"))
        #expect(bench.recorder.records.first?.error?.underlying is MediatorStubs.NotStubbed)
    }

    @Test("A URL call reaches Notes and its stubbed token check alike")
    func byURL() throws {
        let bench = try NotesBench()

        let note = try bench.mediator.callNow(url: "app://Notes/create?token=ada-token&title=Engines") as? [String: any Sendable]

        #expect(note?["owner"] as? String == "ada")
        #expect(bench.recorder.names == ["Accounts/whoAmI", "Notes/create"])
        #expect(bench.recorder.records.last?.request.origin.isRemote == true)
    }
}

@Suite("NotesTokenCheck: Notes' token check as an interceptor, tested without Accounts")
struct NotesTokenCheckTests {
    @Test("An invalid token is rejected before Notes runs: rejected by NotesTokenCheck, read as unauthorized")
    func rejectsAnInvalidToken() throws {
        let bench = try NotesBench(checkingTokens: true)

        let error = try #require(throws: MediatorError.self) { try bench.mediator.callNow(.notesCreate, CreateNote(token: "forged", title: "Engines")) }

        #expect(error.code == .rejected)
        #expect(error.notesFailure == .unauthorized)
        #expect(error.description.contains("rejected by interceptor \"NotesTokenCheck\": not authorized: invalid token"))
        // Only the check's call: the service never ran.
        #expect(bench.recorder.names == ["Accounts/whoAmI", "Notes/create"])
        #expect(try bench.mediator.notesList().isEmpty)
    }

    @Test("A valid token passes the check; the service asks Accounts again for the owner it records")
    func passesAValidToken() throws {
        let bench = try NotesBench(checkingTokens: true)

        let note = try bench.mediator.callNow(.notesCreate, CreateNote(token: "grace-token", title: "Compilers"))

        #expect(note.owner == "grace")
        #expect(bench.recorder.names == ["Accounts/whoAmI", "Accounts/whoAmI", "Notes/create"])
    }

    @Test("Every action that takes a token is checked, every entry point alike; reads are not")
    func scope() async throws {
        let bench = try NotesBench(checkingTokens: true)
        let note = try bench.mediator.notesCreate(token: "ada-token", title: "Engines")

        let refusals: [MediatorError?] = [
            try? #require(throws: MediatorError.self) { try bench.mediator.notesUpdate(token: "forged", id: note.id, title: "x") },
            try? #require(throws: MediatorError.self) { try bench.mediator.notesDelete(token: "forged", id: note.id) },
            try? #require(throws: MediatorError.self) { try bench.mediator.callNow(url: "app://Notes/delete?token=forged&id=\(note.id)") },
            try? #require(throws: MediatorError.self) {
                try bench.mediator.callNow(target: "Target_Notes", action: "Action_create", params: ["token": "x", "title": "y"])
            },
        ]
        #expect(refusals.map { $0?.code } == [.rejected, .rejected, .rejected, .rejected])
        await #expect(throws: MediatorError.self) { try await bench.mediator.notesExport(token: "forged") }
        #expect(bench.recorder.records.last?.error?.code == .rejected)

        bench.recorder.removeAll()
        _ = try bench.mediator.notesGet(id: note.id)
        _ = try bench.mediator.notesList()
        #expect(bench.recorder.names == ["Notes/get", "Notes/list"])
    }

    @Test("A call without a token goes on: the action's declared parameter refuses it, with no Accounts call")
    func missingToken() throws {
        let bench = try NotesBench(checkingTokens: true)

        let error = try #require(throws: MediatorError.self) { try bench.mediator.callNow(target: "Notes", action: "create", params: ["title": "Engines"]) }

        #expect(error.code == .invalidParameter)
        #expect(error.parameter == "token")
        #expect(bench.recorder.names == ["Notes/create"])
    }

    @Test("Accounts failing for another reason: rejected as authorizationUnavailable")
    func accountsUnavailable() throws {
        let bench = try NotesBench(checkingTokens: true)
        bench.stubs.removeStub(.accountsWhoAmI)

        let error = try #require(throws: MediatorError.self) { try bench.mediator.notesCreate(token: "ada-token", title: "Engines") }

        #expect(error.code == .rejected)
        #expect(error.notesFailure == .authorizationUnavailable)
        #expect(error.description.contains("Accounts/whoAmI is not stubbed"))
    }

    @Test("Removing the check leaves the service's own check alone")
    func removable() throws {
        let mediator = Mediator()
        try Target_Notes.register(in: mediator)
        let stubs = MediatorStubs(strict: true, passingThrough: ["Notes"])
        stubs.stub(.accountsWhoAmI, NotesBench.user(for:))
        stubs.install(in: mediator)
        let check = Target_Notes.addTokenCheck(to: mediator)
        #expect(mediator.removeInterception(check))

        let error = try #require(throws: MediatorError.self) { try mediator.notesCreate(token: "forged", title: "Engines") }
        #expect(error.code == .actionFailed)
        #expect(error.notesFailure == .unauthorized)
    }
}

@Suite("NotesTokenCheck with the real Accounts")
struct NotesTokenCheckWithAccountsTests {
    @Test("As an app wires it: a signed-in token creates a note, a forged one is rejected before Notes runs")
    func wiredAsAnApp() throws {
        let mediator = try exampleMediator()
        Target_Notes.addTokenCheck(to: mediator)
        _ = try mediator.accountsSignUp(username: "ada", password: "analytical")
        let token = try mediator.accountsLogIn(username: "ada", password: "analytical")

        #expect(try mediator.notesCreate(token: token, title: "Engines").owner == "ada")
        let error = try #require(throws: MediatorError.self) { try mediator.notesCreate(token: unissuedToken, title: "Engines") }
        #expect(error.code == .rejected)
        #expect(error.notesFailure == .unauthorized)
        #expect(try mediator.notesList().count == 1)
    }
}
