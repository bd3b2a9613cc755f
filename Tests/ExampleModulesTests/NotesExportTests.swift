import ExampleAccountsMediator
import ExampleNotes
import ExampleNotesMediator
import Mediator
import Testing

/// Two signed-in accounts in a mediator with both example modules, as an app wires them.
struct SignedInPair {
    let mediator: Mediator
    let ada: String
    let grace: String

    init() throws {
        mediator = try exampleMediator()
        _ = try mediator.accountsSignUp(username: "ada", password: "analytical")
        _ = try mediator.accountsSignUp(username: "grace", password: "compilers")
        ada = try mediator.accountsLogIn(username: "ada", password: "analytical")
        grace = try mediator.accountsLogIn(username: "grace", password: "compilers")
    }

    /// Ada's three notes and one of Grace's, in an order of ids that is neither alphabetical nor
    /// that of a dictionary: 1 Engines (ada), 2 Compilers (grace), 3 Analysis (ada, no body),
    /// 4 a title on two lines (ada, a body with trailing line breaks).
    func writeNotes() throws {
        _ = try mediator.notesCreate(token: ada, title: "Engines", body: "Notes on the analytical engine", tags: ["math"])
        _ = try mediator.notesCreate(token: grace, title: "Compilers", body: "A-0 and its successors")
        _ = try mediator.notesCreate(token: ada, title: "Analysis")
        _ = try mediator.notesCreate(token: ada, title: "Two\nlines", body: "First line\nSecond line\n\n")
    }

    /// Ada's export of ``writeNotes()``, written out by hand.
    static let adasExport = "# Engines\n\nNotes on the analytical engine\n\n# Analysis\n\n# Two lines\n\nFirst line\nSecond line\n"
}

/// A token of the issued form that nobody was given.
let unissuedToken = String(repeating: "0", count: 32)

@Suite("Notes/export: an async action that checks its token with an async Accounts call")
struct NotesExportTests {
    @Test("An export is the token's own notes as Markdown, in order of id, as the documentation shows")
    func severalNotes() async throws {
        let pair = try SignedInPair()
        try pair.writeNotes()
        let result = try await pair.mediator.call(target: "Notes", action: "export", params: ["token": pair.ada])
        #expect(result as? String == SignedInPair.adasExport)
        let graces = try await pair.mediator.call(target: "Notes", action: "export", params: ["token": pair.grace])
        #expect(graces as? String == "# Compilers\n\nA-0 and its successors\n")
    }

    @Test("An account with no notes exports an empty document, even when others have notes")
    func emptyExport() async throws {
        let pair = try SignedInPair()
        #expect(try await pair.mediator.notesExport(token: pair.grace) == "")
        _ = try pair.mediator.notesCreate(token: pair.ada, title: "Engines")
        #expect(try await pair.mediator.notesExport(token: pair.grace) == "")
        #expect(try await pair.mediator.notesExport(token: pair.ada) == "# Engines\n")
    }

    @Test("A bad token is refused with the code create gives it: actionFailed, unauthorized", arguments: [unissuedToken, "forged", ""])
    func badToken(token: String) async throws {
        let pair = try SignedInPair()
        try pair.writeNotes()
        let create = #expect(throws: MediatorError.self) { try pair.mediator.notesCreate(token: token, title: "x") }
        let export = await #expect(throws: MediatorError.self) { try await pair.mediator.notesExport(token: token) }
        #expect(export?.code == .actionFailed)
        #expect(export?.notesFailure == .unauthorized)
        #expect(export?.notesFailure == create?.notesFailure)
        #expect(export?.target == "Notes")
        #expect(export?.action == "export")
        #expect(export?.description.contains("not authorized: invalid token") == true)
    }

    @Test("A missing or non-text token fails as invalidParameter naming it", arguments: [nil, 42 as (any Sendable)?])
    func tokenParameter(value: (any Sendable)?) async throws {
        let pair = try SignedInPair()
        var params: Params = [:]
        params["token"] = value
        let error = await #expect(throws: MediatorError.self) { try await pair.mediator.call(target: "Notes", action: "export", params: params) }
        #expect(error?.code == .invalidParameter)
        #expect(error?.parameter == "token")
    }

    @Test("The export awaits Accounts' async token check: with Accounts missing it fails as authorizationUnavailable")
    func accountsMissing() async throws {
        let mediator = Mediator()
        try Target_Notes.register(in: mediator)
        let error = await #expect(throws: MediatorError.self) { try await mediator.notesExport(token: unissuedToken) }
        #expect(error?.notesFailure == .authorizationUnavailable)
        #expect(error?.description.contains("Accounts/verifyToken") == true)
    }

    @Test("The synchronous entry points refuse the export with asyncAction, and the sync actions still work")
    func synchronousCallersRefused() throws {
        let pair = try SignedInPair()
        try pair.writeNotes()
        let error = #expect(throws: MediatorError.self) { try pair.mediator.callNow(target: "Notes", action: "export", params: ["token": pair.ada]) }
        #expect(error?.code == .asyncAction)
        #expect(pair.mediator.perform(target: "Notes", action: "export", params: ["token": pair.ada]) == nil)
        #expect(try pair.mediator.notesList().map(\.id) == [1, 2, 3, 4])
        #expect(try pair.mediator.accountsWhoAmI(token: pair.ada).username == "ada")
    }

