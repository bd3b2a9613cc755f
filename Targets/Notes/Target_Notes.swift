import AccountsMediator
import Mediator

/// Exposes ``NotesService`` to other modules through the mediator, as target `Notes`.
///
/// A note is returned as `["id": Int, "title": String, "body": String, "tags": [String],
/// "owner": String]`, which callers decode into their own type. Tokens are checked by calling the
/// `Accounts` target through the mediator (via `AccountsMediator`), never by importing `Accounts`:
/// `whoAmI` for the synchronous actions, the async `verifyToken` (awaited) for the async `export`.
public final class Target_Notes: MediatorTarget {
    public static let targetSummary: String? = "Notes: create, get, list, update, delete and export (writes and exports need a token)"

    public static let actions: [Action<Target_Notes>] = [
        Action("create", summary: "Create a note (token, title, body?, tags?)") { target, params in
            try plain(
                target.service.create(
                    token: params.value("token", as: String.self),
                    title: params.value("title", as: String.self),
                    body: params.value("body", as: String.self, default: ""),
                    tags: params.value("tags", as: [String].self, default: [])
                ))
        },
        Action("get", summary: "A note by id (id)") { target, params in
            try plain(target.service.get(id: params.value("id", as: Int.self)))
        },
        Action("list", summary: "All notes, or those with a tag (tag?)") { target, params in
            try target.service.list(tag: params.valueIfPresent("tag", as: String.self)).map(plain)
        },
        Action("update", summary: "Change a note's title, body or tags (token, id, title?, body?, tags?)") { target, params in
            try plain(
                target.service.update(
                    token: params.value("token", as: String.self),
                    id: params.value("id", as: Int.self),
                    title: params.valueIfPresent("title", as: String.self),
                    body: params.valueIfPresent("body", as: String.self),
                    tags: params.valueIfPresent("tags", as: [String].self)
                ))
        },
        Action("delete", summary: "Delete a note (token, id)") { target, params in
            try target.service.delete(token: params.value("token", as: String.self), id: params.value("id", as: Int.self))
            return nil
        },
        // Async: it awaits the token check (`Accounts/verifyToken`) and stops when its task is
        // cancelled. Remote like the other actions: the token is the authorization.
        Action("export", summary: "The token's notes as Markdown, in order of id (token)") { target, params async throws in
            try await target.service.export(token: params.value("token", as: String.self))
        },
    ]

    let service: NotesService

    /// A target serving `service`.
    public init(service: NotesService) {
        self.service = service
    }

    /// Registers the `Notes` target in `mediator`. Every instance the mediator makes (one per
    /// call unless cached) serves the same service; by default a new one that checks tokens with
    /// the `Accounts` target of the same mediator (``accountsAuthorizer(_:)`` and
    /// ``asyncAccountsAuthorizer(_:)``).
    public static func register(in mediator: Mediator, service: NotesService? = nil) throws(MediatorError) {
        let service = service ?? NotesService(authorize: accountsAuthorizer(mediator), authorizeAsync: asyncAccountsAuthorizer(mediator))
        try mediator.register(Target_Notes.self) { _ in Target_Notes(service: service) }
    }

    /// Checks tokens by asking the `Accounts` target of `mediator`. `unowned`: the mediator owns
    /// the service (through the factory), so a strong reference would keep both alive forever.
    public static func accountsAuthorizer(_ mediator: Mediator) -> NotesService.Authorizer {
        { [unowned mediator] token in
            do throws(MediatorError) {
                return try mediator.accountsWhoAmI(token: token).username
            } catch  where error.accountsFailure == .invalidToken {
                return nil
            }
        }
    }

    /// Checks tokens by awaiting the `Accounts` target's async `verifyToken` in `mediator`, for
    /// the async actions. `unowned`, as in ``accountsAuthorizer(_:)``.
    ///
    /// ```swift
    /// let notes = NotesService(authorize: Target_Notes.accountsAuthorizer(mediator),
    ///                          authorizeAsync: Target_Notes.asyncAccountsAuthorizer(mediator))
    /// ```
    ///
    /// A call to `Accounts` that was cancelled throws `CancellationError`, so that the export
    /// reports `cancelled`, not a failed token check.
    public static func asyncAccountsAuthorizer(_ mediator: Mediator) -> NotesService.AsyncAuthorizer {
        { [unowned mediator] token in
            do throws(MediatorError) {
                return try await mediator.accountsVerifyToken(token: token).username
            } catch  where error.accountsFailure == .invalidToken {
                return nil
            } catch  where error.code == .cancelled {
                throw CancellationError()
            }
        }
    }

    static func plain(_ note: Note) -> [String: any Sendable] {
        ["id": note.id, "title": note.title, "body": note.body, "tags": note.tags, "owner": note.owner]
    }
}
