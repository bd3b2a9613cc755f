/// A parsed deep-link route pattern such as `/user/:id<int>(/:tab)`: the text as written and every
/// variant its optional groups expand into.
///
/// Syntax (JLRoutes-compatible, plus typed placeholders):
/// - A path of segments split on `/`; the leading `/` is optional and one trailing `/` is dropped.
///   `/` and the empty text are the pattern of zero segments (the empty path).
/// - A literal segment matches the same bytes (UTF-8, byte for byte: no case folding, no Unicode
///   normalisation) against the already percent-decoded path segment, so it is written decoded
///   (`/a b`, not `/a%20b`). It must not contain `:` or `*`.
/// - `:name` matches one non-empty segment and captures it as the parameter `name` (ASCII letters,
///   digits and `_`, starting with a letter or `_`).
/// - `:name<type>` also requires the segment to be of a ``RoutePlaceholderType``: `int`, `uuid`,
///   `alpha` or `float`. Any other type is an error.
/// - A placeholder may have literal text around it in its segment, at most one placeholder per
///   segment (`/file/:name.json`, `/v:version<int>`, `/:object#`): the segment must begin with the
///   text before it and end with the text after it, and the placeholder captures what lies
///   between, which must not be empty (and be of the type, if one is given). The name is the
///   longest run of name bytes after the `:`, so a suffix starts with anything else (`:id_x` is
///   the name `id_x`; write `:id<int>_x` for `id` then `_x`). The text around a placeholder must
///   not hold `<` or `>`.
/// - `*` as the last segment matches the rest of the path (zero or more segments), captured as a
///   `[String]`. `*` anywhere else is an error.
/// - `( … )` marks an optional part, possibly nested: every combination of including and leaving
///   out each group, a nested group only when its parent is included (`/user(/:id)(/:tab)` is
///   `/user`, `/user/:id`, `/user/:tab`, `/user/:id/:tab`). At most ``maximumGroups`` groups and
///   ``maximumVariants`` variants.
///
/// Parsing happens once, when a route is registered; matching never looks at the text again.
struct RoutePattern: Sendable {
    /// At most this many optional groups in one pattern: each doubles the work at registration.
    static let maximumGroups = 8
    /// At most this many variants after expanding the optional groups.
    static let maximumVariants = 64
    /// At most this many segments in a variant; the matcher refuses longer paths anyway
    /// (``RouteTrie/maximumSegments``), so a longer pattern could never match.
    static let maximumSegments = 64
    /// At most this many UTF-8 bytes in a pattern: each variant copies its text, so a long
    /// pattern with groups would cost 64 times its length before any other limit could see it.
    static let maximumLength = 4_096

    /// The pattern as registered, shown in matches, listings and errors.
    let text: String
    /// The distinct variants in expansion order: groups left out before included, earlier groups
    /// included first. Two variants of one route that match a path equally well are decided by
    /// this order.
    let variants: [RouteVariant]

    /// Parses `text`, throwing a ``RouteError`` that names the pattern and what is wrong with it.
    init(parsing text: String) throws {
        self.text = text
        let fail = { (problem: RouteError.Problem) in RouteError(pattern: text, problem: problem) }
        if text.utf8.count > Self.maximumLength { throw fail(.tooLong(bytes: text.utf8.count)) }
        let items = try GroupParser.parse(Array(text.utf8), fail: fail)
        let groupCount = GroupParser.groupCount(items)
        if groupCount > Self.maximumGroups { throw fail(.tooManyGroups(count: groupCount)) }
        let variantCount = GroupParser.variantCount(items)
        if variantCount > Self.maximumVariants { throw fail(.tooManyVariants(count: variantCount)) }
        var variants: [RouteVariant] = []
        let expanded = GroupParser.expand(items)
        var seen = Set<[UInt8]>()
        // One unit for the route itself (its entry, destination and listing).
        var size = 1
        for bytes in expanded {
            let variant = try RouteVariant(parsing: bytes, fail: fail)
            // `/a(/)` or `/a(/b)(/b)` spell the same variant twice: keep the first. Variants that
            // differ only in names (`/user/:id`, `/user/:tab`) are both kept: both are listed.
            // (A pattern without groups has one variant: nothing to compare.)
            if expanded.count == 1 || seen.insert(Array(variant.description.utf8)).inserted {
                variants.append(variant)
                size += max(1, variant.segments.count) + bytes.count / 32
            }
        }
        self.variants = variants
        self.size = size
        var hasher = Hasher()
        hasher.combine(Self.shape(of: variants))
        shapeHash = hasher.finalize()
    }

