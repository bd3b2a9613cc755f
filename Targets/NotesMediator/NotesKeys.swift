import Mediator

// The typed keys of the `Notes` target: its inputs and outputs as Codable values, and one key per
// action that returns a value (`delete` returns nothing, so it stays a name: a key's output is a
// value). The provider (`Notes`) registers its actions against these keys; callers call through
// them. Neither side imports the other: both import this module.

// MARK: - Inputs

/// The input of `Notes/create`. It declares its parameters itself (``DeclaresParameters``), with
/// descriptions and the defaults that callers by name, URL or command line get when they leave
/// `body` or `tags` out.
///
/// ```swift
/// let note = try mediator.callNow(.notesCreate, CreateNote(token: token, title: "Engines", tags: ["math"]))
/// ```
public struct CreateNote: Codable, Sendable, Equatable, DeclaresParameters {
    /// A session token from `Accounts/logIn`: the note's owner.
    public var token: String
    /// 1 to 200 characters, not only whitespace.
    public var title: String
    /// The note's text.
    public var body: String
    /// Tags, each non-empty without whitespace.
    public var tags: [String]

    /// The input for a note with `title`, `body` and `tags`, owned by the token's account.
    public init(token: String, title: String, body: String = "", tags: [String] = []) {
        self.token = token
        self.title = title
        self.body = body
        self.tags = tags
    }

    /// `token` and `title` required; `body` (default `""`) and `tags` (default `[]`) optional.
    public static let parameters: [Parameter] = [
        .required("token", .string, "A session token from Accounts/logIn: the note's owner"),
        .required("title", .string, "The title: 1 to 200 characters, not only whitespace"),
        .optional("body", .string, default: "", "The note's text"),
        .optional("tags", .array(of: .string), default: [String](), "Tags, each non-empty without whitespace"),
    ]
}

/// The input of `Notes/get`: a note's id.
public struct GetNote: Codable, Sendable, Equatable, DeclaresParameters {
    /// The note's id.
    public var id: Int

    /// The input for the note with `id`.
    public init(id: Int) {
        self.id = id
    }

    /// `id`, required.
    public static let parameters: [Parameter] = [
        .required("id", .integer, "The note's id")
    ]
}

/// The input of `Notes/list`: an optional tag to filter by.
public struct ListNotes: Codable, Sendable, Equatable, DeclaresParameters {
    /// Only notes carrying this tag; `nil` for all notes.
    public var tag: String?

    /// The input for all notes, or those carrying `tag`.
    public init(tag: String? = nil) {
        self.tag = tag
    }

    /// `tag`, optional.
    public static let parameters: [Parameter] = [
        .optional("tag", .string, "Only the notes carrying this tag (all notes without it)")
    ]
}

/// The input of `Notes/update`: the note, and the fields to change (`nil` leaves a field as it is).
public struct UpdateNote: Codable, Sendable, Equatable, DeclaresParameters {
    /// A session token from `Accounts/logIn`, of the note's owner.
    public var token: String
    /// The note's id.
    public var id: Int
    /// The new title, if it changes.
    public var title: String?
    /// The new text, if it changes.
    public var body: String?
    /// The new tags, if they change.
    public var tags: [String]?

    /// The input to change the given fields of the note with `id`.
    public init(token: String, id: Int, title: String? = nil, body: String? = nil, tags: [String]? = nil) {
        self.token = token
        self.id = id
        self.title = title
        self.body = body
        self.tags = tags
    }

    /// `token` and `id` required; `title`, `body` and `tags` optional (left as they are when absent).
    public static let parameters: [Parameter] = [
        .required("token", .string, "A session token from Accounts/logIn, of the note's owner"),
        .required("id", .integer, "The note's id"),
        .optional("title", .string, "The new title: 1 to 200 characters, not only whitespace"),
        .optional("body", .string, "The new text"),
        .optional("tags", .array(of: .string), "The new tags, each non-empty without whitespace"),
    ]
}

/// The input of `Notes/export`: whose notes to export.
public struct ExportNotes: Codable, Sendable, Equatable, DeclaresParameters {
    /// A session token from `Accounts/logIn`: the account whose notes are exported.
    public var token: String

    /// The input to export the notes of `token`'s account.
    public init(token: String) {
        self.token = token
    }

    /// `token`, required.
    public static let parameters: [Parameter] = [
        .required("token", .string, "A session token from Accounts/logIn: whose notes to export")
    ]
}

// MARK: - Keys

extension ActionKey where Input == CreateNote, Output == Note {
    /// `Notes/create`: creates a note owned by the token's account and returns it.
    ///
    /// ```swift
    /// let note = try mediator.callNow(.notesCreate, CreateNote(token: token, title: "Engines"))
    /// ```
    public static var notesCreate: Self { Self(target: "Notes", action: "create") }
}

extension ActionKey where Input == GetNote, Output == Note {
    /// `Notes/get`: the note with an id.
    ///
    /// ```swift
    /// let note = try mediator.callNow(.notesGet, GetNote(id: 1))
    /// ```
    public static var notesGet: Self { Self(target: "Notes", action: "get") }
}

extension ActionKey where Input == ListNotes, Output == [Note] {
    /// `Notes/list`: all notes in order of id, or those carrying a tag.
    ///
    /// ```swift
    /// let drafts = try mediator.callNow(.notesList, ListNotes(tag: "draft"))
    /// ```
    public static var notesList: Self { Self(target: "Notes", action: "list") }
}

extension ActionKey where Input == UpdateNote, Output == Note {
    /// `Notes/update`: changes the given fields of a note the token's account owns, and returns it.
    ///
    /// ```swift
    /// let note = try mediator.callNow(.notesUpdate, UpdateNote(token: token, id: 1, title: "Engines, revised"))
    /// ```
    public static var notesUpdate: Self { Self(target: "Notes", action: "update") }
}

extension ActionKey where Input == ExportNotes, Output == String {
    /// `Notes/export`: the token's notes as one Markdown document, made by an async action (await
    /// it; `callNow` refuses it with `asyncAction`).
    ///
    /// ```swift
    /// let markdown = try await mediator.call(.notesExport, ExportNotes(token: token))
    /// ```
    public static var notesExport: Self { Self(target: "Notes", action: "export") }
}
