/// A type whose instances answer actions by name: CTMediator's `Target_X` class, with its action
/// table declared instead of discovered by the Objective-C runtime.
///
/// ```swift
/// final class Target_Notes: MediatorTarget {
///     static let actions: [Action<Target_Notes>] = [
///         Action("create") { target, params in try target.create(params) },
///     ]
///     let service = NotesService()
///     ...
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
    /// to its global fallback. The default answers nothing.
    func notFound(action: String, params: Params) throws -> (any Sendable)?
}

extension MediatorTarget {
    public static var targetName: String { Names.shortTargetName(String(describing: Self.self)) }
    public static var targetSummary: String? { nil }
    public static var isAlwaysCached: Bool { false }
    public func notFound(action: String, params: Params) throws -> (any Sendable)? { nil }
}
