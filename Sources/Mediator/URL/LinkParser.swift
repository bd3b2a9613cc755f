/// A URL split the way routes see it: the scheme, the path's segments (percent-decoded, and `+` as
/// a space with ``URLPolicy/decodesPlusAsSpaceInPaths``; for a custom scheme the host first, as in
/// JLRoutes) and where the query is.
struct LinkURL {
    /// Lowercased.
    let scheme: String
    /// The host, percent-decoded (for `http` and `https`, the whole authority, not matched).
    let host: String
    /// The segments routes match: for a custom scheme the host, then the path's segments; for
    /// `http` and `https` only the path's. `nil` when there are more than routes can match
    /// (``RouteTrie/maximumSegments``): such a URL matches no route, and is not split.
    let segments: [String]?
    /// Byte offsets of the query in the URL's UTF-8; empty when absent.
    let query: Range<Int>
    /// Byte offsets of the query items in the fragment, read after the query's
    /// (``URLPolicy/readsFragmentsAsRoutes``); empty when there are none.
    var fragmentQuery: Range<Int> = 0..<0
    /// Why the fragment could not be read as a route (a malformed escape), when it could not:
    /// then ``segments`` is `nil`, and the link is refused (`invalidURL`, with this reason), as
    /// every link is whose fragment cannot be read (``URLParser/fragmentProblem(_:policy:)``).
    /// Text rather than the error, which would make every link's value several times larger.
    var fragmentProblem: String?
    /// Whether the host is the first of ``segments`` (a custom scheme's host, unless it names a
    /// server as ``URLPolicy/readsDottedHostsAsServers`` reads it).
    let hostIsSegment: Bool
    /// Byte offsets of the authority (as written: user, host and port) in the URL's UTF-8.
    let authority: Range<Int>
    /// Whether the scheme is `http` or `https`, whose host is a server, not part of the route.
    var isWeb: Bool { scheme == "http" || scheme == "https" }

    /// The server `url` (the text this link was read from) names, for the routes with a host
    /// (``URLRoute/host``), as ``URLParser/serverName(_:)`` reads its authority; `nil` when the
    /// host is a segment of the path (a custom scheme's) or names no server a route can have.
    func server(in url: String) -> String? {
        guard !hostIsSegment, !authority.isEmpty else { return nil }
        return withUTF8Bytes(of: url) { bytes in URLParser.serverName(bytes[authority]) }
    }

    /// The path as routes see it, for messages: `/` and the segments.
    var shownPath: String {
        "/" + (segments ?? []).joined(separator: "/")
    }
}

extension URLParser {
    /// Splits `url` for route matching: the URL as ``split(_:url:)`` reads it, its host and
    /// its path's segments percent-decoded. Failures are `invalidURL` errors quoting the URL: over
    /// the length limit, no `scheme://`, a malformed scheme, an empty authority (unless the policy
    /// accepts it), or a malformed percent-escape in the host or the path.
    static func parseLink(_ url: String, policy: URLPolicy) -> Result<LinkURL, MediatorError> {
        if let refusal = lengthRefusal(url, policy: policy) { return .failure(refusal) }
        return withUTF8Bytes(of: url) { bytes in
            switch split(bytes, url: url) {
            case .success(let parts): parseLink(bytes, parts, url: url, policy: policy)
            case .failure(let error): .failure(error)
            }
        }
    }

