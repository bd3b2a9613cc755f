import ExampleAccountsMediator
import Mediator

/// Notes' token check as an interceptor: before an action of `Notes` that takes a session token
/// runs (`create`, `update`, `delete`, `export`), it asks `Accounts` whom the token belongs to, and
/// rejects the call when nobody does, whatever the entry point (a typed key, a name, a URL, a
/// command line, a call from another module).
///
/// ```swift
/// try Target_Accounts.register(in: mediator)
/// try Target_Notes.register(in: mediator)
/// Target_Notes.addTokenCheck(to: mediator)
///
/// do {
///     _ = try mediator.callNow(.notesCreate, CreateNote(token: "forged", title: "hi"))
/// } catch where error.notesFailure == .unauthorized {
///     // refused before Notes ran: error.code == .rejected, naming "NotesTokenCheck"
/// }
/// ```
///
/// A gate in front of the service, as an app team adds one for login checks: the call is refused
/// before a `Notes` instance is made or its params decoded, and the refusal reads as Notes' own
/// (`notesFailure` is `.unauthorized`, or `.authorizationUnavailable` when `Accounts` could not
/// say). The
/// service still asks `Accounts` for the owner it records, so a call that passes makes a second,
/// in-process token check; reads (`get`, `list`) take no token and are not checked.
///
/// It calls `Accounts/whoAmI`, the synchronous check: interceptors are synchronous (a synchronous
/// call stays synchronous), so they cannot await the async `verifyToken`. A call with no token, or
/// a token that is not text, goes on, for the action's declared parameters to refuse with their
/// own message.
public struct NotesTokenCheck: Interceptor {
    /// The calls it checks: the actions of `Notes` that take a token.
    public static let scope = InterceptorScope.actions(["create", "update", "delete", "export"], of: "Notes")

    /// `unowned`: the mediator holds this check (among its interceptors), so a strong reference
    /// would keep both alive forever.
    private unowned let mediator: Mediator

    /// A check that asks the `Accounts` target of `mediator`.
    ///
    /// - Parameter mediator: the mediator it is added to (see ``Target_Notes/addTokenCheck(to:)``).
    public init(mediator: Mediator) {
        self.mediator = mediator
    }

    /// Lets the call go on when its token belongs to an account; throws
    /// ``NotesError/unauthorized`` when `Accounts` says it is invalid, and
    /// ``NotesError/authorizationUnavailable(_:)`` when it could not be checked.
    ///
    /// - Parameter request: the call to a `Notes` action that takes a token.
    /// - Returns: `.proceed`.
    /// - Throws: ``NotesError``: the caller gets it as the underlying error of a `rejected` call.
    public func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
        guard let token = try? request.params.value("token", as: String.self) else { return .proceed }
        do {
            _ = try mediator.accountsWhoAmI(token: token)
        } catch  where error.accountsFailure == .invalidToken {
            throw NotesError.unauthorized
        } catch {
            throw NotesError.authorizationUnavailable("\(error)")
        }
        return .proceed
    }
}

extension Target_Notes {
    /// Puts ``NotesTokenCheck`` in front of the actions of `Notes` that take a token, in
    /// `mediator` (with `Notes` registered there or not yet).
    ///
    /// ```swift
    /// try Target_Notes.register(in: mediator)
    /// let check = Target_Notes.addTokenCheck(to: mediator)
    /// mediator.removeInterception(check)   // back to the service's own check alone
    /// ```
    ///
    /// - Parameter mediator: the mediator whose `Notes` calls to check.
    /// - Returns: the ID `Mediator.removeInterception(_:)` takes.
    @discardableResult
    public static func addTokenCheck(to mediator: Mediator) -> InterceptionID {
        mediator.addInterceptor(NotesTokenCheck(mediator: mediator), scope: NotesTokenCheck.scope)
    }
}
