import Mediator

/// A note as callers of the `Notes` target see it: the output of its keys. This module never
/// imports the provider; the provider returns this type for the keyed actions, and callers by name
/// get it as `["id": Int, "title": String, "body": String, "tags": [String], "owner": String]`.
public struct Note: Codable, Sendable, Equatable {
    public let id: Int
    public let title: String
    public let body: String
    public let tags: [String]
    public let owner: String

    public init(id: Int, title: String, body: String, tags: [String], owner: String) {
        self.id = id
        self.title = title
        self.body = body
        self.tags = tags
        self.owner = owner
    }
}

/// The failure codes of the `Notes` target, as `MediatorError.actionErrorCode` reports them.
public enum NotesFailure: String, Sendable, CaseIterable {
    case unauthorized, authorizationUnavailable, emptyTitle, titleTooLong, invalidTag, notFound, notOwner, idsExhausted
}

extension MediatorError {
    /// The `Notes` target's reason for an `actionFailed` error, when it gave one, or its token
    /// check's for a call the check rejected (`rejected`, with a coded error as `underlying`).
    ///
    /// ```swift
    /// catch where error.notesFailure == .unauthorized { showLogIn() }
    /// ```
    public var notesFailure: NotesFailure? {
        (actionErrorCode ?? rejectionCode).flatMap(NotesFailure.init(rawValue:))
    }

    /// The code of the error an interceptor rejected the call with, when it has one.
    var rejectionCode: String? {
        guard code == .rejected else { return nil }
        return (underlying as? any CodedError)?.code
    }
}

// MARK: - Typed calls to the Notes target

extension Mediator {
    /// Creates a note owned by the token's account.
    ///
    /// The classic wrapper, as CTMediator's categories are written: by hand, naming the target and
    /// the action as text and sending the params as a dictionary, the result decoded into ``Note``.
    /// Nothing but this code and a test ties its names and params to the provider's; the other
    /// wrappers call through typed keys (``ActionKey/notesCreate``), where the compiler does.
    /// ``NotesRequirements/all`` states what it sends, so that `verify()` checks it at start-up.
    public func notesCreate(token: String, title: String, body: String = "", tags: [String] = []) throws(MediatorError) -> Note {
        try callNow(target: "Notes", action: "create", params: ["token": token, "title": title, "body": body, "tags": tags], as: Note.self)
    }

    /// The note with this id.
    public func notesGet(id: Int) throws(MediatorError) -> Note {
        try callNow(.notesGet, GetNote(id: id))
    }

    /// All notes in order of id, or those carrying `tag`.
    public func notesList(tag: String? = nil) throws(MediatorError) -> [Note] {
        try callNow(.notesList, ListNotes(tag: tag))
    }

    /// Changes the given fields of a note; `nil` leaves a field as it is.
    public func notesUpdate(token: String, id: Int, title: String? = nil, body: String? = nil, tags: [String]? = nil) throws(MediatorError) -> Note {
        try callNow(.notesUpdate, UpdateNote(token: token, id: id, title: title, body: body, tags: tags))
    }

    /// Deletes a note. By name: the action returns nothing, so it has no key.
    public func notesDelete(token: String, id: Int) throws(MediatorError) {
        try callNow(target: "Notes", action: "delete", params: ["token": token, "id": id])
    }
}

// MARK: - Async typed calls to the Notes target

extension Mediator {
    /// The token's notes as one Markdown document, made by the `Notes` target's async action
    /// `export`: await it from async code.
    ///
    /// ```swift
    /// let exporting = Task {
    ///     try await mediator.notesExport(token: token)
    /// }
    /// // The user closed the share sheet: the export stops before its next note.
    /// exporting.cancel()
    /// ```
    ///
    /// Notes come in order of id, each as a `# title` heading followed by a blank line and its
    /// body; a blank line separates notes; no notes give `""`. An invalid token fails as
    /// `actionFailed` with ``NotesFailure/unauthorized``, as ``notesCreate(token:title:body:tags:)``
    /// does; a cancelled export throws `MediatorError.Code.cancelled`.
    public func notesExport(token: String) async throws(MediatorError) -> String {
        try await call(.notesExport, ExportNotes(token: token))
    }
}
