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
/// - `:name<type>` also requires the segment to be of a ``RoutePlaceholderType``: `int`, `uuid` or
///   `alpha`. Any other type is an error.
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
        let items = try GroupParser.parse(Array(text.utf8), fail: fail)
        let groupCount = GroupParser.groupCount(items)
        if groupCount > Self.maximumGroups { throw fail(.tooManyGroups(count: groupCount)) }
        let variantCount = GroupParser.variantCount(items)
        if variantCount > Self.maximumVariants { throw fail(.tooManyVariants(count: variantCount)) }
        var variants: [RouteVariant] = []
        var seen = Set<[UInt8]>()
        for bytes in GroupParser.expand(items) {
            let variant = try RouteVariant(parsing: String(decoding: bytes, as: UTF8.self), fail: fail)
            // `/a(/)` or `/a(/b)(/b)` spell the same variant twice: keep the first. Variants that
            // differ only in names (`/user/:id`, `/user/:tab`) are both kept: both are listed.
            if seen.insert(Array(variant.description.utf8)).inserted { variants.append(variant) }
        }
        self.variants = variants
    }

    /// The set of URLs this pattern matches, independent of parameter names: two patterns with
    /// equal shapes are duplicates (`/user/:id` and `/user/:uid`).
    var shape: Set<[RouteVariant.Shape]> { Set(variants.map(\.shape)) }
}

/// One expanded variant of a ``RoutePattern``: a fixed sequence of segments.
struct RouteVariant: Sendable, CustomStringConvertible {
    /// One segment of a variant.
    enum Segment: Sendable {
        /// Matches exactly these bytes.
        case literal(String)
        /// Matches one non-empty segment (of `type`, when given), captured as `name`.
        case parameter(name: String, type: RoutePlaceholderType?)
        /// Matches the rest of the path, zero or more segments; always last.
        case wildcard
    }

    /// A segment without its parameter name: what decides which URLs it matches.
    enum Shape: Hashable, Sendable {
        /// A literal, compared byte for byte.
        case literal(RouteLiteral)
        /// A placeholder, typed or not.
        case parameter(RoutePlaceholderType?)
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
            case .wildcard: text += "*"
            }
        }
        return text
    }

    /// Parses one variant (a pattern with its groups already expanded).
    fileprivate init(parsing text: String, fail: (RouteError.Problem) -> RouteError) throws {
        // Split on the byte `/`, as paths are: by `Character`, a `/` followed by a combining mark
        // (`/user/\u{30D}`) would be one character and not end a segment.
        var body = Array(text.utf8)[...]
        if body.first == UInt8(ascii: "/") { body = body.dropFirst() }
        // One trailing `/` is dropped, as callers drop one from paths; `//` stays an empty segment.
        if body.count > 1, body.last == UInt8(ascii: "/") { body = body.dropLast() }
        var segments: [Segment] = []
        var names = Set<String>()
        if !body.isEmpty {
            let pieces = body.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { Substring(String(decoding: $0, as: UTF8.self)) }
            if pieces.count > RoutePattern.maximumSegments { throw fail(.tooManySegments(count: pieces.count)) }
            for (index, piece) in pieces.enumerated() {
                if piece.isEmpty { throw fail(.emptySegment(variant: text)) }
                let segment = try Self.segment(piece, fail: fail)
                switch segment {
                case .wildcard where index != pieces.count - 1:
                    throw fail(.wildcardNotLast)
                case .parameter(let name, _):
                    if !names.insert(name).inserted { throw fail(.duplicateParameter(name: name)) }
                default: break
                }
                segments.append(segment)
            }
        }
        self.segments = segments
    }

    /// Parses one non-empty segment.
    private static func segment(_ piece: Substring, fail: (RouteError.Problem) -> RouteError) throws -> Segment {
        let bytes = Array(piece.utf8)
        if bytes == [UInt8(ascii: "*")] { return .wildcard }
        if bytes.contains(UInt8(ascii: "*")) { throw fail(.wildcardMixedWithText(segment: String(piece))) }
        guard bytes.first == UInt8(ascii: ":") else {
            if bytes.contains(UInt8(ascii: ":")) { throw fail(.placeholderMixedWithText(segment: String(piece))) }
            return .literal(String(piece))
        }
        var end = 1
        while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
        let name = String(decoding: bytes[1..<end], as: UTF8.self)
        if name.isEmpty {
            if end == bytes.count || bytes[end] == UInt8(ascii: "<") { throw fail(.emptyPlaceholderName(segment: String(piece))) }
            throw fail(.placeholderMixedWithText(segment: String(piece)))
        }
        if let first = name.utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") {
            throw fail(.invalidPlaceholderName(name: name))
        }
        if end == bytes.count { return .parameter(name: name, type: nil) }
        guard bytes[end] == UInt8(ascii: "<") else { throw fail(.placeholderMixedWithText(segment: String(piece))) }
        guard bytes.last == UInt8(ascii: ">"), bytes.count > end + 1 else { throw fail(.unterminatedType(segment: String(piece))) }
        let typeName = String(decoding: bytes[(end + 1)..<(bytes.count - 1)], as: UTF8.self)
        guard let type = RoutePlaceholderType(rawValue: typeName) else { throw fail(.unknownType(type: typeName)) }
        return .parameter(name: name, type: type)
    }

    /// ASCII letters, digits and `_`: the bytes of a parameter name.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }
}

