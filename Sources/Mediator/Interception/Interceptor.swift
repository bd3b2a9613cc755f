/// Code that runs around every call the mediator dispatches (logging, login checks, tokens, risk
/// control), whatever the entry point: sync, async, completion, URL, handle, typed key, command
/// line, and calls actions make to each other.
///
/// Before the call, ``intercept(_:)`` may change the params, answer the call itself, redirect it,
/// or throw to reject it. An interceptor that also wants the outcome and the time the call took
/// conforms to ``CallObserver`` as well: its ``CallObserver/callDidFinish(_:)`` then runs after
/// each call it intercepted (and only those). One that does not costs no record of the call.
///
/// ```swift
/// struct RequireLogin: Interceptor {
///     let session: Session
///     func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
///         // A link or a command line acts for whoever sent it: never with the user's token.
///         guard request.origin == .inProcess else { return .proceed }
///         guard session.isLoggedIn else { return .redirect(target: "Login", action: "show") }
///         request.params["token"] = session.token
///         return .proceed
///     }
/// }
/// mediator.addInterceptor(RequireLogin(session: session), scope: .target("Notes"))
/// ```
///
/// Interceptors run in order of ``Mediator/addInterceptor(_:scope:priority:)``'s `priority`
/// (higher first), then in the order they were added; the ``CallObserver/callDidFinish(_:)`` of
/// those that observe runs in the reverse order, as nested middleware would. They run on the caller's thread with no mediator lock held,
/// so they may call the mediator (those calls are intercepted too and count toward
/// ``Mediator/maximumCallDepth``). `intercept` is synchronous, so a synchronous call stays
/// synchronous; an async call runs it before it awaits.
///
/// The mediator's rules come first: a URL call refused by the URL policy (a local-only action, a
/// target outside the allow-list) never reaches an interceptor, and a redirect's destination is
/// checked by the same rules.
public protocol Interceptor: Sendable {
    /// The name errors give when this interceptor throws (by default, its type's name).
    var name: String { get }

    /// Runs before the call: change `request.params` and return ``InterceptorDecision/proceed``,
    /// answer the call, redirect it, or throw to reject it. A thrown error reaches the caller as
    /// ``MediatorError/Code/rejected``, naming this interceptor, with the error in
    /// ``MediatorError/underlying``.
    ///
    /// - Parameter request: the call; its params may be changed.
    /// - Returns: what to do with the call.
    func intercept(_ request: inout CallRequest) throws -> InterceptorDecision
}

extension Interceptor {
    /// The type's name.
    public var name: String { typeName(Self.self) }
}

/// What an interceptor decides about a call.
public enum InterceptorDecision: Sendable {
    /// Go on: the next interceptor, then the action (with the params as the interceptor left them).
    case proceed
    /// Answer the call with this value; the action does not run (nor do later interceptors).
    case answer((any Sendable)?)
    /// Send the call to another target and action, with its params; the destination goes through
    /// the redirect table, the URL rules and its own interceptors, as a call of its own would.
    case redirect(target: String, action: String)
}

/// The calls an interceptor applies to: all of them, a target's, or one action's.
///
/// ```swift
/// mediator.addInterceptor(audit, scope: .action("wipeAll", of: "Profile"))
/// ```
///
/// Names may be short or full (`Notes`, `Target_Notes`); a scope matches the call's target and
/// action after redirects.
public struct InterceptorScope: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Hashable {
        case all
        case targets(Set<String>)
        case actions(target: String, actions: Set<String>)
    }

    let kind: Kind

    /// Every call.
    public static let all = InterceptorScope(kind: .all)

    /// The calls to one target, whatever the action (including actions it does not have).
    public static func target(_ name: String) -> InterceptorScope {
        InterceptorScope(kind: .targets([Names.shown(name, as: .target)]))
    }

    /// The calls to any of these targets.
    public static func targets(_ names: [String]) -> InterceptorScope {
        InterceptorScope(kind: .targets(Set(names.map { Names.shown($0, as: .target) })))
    }

    /// The calls to one action of one target.
    public static func action(_ action: String, of target: String) -> InterceptorScope {
        actions([action], of: target)
    }

    /// The calls to these actions of one target.
    public static func actions(_ actions: [String], of target: String) -> InterceptorScope {
        InterceptorScope(kind: .actions(target: Names.shown(target, as: .target), actions: Set(actions.map { Names.shown($0, as: .action) })))
    }

    /// Whether a call to `target`/`action` (canonical names) is in scope.
    func contains(target: String, action: String) -> Bool {
        switch kind {
        case .all: true
        case .targets(let names): names.contains(target)
        case .actions(let name, let actions): name == target && actions.contains(action)
        }
    }

    /// `all`, `targets Notes, Accounts` or `Notes/create, Notes/get`.
    public var description: String {
        switch kind {
        case .all: "all"
        case .targets(let names): "targets " + names.sorted().joined(separator: ", ")
        case .actions(let target, let actions): actions.sorted().map { "\(target)/\($0)" }.joined(separator: ", ")
        }
    }
}
