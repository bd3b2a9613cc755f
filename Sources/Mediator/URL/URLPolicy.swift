/// What remote (URL) calls may reach and how much input they may bring.
///
/// ```swift
/// mediator.urlPolicy = URLPolicy(allowedSchemes: ["myapp"], allowedTargets: ["Notes"])
/// ```
///
/// Whatever the policy, actions named `native...` and actions declared `localOnly` are never
/// reachable by URL.
public struct URLPolicy: Sendable, Equatable {
    /// The schemes accepted (compared case-insensitively); `nil` accepts any scheme.
    public var allowedSchemes: Set<String>? {
        didSet { allowedSchemes = allowedSchemes.map(Self.lowercased) }
    }
    /// The targets URL calls may reach (short or full names); `nil` allows every target. Names are
    /// kept in their canonical form; one that has none (not ASCII, a doubled prefix) is dropped.
    public var allowedTargets: Set<String>? {
        didSet { allowedTargets = allowedTargets.map(Self.canonicalTargets) }
    }
    /// The schemes whose links are matched against the scheme's own routes alone (after the routes
    /// for the link's server, ``URLRoute/host``, which come first for every scheme), as JLRoutes
    /// matches every scheme's unless its `shouldFallbackToGlobalRoutes` is set (compared
    /// case-insensitively). Empty by default: a link that none of its scheme's own routes matches
    /// goes on to the routes registered for every scheme (without a `scheme`), so that one module's
    /// route for a scheme does not cut the scheme off from every other module's routes. A scheme
    /// with no routes of its own is always matched against the routes for every scheme. Isolation
    /// is about routes: a link no route matches is still read as `scheme://Target/action`
    /// (``allowedTargets`` and ``allowedSchemes`` limit what that reaches).
    public var isolatedSchemes: Set<String> = [] {
        didSet { isolatedSchemes = Self.lowercased(isolatedSchemes) }
    }
    /// The longest URL accepted, in UTF-8 bytes. Longer URLs are refused before any parsing.
    public var maximumLength: Int
    /// The most query items accepted. Parsing stops at the first item past the limit.
    public var maximumQueryItems: Int

    /// Whether `+` in a query key or value means a space, as in HTML form encoding and JLRoutes
    /// (`?q=a+b` gives `"a b"`; `%2B` is always `+`). Off by default: in RFC 3986 a `+` is a
    /// `+`, and links that carry phone numbers or signed values (`?tel=+4930...`) rely on it.
    /// The path is form-decoded only with ``decodesPlusAsSpaceInPaths``.
    public var decodesPlusAsSpace = false
    /// Whether `+` in a routed link's path means a space, as JLRoutes decodes it
    /// (`myapp://tag/a+b` gives `/tag/:t` the value `"a b"` and matches the literal `/tag/a b`;
    /// `%2B` is always `+`). It applies to the segments routes match (for a custom scheme the host
    /// too, their first segment), not to the names of a `scheme://Target/action` URL. Off by
    /// default: in a path a `+` is a `+` (RFC 3986), and paths carry `+` in names such as `c++`
    /// and in signed or encoded values.
    public var decodesPlusAsSpaceInPaths = false
    /// Whether the target named in the host of a `scheme://Target/action` URL is found ignoring
    /// ASCII case (`myapp://notes/get` reaches `Notes`): RFC 3986 hosts are case-insensitive,
    /// and mail clients and proxies lowercase them. An exact match is always preferred; a name
    /// that matches several targets ignoring case is refused as `invalidURL`. When routes are
    /// registered and none matches a custom-scheme URL whose host has capitals, the host is
    /// lowercased and matched once more, so write the host part of a route in lowercase. Off by
    /// default: names are otherwise compared byte for byte everywhere, and the allow-list and
    /// redirects see the registered name, not the URL's spelling.
    public var matchesHostIgnoringCase = false
    /// Whether a custom-scheme link whose host (without user and port) contains a `.` or is
    /// `localhost` (ignoring ASCII case) is read for routes as JLRoutes reads it: the host names a
    /// server, routes match the path alone (`myapp://www.example.com/sign_in` is `/sign_in`,
    /// `myapp://localhost/path/3` is `/path/3`), and the routes for that server
    /// (``URLRoute/host``) are tried first, as for an `http` or `https` link. Any other
    /// custom-scheme host stays the first segment (`myapp://user/7` is `/user/7`). Off by default:
    /// the host is always the first segment, whatever it holds. It changes what routes see, not
    /// how a `scheme://Target/action` URL is read.
    public var readsDottedHostsAsServers = false
    /// Whether the literal text of route patterns (`/Profile/:id`, the `.json` of `:name.json`) is
    /// matched ignoring ASCII case, as routing-kit's `caseInsensitive` option matches constant
    /// segments: `myapp://profile/AbC` matches `/Profile/:id`, and `id` is `"AbC"` (captured values
    /// keep their case). Only `A`–`Z` fold; other text is still compared byte for byte. Of routes
    /// whose literals differ only in case (`/User` and `/user`), the one with the higher priority,
    /// then the one registered first, is matched; both stay listed (`replacing:` and
    /// `removeRoute` still compare patterns byte for byte: such a route is another route, not a
    /// replacement). Off by default: names are compared byte for byte everywhere else.
    public var matchesRoutesIgnoringCase = false
    /// Whether a routed link's fragment is read as JLRoutes reads it, for its fragment routes
    /// (`/user#/view/:id`): the fragment's path follows the path after a `#`
    /// (`myapp://user#/view/7` is `/user#/view/7`; after a trailing `/`, or with no path, the `#`
    /// begins a segment: `https://example.com/user/#/view/7` is `/user/#/view/7`), and query items
    /// in the fragment (`#/view/7?tab=posts`, or `#tab=posts` alone) join the query's. A fragment
    /// that is only query items (its first item has a value) adds no segment. It changes what
    /// routes and the unmatched-URL handler see, not how a `scheme://Target/action` URL is read,
    /// except that a link whose fragment's path cannot be decoded (`#/view/%zz`) is refused as
    /// `invalidURL`, whatever it names. Off by default: a fragment belongs to the page, and
    /// browsers never send it to a server.
    public var readsFragmentsAsRoutes = false
    /// Whether a URL may have an empty authority, `myapp:///Target/action`, read as
    /// `myapp://Target/action` (and, for routes, as the path `/Target/action`). Off by default:
    /// `scheme:///` is what a link builder writes when the host it meant to insert was empty,
    /// so by default it is refused as `invalidURL` rather than guessed at.
    public var allowsEmptyAuthority = false

