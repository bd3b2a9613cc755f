/// The types a placeholder can require (`:id<int>`). They take part in matching: a segment that
/// is not of the type does not match, and the next candidate is tried. The captured value stays a
/// `String` (the action's own coercion converts it).
///
/// Only `int` and `float` overlap (an integer is also a `float`); the others are disjoint. Where
/// both match a segment, `int` wins (``rank``), so an integer goes to `int` and any other number
/// to `float`. The cases are in the order of their ranks, the order the trie tries them in.
enum RoutePlaceholderType: String, Sendable, CaseIterable {
    /// An optional leading `-`, then ASCII digits only, within `Int64` (no `+`, no spaces).
    case int
    /// 8-4-4-4-12 hexadecimal digits (either case) separated by `-`, 36 bytes in all.
    case uuid
    /// One or more ASCII letters.
    case alpha
    /// A finite decimal number: an optional leading `-`, ASCII digits, optionally `.` and more
    /// digits, optionally `e` or `E`, an optional sign and digits (`42`, `-1.5`, `2.5e-3`). No `+`
    /// in front, no bare `.5` or `5.`, no `nan`, `inf` or hexadecimal, and nothing that overflows a
    /// `Double`.
    case float

    /// The type's place in precedence among the kinds of segment, where a literal is 0 and an
    /// untyped placeholder 3: `float` is 2, after the types it overlaps with (`int`), and every
    /// other type 1 (they are disjoint, so their order among themselves never decides a match).
    var rank: Int { self == .float ? 2 : 1 }

    /// Whether `segment` is of this type, checked on its UTF-8 bytes.
    func accepts<Text: StringProtocol>(_ segment: Text) -> Bool {
        // Over the bytes in place when the text is stored contiguously (always, for the segments
        // a URL is split into): a generic walk of a `UTF8View` costs several times more.
        if let accepted = segment.utf8.withContiguousStorageIfAvailable({ accepts(bytes: $0) }) { return accepted }
        return accepts(bytes: Array(segment.utf8))
    }

    /// ``accepts(_:)`` over the segment's bytes (the trie calls this with the bytes in place).
    func accepts<Bytes: Collection<UInt8>>(bytes: Bytes) -> Bool {
        switch self {
        case .int: return Self.isInt64(bytes)
        case .float: return Self.isFiniteDecimal(bytes)
        case .uuid: return Self.isUUID(bytes)
        case .alpha: return !bytes.isEmpty && bytes.allSatisfy(URLParser.isLetter)
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

    /// `-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?` whose value is finite as a `Double`.
    private static func isFiniteDecimal<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var rest = bytes[...]
        /// Drops the leading ASCII digits; whether there was at least one.
        func digits() -> Bool {
            let count = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            rest = rest.dropFirst(count)
            return count > 0
        }
        if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        guard digits() else { return false }
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            guard digits() else { return false }
        }
        if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
            guard digits() else { return false }
        }
        guard rest.isEmpty else { return false }
        // The grammar holds, so the text is ASCII; only a value too large for a Double is left.
        return Double(String(decoding: bytes, as: UTF8.self))?.isFinite == true
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

// MARK: - Segment text

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
