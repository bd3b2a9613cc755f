import Mediator
import Synchronization

/// A user account.
public struct Account: Sendable, Equatable {
    public let id: Int
    public let username: String

    public init(id: Int, username: String) {
        self.id = id
        self.username = username
    }
}

/// Why an accounts operation failed. The `code`s are what callers in other modules see
/// (through `MediatorError.actionErrorCode`).
public enum AccountsError: CodedError, Equatable {
    case invalidUsername(String)
    case weakPassword
    case usernameTaken(String)
    case invalidCredentials
    case invalidToken

    public var code: String {
        switch self {
        case .invalidUsername: "invalidUsername"
        case .weakPassword: "weakPassword"
        case .usernameTaken: "usernameTaken"
        case .invalidCredentials: "invalidCredentials"
        case .invalidToken: "invalidToken"
        }
    }
}

/// The typed API of the accounts feature: sign up, log in for a token, find who a token belongs to.
///
/// In memory and deterministic (ids and tokens count up from 1), so tests can compare results.
/// This is a demo: passwords are kept as given, not hashed.
public final class AccountsService: Sendable {
    /// The longest username accepted, in characters.
    public static let maximumUsernameLength = 32
    /// The shortest password accepted, in characters.
    public static let minimumPasswordLength = 8

    /// Everything the service holds, as plain values: what a program saves to keep accounts
    /// between runs.
    public struct Snapshot: Sendable, Equatable {
        /// An account with its password.
        public struct Entry: Sendable, Equatable {
            public var account: Account
            public var password: String
            public init(account: Account, password: String) {
                self.account = account
                self.password = password
            }
        }

        /// By username.
        public var accounts: [String: Entry] = [:]
        /// Session token to username.
        public var tokens: [String: String] = [:]
        public var nextID = 1
        public var nextToken = 1

        public init() {}
    }

    private let state: Mutex<Snapshot>

    /// A service with no accounts, or with the state of `snapshot`.
    public init(snapshot: Snapshot = Snapshot()) {
        state = Mutex(snapshot)
    }

    /// The current state.
    public var snapshot: Snapshot { state.withLock { $0 } }

    /// Replaces the whole state (after another process changed the saved copy).
    public func restore(_ snapshot: Snapshot) {
        state.withLock { $0 = snapshot }
    }

    /// Creates an account. Usernames are 1 to 32 characters without whitespace; passwords at least 8.
    public func signUp(username: String, password: String) throws(AccountsError) -> Account {
        guard !username.isEmpty, username.count <= Self.maximumUsernameLength,
              !username.contains(where: \.isWhitespace)
        else { throw .invalidUsername(username) }
        guard password.count >= Self.minimumPasswordLength else { throw .weakPassword }
        return try state.withLock { state throws(AccountsError) in
            guard state.accounts[username] == nil else { throw .usernameTaken(username) }
            let account = Account(id: state.nextID, username: username)
            state.nextID += 1
            state.accounts[username] = Snapshot.Entry(account: account, password: password)
            return account
        }
    }

    /// A new session token for the account, if the password matches.
    public func logIn(username: String, password: String) throws(AccountsError) -> String {
        try state.withLock { state throws(AccountsError) in
            guard let entry = state.accounts[username], entry.password == password else { throw .invalidCredentials }
            let token = "token-\(state.nextToken)"
            state.nextToken += 1
            state.tokens[token] = username
            return token
        }
    }

    /// The account a token belongs to.
    public func whoAmI(token: String) throws(AccountsError) -> Account {
        try state.withLock { state throws(AccountsError) in
            guard let username = state.tokens[token], let entry = state.accounts[username] else { throw .invalidToken }
            return entry.account
        }
    }
}

extension AccountsError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalidUsername(let name): "invalid username \"\(name)\" (1 to \(AccountsService.maximumUsernameLength) characters, no whitespace)"
        case .weakPassword: "password too short (at least \(AccountsService.minimumPasswordLength) characters)"
        case .usernameTaken(let name): "username \"\(name)\" is taken"
        case .invalidCredentials: "wrong username or password"
        case .invalidToken: "invalid or expired token"
        }
    }
}
