import ExampleAccounts
import ExampleAccountsMediator
import ExampleNotes
import ExampleNotesMediator
import Mediator

/// A note reduced to plain fields, so notes of the four worlds (provider type, dictionary,
/// wrapper type, key output) can be compared.
struct PlainNote: Equatable, CustomStringConvertible {
    let id: Int, title: String, body: String, tags: [String], owner: String
    var description: String { "#\(id) \(title.debugDescription) by \(owner) \(tags)" }
}

/// What one operation gave, comparable across worlds. Failures keep only their kind: the
/// provider's code for an action's failure, the mediator's code otherwise.
enum Outcome: Equatable, CustomStringConvertible {
    case account(id: Int, username: String)
    /// A newly issued token, by its order of issue in that world (see ``TokenBook``).
    case token(Int)
    case note(PlainNote)
    case notes([PlainNote])
    /// An export's Markdown document.
    case document(String)
    case done
    case failure(String)

    var isFailure: Bool { if case .failure = self { true } else { false } }

    var description: String {
        switch self {
        case .account(let id, let username): "account(\(id), \(username.debugDescription))"
        case .token(let index): "token #\(index)"
        case .note(let note): "note(\(note))"
        case .notes(let notes): "notes(\(notes.map(\.id)))"
        case .document(let text): "document(\(text.count) characters: \(String(text.prefix(40)).debugDescription))"
        case .done: "done"
        case .failure(let code): "failure(\(code))"
        }
    }
}

/// One call to an example action, with typed arguments.
enum Operation: CustomStringConvertible {
    case signUp(username: String, password: String)
    case logIn(username: String, password: String)
    case whoAmI(token: TokenChoice)
    case create(token: TokenChoice, title: String, body: String, tags: [String])
    case get(id: Int)
    case list(tag: String?)
    case update(token: TokenChoice, id: Int, title: String?, body: String?, tags: [String]?)
    case delete(token: TokenChoice, id: Int)

    /// The action's name, as the mediator knows it.
    var action: String {
        switch self {
        case .signUp: "signUp"
        case .logIn: "logIn"
        case .whoAmI: "whoAmI"
        case .create: "create"
        case .get: "get"
        case .list: "list"
        case .update: "update"
        case .delete: "delete"
        }
    }

    var description: String {
        let arguments: [Any?] =
            switch self {
            case .signUp(let username, let password), .logIn(let username, let password): [username, password]
            case .whoAmI(let token): [token]
            case .create(let token, let title, let body, let tags): [token, title, body, tags]
            case .get(let id): [id]
            case .list(let tag): [tag]
            case .update(let token, let id, let title, let body, let tags): [token, id, title, body, tags]
            case .delete(let token, let id): [token, id]
            }
        let shown = arguments.map { argument -> String in
            guard let argument else { return "nil" }
            let text = String(reflecting: argument)
            return text.count > 40 ? String(text.prefix(40)) + "…" : text
        }
        return "\(action)(\(shown.joined(separator: ", ")))"
    }
}

/// A way of running operations: the typed API, the mediator's string API, the typed wrappers, or
/// the typed keys.
/// Each keeps the tokens it was issued, to resolve the operations' ``TokenChoice``s.
protocol World {
    mutating func run(_ operation: Operation) -> Outcome
    /// The export of the token's notes (an async action, so not one of the generated operations).
    func export(_ token: TokenChoice) async -> Outcome
}

// MARK: - (1) The typed API, called directly

struct TypedAPIWorld: World {
    let accounts = AccountsService()
    let notes: NotesService
    var tokens = TokenBook()

    init() {
        notes = NotesService(authorize: { [accounts] token in
            do throws(AccountsError) {
                return try accounts.whoAmI(token: token).username
            } catch .invalidToken {
                return nil
            }
        })
    }

    mutating func run(_ operation: Operation) -> Outcome {
        do {
            switch operation {
            case .signUp(let username, let password):
                let account = try accounts.signUp(username: username, password: password)
                return .account(id: account.id, username: account.username)
            case .logIn(let username, let password):
                return tokens.record(try accounts.logIn(username: username, password: password))
            case .whoAmI(let token):
                let account = try accounts.whoAmI(token: tokens.resolve(token))
                return .account(id: account.id, username: account.username)
            case .create(let token, let title, let body, let tags):
                return .note(plain(try notes.create(token: tokens.resolve(token), title: title, body: body, tags: tags)))
            case .get(let id):
                return .note(plain(try notes.get(id: id)))
            case .list(let tag):
                return .notes(notes.list(tag: tag).map(plain))
            case .update(let token, let id, let title, let body, let tags):
                return .note(plain(try notes.update(token: tokens.resolve(token), id: id, title: title, body: body, tags: tags)))
            case .delete(let token, let id):
                try notes.delete(token: tokens.resolve(token), id: id)
                return .done
            }
        } catch let error as AccountsError {
            return .failure(error.code)
        } catch let error as NotesError {
            return .failure(error.code)
        } catch {
            return .failure("unexpected \(error)")
        }
    }

