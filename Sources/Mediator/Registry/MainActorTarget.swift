/// A target whose instances live on the main actor: a screen, a view model, anything that touches
/// UI state. Declared like a ``MediatorTarget``; the protocol makes the class `@MainActor`, and its
/// actions run there.
///
/// ```swift
/// final class Target_Profile: MainActorTarget {
///     static let actions: [Action<Target_Profile>] = [
///         Action("title") { screen, _ in screen.title },                  // on the main actor
///         Action("reload") { screen, _ async throws in try await screen.reload() },
///     ]
///     var title = "Profile"
///     func reload() async throws -> String {
///         title = "Profile (refreshed)"
///         return title
///     }
/// }
/// try mediator.register(Target_Profile.self) { _ in Target_Profile() }   // made on the main actor
/// ```
///
/// Its actions and factory run on the main actor: through the async entry points from any
/// context (one hop), through the synchronous ones when the caller is on the main actor (no hop;
/// the result is returned at once). A synchronous call from another thread fails with
/// ``MediatorError/Code/asyncAction``: it never blocks waiting for the main actor, never traps.
///
/// `actions`, `targetName`, `targetSummary` and `isAlwaysCached` are read off the main actor
/// (registration may happen anywhere): declare them with `static let` (or mark them
/// `nonisolated`).
@MainActor
public protocol MainActorTarget: AnyObject, Sendable {
    /// The short name callers use; by default the type's name without its `Target_` prefix.
    nonisolated static var targetName: String { get }
    /// A one-line description, shown by listings. Defaults to `nil`.
    nonisolated static var targetSummary: String? { get }
    /// Whether every call uses one cached instance (see ``MediatorTarget/isAlwaysCached``).
    /// Defaults to `false`.
    nonisolated static var isAlwaysCached: Bool { get }
    /// The actions this target answers; their bodies run on the main actor.
    nonisolated static var actions: [Action<Self>] { get }
    /// CTMediator's `notFound:`, on the main actor: see ``MediatorTarget/notFound(action:params:)``.
    ///
    /// - Parameters:
    ///   - action: the action name as the caller wrote it.
    ///   - params: the call's params.
    /// - Returns: the answer to the call, or `nil` to go on to the global fallback.
    func notFound(action: String, params: Params) throws -> (any Sendable)?
}

extension MainActorTarget {
    /// The type's name without its `Target_` prefix, as for ``MediatorTarget/targetName``.
    public nonisolated static var targetName: String { Names.defaultTargetName(of: Self.self) }
    /// No description: `nil`.
    public nonisolated static var targetSummary: String? { nil }
    /// Not always cached.
    public nonisolated static var isAlwaysCached: Bool { false }
    /// No `notFound:` handler (see ``MediatorTarget/notFound(action:params:)-6r9ba``).
    ///
    /// - Parameters:
    ///   - action: the action name as the caller wrote it.
    ///   - params: the call's params.
    /// - Throws: always: a marker that tells the mediator the target has no handler of its own.
    public func notFound(action: String, params: Params) throws -> (any Sendable)? { throw NoNotFoundHandler() }
}

/// A target (``MediatorTarget`` or ``MainActorTarget``) whose `notFound` handler is async: adopt
/// it beside the target protocol and implement the async `notFound`, which then replaces the
/// synchronous one.
///
/// ```swift
/// final class Target_Legacy: MediatorTarget, AsyncNotFoundTarget {
///     static let actions: [Action<Target_Legacy>] = []
///     func notFound(action: String, params: Params) async throws -> (any Sendable)? {
///         try await forwardToServer(action, params)
///     }
/// }
/// ```
///
/// Only the async entry points can run it: a synchronous call to a missing action of such a
/// target fails with ``MediatorError/Code/asyncAction``.
public protocol AsyncNotFoundTarget: AnyObject, Sendable {
    /// Answers a missing action, as ``MediatorTarget/notFound(action:params:)`` does, and may `await`.
    ///
    /// - Parameters:
    ///   - action: the action name as the caller wrote it.
    ///   - params: the call's params.
    /// - Returns: the answer to the call, or `nil` to go on to the global fallback.
    func notFound(action: String, params: Params) async throws -> (any Sendable)?
}
