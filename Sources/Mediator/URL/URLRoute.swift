/// A deep-link route: URLs whose path matches ``pattern`` call ``target``/``action``.
///
/// ```swift
/// try mediator.route("/user/:id<int>/profile", to: "Accounts", action: "profile")
/// mediator.open("myapp://user/42/profile")   // Accounts/profile with params ["id": "42", ...]
/// ```
///
/// The pattern syntax, the precedence between routes and how params are merged are in
/// <doc:DeepLinkRoutes>.
public struct URLRoute: Sendable, Equatable, CustomStringConvertible {
    /// The pattern, such as `/user/:id<int>(/:tab)` or `/files/*`.
    public var pattern: String
    /// The target the route calls (short or full name; listings show the short one).
    public var target: String
    /// The action the route calls (short or full name; listings show the short one).
    public var action: String
    /// The one scheme the route is for (compared ignoring case), or `nil` for every scheme.
    public var scheme: String?
    /// The one server the route is for, such as `shop.example.com` (compared ignoring ASCII case,
    /// one trailing `.` dropped), or `nil` for links to any server and for custom-scheme links. A
    /// route with a host matches only links whose host names a server (`http` and `https` links,
    /// and custom-scheme links that ``URLPolicy/readsDottedHostsAsServers`` reads so) with that
    /// host, whatever their port and user; its pattern is matched against the path alone. The routes for a link's host are
    /// tried before the others: the universal links of several domains can share one mediator.
    public var host: String?
    /// Decides between routes of the same host and scheme group that match the same URL (the
    /// routes for the link's server come first, whatever their priority): the higher wins, before
    /// any precedence between segment kinds.
    public var priority: Int

    /// The key under which a routed call's params hold the matched route's pattern, as written.
    public static let patternKey = "@route"
    /// The key under which a routed call's params hold the URL, as the caller gave it.
    public static let urlKey = "@url"
    /// The key under which a routed call's params hold the URL's scheme, lowercased.
    public static let schemeKey = "@scheme"
    /// The key under which a routed call's params hold what a trailing `*` matched: the path
    /// segments, percent-decoded, as a `[String]` (possibly empty).
    public static let restKey = "@rest"
    /// The keys the mediator sets in a routed call's params. A URL's query may not use them (the
    /// URL is refused as `invalidURL`); in-process params under them are overwritten. Actions that
    /// declare their params need not declare these: they are never refused as undeclared.
    public static let reservedKeys: Set<String> = [patternKey, urlKey, schemeKey, restKey]

    /// A route.
    ///
    /// - Parameters:
    ///   - pattern: the pattern (see ``pattern``).
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    ///   - scheme: the one scheme the route is for, or `nil` for every scheme.
    ///   - host: the one server the route is for (see ``host``), or `nil`.
    ///   - priority: the route's priority (default 0).
    public init(_ pattern: String, target: String, action: String, scheme: String? = nil, host: String? = nil, priority: Int = 0) {
        self.pattern = pattern
        self.target = target
        self.action = action
        self.scheme = scheme
        self.host = host
        self.priority = priority
    }

    /// `[scheme] pattern -> Target/action (priority n)`, `[https://host] ...` or `[//host] ...` for a
    /// route with a host (of one scheme or of every scheme); the scheme, host and priority only
    /// when set.
    public var description: String {
        let place: String
        switch (scheme, host) {
        case (let scheme?, let host?): place = "[\(oneLine(scheme, limit: 60))://\(oneLine(host, limit: 100))] "
        case (nil, let host?): place = "[//\(oneLine(host, limit: 100))] "
        case (let scheme?, nil): place = "[\(oneLine(scheme, limit: 60))] "
        case (nil, nil): place = ""
        }
        let priority = priority == 0 ? "" : " (priority \(priority))"
        return "\(place)\(oneLine(pattern, limit: 200)) -> \(oneLine(target, limit: 100))/\(oneLine(action, limit: 100))\(priority)"
    }
}

/// A URL that matched no route and names no registered action, as an
/// ``Mediator/unmatchedURLHandler`` sees it.
public struct UnmatchedURL: Sendable {
    /// The URL, as the caller gave it.
    public let url: String
    /// The scheme, lowercased.
    public let scheme: String
    /// The path's segments, percent-decoded; for a custom scheme the host comes first (as
    /// routes see it), for `http` and `https` the host is not included.
    public let path: [String]
    /// The query's params, with the in-process params the caller passed merged over them.
    public let params: Params
}

/// What an ``Mediator/unmatchedURLHandler`` does with a URL.
public enum UnmatchedURLResponse: Sendable {
    /// The URL is handled: the call returns this value (`nil` for nothing).
    case answer((any Sendable)?)
    /// The handler does not handle the URL: the call goes on as if there were no handler (the
    /// target's `notFound`, the global fallback, or a `routeNotFound` or not-found error).
    case decline
}

/// A handler for URLs no route matches and no registered action answers. It runs on the calling
/// thread with no lock held, outside the interceptor chain; an error it throws reaches the caller
/// (a ``MediatorError`` as it is, any other as `actionFailed`).
public typealias UnmatchedURLHandler = @Sendable (UnmatchedURL) throws -> UnmatchedURLResponse