// MARK: - Optional groups

/// Splits a pattern's bytes into text and parenthesised groups, and expands the groups. Works on
/// bytes so that a `(` inside a multi-byte character cannot be misread (UTF-8 never reuses ASCII
/// bytes inside other characters).
private enum GroupParser {
    /// Text, or an optional group of further items.
    indirect enum Item {
        /// Bytes copied into every variant that reaches them.
        case text([UInt8])
        /// A part that each variant either includes or leaves out.
        case group([Item])
    }

    /// The items of `bytes`; throws on unbalanced or empty parentheses.
    static func parse(_ bytes: [UInt8], fail: (RouteError.Problem) -> RouteError) throws -> [Item] {
        var stack: [[Item]] = [[]]
        var text: [UInt8] = []
        /// Ends the current run of text, adding it to the innermost open group.
        func flushText() {
            if !text.isEmpty { stack[stack.count - 1].append(.text(text)) }
            text = []
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "("):
                flushText()
                stack.append([])
            case UInt8(ascii: ")"):
                flushText()
                guard stack.count > 1 else { throw fail(.unbalancedClosingParenthesis) }
                let group = stack.removeLast()
                if group.isEmpty { throw fail(.emptyGroup) }
                stack[stack.count - 1].append(.group(group))
            default:
                text.append(byte)
            }
        }
        flushText()
        guard stack.count == 1 else { throw fail(.unbalancedOpeningParenthesis) }
        return stack[0]
    }

    /// How many groups, nested ones included.
    static func groupCount(_ items: [Item]) -> Int {
        items.reduce(0) { count, item in
            if case .group(let inner) = item { return count + 1 + groupCount(inner) }
            return count
        }
    }

    /// How many variants `items` expands into (before removing repeats). Called only after the
    /// group count is capped, so it stays below 2^8.
    static func variantCount(_ items: [Item]) -> Int {
        items.reduce(1) { count, item in
            if case .group(let inner) = item { return count * (1 + variantCount(inner)) }
            return count
        }
    }

    /// Every variant's bytes: for each group, first without it, then with each of its own
    /// variants; earlier groups vary fastest, so `(/:id)(/:tab)` gives `/:id` before `/:tab`.
    static func expand(_ items: [Item]) -> [[UInt8]] {
        var variants: [[UInt8]] = [[]]
        for item in items {
            switch item {
            case .text(let bytes):
                for index in variants.indices { variants[index] += bytes }
            case .group(let inner):
                let options = [[]] + expand(inner)
                variants = options.flatMap { option in variants.map { $0 + option } }
            }
        }
        return variants
    }
}

// MARK: - Placeholder types

