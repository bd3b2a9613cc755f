import ExampleModuleSupport
import Mediator

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
    /// The next id would be `Int.max`, which is never given out (the counter could not move past
    /// it): no account can be created.
    case idsExhausted

    public var code: String {
        switch self {
        case .invalidUsername: "invalidUsername"
        case .weakPassword: "weakPassword"
        case .usernameTaken: "usernameTaken"
        case .invalidCredentials: "invalidCredentials"
        case .invalidToken: "invalidToken"
        case .idsExhausted: "idsExhausted"
        }
    }
}

/// The typed API of the accounts feature: sign up, log in for a token, find who a token belongs to.
///
/// In memory. Account ids count up from 1; session tokens are 128 random bits from the system's
/// cryptographically secure generator, so nobody can guess another user's token. Usernames are
/// limited to a small safe set (see ``isValidUsername(_:)``) so that no two accounts look alike.
/// This is a demo: passwords are kept as given, not hashed.
public final class AccountsService: Sendable {
    /// The longest username accepted, in characters.
    public static let maximumUsernameLength = 32
    /// The characters of a session token: lowercase hexadecimal digits, 128 bits in all.
    public static let tokenLength = 32
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
        /// The id the next account gets.
        public var nextID = 1

        public init() {}
    }

    private let state: Locked<Snapshot>

    /// A service with no accounts, or with the state of `snapshot`.
    public init(snapshot: Snapshot = Snapshot()) {
        state = Locked(snapshot)
    }

    /// The current state.
    public var snapshot: Snapshot { state.withLock { $0 } }

    /// Replaces the whole state (after another process changed the saved copy).
    public func restore(_ snapshot: Snapshot) {
        state.withLock { $0 = snapshot }
    }

    /// Whether `username` may name an account: 1 to 32 characters, each an ASCII letter, digit,
    /// `.`, `_` or `-`. Nothing else, so that no username can pass for another (a fullwidth
    /// `ａda`, `ada` with an invisible space, a KELVIN SIGN for `K`).
    ///
    /// ```swift
    /// AccountsService.isValidUsername("ada.lovelace")  // true
    /// AccountsService.isValidUsername("ａda")          // false
    /// ```
    public static func isValidUsername(_ username: String) -> Bool {
        // Bytes, not Characters: String comparison would take canonically equivalent text for equal.
        (1...maximumUsernameLength).contains(username.utf8.count)
            && username.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }

    /// Whether `token` has the form of a session token: ``tokenLength`` lowercase hexadecimal
    /// digits. Anything else is refused before it is looked up.
    public static func isWellFormedToken(_ token: String) -> Bool {
        token.utf8.count == tokenLength
            && token.utf8.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            }
    }

    /// Creates an account. Usernames follow ``isValidUsername(_:)``; passwords have at least 8 characters.
    public func signUp(username: String, password: String) throws(AccountsError) -> Account {
        guard Self.isValidUsername(username) else { throw .invalidUsername(username) }
        guard password.count >= Self.minimumPasswordLength else { throw .weakPassword }
        return try state.withLock { state throws(AccountsError) in
            guard state.accounts[username] == nil else { throw .usernameTaken(username) }
            // A state restored from a file may have counted ids up to the end: fail, never trap.
            let (nextID, overflow) = state.nextID.addingReportingOverflow(1)
            guard !overflow else { throw .idsExhausted }
            let account = Account(id: state.nextID, username: username)
            state.nextID = nextID
            state.accounts[username] = Snapshot.Entry(account: account, password: password)
            return account
        }
    }

    /// A new session token for the account, if the password matches: 128 bits from
    /// `SystemRandomNumberGenerator` (cryptographically secure), as 32 lowercase hex digits.
    public func logIn(username: String, password: String) throws(AccountsError) -> String {
        // A name outside the safe set has no account (and must not reach the lookup, which
        // would take canonically equivalent text for the same name).
        guard Self.isValidUsername(username) else { throw .invalidCredentials }
        return try state.withLock { state throws(AccountsError) in
            guard let entry = state.accounts[username], entry.password == password else { throw .invalidCredentials }
            var token = randomHex128()
            while state.tokens[token] != nil { token = randomHex128() }
            state.tokens[token] = username
            return token
        }
    }

    /// The account a token belongs to. A token not of the form ``isWellFormedToken(_:)`` is
    /// invalid without being looked up.
    public func whoAmI(token: String) throws(AccountsError) -> Account {
        guard Self.isWellFormedToken(token) else { throw .invalidToken }
        return try state.withLock { state throws(AccountsError) in
            guard let username = state.tokens[token], let entry = state.accounts[username] else { throw .invalidToken }
            return entry.account
        }
    }

    /// The account a token belongs to, awaited: the same answer as ``whoAmI(token:)``, in the
    /// shape a check against a remote session store has, so that callers are written to await it.
    ///
    /// ```swift
    /// let account = try await accounts.verify(token: token)
    /// ```
    ///
    /// This in-memory service lets other tasks run once (`Task.yield()`) before it answers, so an
    /// awaiting caller really does suspend, as it would on a network call.
    public func verify(token: String) async throws(AccountsError) -> Account {
        await Task.yield()
        return try whoAmI(token: token)
    }
}

extension AccountsError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .invalidUsername(let name):
            "invalid username \"\(name)\" (1 to \(AccountsService.maximumUsernameLength) characters, each an ASCII letter, digit, '.', '_' or '-')"
        case .weakPassword: "password too short (at least \(AccountsService.minimumPasswordLength) characters)"
        case .usernameTaken(let name): "username \"\(name)\" is taken"
        case .invalidCredentials: "wrong username or password"
        case .invalidToken: "invalid or expired token"
        case .idsExhausted: "no account id left: the next id would be the largest integer (\(Int.max)), which is never given out"
        }
    }
}