    @Test("Callers that are not async get the export through the completion form")
    func completionForm() async throws {
        let pair = try SignedInPair()
        try pair.writeNotes()
        let result = await withCheckedContinuation { continuation in
            pair.mediator.perform(target: "Notes", action: "export", params: ["token": pair.ada], as: String.self) { result in
                continuation.resume(returning: result)
            }
        }
        #expect(try result.get() == SignedInPair.adasExport)
    }

    // MARK: - Reachable by URL, like the other Notes actions

    @Test("The export is reachable by URL like the other Notes actions (the token is the authorization)")
    func reachableByURL() async throws {
        let pair = try SignedInPair()
        try pair.writeNotes()
        let actions = try #require(pair.mediator.target(named: "Notes")?.actions)
        #expect(actions.filter(\.isLocalOnly).map(\.name) == [])
        #expect(actions.map(\.name).contains("export"))
        #expect(try await pair.mediator.call(url: "app://Notes/export?token=\(pair.ada)") as? String == SignedInPair.adasExport)
        let refused = await #expect(throws: MediatorError.self) { try await pair.mediator.call(url: "app://Notes/export?token=\(unissuedToken)") }
        #expect(refused?.notesFailure == .unauthorized)
    }
}

@Suite("Notes/export stops when its task is cancelled")
struct NotesExportCancellationTests {
    @Test("A task cancelled before it asks for the export gets cancelled, not a document")
    func cancelledBeforeTheCall() async throws {
        let pair = try SignedInPair()
        try pair.writeNotes()
        let mediator = pair.mediator
        let token = pair.ada
        let export = Task {
            // Cancelled by itself, before the call: no timing involved.
            withUnsafeCurrentTask { $0?.cancel() }
            return try await mediator.notesExport(token: token)
        }
        let error = await #expect(throws: MediatorError.self) { try await export.value }
        #expect(error?.code == .cancelled)
        #expect(error?.target == "Notes")
        #expect(error?.action == "export")
    }

    @Test("Cancelled while its token is checked, the service's export throws CancellationError before its first note")
    func cancelledDuringTheCheck() async throws {
        let notes = NotesService(
            authorize: { _ in "ada" },
            authorizeAsync: { _ in
                // The task is cancelled after the export began and before it writes a note.
                withUnsafeCurrentTask { $0?.cancel() }
                return "ada"
            })
        _ = try notes.create(token: "any", title: "Engines")
        _ = try notes.create(token: "any", title: "Loops")
        let export = Task { try await notes.export(token: "any") }
        await #expect(throws: CancellationError.self) { try await export.value }
    }

    @Test("A cancelled Accounts check reaches the caller as cancelled, not as authorizationUnavailable")
    func cancelledAccountsCall() async throws {
        let mediator = Mediator()
        try Target_Notes.register(in: mediator)
        // An Accounts target whose token check is cancelled under it, as a network call would be.
        try mediator.register(
            target: "Accounts", make: { _ in CancelledAccounts() },
            actions: [
                Action("verifyToken") { _, _ async throws in
                    withUnsafeCurrentTask { $0?.cancel() }
                    throw CancellationError()
                }
            ])
        let export = Task { try await mediator.notesExport(token: unissuedToken) }
        let error = await #expect(throws: MediatorError.self) { try await export.value }
        #expect(error?.code == .cancelled)
        #expect(error?.action == "export")
        #expect(error?.notesFailure == nil)
    }

    final class CancelledAccounts: Sendable {}
}

@Suite("The typed extension modules' async wrappers")
struct AsyncWrapperTests {
    @Test("accountsVerifyToken awaits Accounts/verifyToken: the account, or invalidToken as accountsWhoAmI says")
    func verifyToken() async throws {
        let pair = try SignedInPair()
        #expect(try await pair.mediator.accountsVerifyToken(token: pair.ada) == AccountsUser(id: 1, username: "ada"))
        #expect(try await pair.mediator.accountsVerifyToken(token: pair.grace) == AccountsUser(id: 2, username: "grace"))
        let error = await #expect(throws: MediatorError.self) { try await pair.mediator.accountsVerifyToken(token: unissuedToken) }
        #expect(error?.accountsFailure == .invalidToken)
        let sync = #expect(throws: MediatorError.self) { try pair.mediator.accountsWhoAmI(token: unissuedToken) }
        #expect(error?.accountsFailure == sync?.accountsFailure)
    }

    @Test("The sync entry point refuses Accounts/verifyToken with asyncAction")
    func verifyTokenIsAsync() throws {
        let pair = try SignedInPair()
        let error = #expect(throws: MediatorError.self) { try pair.mediator.callNow(target: "Accounts", action: "verifyToken", params: ["token": pair.ada]) }
        #expect(error?.code == .asyncAction)
    }

    @Test("notesExport gives the same document as the string API, from a mediator with both modules")
    func notesExport() async throws {
        let pair = try SignedInPair()
        try pair.writeNotes()
        #expect(try await pair.mediator.notesExport(token: pair.ada) == SignedInPair.adasExport)
    }

    @Test("Twenty exports awaited from other tasks at once all give the same document")
    func fromOtherTasks() async throws {
        let pair = try SignedInPair()
        try pair.writeNotes()
        let mediator = pair.mediator
        let token = pair.ada
        let exports = (0..<20).map { _ in Task { try await mediator.notesExport(token: token) } }
        for export in exports {
            #expect(try await export.value == SignedInPair.adasExport)
        }
    }
}
