import ExampleAccounts
import ExampleAccountsMediator
import ExampleNotes
import ExampleNotesMediator
import Mediator
import Testing

/// One action's declared contract, in words: its params (`name?: type = default`) and its result.
struct DeclaredContract: Equatable, CustomStringConvertible {
    let params: [String]
    let result: String?
    /// The key's input and output type names; `nil` for an action registered by name.
    let key: String?

    init(_ params: [String], result: String?, key: String?) {
        self.params = params
        self.result = result
        self.key = key
    }

    init(_ action: ActionInfo) {
        params = (action.parameters ?? []).map(\.description)
        result = action.result?.description
        key = action.keyTypes.map { "\($0.input) -> \($0.output)" }
    }

    var description: String { "(\(params.joined(separator: ", "))) -> \(result ?? "nothing") [\(key ?? "by name")]" }
}

@Suite("The example modules' contracts: declared params, typed keys, requirements")
struct ExampleContractsTests {
    static let account = "object {id: integer, username: string}"
    static let note = "object {id: integer, title: string, body: string, tags: array of string, owner: string}"

    /// What each action reads and returns (see AccountsService and NotesService), as declared.
    static let expected: [String: DeclaredContract] = [
        "Accounts/signUp": DeclaredContract(["username: string", "password: string"], result: account, key: "SignUp -> AccountsUser"),
        "Accounts/logIn": DeclaredContract(["username: string", "password: string"], result: "string", key: "LogIn -> String"),
        "Accounts/whoAmI": DeclaredContract(["token: string"], result: account, key: "CheckToken -> AccountsUser"),
        "Accounts/verifyToken": DeclaredContract(["token: string"], result: account, key: "CheckToken -> AccountsUser"),
        "Notes/create": DeclaredContract(
            ["token: string", "title: string", #"body?: string = """#, "tags?: array of string = []"], result: note, key: "CreateNote -> Note"),
        "Notes/get": DeclaredContract(["id: integer"], result: note, key: "GetNote -> Note"),
        "Notes/list": DeclaredContract(["tag?: string"], result: "array of \(note)", key: "ListNotes -> Array<Note>"),
        "Notes/update": DeclaredContract(
            ["token: string", "id: integer", "title?: string", "body?: string", "tags?: array of string"], result: note, key: "UpdateNote -> Note"),
        "Notes/delete": DeclaredContract(["token: string", "id: integer"], result: nil, key: nil),
        "Notes/export": DeclaredContract(["token: string"], result: "string", key: "ExportNotes -> String"),
    ]

    @Test("Every example action declares the params the service reads and the result it returns; only delete, which returns nothing, has no key")
    func declaredContracts() throws {
        let mediator = try exampleMediator()
        var found: [String: DeclaredContract] = [:]
        for target in mediator.targets {
            for action in target.actions { found["\(target.name)/\(action.name)"] = DeclaredContract(action) }
        }
        #expect(found.keys.sorted() == Self.expected.keys.sorted())
        for (name, contract) in Self.expected {
            #expect(found[name] == contract, "\(name): \(found[name].map(\.description) ?? "missing")")
        }
    }

    @Test("Every declared param of the example actions has a one-line description")
    func paramsAreDescribed() throws {
        let mediator = try exampleMediator()
        for target in mediator.targets {
            for action in target.actions {
                for parameter in try #require(action.parameters, "\(target.name)/\(action.name) declares no params") {
                    let summary = try #require(parameter.summary, "\(target.name)/\(action.name): \(parameter.name) has no description")
                    #expect(!summary.isEmpty && !summary.contains("\n"), "\(target.name)/\(action.name): \(parameter.name)")
                }
            }
        }
    }

    @Test("A wrong type is refused before the action runs, in the contract's words")
    func wrongTypeInContractWords() throws {
        let mediator = try exampleMediator()
        let get = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Notes", action: "get", params: ["id": "seven"]) }
        #expect(get?.description == #"Notes/get: invalid parameter "id": expected integer, got String "seven""#)
        let delete = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Notes", action: "delete", params: ["token": 7, "id": 1]) }
        #expect(delete?.description == #"Notes/delete: invalid parameter "token": expected string, got Int 7"#)
        let signUp = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Accounts", action: "signUp", params: ["username": "ada"]) }
        #expect(signUp?.description == #"Accounts/signUp: missing required parameter "password" (expected string)"#)
        // Refused before running: no account was made.
        #expect(try mediator.accountsSignUp(username: "ada", password: "analytical").id == 1)
    }

    @Test("By URL, body and tags may be left out (the declared defaults fill them) and a query item no action takes is dropped")
    func urlCalls() throws {
        let mediator = try exampleMediator()
        _ = try mediator.accountsSignUp(username: "ada", password: "analytical")
        let token = try mediator.accountsLogIn(username: "ada", password: "analytical")
        let created = try #require(try mediator.callNow(url: "app://Notes/create?token=\(token)&title=Hi") as? [String: any Sendable])
        #expect(created["body"] as? String == "")
        #expect((created["tags"] as? [String]) == [])
        #expect(try mediator.notesGet(id: 1) == ExampleNotesMediator.Note(id: 1, title: "Hi", body: "", tags: [], owner: "ada"))
        let linked = try #require(try mediator.callNow(url: "app://Notes/get?id=1&colour=red&utm_source=mail") as? [String: any Sendable])
        #expect(linked["title"] as? String == "Hi")
        // In-process callers may pass more (the default policy): the action ignores it.
        #expect(try mediator.callNow(target: "Notes", action: "get", params: ["id": 1, "colour": "red"], as: ExampleNotesMediator.Note.self).title == "Hi")
    }

    @Test("A typed key passes the provider's output as is; by name the same action answers with plain values")
    func keyedAndByName() throws {
        let mediator = try exampleMediator()
        let user = try mediator.callNow(.accountsSignUp, SignUp(username: "ada", password: "analytical"))
        #expect(user == AccountsUser(id: 1, username: "ada"))
        let token = try mediator.callNow(.accountsLogIn, LogIn(username: "ada", password: "analytical"))
        let note = try mediator.callNow(.notesCreate, CreateNote(token: token, title: "Engines", tags: ["math"]))
        #expect(note == ExampleNotesMediator.Note(id: 1, title: "Engines", body: "", tags: ["math"], owner: "ada"))
        let plain = try #require(try mediator.callNow(target: "Notes", action: "get", params: ["id": 1]) as? [String: any Sendable])
        #expect(plain["title"] as? String == "Engines")
        #expect(plain["tags"] as? [String] == ["math"])
        #expect(try mediator.callNow(.notesList, ListNotes(tag: "math")) == [note])
        #expect(try mediator.callNow(.notesList, ListNotes(tag: "draft")) == [])
    }

    @Test("The async keys are awaited: Notes/export and Accounts/verifyToken; the sync call refuses them")
    func asyncKeys() async throws {
        let pair = try SignedInPair()
        try pair.writeNotes()
        #expect(try await pair.mediator.call(.notesExport, ExportNotes(token: pair.ada)) == SignedInPair.adasExport)
        #expect(try await pair.mediator.call(.accountsVerifyToken, CheckToken(token: pair.grace)) == AccountsUser(id: 2, username: "grace"))
        let mediator = pair.mediator
        let token = pair.ada
        let refused = #expect(throws: MediatorError.self) { try Self.callSynchronously(mediator, token) }
        #expect(refused?.code == .asyncAction)
    }

    /// The synchronous `call` of a key (outside an async context the sync overload is chosen).
    static func callSynchronously(_ mediator: Mediator, _ token: String) throws(MediatorError) {
        _ = try mediator.callNow(.notesExport, ExportNotes(token: token))
    }
}

@Suite("The example modules' requirements, checked by verify()")
struct ExampleRequirementsTests {
    /// Records every example module's requirements, as a program that wires them does.
    static func requireAll(in mediator: Mediator) {
        mediator.require(AccountsRequirements.all, by: "ExampleAccountsMediator")
        mediator.require(NotesRequirements.all, by: "ExampleNotesMediator")
        mediator.require(Target_Accounts.requirements, by: "Accounts")
        mediator.require(Target_Notes.requirements, by: "Notes")
    }

