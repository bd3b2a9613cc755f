// MARK: - The one reader of URL text

/// A URL as it is read, before anything is decoded: the lowercased scheme and the byte offsets
/// (in the URL's UTF-8) of the authority, the path and the query. The fragment is ignored.
struct URLParts {
    /// Lowercased.
    let scheme: String
    /// After `scheme://`, up to the first `/` or `?`.
    let authority: Range<Int>
    /// From the end of the authority up to `?`: empty, or beginning with `/`.
    let path: Range<Int>
    /// After `?`, up to `#`; empty when absent.
    let query: Range<Int>
}

extension URLParser {
    /// The one reader of URL text: `scheme://authority/path?query#fragment` split into
    /// ``URLParts``. A call URL (``parseHead(_:policy:)``) and a route's view of a link
    /// (``parseLink(_:policy:)``) both read their parts from here, after ``lengthRefusal(_:policy:)``.
    @inline(__always)
    static func split(_ bytes: UnsafeBufferPointer<UInt8>, url: String) -> Result<URLParts, MediatorError> {
        // The fragment is ignored: everything from the first "#".
        let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        let scheme: String
        switch parseScheme(bytes, end: end, url: url) {
        case .success(let parsed): scheme = parsed
        case .failure(let error): return .failure(error)
        }
        let authorityStart = scheme.utf8.count + 3
        var index = authorityStart
        while index < end, bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "?") { index += 1 }
        let authorityEnd = index
        while index < end, bytes[index] != UInt8(ascii: "?") { index += 1 }
        let query = index < end ? (index + 1)..<end : end..<end
        return .success(URLParts(scheme: scheme, authority: authorityStart..<authorityEnd, path: authorityEnd..<index, query: query))
    }

    /// The refusal of a URL longer than the policy allows, read before anything else of it.
    static func lengthRefusal(_ url: String, policy: URLPolicy) -> MediatorError? {
        let byteCount = url.utf8.count
        guard byteCount > policy.maximumLength else { return nil }
        return invalid(url, "it is \(byteCount) bytes long, over the limit of \(policy.maximumLength)")
    }

    /// The scheme of a URL (lowercased), checked: a letter, then letters, digits, `+`, `-` or
    /// `.`, then `://`.
    private static func parseScheme(_ bytes: UnsafeBufferPointer<UInt8>, end: Int, url: String) -> Result<String, MediatorError> {
        guard let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")),
            colon + 2 < end,
            bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else {
            return .failure(invalid(url, "it is not a URL (no \"scheme://\")"))
        }
        let schemeBytes = bytes[0..<colon]
        guard isSchemeName(schemeBytes) else {
            return .failure(invalid(url, "the scheme must be a letter followed by letters, digits, \"+\", \"-\" or \".\""))
        }
        return .success(String(decoding: schemeBytes, as: UTF8.self).lowercased())
    }
}
