import ExampleAccountsMediator
import ExampleNotesMediator
import Mediator

/// Exposes ``NotesService`` to other modules through the mediator, as target `Notes`.
///
/// The actions that return a value are registered against the typed keys of `ExampleNotesMediator`
/// (which declare their params, with descriptions and defaults, and their results): callers with
/// a key get a `ExampleNotesMediator.Note` as is; callers by name, URL or command line send params,
/// checked against the declaration, and get a note as `["id": Int, "title": String, "body":
/// String, "tags": [String], "owner": String]`, which they decode into their own type. `delete`
/// returns nothing, so it is registered by name, with its params declared.
///
/// Tokens are checked by calling the `Accounts` target through the mediator (via
/// `ExampleAccountsMediator`), never by importing `Accounts`: `whoAmI` for the synchronous actions, the
/// async `verifyToken` (awaited) for the async `export`. ``requirements`` says so, for `verify()`.
public final class Target_Notes: MediatorTarget {
    public static let targetSummary: String? = "Notes: create, get, list, update, delete and export (writes and exports need a token)"

    public static let actions: [Action<Target_Notes>] = [
        Action(.notesCreate, summary: "Create a note") { target, input in
            try target.service.create(token: input.token, title: input.title, body: input.body, tags: input.tags).published
        },
        Action(.notesGet, summary: "A note by id") { target, input in
            try target.service.get(id: input.id).published
        }
        .effects([.readOnly, .idempotent]),
        Action(.notesList, summary: "All notes in order of id, or those with a tag") { target, input in
            target.service.list(tag: input.tag).map(\.published)
        }
        .effects([.readOnly, .idempotent]),
        Action(.notesUpdate, summary: "Change a note's title, body or tags") { target, input in
            try target.service.update(token: input.token, id: input.id, title: input.title, body: input.body, tags: input.tags).published
        }
        .effects([.destructive, .idempotent]),
        Action(
            "delete", summary: "Delete a note",
            params: [
                .required("token", .string, "A session token from Accounts/logIn, of the note's owner"),
                .required("id", .integer, "The note's id"),
            ]
        ) { target, params in
            try target.service.delete(token: params.value("token", as: String.self), id: params.value("id", as: Int.self))
            return nil
        }
        .effects([.destructive, .idempotent]),
        // Async: it awaits the token check (`Accounts/verifyToken`) and stops when its task is
        // cancelled. Remote like the other actions: the token is the authorization.
        Action(.notesExport, summary: "The token's notes as Markdown, in order of id") { target, input async throws in
            try await target.service.export(token: input.token)
        }
        .effects([.readOnly, .idempotent]),
    ]

    /// What this module needs other modules to provide: the `Accounts` actions its token checks
    /// call (``accountsAuthorizer(_:)`` and ``asyncAccountsAuthorizer(_:)``).
    ///
    /// ```swift
    /// mediator.require(Target_Notes.requirements, by: "Notes")
    /// ```
    public static let requirements: [Requirement] = [.action(.accountsWhoAmI), .action(.accountsVerifyToken)]

    /// The deep links to this target's actions, the same as the `Notes` entries of
    /// `Targets/routes.json` (the table `mediate --routes` loads; a test keeps the two equal). An
    /// app adds them with the routes of its other modules:
    ///
    /// ```swift
    /// try mediator.addRoutes(Target_Notes.routes + Target_Accounts.routes)
    /// let note = try await mediator.call(url: "app://notes/7")                // Notes/get, id "7"
    /// let work = try await mediator.call(url: "https://example.com/notes/tag/work")   // Notes/list, tag "work"
    /// ```
    ///
    /// - `/notes`: every note (`list`).
    /// - `/notes/:id<int>`: the note with that id (`get`; the action reads the text `"7"` as its
    ///   integer `id`).
    /// - `/notes/tag/:tag`: the notes carrying the tag (`list`).
    /// - `/notes/export`: the token's notes as Markdown (`export`, async; `token` in the query:
    ///   `app://notes/export?token=...`).
    ///
    /// For every scheme: with `app://` the host is the first segment (`app://notes/7`), with
    /// `https://` only the path counts.
    public static let routes: [URLRoute] = [
        URLRoute("/notes", target: "Notes", action: "list"),
        URLRoute("/notes/:id<int>", target: "Notes", action: "get"),
        URLRoute("/notes/tag/:tag", target: "Notes", action: "list"),
        URLRoute("/notes/export", target: "Notes", action: "export"),
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
}

extension Note {
    /// The note as callers see it (`ExampleNotesMediator`'s type, the output of the keys).
    var published: ExampleNotesMediator.Note {
        ExampleNotesMediator.Note(id: id, title: title, body: body, tags: tags, owner: owner)
    }
}
