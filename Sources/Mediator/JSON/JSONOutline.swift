/// A JSON text read once, for a reader that wants a few members of its objects: each object's
/// members are listed in the order written (key, and where the value is), scalars are read, and
/// arrays are checked and kept as text until asked for. Finding a member hashes nothing, so a
/// small message (a Model Context Protocol request) costs far less than a ``JSONValue``, whose
/// every object is a dictionary.
///
/// It accepts exactly the texts `JSONValue(parsing:)` accepts, and refuses the others with the
/// same ``JSONValue/ParseError``: both read with the same parser, and an object's repeated key is
/// refused here too.
package struct JSONOutline: Sendable {
    /// A value in the text.
    package struct Node: Sendable {
        fileprivate let entry: Int
    }

    /// One value: an object member's key (empty for the whole text's value), what it is, and
    /// the entry after its members (the next member of the object holding it).
    private struct Entry: Sendable {
        let key: Key
        let kind: Kind
        var next: Int
    }

    /// A member's key, as the parser read it: where its bytes are, when they are printable ASCII
    /// without escapes (the usual key, compared without making a string), else its text. (Empty
    /// for the whole text's value and for array elements.)
    private typealias Key = JSONValue.Parser.StringRead

    private enum Kind: Sendable {
        case scalar(JSONValue)
        /// Its members are the entries up to `next`.
        case object
        /// Where its text is.
        case array(Range<Int>)
    }

    /// The text read: its bytes are lent again whenever a key or an array is read.
    private let text: String
    private let entries: [Entry]

    /// How many members an object's repeated-key check compares one by one; past that, a set.
    private static let linearKeyCheckLimit = 16

    /// Reads one JSON value (RFC 8259), with nothing but whitespace after it.
    package init(parsing text: String) throws(JSONValue.ParseError) {
        var entries: [Entry] = []
        entries.reserveCapacity(16)
        self.text = text
        try JSONValue.Parser.whole(text) { parser throws(JSONValue.ParseError) in
            try Self.read(&parser, key: .plain(0..<0), depth: 0, into: &entries)
        }
        self.entries = entries
    }

    private static func read(_ parser: inout JSONValue.Parser, key: Key, depth: Int, into entries: inout [Entry]) throws(JSONValue.ParseError) {
        switch try parser.valueStart(depth: depth) {
        case UInt8(ascii: "{"):
            let object = entries.count
            entries.append(Entry(key: key, kind: .object, next: object + 1))
            var count = 0
            var seen: Set<String> = []
            try parser.forEachMember { parser, key throws(JSONValue.ParseError) in
                // (The object's members so far are the entries after it: its end is not known yet.)
                if count < linearKeyCheckLimit {
                    let bytes = parser.bytes
                    if Self.members(from: object, upTo: entries.count, in: entries).contains(where: { entries[$0].key.isSame(as: key, in: bytes) }) {
                        throw parser.repeatedKey(key.text(in: bytes))
                    }
                } else {
                    if seen.isEmpty { seen = Set(Self.members(from: object, upTo: entries.count, in: entries).map { entries[$0].key.text(in: parser.bytes) }) }
                    let text = key.text(in: parser.bytes)
                    guard seen.insert(text).inserted else { throw parser.repeatedKey(text) }
                }
                count += 1
                try Self.read(&parser, key: key, depth: depth + 1, into: &entries)
            }
            entries[object].next = entries.count
        case UInt8(ascii: "["):
            let start = parser.index
            let mark = entries.count
            try parser.forEachElement { parser throws(JSONValue.ParseError) in
                // Checked, then forgotten: the array is read again from its text if it is asked for.
                try read(&parser, key: .plain(0..<0), depth: depth + 1, into: &entries)
                entries.removeSubrange(mark...)
            }
            entries.append(Entry(key: key, kind: .array(start..<parser.index), next: mark + 1))
        default:
            let value = try parser.value(depth: depth)
            entries.append(Entry(key: key, kind: .scalar(value), next: entries.count + 1))
        }
    }

    /// The entries of the members of the object at `object`, which end before `end`.
    private static func members(from object: Int, upTo end: Int, in entries: [Entry]) -> Members {
        Members(entries: entries, current: object + 1, end: end)
    }

    /// The entries of an object's members, one after the other (no array made).
    private struct Members: Sequence, IteratorProtocol {
        let entries: [Entry]
        var current: Int
        let end: Int

        mutating func next() -> Int? {
            guard current < end else { return nil }
            defer { current = entries[current].next }
            return current
        }
    }

    /// The whole text's value.
    package var root: Node { Node(entry: 0) }

    /// Whether `node` is an object.
    package func isObject(_ node: Node) -> Bool {
        if case .object = entries[node.entry].kind { return true }
        return false
    }

    /// The members of the object `node`, in the order written; `nil` when it is not an object.
    package func members(of node: Node) -> [(key: String, value: Node)]? {
        members(of: node) { ($0, $1) }
    }

    /// Each member of the object `node`, in the order written, made into an element by
    /// `element` from its key and value; `nil` when it is not an object.
    package func members<Element>(of node: Node, _ element: (String, Node) -> Element) -> [Element]? {
        guard isObject(node) else { return nil }
        return withUTF8Bytes(of: text) { bytes in
            Self.members(from: node.entry, upTo: entries[node.entry].next, in: entries).map { element(entries[$0].key.text(in: bytes), Node(entry: $0)) }
        }
    }

    /// The member `key` of the object `node`; `nil` when it has none, or is not an object.
    package func member(_ key: StaticString, of node: Node) -> Node? {
        guard isObject(node) else { return nil }
        return key.withUTF8Buffer { wanted in
            withUTF8Bytes(of: text) { bytes in
                Self.members(from: node.entry, upTo: entries[node.entry].next, in: entries)
                    .first { entries[$0].key.isSame(as: wanted, isASCII: key.isASCII, in: bytes) }.map(Node.init(entry:))
            }
        }
    }

    /// The value at `node`, as `JSONValue(parsing:)` reads it.
    package func value(of node: Node) -> JSONValue {
        switch entries[node.entry].kind {
        case .scalar(let value): return value
        case .object:
            let members = Self.members(from: node.entry, upTo: entries[node.entry].next, in: entries)
            let keys = withUTF8Bytes(of: text) { bytes in members.map { entries[$0].key.text(in: bytes) } }
            // (Reading refused repeated keys; a repeat would keep the first rather than trap.)
            return .object(Dictionary(zip(keys, members.map { value(of: Node(entry: $0)) }), uniquingKeysWith: { first, _ in first }))
        case .array(let range):
            return withUTF8Bytes(of: text) { bytes in
                var parser = JSONValue.Parser(bytes: bytes, index: range.lowerBound)
                // (It was read once already: it cannot fail now.)
                return (try? parser.value(depth: 0)) ?? .null
            }
        }
    }
}

extension JSONValue.Parser.StringRead {
    /// Whether the two keys are the same string, as `String` compares them (two ASCII texts
    /// are equal only byte for byte; others may be equal in other bytes).
    fileprivate func isSame(as other: Self, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if case .plain(let range) = self, case .plain(let otherRange) = other {
            return sameBytes(UnsafeBufferPointer(rebasing: bytes[range]), UnsafeBufferPointer(rebasing: bytes[otherRange]))
        }
        return text(in: bytes) == other.text(in: bytes)
    }

    /// Whether the key is the text whose UTF-8 is `text`.
    fileprivate func isSame(as text: UnsafeBufferPointer<UInt8>, isASCII: Bool, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if case .plain(let range) = self, isASCII {
            return sameBytes(UnsafeBufferPointer(rebasing: bytes[range]), text)
        }
        return self.text(in: bytes) == String(decoding: text, as: UTF8.self)
    }
}