    /// The room the pattern takes in a route table: one unit for the route, and for each variant
    /// one unit per segment (at least one) and one per 32 bytes of its text. The trie has at most one node per segment of
    /// each variant, and the variants are stored with their segments and text; what
    /// ``RouteTable/maximumSize`` caps.
    let size: Int

    /// The hash of ``shape``, kept so that finding a route's duplicate costs one lookup. (A
    /// `var` so that tests can make two shapes collide.)
    var shapeHash: Int

    /// The set of URLs this pattern matches, independent of parameter names: two patterns with
    /// equal shapes are duplicates (`/user/:id` and `/user/:uid`). A variant that a wildcard
    /// variant of the same pattern already covers is left out (`/a(/*)` is `/a` and `/a/*`, and
    /// `/a/*` matches `/a` too; `/a(/:x)/*` adds `/a/:x/*`, all of whose URLs `/a/*` matches), so
    /// that `/a/*`, `/a(/*)` and `/a(/:x)/*` are found to be duplicates.
    var shape: Set<[RouteVariant.Shape]> { Self.shape(of: variants) }

    /// The ``shape`` of a pattern with these variants.
    private static func shape(of variants: [RouteVariant]) -> Set<[RouteVariant.Shape]> {
        let all = Set(variants.map(\.shape))
        let covering = all.filter { $0.last == .wildcard }.map { Array($0.dropLast()) }
        guard !covering.isEmpty else { return all }
        return all.filter { variant in
            !covering.contains { prefix in variant.starts(with: prefix) && variant != prefix + [.wildcard] }
        }
    }
}

/// One expanded variant of a ``RoutePattern``: a fixed sequence of segments.
struct RouteVariant: Sendable, CustomStringConvertible {
    /// One segment of a variant.
    enum Segment: Sendable {
        /// Matches exactly these bytes.
        case literal(String)
        /// Matches one non-empty segment (of `type`, when given), captured as `name`.
        case parameter(name: String, type: RoutePlaceholderType?)
        /// Matches a segment that begins with `prefix` and ends with `suffix` (at least one of them
        /// not empty) around a non-empty value (of `type`, when given), captured as `name`.
        case affixed(name: String, type: RoutePlaceholderType?, prefix: String, suffix: String)
        /// Matches the rest of the path, zero or more segments; always last.
        case wildcard
    }

    /// A segment without its parameter name: what decides which URLs it matches.
    enum Shape: Hashable, Sendable {
        /// A literal, compared byte for byte.
        case literal(RouteLiteral)
        /// A placeholder, typed or not.
        case parameter(RoutePlaceholderType?)
        /// A placeholder with literal text around it, compared byte for byte.
        case affixed(RoutePlaceholderType?, prefix: RouteLiteral, suffix: RouteLiteral)
        /// The trailing wildcard.
        case wildcard
    }

    /// The segments, in order; a wildcard can only be last.
    let segments: [Segment]

    /// The segments without parameter names.
    var shape: [Shape] {
        segments.map { segment in
            switch segment {
            case .literal(let text): return .literal(RouteLiteral(text))
            case .parameter(_, let type): return .parameter(type)
            case .affixed(_, let type, let prefix, let suffix): return .affixed(type, prefix: RouteLiteral(prefix), suffix: RouteLiteral(suffix))
            case .wildcard: return .wildcard
            }
        }
    }

    /// The variant written back as a pattern, e.g. `/user/:id<int>/*` (the empty path is `/`).
    var description: String {
        if segments.isEmpty { return "/" }
        var text = ""
        for segment in segments {
            text += "/"
            switch segment {
            case .literal(let literal): text += literal
            case .parameter(let name, let type): text += ":" + name + (type.map { "<\($0.rawValue)>" } ?? "")
            case .affixed(let name, let type, let prefix, let suffix): text += prefix + ":" + name + (type.map { "<\($0.rawValue)>" } ?? "") + suffix
            case .wildcard: text += "*"
            }
        }
        return text
    }