    private static func parseLink(_ bytes: UnsafeBufferPointer<UInt8>, _ parts: URLParts, url: String, policy: URLPolicy) -> Result<LinkURL, MediatorError> {
        let scheme = parts.scheme
        let hostStart = parts.authority.lowerBound
        let hostEnd = parts.authority.upperBound
        if hostEnd == hostStart && !policy.allowsEmptyAuthority {
            return .failure(invalid(url, "the authority is empty (URLPolicy.allowsEmptyAuthority accepts \"scheme:///path\")"))
        }
        let pathEnd = parts.path.upperBound
        let query = parts.query

        let isWeb = scheme == "http" || scheme == "https"
        // A custom scheme's host is the first segment routes match, decoded as the path is.
        let host: String
        switch percentDecode(bytes[hostStart..<hostEnd], plusAsSpace: policy.decodesPlusAsSpaceInPaths && !isWeb) {
        case .success(let decoded): host = decoded
        case .failure(let problem): return .failure(invalid(url, "the host has \(problem)"))
        }

        // The path: its leading "/" and one trailing "/" dropped, then split on "/".
        // A path of "/" alone has no segments; "//" is one empty segment (its leading and its
        // trailing "/" are not the same byte).
        var pathStart = hostEnd
        var pathStop = pathEnd
        if pathStart < pathStop { pathStart += 1 }
        if pathStop > pathStart, bytes[pathStop - 1] == UInt8(ascii: "/") { pathStop -= 1 }
        let path = bytes[pathStart..<pathStop]
        let pathCount = path.isEmpty ? (pathEnd - hostEnd > 1 ? 1 : 0) : path.count(where: { $0 == UInt8(ascii: "/") }) + 1
        let hostCount = isWeb || hostEnd == hostStart || (policy.readsDottedHostsAsServers && namesServer(bytes[hostStart..<hostEnd])) ? 0 : 1
        let authority = hostStart..<hostEnd
        let fragment = policy.readsFragmentsAsRoutes ? Self.fragment(bytes, after: parts.query.upperBound) : nil
        let fragmentRead = fragment?.path.map { fragmentSegments($0, policy: policy) }
        if let problem = fragmentRead?.problem {
            var link = LinkURL(scheme: scheme, host: host, segments: nil, query: query, hostIsSegment: hostCount == 1, authority: authority)
            link.fragmentProblem = problem
            return .success(link)
        }
        let fragmentPieces = fragmentRead?.segments ?? []
        // The fragment follows the path after a "#", as JLRoutes appends it before splitting: its
        // first piece joins the path's last segment, or begins a segment of its own after a
        // trailing "/" or when the path has no segment.
        let fragmentOwnSegment = !fragmentPieces.isEmpty && ((pathEnd > hostEnd && bytes[pathEnd - 1] == UInt8(ascii: "/")) || hostCount + pathCount == 0)
        let fragmentCount = fragmentPieces.isEmpty ? 0 : fragmentPieces.count - (fragmentOwnSegment ? 0 : 1)
        guard hostCount + pathCount + fragmentCount <= RouteTrie<RouteDestination>.maximumSegments else {
            return .success(LinkURL(scheme: scheme, host: host, segments: nil, query: query, hostIsSegment: hostCount == 1, authority: authority))
        }
        var segments: [String] = []
        segments.reserveCapacity(hostCount + pathCount + fragmentCount)
        if hostCount == 1 { segments.append(host) }
        var start = pathStart
        while pathCount > 0 && start <= pathStop {
            let stop = path[start...].firstIndex(of: UInt8(ascii: "/")) ?? pathStop
            switch percentDecode(bytes[start..<stop], plusAsSpace: policy.decodesPlusAsSpaceInPaths) {
            case .success(let decoded): segments.append(decoded)
            case .failure(let problem):
                let shown = String(decoding: bytes[start..<stop], as: UTF8.self)
                return .failure(invalid(url, "the path segment \"\(MediatorError.shortened(shown))\" has \(problem)"))
            }
            start = stop + 1
        }
        if let first = fragmentPieces.first {
            if fragmentOwnSegment {
                segments.append("#" + first)
            } else {
                segments[segments.count - 1] += "#" + first
            }
            segments += fragmentPieces.dropFirst()
        }
        var link = LinkURL(scheme: scheme, host: host, segments: segments, query: query, hostIsSegment: hostCount == 1, authority: authority)
        link.fragmentQuery = fragment?.query ?? 0..<0
        return .success(link)
    }

    /// Why the path of `url`'s fragment cannot be read as ``URLPolicy/readsFragmentsAsRoutes``
    /// reads it (a malformed escape), if it cannot: such a link is refused as `invalidURL`
    /// whatever it names, so that whether routes are registered does not change its fate.
    static func fragmentProblem(_ url: String, policy: URLPolicy) -> String? {
        withUTF8Bytes(of: url) { bytes in
            guard let mark = bytes.firstIndex(of: UInt8(ascii: "#")), let path = fragment(bytes, after: mark)?.path else { return nil }
            return fragmentSegments(path, policy: policy).problem
        }
    }

