import Mediator

// The typed keys of the `Accounts` target: its inputs and outputs as Codable values, and one key
// per action. The provider (`Accounts`) registers its actions against these keys; callers call
// through them. Neither side imports the other: both import this module.

// MARK: - Inputs

/// The input of `Accounts/signUp`: the new account's username and password.
///
/// ```swift
/// let user = try mediator.callNow(.accountsSignUp, SignUp(username: "ada", password: "analytical"))
/// ```
public struct SignUp: Codable, Sendable, Equatable, DeclaresParameters {
    /// 1 to 32 characters, each an ASCII letter, digit, `.`, `_` or `-`.
    public var username: String
    /// At least 8 characters.
    public var password: String

    /// The input for an account called `username` with `password`.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// `username` and `password`, both required, with the rules the service applies.
    public static let parameters: [Parameter] = [
        .required("username", .string, "The new account's name: 1 to 32 characters, each an ASCII letter, digit, '.', '_' or '-'"),
        .required("password", .string, "The new account's password: at least 8 characters"),
    ]
}

/// The input of `Accounts/logIn`: an account's username and password.
public struct LogIn: Codable, Sendable, Equatable, DeclaresParameters {
    /// The account's username.
    public var username: String
    /// The account's password.
    public var password: String

    /// The input to log in as `username` with `password`.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// `username` and `password`, both required.
    public static let parameters: [Parameter] = [
        .required("username", .string, "The account's username"),
        .required("password", .string, "The account's password"),
    ]
}

/// The input of `Accounts/whoAmI` and `Accounts/verifyToken`: a session token to check.
public struct CheckToken: Codable, Sendable, Equatable, DeclaresParameters {
    /// A session token from `Accounts/logIn`.
    public var token: String

    /// The input to check `token`.
    public init(token: String) {
        self.token = token
    }

    /// `token`, required.
    public static let parameters: [Parameter] = [
        .required("token", .string, "A session token from Accounts/logIn (32 lowercase hexadecimal digits)")
    ]
}

// MARK: - Keys

extension ActionKey where Input == SignUp, Output == AccountsUser {
    /// `Accounts/signUp`: creates an account and returns it.
    ///
    /// ```swift
    /// let user = try mediator.callNow(.accountsSignUp, SignUp(username: "ada", password: "analytical"))
    /// ```
    public static var accountsSignUp: Self { Self(target: "Accounts", action: "signUp") }
}

extension ActionKey where Input == LogIn, Output == String {
    /// `Accounts/logIn`: a new session token, if the password matches.
    ///
    /// ```swift
    /// let token = try mediator.callNow(.accountsLogIn, LogIn(username: "ada", password: "analytical"))
    /// ```
    public static var accountsLogIn: Self { Self(target: "Accounts", action: "logIn") }
}

extension ActionKey where Input == CheckToken, Output == AccountsUser {
    /// `Accounts/whoAmI`: the account a session token belongs to (synchronous).
    ///
    /// ```swift
    /// let user = try mediator.callNow(.accountsWhoAmI, CheckToken(token: token))
    /// ```
    public static var accountsWhoAmI: Self { Self(target: "Accounts", action: "whoAmI") }

    /// `Accounts/verifyToken`: the account a session token belongs to, checked by an async action
    /// (await it; `callNow` refuses it with `asyncAction`).
    ///
    /// ```swift
    /// let user = try await mediator.call(.accountsVerifyToken, CheckToken(token: token))
    /// ```
    public static var accountsVerifyToken: Self { Self(target: "Accounts", action: "verifyToken") }
}