    /// Parses one variant (a pattern with its groups already expanded).
    fileprivate init(parsing text: [UInt8], fail: (RouteError.Problem) -> RouteError) throws {
        // Split on the byte `/`, as paths are: by `Character`, a `/` followed by a combining mark
        // (`/user/\u{30D}`) would be one character and not end a segment.
        var body = text[...]
        if body.first == UInt8(ascii: "/") { body = body.dropFirst() }
        // One trailing `/` is dropped, as callers drop one from paths; `//` stays an empty segment.
        if body.count > 1, body.last == UInt8(ascii: "/") { body = body.dropLast() }
        var segments: [Segment] = []
        // At most 64 segments: a list is searched faster than a set is built.
        var names: [String] = []
        if !body.isEmpty {
            let pieces = body.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            if pieces.count > RoutePattern.maximumSegments { throw fail(.tooManySegments(count: pieces.count)) }
            segments.reserveCapacity(pieces.count)
            for (index, piece) in pieces.enumerated() {
                if piece.isEmpty { throw fail(.emptySegment(variant: String(decoding: text, as: UTF8.self))) }
                let segment = try Self.segment(piece, fail: fail)
                switch segment {
                case .wildcard where index != pieces.count - 1:
                    throw fail(.wildcardNotLast)
                case .parameter(let name, _), .affixed(let name, _, _, _):
                    if names.contains(name) { throw fail(.duplicateParameter(name: name)) }
                    names.append(name)
                default: break
                }
                segments.append(segment)
            }
        }
        self.segments = segments
    }

    /// Parses one non-empty segment.
    private static func segment(_ bytes: ArraySlice<UInt8>, fail: (RouteError.Problem) -> RouteError) throws -> Segment {
        let piece = String(decoding: bytes, as: UTF8.self)
        // A literal, the usual segment, without a copy of its bytes.
        if !bytes.contains(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "*") }) { return .literal(piece) }
        let bytes = Array(bytes)
        if bytes == [UInt8(ascii: "*")] { return .wildcard }
        if bytes.contains(UInt8(ascii: "*")) { throw fail(.wildcardMixedWithText(segment: piece)) }
        let colon = bytes.firstIndex(of: UInt8(ascii: ":"))!
        var end = colon + 1
        while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
        let name = String(decoding: bytes[(colon + 1)..<end], as: UTF8.self)
        if name.isEmpty { throw fail(.emptyPlaceholderName(segment: piece)) }
        if let first = name.utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") {
            throw fail(.invalidPlaceholderName(name: name))
        }
        var type: RoutePlaceholderType?
        if end < bytes.count, bytes[end] == UInt8(ascii: "<") {
            guard let close = bytes[end...].firstIndex(of: UInt8(ascii: ">")) else { throw fail(.unterminatedType(segment: piece)) }
            let typeName = String(decoding: bytes[(end + 1)..<close], as: UTF8.self)
            guard let known = RoutePlaceholderType(rawValue: typeName) else { throw fail(.unknownType(type: typeName)) }
            type = known
            end = close + 1
        }
        if bytes[end...].contains(UInt8(ascii: ":")) { throw fail(.twoPlaceholders(segment: piece)) }
        // A "<" or ">" around a placeholder is most likely a mistyped type (`:id<int><uuid>`).
        if bytes[..<colon].contains(where: Self.isAngleBracket) || bytes[end...].contains(where: Self.isAngleBracket) {
            throw fail(.angleBracketInText(segment: piece))
        }
        if colon == 0, end == bytes.count { return .parameter(name: name, type: type) }
        return .affixed(
            name: name, type: type, prefix: String(decoding: bytes[..<colon], as: UTF8.self), suffix: String(decoding: bytes[end...], as: UTF8.self))
    }

    /// `<` or `>`.
    private static func isAngleBracket(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
    }

    /// ASCII letters, digits and `_`: the bytes of a parameter name.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }
}