    /// The default maximum URL length: 64 KiB.
    public static let defaultMaximumLength = 65_536
    /// The default maximum number of query items: 1,024.
    public static let defaultMaximumQueryItems = 1_024

    /// Schemes in the form links give them (lowercased), for the scheme sets.
    private static func lowercased(_ schemes: Set<String>) -> Set<String> {
        Set(schemes.map { $0.lowercased() })
    }

    /// The allow-list in the form names are compared in. A name with no canonical form is
    /// dropped: it can name no target, and kept in a `Set` it would match (by `String`'s canonical
    /// equivalence) a name it is not byte for byte, as `"\u{212A}iosk"` would match `Kiosk`.
    private static func canonicalTargets(_ names: Set<String>) -> Set<String> {
        Set(names.compactMap { Names.canonical($0, as: .target) })
    }

    /// A policy; the defaults accept any scheme and target, URLs up to 64 KiB and 1,024 query items,
    /// and read links as RFC 3986 does. The reading options (``decodesPlusAsSpace``,
    /// ``decodesPlusAsSpaceInPaths``, ``matchesHostIgnoringCase``, ``readsDottedHostsAsServers``,
    /// ``readsFragmentsAsRoutes``, ``matchesRoutesIgnoringCase``, ``allowsEmptyAuthority``,
    /// ``isolatedSchemes``) are set on the value:
    ///
    /// ```swift
    /// var policy = URLPolicy(allowedSchemes: ["myapp"])
    /// policy.decodesPlusAsSpace = true
    /// mediator.urlPolicy = policy
    /// ```
    ///
    /// - Parameters:
    ///   - allowedSchemes: the schemes accepted (compared case-insensitively), or `nil` for any.
    ///   - allowedTargets: the targets URL calls may reach (short or full names), or `nil` for all.
    ///   - maximumLength: the longest URL accepted, in UTF-8 bytes.
    ///   - maximumQueryItems: the most query items accepted.
    public init(
        allowedSchemes: Set<String>? = nil,
        allowedTargets: Set<String>? = nil,
        maximumLength: Int = URLPolicy.defaultMaximumLength,
        maximumQueryItems: Int = URLPolicy.defaultMaximumQueryItems
    ) {
        self.allowedSchemes = allowedSchemes.map(Self.lowercased)
        self.allowedTargets = allowedTargets.map(Self.canonicalTargets)
        self.maximumLength = maximumLength
        self.maximumQueryItems = maximumQueryItems
    }
}