    @Test("Each module publishes what it requires: keys, and names with the params they send")
    func publishedLists() {
        #expect(AccountsRequirements.all.map(\.description) == ["Accounts/signUp", "Accounts/logIn", "Accounts/whoAmI", "Accounts/verifyToken"])
        #expect(NotesRequirements.keys.map(\.description) == ["Notes/create", "Notes/get", "Notes/list", "Notes/update", "Notes/export"])
        #expect(NotesRequirements.byName.map(\.description) == ["Notes/create", "Notes/delete"])
        #expect(NotesRequirements.all.map(\.description) == (NotesRequirements.keys + NotesRequirements.byName).map(\.description))
        // The name-based ones say what they send, so that verify() compares it with the declaration.
        #expect(NotesRequirements.byName.map { $0.parameters?.map(\.name) } == [["token", "title", "body", "tags"], ["token", "id"]])
        #expect(Target_Notes.requirements.map(\.description) == ["Accounts/whoAmI", "Accounts/verifyToken"])
        #expect(Target_Accounts.requirements.isEmpty)
    }

    @Test("With both example modules registered, verify() finds every requirement met")
    func allMet() throws {
        let mediator = try exampleMediator()
        Self.requireAll(in: mediator)
        #expect(mediator.verify().map(\.description) == [])
    }