    /// A fragment's path as the segments it adds (split on `/`, one trailing `/` dropped, as from
    /// the path; percent-decoded as the path is), or why a piece of it cannot be decoded.
    private static func fragmentSegments(_ path: Slice<UnsafeBufferPointer<UInt8>>, policy: URLPolicy) -> (segments: [String], problem: String?) {
        var pieces = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        if pieces.count > 1, pieces.last?.isEmpty == true { pieces.removeLast() }
        var segments: [String] = []
        segments.reserveCapacity(pieces.count)
        for piece in pieces {
            switch percentDecode(piece, plusAsSpace: policy.decodesPlusAsSpaceInPaths) {
            case .success(let text): segments.append(text)
            case .failure(let problem):
                return ([], "the fragment's segment \"\(MediatorError.shortened(String(decoding: piece, as: UTF8.self)))\" has \(problem)")
            }
        }
        return (segments, nil)
    }

    /// A link's fragment as ``URLPolicy/readsFragmentsAsRoutes`` reads it (JLRoutes' reading):
    /// `nil` without a `#`; else its path (up to a `?`), unless the fragment is only query
    /// items, and the range of its query items, when its first item has a value (`#a=1&b=2`, or
    /// what follows the `?` in `#/view/7?a=1`).
    private static func fragment(
        _ bytes: UnsafeBufferPointer<UInt8>, after queryEnd: Int
    ) -> (path: Slice<UnsafeBufferPointer<UInt8>>?, query: Range<Int>)? {
        guard queryEnd < bytes.count, bytes[queryEnd] == UInt8(ascii: "#") else { return nil }
        let start = queryEnd + 1
        let mark = bytes[start...].firstIndex(of: UInt8(ascii: "?"))
        let path = bytes[start..<(mark ?? bytes.count)]
        // Without a "?", the whole fragment may be query items.
        let items = mark.map { ($0 + 1)..<bytes.count } ?? start..<bytes.count
        let first = bytes[items].prefix { $0 != UInt8(ascii: "&") }
        let hasItems = first.firstIndex(of: UInt8(ascii: "=")).map { $0 + 1 < first.endIndex } ?? false
        guard hasItems else { return (path, 0..<0) }
        return (mark == nil ? nil : path, items)
    }

    /// Whether a custom-scheme authority names a server as JLRoutes tells one: its host (without
    /// user and port, as ``hostName(_:)`` cuts them) contains a `.`, or it is `localhost`
    /// (ignoring ASCII case).
    private static func namesServer(_ authority: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let host = hostName(authority) else { return false }
        return host.utf8.contains(UInt8(ascii: ".")) || Mediator.asciiLowercased(host).utf8.elementsEqual("localhost".utf8)
    }

    /// The host of an authority as written (`user@host:port`): the user and the port cut off on
    /// the bytes as written, so that an encoded `@` or `:` cuts nothing, then percent-decoded.
    /// `nil` for an IP-literal (`[...]`), a `\` (which browsers read as the end of the authority),
    /// or an escape that does not decode.
    static func hostName(_ authority: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        // A browser ends the authority at a `\`: what follows is not the host it reads.
        if authority.contains(UInt8(ascii: "\\")) { return nil }
        var bytes = authority
        if let at = bytes.lastIndex(of: UInt8(ascii: "@")) { bytes = bytes[(at + 1)...] }
        if bytes.contains(UInt8(ascii: "[")) { return nil }
        if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) { bytes = bytes[..<colon] }
        guard case .success(let host) = percentDecode(bytes) else { return nil }
        return host
    }

    /// The server an authority names, as routes with a host compare it: its host (``hostName(_:)``)
    /// read as ``serverName(_:)-(String)`` reads a route's host.
    static func serverName(_ authority: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        hostName(authority).flatMap(serverName)
    }
}
