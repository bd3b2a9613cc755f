import Mediator

/// An account as callers of the `Accounts` target see it: the output of its keys. This module never
/// imports the provider; the provider returns this type for the keyed actions, and callers by name
/// get it as `["id": Int, "username": String]`.
public struct AccountsUser: Codable, Sendable, Equatable {
    public let id: Int
    public let username: String

    public init(id: Int, username: String) {
        self.id = id
        self.username = username
    }
}

/// The failure codes of the `Accounts` target, as `MediatorError.actionErrorCode` reports them.
public enum AccountsFailure: String, Sendable, CaseIterable {
    case invalidUsername, weakPassword, usernameTaken, invalidCredentials, invalidToken, idsExhausted
}

extension MediatorError {
    /// The `Accounts` target's reason for an `actionFailed` error, when it gave one, or the reason
    /// of an interceptor in front of it (a stub in a test, a risk check) that rejected the call
    /// with a coded error (`rejected`, the error as `underlying`).
    public var accountsFailure: AccountsFailure? {
        (actionErrorCode ?? rejectionCode).flatMap(AccountsFailure.init(rawValue:))
    }

    /// The code of the error an interceptor rejected the call with, when it has one.
    var rejectionCode: String? {
        guard code == .rejected else { return nil }
        return (underlying as? any CodedError)?.code
    }
}

// MARK: - Typed calls to the Accounts target

// These wrappers call through the typed keys (`AccountsKeys.swift`): no names or dictionaries at
// the call site, nor here.

extension Mediator {
    /// Creates an account.
    public func accountsSignUp(username: String, password: String) throws(MediatorError) -> AccountsUser {
        try callNow(.accountsSignUp, SignUp(username: username, password: password))
    }

    /// Logs in and returns a session token.
    public func accountsLogIn(username: String, password: String) throws(MediatorError) -> String {
        try callNow(.accountsLogIn, LogIn(username: username, password: password))
    }

    /// The account a session token belongs to.
    public func accountsWhoAmI(token: String) throws(MediatorError) -> AccountsUser {
        try callNow(.accountsWhoAmI, CheckToken(token: token))
    }
}

// MARK: - Async typed calls to the Accounts target

extension Mediator {
    /// The account a session token belongs to, checked by the `Accounts` target's async action
    /// `verifyToken`: await it from async code.
    ///
    /// ```swift
    /// do {
    ///     let user = try await mediator.accountsVerifyToken(token: token)
    ///     print("signed in as \(user.username)")
    /// } catch where error.accountsFailure == .invalidToken {
    ///     print("please log in again")
    /// }
    /// ```
    ///
    /// Cancelling the calling task reaches the action; a call that stops for it throws
    /// `MediatorError.Code.cancelled`. An invalid or expired token fails as `actionFailed` with
    /// ``AccountsFailure/invalidToken``, as ``accountsWhoAmI(token:)`` does.
    public func accountsVerifyToken(token: String) async throws(MediatorError) -> AccountsUser {
        try await call(.accountsVerifyToken, CheckToken(token: token))
    }
}
