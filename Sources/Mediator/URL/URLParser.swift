/// The parts of a call URL `scheme://Target/action?query#fragment`, before the query is decoded.
struct CallURL {
    /// Lowercased.
    let scheme: String
    /// Canonical (``Names/canonical(_:as:)``): what the policy checks is what dispatch resolves.
    let target: String
    /// Canonical, as the target.
    let action: String
    /// Byte offsets of the query (after `?`, before `#`) in the URL's UTF-8; empty when absent.
    let query: Range<Int>
}

/// Parses call URLs by hand, over UTF-8 bytes: no Foundation, identical on every platform, and
/// every malformed input is an `invalidURL` error that quotes it. The rules are in the README.
enum URLParser {
    static let expectedForm = "expected scheme://Target/action?key=value&..."

    /// The scheme, target and action of `url` (the query is decoded separately, after the call
    /// has been allowed): the URL as ``split(_:url:)`` reads it, its authority the target and
    /// its path's one segment the action.
    static func parseHead(_ url: String, policy: URLPolicy) -> Result<CallURL, MediatorError> {
        if let refusal = lengthRefusal(url, policy: policy) { return .failure(refusal) }
        return withUTF8Bytes(of: url) { bytes in
            switch split(bytes, url: url) {
            case .success(let parts): parseHead(bytes, parts, url: url, allowsEmptyAuthority: policy.allowsEmptyAuthority)
            case .failure(let error): .failure(error)
            }
        }
    }

    private static func parseHead(_ bytes: UnsafeBufferPointer<UInt8>, _ parts: URLParts, url: String, allowsEmptyAuthority: Bool) -> Result<
        CallURL, MediatorError
    > {
        // Target: the authority; `scheme:///Target/action`, when the policy accepts an empty
        // authority, has it as the path's first segment.
        var targetStart = parts.authority.lowerBound
        var targetEnd = parts.authority.upperBound
        if allowsEmptyAuthority, parts.authority.isEmpty, !parts.path.isEmpty {
            targetStart = parts.path.lowerBound + 1
            targetEnd = targetStart
            while targetEnd < parts.path.upperBound, bytes[targetEnd] != UInt8(ascii: "/") { targetEnd += 1 }
        }

        // Action: the rest of the path; one trailing "/" is ignored.
        let pathEnd = parts.path.upperBound
        var actionStart = targetEnd
        var actionEnd = pathEnd
        if actionStart < actionEnd { actionStart += 1 }  // skip the "/" after the target
        if actionEnd > actionStart, bytes[actionEnd - 1] == UInt8(ascii: "/") { actionEnd -= 1 }

        guard targetEnd > targetStart else {
            return .failure(invalid(url, "the target is empty; \(expectedForm)"))
        }
        if bytes[actionStart..<actionEnd].contains(UInt8(ascii: "/")) {
            return .failure(invalid(url, "the path has more than one segment; \(expectedForm)"))
        }
        guard actionEnd > actionStart else {
            return .failure(invalid(url, "the action is missing; \(expectedForm)"))
        }

        let target: String
        switch decodeName(bytes[targetStart..<targetEnd], role: .target, url: url) {
        case .success(let name): target = name
        case .failure(let error): return .failure(error)
        }
        let action: String
        switch decodeName(bytes[actionStart..<actionEnd], role: .action, url: url) {
        case .success(let name): action = name
        case .failure(let error): return .failure(error)
        }
        return .success(CallURL(scheme: parts.scheme, target: target, action: action, query: parts.query))
    }

    /// The query of a parsed URL as params: values are strings, a repeated key collects its
    /// values in order into `[String]`, a key without `=` has the value `""`.
    static func parseQuery(_ url: String, _ parsed: CallURL, policy: URLPolicy) -> Result<Params, MediatorError> {
        parseQuery(url, range: parsed.query, target: parsed.target, action: parsed.action, policy: policy)
    }