    func export(_ token: TokenChoice) async -> Outcome {
        do {
            return .document(try await notes.export(token: tokens.resolve(token)))
        } catch let error as NotesError {
            return .failure(error.code)
        } catch {
            return .failure("unexpected \(error)")
        }
    }

    private func plain(_ note: ExampleNotes.Note) -> PlainNote {
        PlainNote(id: note.id, title: note.title, body: note.body, tags: note.tags, owner: note.owner)
    }
}

/// A mediator with both example targets registered, as an app would wire it.
func exampleMediator() throws -> Mediator {
    let mediator = Mediator()
    try Target_Accounts.register(in: mediator)
    try Target_Notes.register(in: mediator)
    return mediator
}

/// The kind of a mediator failure: the provider's code for an action's failure, else the mediator's.
func failureKind(_ error: MediatorError) -> String {
    error.actionErrorCode ?? error.code.rawValue
}

// MARK: - (2) The mediator's string API

struct StringAPIWorld: World {
    let mediator: Mediator
    /// Send numbers as text, as URL and command-line callers do; results must not change.
    let numbersAsText: Bool
    var tokens = TokenBook()

    init(numbersAsText: Bool) throws {
        mediator = try exampleMediator()
        self.numbersAsText = numbersAsText
    }

    mutating func run(_ operation: Operation) -> Outcome {
        let numbersAsText = numbersAsText
        let number: (Int) -> any Sendable = { numbersAsText ? String($0) : $0 }
        var params: Params
        let target: String
        switch operation {
        case .signUp(let username, let password), .logIn(let username, let password):
            target = "Accounts"
            params = ["username": username, "password": password]
        case .whoAmI(let token):
            target = "Accounts"
            params = ["token": tokens.resolve(token)]
        case .create(let token, let title, let body, let tags):
            target = "Notes"
            params = ["token": tokens.resolve(token), "title": title, "body": body, "tags": tags]
        case .get(let id):
            target = "Notes"
            params = ["id": number(id)]
        case .list(let tag):
            target = "Notes"
            params = [:]
            params["tag"] = tag
        case .update(let token, let id, let title, let body, let tags):
            target = "Notes"
            params = ["token": tokens.resolve(token), "id": number(id)]
            params["title"] = title
            params["body"] = body
            params["tags"] = tags
        case .delete(let token, let id):
            target = "Notes"
            params = ["token": tokens.resolve(token), "id": number(id)]
        }
        do {
            let result = try mediator.callNow(target: target, action: operation.action, params: params)
            return outcome(of: result, for: operation)
        } catch {
            return .failure(failureKind(error))
        }
    }

    func export(_ token: TokenChoice) async -> Outcome {
        do {
            let result = try await mediator.call(target: "Notes", action: "export", params: ["token": tokens.resolve(token)])
            return (result as? String).map(Outcome.document) ?? .failure("unreadable result")
        } catch {
            return .failure(failureKind(error))
        }
    }

    /// Reads the plain values the providers return, by hand (not with the decoder the wrappers use).
    private mutating func outcome(of result: (any Sendable)?, for operation: Operation) -> Outcome {
        switch operation {
        case .signUp, .whoAmI:
            guard let account = result as? [String: any Sendable], let id = account["id"] as? Int,
                let username = account["username"] as? String
            else { return .failure("unreadable result \(String(describing: result))") }
            return .account(id: id, username: username)
        case .logIn:
            guard let token = result as? String else { return .failure("unreadable result") }
            return tokens.record(token)
        case .create, .get, .update:
            guard let note = (result as? [String: any Sendable]).flatMap(plainNote) else { return .failure("unreadable result") }
            return .note(note)
        case .list:
            guard let list = result as? [[String: any Sendable]] else { return .failure("unreadable result") }
            let notes = list.compactMap(plainNote)
            return notes.count == list.count ? .notes(notes) : .failure("unreadable result")
        case .delete:
            return result == nil ? .done : .failure("unexpected result")
        }
    }