    @Test("Notes registered without Accounts: verify() reports the missing target, naming it and who needs it")
    func accountsMissing() throws {
        let mediator = Mediator()
        try Target_Notes.register(in: mediator)
        Self.requireAll(in: mediator)
        let problems = mediator.verify()
        #expect(problems.allSatisfy { $0.code == .targetNotFound && $0.target == "Accounts" }, "\(problems)")
        #expect(
            problems.map(\.description).contains(
                #"Accounts/verifyToken: Notes requires it, but no target "Accounts" is registered; register Target_Accounts"#),
            "\(problems)")
        #expect(Set(problems.compactMap(\.action)) == ["signUp", "logIn", "whoAmI", "verifyToken"])
    }

    @Test("Accounts registered without Notes: verify() reports every Notes action ExampleNotesMediator needs")
    func notesMissing() throws {
        let mediator = Mediator()
        try Target_Accounts.register(in: mediator)
        Self.requireAll(in: mediator)
        let problems = mediator.verify()
        #expect(problems.allSatisfy { $0.code == .targetNotFound && $0.target == "Notes" }, "\(problems)")
        #expect(Set(problems.compactMap(\.action)) == ["create", "get", "list", "update", "export", "delete"])
        #expect(problems.first?.description.contains(#"ExampleNotesMediator requires it, but no target "Notes" is registered"#) == true)
    }

    @Test("A Notes provider whose create drifted from what the classic wrapper sends is reported as a type mismatch")
    func driftedProvider() throws {
        let mediator = Mediator()
        try Target_Accounts.register(in: mediator)
        // A stand-in Notes target: create takes the title as an integer and no tags, by name.
        try mediator.register(
            target: "Notes", make: { _ in DriftedNotes() },
            actions: [
                Action("create", params: [.required("token", .string), .required("title", .integer), .optional("body", .string)]) { _, _ in nil }
            ])
        mediator.require(NotesRequirements.byName.filter { $0.action == "create" }, by: "ExampleNotesMediator")
        let problems = mediator.verify().map(\.description)
        #expect(
            problems.contains(#"Notes/create: ExampleNotesMediator sends "title" as string, but the action declares integer; make them agree"#), "\(problems)")
        #expect(
            problems.contains(#"Notes/create: ExampleNotesMediator sends "tags", which the action does not declare; remove it or declare it"#), "\(problems)")
        #expect(problems.contains { $0.hasPrefix("Notes/create: ExampleNotesMediator reads") }, "\(problems)")
        #expect(problems.count == 3, "\(problems)")
    }

    final class DriftedNotes: Sendable {}
}
