// A scripted tour of the mediator with the example modules: `swift run mediator-demo`.
// Notes and Accounts never import each other; this program wires them into one mediator and
// calls them through the string API, through their typed extension modules' wrappers, and through
// their typed keys; at start-up it checks that every module's requirements are met.
import ExampleAccounts
import ExampleAccountsMediator
import ExampleNotes
import ExampleNotesMediator
import Mediator

let mediator = Mediator()

do {
    try Target_Accounts.register(in: mediator)
    try Target_Notes.register(in: mediator)

    print("targets:", mediator.targets.map(\.name).joined(separator: ", "))

    // Start-up check: every module states what it needs from the others; verify() runs nothing and
    // reports every unmet need at once, as sentences.
    mediator.require(AccountsRequirements.all, by: "ExampleAccountsMediator")
    mediator.require(NotesRequirements.all, by: "ExampleNotesMediator")
    mediator.require(Target_Notes.requirements, by: "Notes")
    let problems = mediator.verify()
    print("verify:", problems.isEmpty ? "every requirement is met" : problems.map(\.description).joined(separator: "\n  "))

    // Typed extension wrappers: no strings at the call site.
    let user = try mediator.accountsSignUp(username: "ada", password: "analytical")
    let token = try mediator.accountsLogIn(username: "ada", password: "analytical")
    print("signed up \(user.username) (id \(user.id)), token \(token)")
    let note = try mediator.notesCreate(token: token, title: "Engines", body: "Notes on the analytical engine", tags: ["math"])
    print("created note \(note.id): \(note.title) [\(note.tags.joined(separator: ", "))] by \(note.owner)")

    // A typed key: the compiler checks the input and the output; the note comes back as is.
    let fetched = try mediator.callNow(.notesGet, GetNote(id: note.id))
    print("call(.notesGet, GetNote(id: \(note.id))) -> \(fetched.title) by \(fetched.owner)")

    // The string API, CTMediator style: a result or nil.
    let listed = mediator.perform(target: "Target_Notes", action: "Action_list", params: ["tag": "math"])
    print("perform Notes/list tag=math ->", listed ?? "nil")

    // An async action, awaited through its typed wrapper: Notes/export awaits Accounts/verifyToken.
    _ = try mediator.notesCreate(token: token, title: "Loops", body: "Cards that repeat a sequence of operations")
    let markdown = try await mediator.notesExport(token: token)
    print("await notesExport ->\n\(markdown)", terminator: "")

    // The throwing API explains failures.
    for (target, action, params) in [
        ("Notes", "gte", ["id": 1]), ("Note", "get", ["id": 1]), ("Notes", "get", ["id": "4x"]), ("Notes", "export", ["token": token]),
    ] as [(String, String, Params)] {
        do {
            _ = try mediator.callNow(target: target, action: action, params: params)
        } catch {
            print("call \(target)/\(action) failed:", error)
        }
    }
    do {
        _ = try mediator.notesCreate(token: "forged", title: "x")
    } catch {
        print("create with a forged token failed:", error.notesFailure.map(\.rawValue) ?? "?", "-", error)
    }
} catch {
    print("mediator-demo: error:", error)
}
