// The names the documentation's snippets use without declaring them: what the prose around a
// snippet has introduced ("a mediator", "the tool", "the user's session", the Notes feature of
// the Getting Started tutorial). DocumentationTests type-checks each snippet that is not a whole
// file with this module imported; a name a snippet declares itself hides the one here. Only the
// shapes matter: nothing here runs.

import Mediator
import MediatorCommandLine
import MediatorTesting
// Snippets that end a program with `exit(status)` or name an errno import the C library in the
// article's first, whole-file snippet; the later snippets get it from here.
// Snippets of test code use `#expect` and `#require`.
@_exported import Testing

#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#endif

// MARK: - A program

/// The mediator the snippets call.
public let mediator = Mediator()

/// Another program's mediator.
public let myMediator = Mediator()

/// A Model Context Protocol server over ``mediator``.
public let server = MCPServer(mediator: mediator, name: "myapp", version: "1.0.0")

/// A command-line tool over ``mediator``.
public let tool = CommandLineTool(mediator: mediator, name: "myapp", version: "1.0.0")

/// The program's arguments, without its name.
public let arguments = Array(CommandLine.arguments.dropFirst())

/// A directory a program was given, if any.
public let dataDirectory: String? = nil

/// A route table's JSON text, as read from a file.
public let routeTableText = #"{"routes": []}"#

/// State a program loads before a request and saves after it.
public struct DataStore: Sendable {
    /// Reads the state.
    public func load() throws {}
    /// Writes the state.
    public func save() throws {}
}

/// The program's state.
public let store = DataStore()

// MARK: - An app

/// The signed-in user's session.
public struct Session: Sendable {
    /// The user's token, nil when signed out.
    public var token: String?
    /// Whether the user is signed in.
    public var isLoggedIn: Bool { token != nil }
}

/// The app's session.
public let session = Session(token: "token")

/// A session token.
public let token = "token"

/// A label on screen.
@MainActor
public final class Label {
    /// The text shown.
    public var text: String?
}

/// The label a snippet updates.
@MainActor
public let titleLabel = Label()

/// A callback a caller passes in the params.
public let callback: @Sendable (Int) -> Void = { _ in }

/// Where an app reports failures.
public struct Analytics: Sendable {
    /// Reports a failed call.
    public func failure(_ name: String) {}
}

/// The app's analytics.
public let analytics = Analytics()

/// A title that may be absent.
public let title: String? = "Engines"

/// Titles to create notes from.
public let titles = ["Engines", "Gears"]

// MARK: - The Feed feature (async calls)

/// A page of the feed.
public struct FeedPage: Decodable, Sendable {
    /// The page's title.
    public let title: String
    /// The page's items.
    public let items: [String]
}

/// The feed's storage, opened asynchronously.
public final class FeedStore: Sendable {
    /// Opens the store.
    public static func open() async throws -> FeedStore { FeedStore() }
    /// One page of the feed, as plain values.
    public func page(_ number: Int) async throws -> [String: any Sendable] { ["items": [String]()] }
    /// How many items are cached.
    public var cachedCount: Int { 0 }
}

// MARK: - The Notes feature (as Getting Started and the contracts article write it)

/// A note as callers see it.
public struct Note: Codable, Sendable, Equatable {
    /// Its id.
    public var id: Int
    /// Its title.
    public var title: String
    /// Who wrote it.
    public var owner: String
}

/// What creating a note takes.
public struct CreateNote: Codable, Sendable {
    /// The caller's token.
    public var token: String
    /// The new note's title.
    public var title: String
    /// Its tags.
    public var tags: [String]?

    /// A request to create a note.
    public init(token: String, title: String, tags: [String]? = nil) {
        self.token = token
        self.title = title
        self.tags = tags
    }
}

extension ActionKey where Input == CreateNote, Output == Note {
    /// `Notes/create`.
    public static var notesCreate: Self { Self(target: "Notes", action: "create") }
}

/// The notes, shared by every `Target_Notes` instance.
public final class NotesService: Sendable {
    /// An empty store.
    public init() {}

    /// Changes a note.
    public func update(id: Int, title: String?, tags: [String]) throws {}

    /// Creates a note and returns its id.
    public func create(title: String) -> Int { 1 }
}

/// The Notes provider's target.
public final class Target_Notes: MediatorTarget {
    /// Its actions.
    public static let actions: [Action<Target_Notes>] = []

    /// The service it serves.
    public let service: NotesService

    /// A target serving `service`.
    public init(service: NotesService) {
        self.service = service
    }

    /// A target that calls other features through `mediator`.
    public init(mediator: Mediator) {
        self.service = NotesService()
    }

    /// How many notes there are.
    public var count: Int { 0 }

    /// A note by id.
    public func get(id: Int) throws -> Note? { nil }

    /// Deletes a note; its id.
    public func delete(id: Int) throws -> Int { id }

    /// Creates a note from a call's params and returns its id.
    public func create(_ params: Params) throws -> Int { 1 }

