import ExampleAccounts
import ExampleNotes
import Mediator
import MediatorCommandLine

/// The example modules' state as `state.json`, format 2:
///
/// ```json
/// {"format":2,
///  "accounts":{"nextID":2,"users":[{"id":1,"username":"ada","password":"..."}],"tokens":{"<32 hex digits>":"ada"}},
///  "notes":{"nextID":2,"notes":[{"id":1,"title":"...","body":"...","tags":["..."],"owner":"ada"}]}}
/// ```
///
/// Format 1 also had `accounts.nextToken`, and its tokens were sequential (`token-1`), so anyone
/// could guess them. A format-1 file is read without its sessions (their users log in again) and
/// is written as format 2 by the next change.
///
/// Not `Equatable` on purpose: `String`'s `==` takes canonically equivalent text (NFC and NFD
/// "café") for equal. Whether the state changed is decided on the serialized bytes.
struct ExampleState {
    var accounts = AccountsService.Snapshot()
    var notes = NotesService.Snapshot()

    static let format = 2

    var json: JSONValue {
        .object([
            "format": .int(Self.format),
            "accounts": .object([
                "nextID": .int(accounts.nextID),
                "users": .array(
                    accounts.accounts.values.sorted { $0.account.id < $1.account.id }.map { entry in
                        .object(["id": .int(entry.account.id), "username": .string(entry.account.username), "password": .string(entry.password)])
                    }),
                "tokens": .object(accounts.tokens.mapValues(JSONValue.string)),
            ]),
            "notes": .object([
                "nextID": .int(notes.nextID),
                "notes": .array(
                    notes.notes.values.sorted { $0.id < $1.id }.map { note in
                        .object([
                            "id": .int(note.id), "title": .string(note.title), "body": .string(note.body),
                            "tags": .array(note.tags.map(JSONValue.string)), "owner": .string(note.owner),
                        ])
                    }),
            ]),
        ])
    }

    /// Reads the file's text; any deviation from the format (a key missing, of another type, or
    /// not part of the format), and any inconsistency (see
    /// ``StateEntries/checkConsistency()``), is an error naming where.
    init(text: String) throws(StateFormatError) {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: text)
        } catch {
            throw StateFormatError(path: "", reason: "not JSON: \(error)")
        }
        let top = try Reader(root, path: "")
        try top.allowOnly(["format", "accounts", "notes"])
        let format = try top.int("format")
        guard format == 1 || format == Self.format else {
            throw StateFormatError(path: "format", reason: "unknown format version \(format) (this mediate reads 1 and \(Self.format))")
        }
        let accountsReader = try top.object("accounts")
        try accountsReader.allowOnly(format == 1 ? ["nextID", "users", "tokens", "nextToken"] : ["nextID", "users", "tokens"])
        let notesReader = try top.object("notes")
        try notesReader.allowOnly(["nextID", "notes"])
        var entries = StateEntries(accountsNextID: try accountsReader.int("nextID"), notesNextID: try notesReader.int("nextID"))
        for user in try accountsReader.array("users") {
            try user.allowOnly(["id", "username", "password"])
            let account = Account(id: try user.int("id"), username: try user.string("username"))
            entries.users.append((account, try user.string("password")))
        }
        // Sorted, so that of several bad tokens the same one is reported every time.
        for (token, value) in try accountsReader.members("tokens").sorted(by: { $0.key < $1.key }) {
            guard case .string(let username) = value else { throw StateFormatError(path: "accounts.tokens.\(token)", reason: "expected a string") }
            entries.tokens.append((token, username))
        }
        if format == 1 {
            // Sequential, guessable sessions: dropped (their users log in again).
            _ = try accountsReader.int("nextToken")
            entries.tokens = []
        }
        for note in try notesReader.array("notes") {
            try note.allowOnly(["id", "title", "body", "tags", "owner"])
            entries.notes.append(
                Note(
                    id: try note.int("id"), title: try note.string("title"), body: try note.string("body"),
                    tags: try note.strings("tags"), owner: try note.string("owner")
                ))
        }
        try entries.checkConsistency()
        accounts.nextID = entries.accountsNextID
        for (account, password) in entries.users {
            accounts.accounts[account.username] = .init(account: account, password: password)
        }
        for (token, username) in entries.tokens { accounts.tokens[token] = username }
        notes.nextID = entries.notesNextID
        for note in entries.notes { notes.notes[note.id] = note }
    }

    init() {}

    init(accounts: AccountsService.Snapshot, notes: NotesService.Snapshot) {
        self.accounts = accounts
        self.notes = notes
    }
}

struct StateFormatError: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { path.isEmpty ? reason : "at \"\(path)\": \(reason)" }
}

/// Typed reads from a JSON object, each failure naming its path.
private struct Reader {
    let members: [String: JSONValue]
    let path: String

    init(_ value: JSONValue, path: String) throws(StateFormatError) {
        guard case .object(let members) = value else { throw StateFormatError(path: path, reason: "expected an object") }
        self.members = members
        self.path = path
    }

    private func child(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// Refuses a key the format does not name: read and kept nowhere, it would be dropped by the
    /// next write (a newer or another writer's data lost without a word).
    func allowOnly(_ keys: Set<String>) throws(StateFormatError) {
        if let unknown = members.keys.filter({ !keys.contains($0) }).sorted().first {
            throw StateFormatError(path: child(unknown), reason: "not part of the format (it would be lost on the next write)")
        }
    }

    private func value(_ key: String) throws(StateFormatError) -> JSONValue {
        guard let value = members[key] else { throw StateFormatError(path: child(key), reason: "missing") }
        return value
    }

    func int(_ key: String) throws(StateFormatError) -> Int {
        guard case .int(let number) = try value(key) else { throw StateFormatError(path: child(key), reason: "expected an integer") }
        return number
    }

    func string(_ key: String) throws(StateFormatError) -> String {
        guard case .string(let text) = try value(key) else { throw StateFormatError(path: child(key), reason: "expected a string") }
        return text
    }

    func strings(_ key: String) throws(StateFormatError) -> [String] {
        try elements(key) { item, path throws(StateFormatError) in
            guard case .string(let text) = item else { throw StateFormatError(path: path, reason: "expected a string") }
            return text
        }
    }

    func object(_ key: String) throws(StateFormatError) -> Reader {
        try Reader(try value(key), path: child(key))
    }

    func members(_ key: String) throws(StateFormatError) -> [String: JSONValue] {
        guard case .object(let members) = try value(key) else { throw StateFormatError(path: child(key), reason: "expected an object") }
        return members
    }

    func array(_ key: String) throws(StateFormatError) -> [Reader] {
        try elements(key) { item, path throws(StateFormatError) in try Reader(item, path: path) }
    }

    /// The elements of the array at `key`, each read by `read` with its path (`key[index]`).
    private func elements<Element>(_ key: String, _ read: (JSONValue, String) throws(StateFormatError) -> Element) throws(StateFormatError) -> [Element] {
        guard case .array(let values) = try value(key) else { throw StateFormatError(path: child(key), reason: "expected an array") }
        var elements: [Element] = []
        for (index, item) in values.enumerated() {
            elements.append(try read(item, "\(child(key))[\(index)]"))
        }
        return elements
    }
}