/// The types a placeholder can require (`:id<int>`). They take part in matching: a segment that
/// is not of the type does not match, and the next candidate is tried. The captured value stays a
/// `String` (the action's own coercion converts it). The types are disjoint: no segment is of two.
enum RoutePlaceholderType: String, Sendable, CaseIterable {
    /// An optional leading `-`, then ASCII digits only, within `Int64` (no `+`, no spaces).
    case int
    /// 8-4-4-4-12 hexadecimal digits (either case) separated by `-`, 36 bytes in all.
    case uuid
    /// One or more ASCII letters.
    case alpha

    /// Whether `segment` is of this type, checked on its UTF-8 bytes.
    func accepts<Text: StringProtocol>(_ segment: Text) -> Bool {
        // Over the bytes in place when the text is stored contiguously (always, for the segments
        // a URL is split into): a generic walk of a `UTF8View` costs several times more.
        if let accepted = segment.utf8.withContiguousStorageIfAvailable({ accepts(bytes: $0) }) { return accepted }
        return accepts(bytes: Array(segment.utf8))
    }

    /// ``accepts(_:)`` over the segment's bytes.
    private func accepts<Bytes: Collection<UInt8>>(bytes: Bytes) -> Bool {
        switch self {
        case .int: return Self.isInt64(bytes)
        case .uuid: return Self.isUUID(bytes)
        case .alpha: return !bytes.isEmpty && bytes.allSatisfy(Self.isLetter)
        }
    }

    /// `-?[0-9]+` whose value fits in `Int64`. Accumulates negatively so that `Int64.min` fits.
    private static func isInt64<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var digits = bytes[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return false }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return false }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return false }
            value = next
        }
        return negative || value != Int64.min
    }

    /// The 36-byte 8-4-4-4-12 form.
    private static func isUUID<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard bytes.count == 36 else { return false }
        for (offset, byte) in bytes.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard isHexDigit(byte) else { return false }
            }
        }
        return true
    }

    /// ASCII `a`–`z` or `A`–`Z`.
    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    /// ASCII `0`–`9`, `a`–`f` or `A`–`F`.
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }
}

// MARK: - Literal keys

/// A literal segment as a dictionary key compared byte for byte (UTF-8). `String`'s own `==`
/// and hash follow Unicode canonical equivalence (`"é"` equals `"e\u{301}"`), which a route must
/// not: names are compared by their bytes. Holds a `Substring` so a path segment can be looked up
/// without copying it.
struct RouteLiteral: Hashable, Sendable {
    /// The literal's text.
    let text: Substring

    /// The key for `text`.
    init<Text: RouteSegmentText>(_ text: Text) {
        self.text = text.wholeSubstring
    }

