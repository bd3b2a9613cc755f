import ExampleAccounts
import ExampleNotes
import Testing

/// A state restored from a file may have counted ids up to `Int.max`: creating past it is an
/// error, never a trap.
@Suite("Accounts and notes: running out of ids is an error, not a crash")
struct IdentifierLimitTests {
    @Test("Sign-up gives out id Int.max - 1, then fails with idsExhausted and changes nothing")
    func accountIDs() throws {
        var snapshot = AccountsService.Snapshot()
        snapshot.nextID = Int.max - 1
        let accounts = AccountsService(snapshot: snapshot)
        #expect(try accounts.signUp(username: "ada", password: "analytical").id == Int.max - 1)
        let before = accounts.snapshot
        #expect(throws: AccountsError.idsExhausted) { try accounts.signUp(username: "grace", password: "analytical") }
        #expect(accounts.snapshot == before)
        #expect(AccountsError.idsExhausted.description == "no account id left: the next id would be the largest integer (\(Int.max)), which is never given out")
    }

    @Test("Creating a note gives out id Int.max - 1, then fails with idsExhausted and changes nothing")
    func noteIDs() throws {
        var snapshot = NotesService.Snapshot()
        snapshot.nextID = Int.max - 1
        let notes = NotesService(snapshot: snapshot, authorize: { _ in "ada" })
        #expect(try notes.create(token: "any", title: "Last").id == Int.max - 1)
        let before = notes.snapshot
        #expect(throws: NotesError.idsExhausted) { try notes.create(token: "any", title: "One too many") }
        #expect(notes.snapshot == before)
        #expect(NotesError.idsExhausted.description == "no note id left: the next id would be the largest integer (\(Int.max)), which is never given out")
    }
}
