import ExampleModuleSupport
import Mediator

/// A note.
public struct Note: Sendable, Equatable {
    public let id: Int
    public var title: String
    public var body: String
    public var tags: [String]
    /// The username of the account that created it.
    public let owner: String

    public init(id: Int, title: String, body: String, tags: [String], owner: String) {
        self.id = id
        self.title = title
        self.body = body
        self.tags = tags
        self.owner = owner
    }
}

/// Why a notes operation failed. The `code`s are what callers in other modules see.
public enum NotesError: CodedError, Equatable {
    /// The token is not a valid session token.
    case unauthorized
    /// The token could not be checked (the accounts service failed or is missing).
    case authorizationUnavailable(String)
    case emptyTitle
    case titleTooLong(Int)
    case invalidTag(String)
    case notFound(id: Int)
    /// The note belongs to another account.
    case notOwner(id: Int)
    /// The next id would be `Int.max`, which is never given out (the counter could not move past
    /// it): no note can be created.
    case idsExhausted

    public var code: String {
        switch self {
        case .unauthorized: "unauthorized"
        case .authorizationUnavailable: "authorizationUnavailable"
        case .emptyTitle: "emptyTitle"
        case .titleTooLong: "titleTooLong"
        case .invalidTag: "invalidTag"
        case .notFound: "notFound"
        case .notOwner: "notOwner"
        case .idsExhausted: "idsExhausted"
        }
    }
}

/// The typed API of the notes feature. Reads are open; writes and exports need a session token,
/// which the service checks with the `authorize` closure it was given (it knows nothing of
/// accounts), or for the async ``export(token:)`` with the `authorizeAsync` closure.
///
/// In memory and deterministic (ids count up from 1), so tests can compare results.
public final class NotesService: Sendable {
    /// Checks a token: the username it belongs to, `nil` for an invalid token; throws when the
    /// check itself could not be made.
    public typealias Authorizer = @Sendable (_ token: String) throws -> String?

    /// Checks a token as ``Authorizer`` does, awaited: for checks that suspend (a call to an async
    /// action, a server). Throws `CancellationError` when the calling task was cancelled.
    public typealias AsyncAuthorizer = @Sendable (_ token: String) async throws -> String?

    /// The longest title accepted, in characters.
    public static let maximumTitleLength = 200

    /// Everything the service holds, as plain values: what a program saves to keep notes between runs.
    public struct Snapshot: Sendable, Equatable {
        /// By id.
        public var notes: [Int: Note] = [:]
        /// The id the next note gets.
        public var nextID = 1

        public init() {}
    }

    private let state: Locked<Snapshot>
    private let authorize: Authorizer
    private let authorizeAsync: AsyncAuthorizer

    /// A service with no notes, or with the state of `snapshot`, checking tokens with `authorize`,
    /// and in async operations with `authorizeAsync` (by default, `authorize` again).
    ///
    /// ```swift
    /// let notes = NotesService(
    ///     authorize: { token in sessions.user(for: token) },
    ///     authorizeAsync: { token in try await sessionServer.user(for: token) }
    /// )
    /// ```
    public init(snapshot: Snapshot = Snapshot(), authorize: @escaping Authorizer, authorizeAsync: AsyncAuthorizer? = nil) {
        state = Locked(snapshot)
        self.authorize = authorize
        self.authorizeAsync = authorizeAsync ?? { token in try authorize(token) }
    }

    /// The current state.
    public var snapshot: Snapshot { state.withLock { $0 } }

    /// Replaces the whole state (after another process changed the saved copy).
    public func restore(_ snapshot: Snapshot) {
        state.withLock { $0 = snapshot }
    }

    /// Creates a note owned by the token's account. Titles are 1 to 200 characters and not only
    /// whitespace; tags are non-empty without whitespace.
    public func create(token: String, title: String, body: String = "", tags: [String] = []) throws(NotesError) -> Note {
        let owner = try user(for: token)
        try validate(title: title, tags: tags)
        return try state.withLock { state throws(NotesError) in
            // A state restored from a file may have counted ids up to the end: fail, never trap.
            let (nextID, overflow) = state.nextID.addingReportingOverflow(1)
            guard !overflow else { throw .idsExhausted }
            let note = Note(id: state.nextID, title: title, body: body, tags: tags, owner: owner)
            state.nextID = nextID
            state.notes[note.id] = note
            return note
        }
    }

    /// The note with this id.
    public func get(id: Int) throws(NotesError) -> Note {
        guard let note = state.withLock({ $0.notes[id] }) else { throw .notFound(id: id) }
        return note
    }

    /// All notes in order of id, or those carrying `tag`.
    public func list(tag: String? = nil) -> [Note] {
        let all = state.withLock { $0.notes.values.sorted { $0.id < $1.id } }
        guard let tag else { return all }
        return all.filter { $0.tags.contains(tag) }
    }