    /// The query at `range` of `url` as params, as ``parseQuery(_:_:policy:)``; `target` and
    /// `action` name the call in errors (`nil` when the URL names no call).
    /// `more`: a second range whose items follow the first's (a fragment's, read with
    /// ``URLPolicy/readsFragmentsAsRoutes``), as if one query held both.
    static func parseQuery(
        _ url: String, range: Range<Int>, more: Range<Int> = 0..<0, target: String?, action: String?, policy: URLPolicy
    ) -> Result<Params, MediatorError> {
        guard !range.isEmpty || !more.isEmpty else { return .success(Params()) }
        return withUTF8Bytes(of: url) { bytes in
            // Collected, then made into params once: a few items stay pairs that nothing hashes,
            // here or when the action reads them.
            var collected = ParamsCollector()
            let limit = policy.maximumQueryItems
            let items = bytes[range].count(where: { $0 == UInt8(ascii: "&") }) + bytes[more].count(where: { $0 == UInt8(ascii: "&") }) + 2
            collected.reserveCapacity(min(limit, items))
            var itemCount = 0
            let plusAsSpace = policy.decodesPlusAsSpace
            if let error = parseQuery(
                bytes[range], into: &collected, counted: &itemCount, url: url, target: target, action: action, limit: limit, plusAsSpace: plusAsSpace)
            {
                return .failure(error)
            }
            if !more.isEmpty,
                let error = parseQuery(
                    bytes[more], into: &collected, counted: &itemCount, url: url, target: target, action: action, limit: limit, plusAsSpace: plusAsSpace)
            {
                return .failure(error)
            }
            return .success(collected.params)
        }
    }

    /// Adds the items of `query` to `collected`, counting them in `itemCount`; the error that
    /// stops it, if any.
    private static func parseQuery(
        _ query: Slice<UnsafeBufferPointer<UInt8>>, into collected: inout ParamsCollector, counted itemCount: inout Int, url: String, target: String?,
        action: String?, limit: Int, plusAsSpace: Bool
    ) -> MediatorError? {
        var start = query.startIndex
        while start <= query.endIndex {
            let end = query[start...].firstIndex(of: UInt8(ascii: "&")) ?? query.endIndex
            defer { start = end + 1 }
            // Empty items ("a=1&&b=2", a trailing "&", a bare "?") carry nothing and are skipped.
            guard end > start else { continue }
            itemCount += 1
            if itemCount > limit {
                return invalid(url, "it has more than \(limit) query items", target: target, action: action)
            }
            let item = query[start..<end]
            let equals = item.firstIndex(of: UInt8(ascii: "="))
            let rawKey = item[item.startIndex..<(equals ?? item.endIndex)]
            let rawValue = equals.map { item[($0 + 1)..<item.endIndex] } ?? item[item.endIndex..<item.endIndex]

            guard !rawKey.isEmpty else {
                return invalid(url, "a query item has an empty key", target: target, action: action)
            }
            let key: String
            switch percentDecode(rawKey, plusAsSpace: plusAsSpace) {
            case .success(let decoded): key = decoded
            case .failure(let problem):
                let shown = String(decoding: rawKey, as: UTF8.self)
                return invalid(url, "the query key \"\(MediatorError.shortened(shown))\" has \(problem)", target: target, action: action, parameter: shown)
            }
            // The mediator's own keys in a routed call: a link must not forge them.
            if key.utf8.first == UInt8(ascii: "@"), URLRoute.reservedKeys.contains(key) {
                return invalid(url, "the query key \"\(key)\" is reserved for the mediator", target: target, action: action, parameter: key)
            }
            let value: String
            switch percentDecode(rawValue, plusAsSpace: plusAsSpace) {
            case .success(let decoded): value = decoded
            case .failure(let problem):
                return invalid(
                    url, "the value of query key \"\(MediatorError.shortened(key))\" has \(problem)", target: target, action: action, parameter: key)
            }
            collected.add(key: key, value: value)
        }
        return nil
    }