    /// The user's notes as Markdown.
    public func export(_ request: ExportNotes) async throws -> String { "" }

    /// Registers the target.
    public static func register(in mediator: Mediator) throws(MediatorError) {}

    /// A page of a user's notes.
    public func list(token: String, limit: Int, tags: [String]) throws -> [[String: any Sendable]] { [] }

    /// Creates a note.
    public func create(_ request: CreateNote) throws -> Note { Note(id: 1, title: request.title, owner: "ada") }
}

/// What exporting notes takes.
public struct ExportNotes: Codable, Sendable {
    /// The caller's token.
    public var token: String

    /// A request to export the caller's notes.
    public init(token: String) {
        self.token = token
    }
}

extension ActionKey where Input == ExportNotes, Output == String {
    /// `Notes/export`.
    public static var notesExport: Self { Self(target: "Notes", action: "export") }
}

/// What the Notes extension module requires of the registry.
public enum NotesRequirements {
    /// Every action the module calls.
    public static let all: [Requirement] = []
}

/// An interceptor that checks tokens.
public struct TokenCheck: Interceptor {
    /// A token check.
    public init() {}
    /// Lets every call through.
    public func intercept(_ request: inout CallRequest) throws -> InterceptorDecision { .proceed }
}

/// An interceptor that records calls.
public let audit = TokenCheck()

/// A typed param's type: a closure called with a note's id.
public typealias NoteCallback = @Sendable (Int) -> Void

/// The params an action received.
public let params: Params = ["id": 42, "title": "Engines"]

// MARK: - The Accounts feature

/// A user.
public struct AccountsUser: Codable, Sendable, Equatable {
    /// The user's id.
    public let id: Int
    /// The user's name.
    public let username: String

    /// A user.
    public init(id: Int, username: String) {
        self.id = id
        self.username = username
    }
}

/// A request that carries a token.
public struct TokenRequest: Codable, Sendable {
    /// The token.
    public var token: String
}

extension ActionKey where Input == TokenRequest, Output == AccountsUser {
    /// `Accounts/whoAmI`.
    public static var accountsWhoAmI: Self { Self(target: "Accounts", action: "whoAmI") }
    /// `Accounts/verifyToken`.
    public static var accountsVerifyToken: Self { Self(target: "Accounts", action: "verifyToken") }
}

/// A refused token.
public struct InvalidToken: Error {
    /// The error.
    public init() {}
}

// MARK: - Other targets

/// A screen's target, on the main actor.
public final class Target_Profile: MainActorTarget {
    /// Its actions.
    public static let actions: [Action<Target_Profile>] = []
    /// The screen's title.
    public var title = "Profile"
    /// A profile screen.
    public init() {}
    /// Reloads the screen.
    public func reload() async throws -> String { title }
    /// Renames the profile.
    public func rename(_ name: String) -> String { name }
}

extension ActionKey where Input == String, Output == String {
    /// `Profile/rename`.
    public static var profileRename: Self { Self(target: "Profile", action: "rename") }
}

/// A screen a call returns.
public final class ProfileScreen: Sendable {}

/// A cache's target.
public final class Target_Cache: MediatorTarget {
    /// Its actions.
    public static let actions: [Action<Target_Cache>] = []
    /// Forgets every entry.
    public func removeAll() {}
}

/// The feed's target.
public final class Target_Feed: MediatorTarget {
    /// Its actions.
    public static let actions: [Action<Target_Feed>] = []
    /// The store it reads.
    public let store: FeedStore
    /// A target over `store`.
    public init(store: FeedStore) {
        self.store = store
    }
    /// A page of the feed.
    public func load(page: Int) async throws -> [String: any Sendable] { [:] }
}

/// Shows a result on screen.
@MainActor
public func show(_ result: (any Sendable)?) {}

/// Shows an error on screen.
@MainActor
public func showError(_ error: any Error) {}

/// Closes the current screen.
public func dismiss() {}

/// Sends a call the app cannot answer to the server.
public func forwardToServer(_ action: String, _ params: Params) async throws -> (any Sendable)? { nil }

/// Modules served by another process.
public struct RemoteModules: Sendable {
    /// Calls one of them.
    public func call(_ target: String, _ action: String, _ params: Params) async throws -> (any Sendable)? { nil }
}

/// The app's remote modules.
public let remoteModules = RemoteModules()

/// Links of an older version of the app.
public enum LegacyLinks {
    /// Opens an old link.
    public static func open(_ url: String) -> String { url }
}

/// A redirect table's JSON, as remote configuration sent it.
public let remoteConfiguration = #"{"redirects": {}}"#

/// A feature module that registers its targets.
public enum MyFeature {
    /// Registers the feature's targets.
    public static func register(in mediator: Mediator) throws(MediatorError) {}
}

/// A profile name from the command line.
public let profile = ""

/// A recorder of a test's calls.
public let recorder = CallRecorder()

/// A test's stubs.
public let stubs = MediatorStubs()