    /// Changes the given fields of a note the token's account owns; `nil` leaves a field as is.
    public func update(token: String, id: Int, title: String? = nil, body: String? = nil, tags: [String]? = nil) throws(NotesError) -> Note {
        let user = try user(for: token)
        try validate(title: title, tags: tags ?? [])
        return try state.withLock { state throws(NotesError) in
            guard var note = state.notes[id] else { throw .notFound(id: id) }
            guard note.owner == user else { throw .notOwner(id: id) }
            if let title { note.title = title }
            if let body { note.body = body }
            if let tags { note.tags = tags }
            state.notes[id] = note
            return note
        }
    }

    /// Deletes a note the token's account owns.
    public func delete(token: String, id: Int) throws(NotesError) {
        let user = try user(for: token)
        try state.withLock { state throws(NotesError) in
            guard let note = state.notes[id] else { throw .notFound(id: id) }
            guard note.owner == user else { throw .notOwner(id: id) }
            state.notes[id] = nil
        }
    }

    /// The notes the token's account owns, as one Markdown document: to back them up or share them.
    ///
    /// ```swift
    /// let markdown = try await notes.export(token: token)
    /// ```
    ///
    /// The notes come in order of id (the order they were created in). Each is a level-1 heading
    /// with its title (line breaks in a title become spaces, so the heading stays one line), then,
    /// unless the body is empty, a blank line and the body (its trailing line breaks dropped). A
    /// blank line separates notes, and the document ends with a line break. With no notes, the
    /// document is empty (`""`). For notes "Engines" (body "Notes on the analytical engine") and
    /// "Loops" (no body):
    ///
    /// ```markdown
    /// # Engines
    ///
    /// Notes on the analytical engine
    ///
    /// # Loops
    /// ```
    ///
    /// The token is checked with the service's async authorizer. Cancellation is checked before
    /// each note: a cancelled export stops with `CancellationError` and never returns part of a
    /// document.
    ///
    /// - Throws: ``NotesError/unauthorized`` for an invalid token,
    ///   ``NotesError/authorizationUnavailable(_:)`` when the token could not be checked, and
    ///   `CancellationError` when the task was cancelled (during the check or the export).
    public func export(token: String) async throws -> String {
        let owner = try await user(checkingAsynchronously: token)
        var document = ""
        for note in list() where note.owner == owner {
            try Task.checkCancellation()
            if !document.isEmpty { document += "\n" }
            document += Self.markdown(note)
        }
        return document
    }

    /// One note of an export: see ``export(token:)``.
    static func markdown(_ note: Note) -> String {
        let title = String(note.title.map { $0.isNewline ? " " : $0 })
        var body = Substring(note.body)
        while body.last?.isNewline == true { body.removeLast() }
        return body.isEmpty ? "# \(title)\n" : "# \(title)\n\n\(body)\n"
    }

    private func user(checkingAsynchronously token: String) async throws -> String {
        let user: String?
        do {
            user = try await authorizeAsync(token)
        } catch let cancelled as CancellationError {
            // Not a failure of the check: the caller stopped waiting for it.
            throw cancelled
        } catch {
            throw NotesError.authorizationUnavailable("\(error)")
        }
        guard let user else { throw NotesError.unauthorized }
        return user
    }

    private func user(for token: String) throws(NotesError) -> String {
        let user: String?
        do {
            user = try authorize(token)
        } catch {
            throw .authorizationUnavailable("\(error)")
        }
        guard let user else { throw .unauthorized }
        return user
    }

    private func validate(title: String?, tags: [String]) throws(NotesError) {
        if let title {
            guard !title.allSatisfy(\.isWhitespace) else { throw .emptyTitle }
            guard title.count <= Self.maximumTitleLength else { throw .titleTooLong(title.count) }
        }
        if let bad = tags.first(where: { $0.isEmpty || $0.contains(where: \.isWhitespace) }) {
            throw .invalidTag(bad)
        }
    }
}

extension NotesError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unauthorized: "not authorized: invalid token"
        case .authorizationUnavailable(let reason): "could not check the token: \(reason)"
        case .emptyTitle: "a note needs a title"
        case .titleTooLong(let count): "title too long (\(count) characters, at most \(NotesService.maximumTitleLength))"
        case .invalidTag(let tag): "invalid tag \"\(tag)\" (tags are non-empty, without whitespace)"
        case .notFound(let id): "no note with id \(id)"
        case .notOwner(let id): "note \(id) belongs to another account"
        case .idsExhausted: "no note id left: the next id would be the largest integer (\(Int.max)), which is never given out"
        }
    }
}