    private func plainNote(_ fields: [String: any Sendable]) -> PlainNote? {
        guard let id = fields["id"] as? Int, let title = fields["title"] as? String, let body = fields["body"] as? String,
            let tags = fields["tags"] as? [String], let owner = fields["owner"] as? String
        else { return nil }
        return PlainNote(id: id, title: title, body: body, tags: tags, owner: owner)
    }
}

// MARK: - (3) The typed extension wrappers

struct WrapperWorld: World {
    let mediator: Mediator
    var tokens = TokenBook()

    init() throws {
        mediator = try exampleMediator()
    }

    mutating func run(_ operation: Operation) -> Outcome {
        do throws(MediatorError) {
            switch operation {
            case .signUp(let username, let password):
                let user = try mediator.accountsSignUp(username: username, password: password)
                return .account(id: user.id, username: user.username)
            case .logIn(let username, let password):
                return tokens.record(try mediator.accountsLogIn(username: username, password: password))
            case .whoAmI(let token):
                let user = try mediator.accountsWhoAmI(token: tokens.resolve(token))
                return .account(id: user.id, username: user.username)
            case .create(let token, let title, let body, let tags):
                return .note(plain(try mediator.notesCreate(token: tokens.resolve(token), title: title, body: body, tags: tags)))
            case .get(let id):
                return .note(plain(try mediator.notesGet(id: id)))
            case .list(let tag):
                return .notes(try mediator.notesList(tag: tag).map(plain))
            case .update(let token, let id, let title, let body, let tags):
                return .note(plain(try mediator.notesUpdate(token: tokens.resolve(token), id: id, title: title, body: body, tags: tags)))
            case .delete(let token, let id):
                try mediator.notesDelete(token: tokens.resolve(token), id: id)
                return .done
            }
        } catch {
            return .failure(failureKind(error))
        }
    }

    func export(_ token: TokenChoice) async -> Outcome {
        do throws(MediatorError) {
            return .document(try await mediator.notesExport(token: tokens.resolve(token)))
        } catch {
            return .failure(failureKind(error))
        }
    }

    private func plain(_ note: ExampleNotesMediator.Note) -> PlainNote {
        PlainNote(id: note.id, title: note.title, body: note.body, tags: note.tags, owner: note.owner)
    }
}

// MARK: - (4) The typed keys

/// Calls through the keys of `ExampleAccountsMediator` and `ExampleNotesMediator`: typed input, typed output,
/// passed as they are (no dictionary in between). `delete` has no key (it returns nothing), so it
/// is called by name, as its wrapper does.
struct TypedKeyWorld: World {
    let mediator: Mediator
    var tokens = TokenBook()

    init() throws {
        mediator = try exampleMediator()
    }

    mutating func run(_ operation: Operation) -> Outcome {
        do throws(MediatorError) {
            switch operation {
            case .signUp(let username, let password):
                let user = try mediator.callNow(.accountsSignUp, SignUp(username: username, password: password))
                return .account(id: user.id, username: user.username)
            case .logIn(let username, let password):
                return tokens.record(try mediator.callNow(.accountsLogIn, LogIn(username: username, password: password)))
            case .whoAmI(let token):
                let user = try mediator.callNow(.accountsWhoAmI, CheckToken(token: tokens.resolve(token)))
                return .account(id: user.id, username: user.username)
            case .create(let token, let title, let body, let tags):
                return .note(plain(try mediator.callNow(.notesCreate, CreateNote(token: tokens.resolve(token), title: title, body: body, tags: tags))))
            case .get(let id):
                return .note(plain(try mediator.callNow(.notesGet, GetNote(id: id))))
            case .list(let tag):
                return .notes(try mediator.callNow(.notesList, ListNotes(tag: tag)).map(plain))
            case .update(let token, let id, let title, let body, let tags):
                let input = UpdateNote(token: tokens.resolve(token), id: id, title: title, body: body, tags: tags)
                return .note(plain(try mediator.callNow(.notesUpdate, input)))
            case .delete(let token, let id):
                try mediator.callNow(target: "Notes", action: "delete", params: ["token": tokens.resolve(token), "id": id])
                return .done
            }
        } catch {
            return .failure(failureKind(error))
        }
    }

    func export(_ token: TokenChoice) async -> Outcome {
        do throws(MediatorError) {
            return .document(try await mediator.call(.notesExport, ExportNotes(token: tokens.resolve(token))))
        } catch {
            return .failure(failureKind(error))
        }
    }

    private func plain(_ note: ExampleNotesMediator.Note) -> PlainNote {
        PlainNote(id: note.id, title: note.title, body: note.body, tags: note.tags, owner: note.owner)
    }
}
