// The starting state of every comparison in the generated-wrappers program. Compiled only there
// (`GENERATED_WRAPPERS` is defined for its program target; here the file is empty): it builds on
// the example providers' own API (services, snapshots, registration), which this test module
// does not list among its dependencies.
#if GENERATED_WRAPPERS
import ExampleAccounts
import Mediator
import ExampleNotes

/// The session token of the account `ada` in the starting state.
let sampleToken = "0123456789abcdef0123456789abcdef"

/// A fresh mediator with `Accounts` (the account `ada`, logged in with ``sampleToken``), `Notes`
/// (note 1, `Groceries`, owned by `ada`) and the specimen targets registered.
func makeMediator() throws(MediatorError) -> Mediator {
    let mediator = Mediator()
    var accounts = AccountsService.Snapshot()
    accounts.accounts["ada"] = .init(account: Account(id: 1, username: "ada"), password: "correct-horse-battery")
    accounts.tokens[sampleToken] = "ada"
    accounts.nextID = 2
    try Target_Accounts.register(in: mediator, service: AccountsService(snapshot: accounts))
    var notes = NotesService.Snapshot()
    notes.notes[1] = Note(id: 1, title: "Groceries", body: "milk, eggs", tags: ["home"], owner: "ada")
    notes.nextID = 2
    let service = NotesService(
        snapshot: notes, authorize: Target_Notes.accountsAuthorizer(mediator), authorizeAsync: Target_Notes.asyncAccountsAuthorizer(mediator))
    try Target_Notes.register(in: mediator, service: service)
    try Target_Specimen.register(in: mediator)
    return mediator
}
#endif