    // MARK: Pieces

    /// Why a component could not be percent-decoded.
    enum DecodingProblem: Error, CustomStringConvertible {
        case malformedEscape(String)
        case invalidUTF8

        var description: String {
            switch self {
            // The escape's bytes come from the URL: escaped for terminals, as all quoted text is.
            case .malformedEscape(let escape): "a malformed percent-escape \"\(oneLine(escape, limit: 10))\""
            case .invalidUTF8: "percent-escapes that are not valid UTF-8"
            }
        }
    }

    /// `%XX` decoded (two hex digits), `+` kept as `+` (or made a space with `plusAsSpace`), the
    /// result checked to be UTF-8.
    static func percentDecode(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, plusAsSpace: Bool = false) -> Result<String, DecodingProblem> {
        guard bytes.contains(UInt8(ascii: "%")) || (plusAsSpace && bytes.contains(UInt8(ascii: "+"))) else {
            // Cut at ASCII delimiters from a valid String: still valid UTF-8.
            return .success(String(decoding: bytes, as: UTF8.self))
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "%") else {
                decoded.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
                continue
            }
            guard index + 2 < bytes.endIndex,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            else {
                let escapeEnd = min(index + 3, bytes.endIndex)
                return .failure(.malformedEscape(String(decoding: bytes[index..<escapeEnd], as: UTF8.self)))
            }
            decoded.append(high << 4 | low)
            index += 3
        }
        guard let text = validUTF8(decoded) else { return .failure(.invalidUTF8) }
        return .success(text)
    }

    /// A target or action name from the URL: percent-decoded, then reduced to its canonical form
    /// by the one function registration and lookup use, so every encoded, prefixed or selector
    /// spelling of a name is checked by the policy as the name dispatch will run.
    private static func decodeName(
        _ bytes: Slice<UnsafeBufferPointer<UInt8>>, role: Names.Role, url: String
    ) -> Result<String, MediatorError> {
        let name: String
        switch percentDecode(bytes) {
        case .failure(let problem): return .failure(invalid(url, "the \(role.word) has \(problem)"))
        case .success(let decoded): name = decoded
        }
        guard let canonical = Names.canonical(name, as: role) else {
            let problem = Names.problem(with: name, as: role) ?? "not a valid name"
            return .failure(invalid(url, "the \(role.word) \"\(MediatorError.shortened(name))\" is not a valid name (\(problem))"))
        }
        return .success(canonical)
    }

    static func invalid(
        _ url: String, _ why: String, target: String? = nil, action: String? = nil, parameter: String? = nil
    ) -> MediatorError {
        MediatorError(
            .invalidURL, target: target, action: action, parameter: parameter,
            reason: "invalid URL \(describe(url, limit: 120)): \(why)"
        )
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether `bytes` are a scheme's name, for a link and for a route alike: a letter, then
    /// letters, digits, `+`, `-` or `.`.
    static func isSchemeName<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard let first = bytes.first, isLetter(first) else { return false }
        return bytes.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }

    /// A server's name as routes with a host compare it, for a link's host and a route's alike:
    /// one trailing `.` dropped (`example.com.` is `example.com`), ASCII-lowercased; `nil` unless
    /// it is then 1 to 253 letters, digits, `-` and `.` with no empty label (so `.`, `a..b`, a
    /// decoded `@`, `:` or `/`, or a port names no server).
    static func serverName(_ text: String) -> String? {
        var host = text
        if host.utf8.last == UInt8(ascii: ".") { host.removeLast() }
        var previous = UInt8(ascii: ".")
        for byte in host.utf8 {
            guard isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || (byte == UInt8(ascii: ".") && previous != byte) else { return nil }
            previous = byte
        }
        guard previous != UInt8(ascii: "."), host.utf8.count <= 253 else { return nil }
        return Mediator.asciiLowercased(host)
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