    /// Equal when the UTF-8 bytes are equal.
    static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.text.utf8.count == rhs.text.utf8.count else { return false }
        // In place when both are stored contiguously (a generic walk of two `UTF8View`s costs
        // several times more), else the views themselves.
        let equal = lhs.text.utf8.withContiguousStorageIfAvailable { left in
            rhs.text.utf8.withContiguousStorageIfAvailable { right in left.elementsEqual(right) }
        }
        if let equal, let equal { return equal }
        return lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    /// Hashes the UTF-8 bytes, consistently with `==`.
    func hash(into hasher: inout Hasher) {
        // Both paths hash the same bytes the same way, so equal keys hash equally.
        if text.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
            Array(text.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}

// MARK: - Errors

/// Why a route could not be registered: its pattern is malformed, or it duplicates a route that is
/// already there. The `description` is one line naming the pattern and the problem, e.g.
/// `route "/user/:id<float>": unknown placeholder type "float" (known: int, uuid, alpha)`.
struct RouteError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with the pattern.
    enum Problem: Equatable, Sendable {
        /// A `(` without its `)`.
        case unbalancedOpeningParenthesis
        /// A `)` without its `(`.
        case unbalancedClosingParenthesis
        /// `()`: an optional group with nothing in it.
        case emptyGroup
        /// More than ``RoutePattern/maximumGroups`` optional groups.
        case tooManyGroups(count: Int)
        /// More than ``RoutePattern/maximumVariants`` variants after expansion.
        case tooManyVariants(count: Int)
        /// More than ``RoutePattern/maximumSegments`` segments in a variant.
        case tooManySegments(count: Int)
        /// `//` in a variant (shown after expansion, which is where it may appear).
        case emptySegment(variant: String)
        /// `*` before the last segment.
        case wildcardNotLast
        /// `*` together with other text in one segment (`a*`).
        case wildcardMixedWithText(segment: String)
        /// A placeholder with literal text in the same segment (`user-:id`, `:id-x`).
        case placeholderMixedWithText(segment: String)
        /// `:` or `:<int>` without a name.
        case emptyPlaceholderName(segment: String)
        /// A name starting with a digit.
        case invalidPlaceholderName(name: String)
        /// `<` without a type name and a closing `>` ending the segment.
        case unterminatedType(segment: String)
        /// A type other than those of ``RoutePlaceholderType``.
        case unknownType(type: String)
        /// The same parameter name twice in one variant.
        case duplicateParameter(name: String)
        /// A route that matches exactly the URLs of the route `existing` (its pattern as written).
        case duplicateRoute(existing: String)
    }

    /// The pattern as registered.
    let pattern: String
    /// What is wrong with it.
    let problem: Problem

    /// `route "<pattern>": <problem>`, on one line.
    var description: String {
        "route \"\(oneLine(pattern, limit: 200))\": " + problemText
    }

    /// The problem in words; texts from the pattern are escaped for terminals.
    private var problemText: String {
        switch problem {
        case .unbalancedOpeningParenthesis: return "unbalanced \"(\": no matching \")\""
        case .unbalancedClosingParenthesis: return "unbalanced \")\": no matching \"(\""
        case .emptyGroup: return "empty optional group \"()\""
        case .tooManyGroups(let count): return "\(count) optional groups (at most \(RoutePattern.maximumGroups))"
        case .tooManyVariants(let count): return "expands into \(count) variants (at most \(RoutePattern.maximumVariants))"
        case .tooManySegments(let count): return "\(count) segments (at most \(RoutePattern.maximumSegments))"
        case .emptySegment(let variant): return "empty segment in \"\(oneLine(variant, limit: 200))\""
        case .wildcardNotLast: return "\"*\" must be the last segment"
        case .wildcardMixedWithText(let segment):
            return "segment \"\(oneLine(segment, limit: 100))\" mixes \"*\" with other text (\"*\" must be a whole segment)"
        case .placeholderMixedWithText(let segment):
            return "segment \"\(oneLine(segment, limit: 100))\" mixes literal text and a placeholder"
        case .emptyPlaceholderName(let segment): return "empty placeholder name in segment \"\(oneLine(segment, limit: 100))\""
        case .invalidPlaceholderName(let name): return "placeholder name \"\(name)\" must start with an ASCII letter or \"_\""
        case .unterminatedType(let segment):
            return "segment \"\(oneLine(segment, limit: 100))\" has \"<\" without a type and a closing \">\" at its end"
        case .unknownType(let type):
            let known = RoutePlaceholderType.allCases.map(\.rawValue).joined(separator: ", ")
            return "unknown placeholder type \"\(oneLine(type, limit: 100))\" (known: \(known))"
        case .duplicateParameter(let name): return "parameter \"\(name)\" appears twice in one variant"
        case .duplicateRoute(let existing):
            return "matches exactly the URLs of route \"\(oneLine(existing, limit: 200))\" (register with replacing: true to replace it)"
        }
    }
}

/// The text types a path segment can come as (`String` or `Substring`), each viewable as a
/// `Substring` without copying, so the matcher takes either without converting the path.
protocol RouteSegmentText: StringProtocol {
    /// The whole text as a `Substring` (free for both conforming types).
    var wholeSubstring: Substring { get }
}

/// A `String` path segment.
extension String: RouteSegmentText {
    /// The whole string as a `Substring`.
    var wholeSubstring: Substring { self[...] }
}

/// A `Substring` path segment, as split from a path.
extension Substring: RouteSegmentText {
    /// The substring itself.
    var wholeSubstring: Substring { self }
}
