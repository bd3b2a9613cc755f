import ExampleAccounts
import ExampleNotes

/// The state file's entries as read, in file order, before they are trusted: the services keep
/// accounts by username and notes by id, so a duplicate would silently replace the first one,
/// and a counter at or below an id in use would make the next create overwrite a note. Checked
/// here instead, each problem named by its place in the file.
struct StateEntries {
    var accountsNextID: Int
    var users: [(account: Account, password: String)] = []
    var tokens: [(token: String, username: String)] = []
    var notesNextID: Int
    var notes: [Note] = []

    init(accountsNextID: Int, notesNextID: Int) {
        self.accountsNextID = accountsNextID
        self.notesNextID = notesNextID
    }

    /// Ids are positive and unique, each counter is greater than every id it gave out,
    /// usernames follow the accounts' rule and are unique, tokens are well-formed and belong to
    /// users, and every note's owner is a user.
    func checkConsistency() throws(StateFormatError) {
        var userAt: [String: Int] = [:]
        try checkIDs(users.map(\.account.id), counter: accountsNextID, kind: "account", in: "accounts", list: "users")
        for (index, (account, _)) in users.enumerated() {
            let path = "accounts.users[\(index)].username"
            guard AccountsService.isValidUsername(account.username) else {
                throw StateFormatError(
                    path: path,
                    reason:
                        "\"\(account.username)\" is not a valid username (1 to \(AccountsService.maximumUsernameLength) characters, each an ASCII letter, digit, '.', '_' or '-')"
                )
            }
            // Usernames are ASCII here, so String equality is byte equality.
            if let first = userAt[account.username] {
                throw StateFormatError(path: path, reason: "\"\(account.username)\" is also the username of accounts.users[\(first)]")
            }
            userAt[account.username] = index
        }
        for (token, username) in tokens {
            guard AccountsService.isWellFormedToken(token) else {
                throw StateFormatError(
                    path: "accounts.tokens", reason: "\"\(token)\" is not a session token (\(AccountsService.tokenLength) lowercase hexadecimal digits)")
            }
            guard userAt[username] != nil else {
                throw StateFormatError(path: "accounts.tokens.\(token)", reason: "\"\(username)\" is not a user")
            }
        }
        try checkIDs(notes.map(\.id), counter: notesNextID, kind: "note", in: "notes", list: "notes")
        for (index, note) in notes.enumerated() where userAt[note.owner] == nil {
            throw StateFormatError(path: "notes.notes[\(index)].owner", reason: "\"\(note.owner)\" is not a user")
        }
    }

    /// `ids` (of `section.list`) are positive and unique, and `section.nextID` is greater than all.
    private func checkIDs(_ ids: [Int], counter: Int, kind: String, in section: String, list: String) throws(StateFormatError) {
        guard counter >= 1 else {
            throw StateFormatError(path: "\(section).nextID", reason: "\(counter) is not a valid id (ids start at 1)")
        }
        var firstIndex: [Int: Int] = [:]
        for (index, id) in ids.enumerated() {
            let path = "\(section).\(list)[\(index)].id"
            guard id >= 1 else { throw StateFormatError(path: path, reason: "\(id) is not a valid id (ids start at 1)") }
            if let first = firstIndex[id] {
                throw StateFormatError(path: path, reason: "\(id) is also the id of \(section).\(list)[\(first)]")
            }
            firstIndex[id] = index
        }
        if let largest = ids.max(), counter <= largest {
            throw StateFormatError(path: "\(section).nextID", reason: "\(counter) is not greater than the largest \(kind) id \(largest)")
        }
    }
}
