/// A type whose instances answer actions by name: CTMediator's `Target_X` class, with its action
/// table declared instead of discovered by the Objective-C runtime.
///
/// ```swift
/// final class Target_Notes: MediatorTarget {
///     static let actions: [Action<Target_Notes>] = [
///         Action("create") { target, params in try target.create(params) },
///     ]
///     let service = NotesService()
///
///     func create(_ params: Params) throws -> Int {
///         service.create(title: try params.value("title", as: String.self))
///     }
/// }
/// try mediator.register(Target_Notes.self) { _ in Target_Notes() }
/// ```
///
/// Instances must be `Sendable` classes: a cached instance is shared by every thread that calls
/// it, and its identity is what caching promises to keep.
public protocol MediatorTarget: AnyObject, Sendable {
    /// The short name callers use (`Notes`). Defaults to the type's name without its `Target_`
    /// prefix, so `Target_Notes` is `Notes`.
    static var targetName: String { get }
    /// A one-line description, shown by listings. Defaults to `nil`.
    static var targetSummary: String? { get }
    /// Whether every call uses one cached instance, whatever its `shouldCacheTarget` flag; the
    /// only way a URL call can create a cached instance. Defaults to `false`.
    static var isAlwaysCached: Bool { get }
    /// The actions this target answers.
    static var actions: [Action<Self>] { get }
    /// CTMediator's `notFound:`: called with the action name and the original params when an
    /// action is missing. Return a value to answer the call, or `nil` to let the mediator go on
    /// to its global fallback.
    ///
    /// A target that implements it is never dropped from the cache by a missing action (as in
    /// CTMediator, whatever it returns). The default implementation stands for "no `notFound:`":
    /// the mediator goes on to the global fallback and, as CTMediator does for a class without
    /// `notFound:`, drops the target's cached instance (unless the target is always cached or the
    /// call came by URL). Only the mediator should call it.
    ///
    /// ```swift
    /// func notFound(action: String, params: Params) throws -> (any Sendable)? {
    ///     action == "fetch" ? try params.value("id", as: Int.self) : nil   // an old name still answers
    /// }
    /// ```
    ///
    /// What it throws fails the call, as an action's error does.
    ///
    /// - Parameters:
    ///   - action: the action name as the caller wrote it (`fetch`, `Action_fetch`, ...).
    ///   - params: the call's params, as passed.
    /// - Returns: the answer to the call, or `nil` to go on to the global fallback.
    func notFound(action: String, params: Params) throws -> (any Sendable)?
}

extension MediatorTarget {
    /// The type's name without its `Target_` prefix: `Target_Notes` is `Notes`, and a type
    /// named `Notes` is `Notes` too. A type named `Target_Target_Notes` keeps its whole name,
    /// which registration refuses as ``MediatorError/Code/invalidName``.
    public static var targetName: String { Names.defaultTargetName(of: Self.self) }
    /// No description: `nil`.
    public static var targetSummary: String? { nil }
    /// Not always cached: each call makes a new instance unless it asks for the cached one.
    public static var isAlwaysCached: Bool { false }
    /// No `notFound:` handler: the mediator goes on to its global fallback and, as CTMediator does
    /// for a target without `notFound:`, drops the target's cached instance (unless the target is
    /// always cached or the call came by URL).
    ///
    /// - Parameters:
    ///   - action: the action name as the caller wrote it.
    ///   - params: the call's params.
    /// - Throws: always: a marker that tells the mediator the target has no handler of its own.
    ///   The mediator never passes it on.
    public func notFound(action: String, params: Params) throws -> (any Sendable)? { throw NoNotFoundHandler() }
}

/// Thrown by the default ``MediatorTarget/notFound(action:params:)``: tells dispatch that the
/// target has no handler of its own, which CTMediator's cache rule depends on and which the
/// protocol's default cannot otherwise reveal.
struct NoNotFoundHandler: Error, CustomStringConvertible {
    var description: String { "the target has no notFound handler" }
}
