/// A URL split the way routes see it: the scheme, the path's segments (percent-decoded; for a
/// custom scheme the host first, as in JLRoutes) and where the query is.
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
    /// Whether the scheme is `http` or `https`, whose host is a server, not part of the route.
    var isWeb: Bool { scheme == "http" || scheme == "https" }

    /// The path as routes see it, for messages: `/` and the segments.
    var shownPath: String {
        "/" + (segments ?? []).joined(separator: "/")
    }
}

extension URLParser {
    /// Splits `url` for route matching. The URL must already be within the length limit.
    /// Failures are `invalidURL` errors quoting the URL: no `scheme://`, a malformed scheme, an
    /// empty authority (unless the policy accepts it), or a malformed percent-escape in the path.
    static func parseLink(_ url: String, policy: URLPolicy) -> Result<LinkURL, MediatorError> {
        withUTF8Bytes(of: url) { bytes in parseLink(bytes, url: url, policy: policy) }
    }

    private static func parseLink(_ bytes: UnsafeBufferPointer<UInt8>, url: String, policy: URLPolicy) -> Result<LinkURL, MediatorError> {
        let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        let scheme: String
        switch parseScheme(bytes, end: end, url: url) {
        case .success(let parsed): scheme = parsed
        case .failure(let error): return .failure(error)
        }
        // Authority: after "://", up to the first "/" or "?".
        let hostStart = scheme.utf8.count + 3
        var index = hostStart
        while index < end, bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "?") { index += 1 }
        let hostEnd = index
        if hostEnd == hostStart && !policy.allowsEmptyAuthority {
            return .failure(invalid(url, "the authority is empty (URLPolicy.allowsEmptyAuthority accepts \"scheme:///path\")"))
        }
        var pathEnd = hostEnd
        while pathEnd < end, bytes[pathEnd] != UInt8(ascii: "?") { pathEnd += 1 }
        let query = pathEnd < end ? (pathEnd + 1)..<end : end..<end

        let host: String
        switch percentDecode(bytes[hostStart..<hostEnd]) {
        case .success(let decoded): host = decoded
        case .failure(let problem): return .failure(invalid(url, "the host has \(problem)"))
        }
        let isWeb = scheme == "http" || scheme == "https"

        // The path: its leading "/" and one trailing "/" dropped, then split on "/".
        // A path of "/" alone has no segments; "//" is one empty segment (its leading and its
        // trailing "/" are not the same byte).
        var pathStart = hostEnd
        var pathStop = pathEnd
        if pathStart < pathStop { pathStart += 1 }
        if pathStop > pathStart, bytes[pathStop - 1] == UInt8(ascii: "/") { pathStop -= 1 }
        let path = bytes[pathStart..<pathStop]
        let pathCount = path.isEmpty ? (pathEnd - hostEnd > 1 ? 1 : 0) : path.count(where: { $0 == UInt8(ascii: "/") }) + 1
        let hostCount = isWeb || hostEnd == hostStart ? 0 : 1
        guard hostCount + pathCount <= RouteTrie<RouteDestination>.maximumSegments else {
            return .success(LinkURL(scheme: scheme, host: host, segments: nil, query: query))
        }
        var segments: [String] = []
        segments.reserveCapacity(hostCount + pathCount)
        if hostCount == 1 { segments.append(host) }
        var start = pathStart
        while pathCount > 0 && start <= pathStop {
            let stop = path[start...].firstIndex(of: UInt8(ascii: "/")) ?? pathStop
            switch percentDecode(bytes[start..<stop]) {
            case .success(let decoded): segments.append(decoded)
            case .failure(let problem):
                let shown = String(decoding: bytes[start..<stop], as: UTF8.self)
                return .failure(invalid(url, "the path segment \"\(MediatorError.shortened(shown))\" has \(problem)"))
            }
            start = stop + 1
        }
        return .success(LinkURL(scheme: scheme, host: host, segments: segments, query: query))
    }

    /// The scheme of a URL (lowercased), checked: a letter, then letters, digits, `+`, `-` or
    /// `.`, then `://`.
    static func parseScheme(_ bytes: UnsafeBufferPointer<UInt8>, end: Int, url: String) -> Result<String, MediatorError> {
        guard let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")),
            colon + 2 < end,
            bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else {
            return .failure(invalid(url, "it is not a URL (no \"scheme://\")"))
        }
        let schemeBytes = bytes[0..<colon]
        guard let first = schemeBytes.first, isLetter(first),
            schemeBytes.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else {
            return .failure(invalid(url, "the scheme must be a letter followed by letters, digits, \"+\", \"-\" or \".\""))
        }
        return .success(String(decoding: schemeBytes, as: UTF8.self).lowercased())
    }
}
