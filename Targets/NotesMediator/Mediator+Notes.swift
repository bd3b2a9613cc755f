import Mediator

/// A note as callers of the `Notes` target see it (the caller's own type: this module never
/// imports the provider).
public struct Note: Decodable, Sendable, Equatable {
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
    /// The `Notes` target's reason for an `actionFailed` error, when it gave one.
    public var notesFailure: NotesFailure? {
        actionErrorCode.flatMap(NotesFailure.init(rawValue:))
    }
}

// MARK: - Typed calls to the Notes target

extension Mediator {
    /// Creates a note owned by the token's account.
    public func notesCreate(token: String, title: String, body: String = "", tags: [String] = []) throws(MediatorError) -> Note {
        try call(target: "Notes", action: "create", params: ["token": token, "title": title, "body": body, "tags": tags], as: Note.self)
    }

    /// The note with this id.
    public func notesGet(id: Int) throws(MediatorError) -> Note {
        try call(target: "Notes", action: "get", params: ["id": id], as: Note.self)
    }

    /// All notes in order of id, or those carrying `tag`.
    public func notesList(tag: String? = nil) throws(MediatorError) -> [Note] {
        var params: Params = [:]
        params["tag"] = tag
        return try call(target: "Notes", action: "list", params: params, as: [Note].self)
    }

    /// Changes the given fields of a note; `nil` leaves a field as it is.
    public func notesUpdate(token: String, id: Int, title: String? = nil, body: String? = nil, tags: [String]? = nil) throws(MediatorError) -> Note {
        var params: Params = ["token": token, "id": id]
        params["title"] = title
        params["body"] = body
        params["tags"] = tags
        return try call(target: "Notes", action: "update", params: params, as: Note.self)
    }

    /// Deletes a note.
    public func notesDelete(token: String, id: Int) throws(MediatorError) {
        try call(target: "Notes", action: "delete", params: ["token": token, "id": id])
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
        try await call(target: "Notes", action: "export", params: ["token": token], as: String.self)
    }
}
