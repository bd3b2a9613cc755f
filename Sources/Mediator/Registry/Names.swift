/// CTMediator's naming: a target is `Notes` or `Target_Notes`, an action `create`, `Action_create`
/// or the selector string `Action_create:`.
///
/// Every name the mediator meets (at registration, in a lookup, in a URL, in the URL policy's
/// allow-list, for the `native` rule) goes through ``canonical(_:as:)``, so a name has exactly one
/// form wherever it is compared, and names are compared by their bytes.
@usableFromInline
package enum Names {
    static let targetPrefix = "Target_"
    static let actionPrefix = "Action_"
    /// The longest canonical name, in bytes. A longer name is invalid wherever it is met, so a
    /// 20 KB name from a URL is refused before it is hashed for a lookup (twice per failed call).
    static let maximumLength = 256

    /// What a name names, which decides the prefix it may carry.
    @usableFromInline
    enum Role: Sendable {
        case target, action

        var prefix: String { self == .target ? Names.targetPrefix : Names.actionPrefix }
        var word: String { self == .target ? "target" : "action" }
    }

    /// The one form of `name` the registry stores and compares: the role's prefix stripped at most
    /// once (and, for an action, one trailing `:` of an Objective-C selector string), or `nil` when
    /// what is left is not a valid name: empty, a byte outside ASCII letters, digits, `_`, `-` and
    /// `.`, beginning with `-`, longer than ``maximumLength`` bytes, or still carrying the prefix (`Target_Target_X`),
    /// which would otherwise be a second spelling of another name.
    ///
    /// Only ASCII is accepted, so comparing canonical names with `==` (or hashing them) compares
    /// their bytes: for ASCII text, canonical equivalence is byte equality. That is why a lookup
    /// must go through here: `String`'s own equality would let `"\u{212A}iosk"` (KELVIN SIGN) find `Kiosk`.
    @inline(__always)
    @usableFromInline
    static func canonical(_ name: String, as role: Role) -> String? {
        canonicalForm(of: name, as: role, hashing: false)?.name
    }

    /// ``canonical(_:as:)`` with, when `hashing`, the hash of the canonical name's bytes (FNV-1a),
    /// which the registry's tables key by (``NameKey``): both from one pass over the name's bytes,
    /// on the hot path of every dispatch.
    @inline(__always)
    static func canonicalForm(of name: String, as role: Role, hashing: Bool = true) -> (name: String, hash: UInt64)? {
        // The common case: a valid short name, returned as it is.
        let scanned = scan(name, as: role, hashing: hashing)
        if scanned.isCanonical { return (name, scanned.hash) }
        let rest = stripped(name, as: role)
        let again = scan(rest, as: role, hashing: hashing)
        return again.isCanonical ? (rest, again.hash) : nil
    }

    /// The name a target type answers to by default: its type name without the `Target_` prefix,
    /// when that name has a canonical form; otherwise the name as it is, for registration to
    /// refuse (stripping here and again there would let `Target_Target_X` register as `X`).
    static func defaultTargetName(of type: Any.Type) -> String {
        let name = typeName(type)
        return canonical(name, as: .target) ?? name
    }

    /// `name` as errors show it: its canonical form when it has one, else as the caller gave it.
    static func shown(_ name: String, as role: Role) -> String {
        canonical(name, as: role) ?? name
    }

    /// Why `name` has no canonical form (``canonical(_:as:)`` returned `nil`), in words for an
    /// error; `nil` when it has one.
    static func problem(with name: String, as role: Role) -> String? {
        guard canonical(name, as: role) == nil else { return nil }
        let rest = stripped(name, as: role)
        if rest.isEmpty { return "a name must not be empty" }
        if rest.utf8.count > maximumLength { return "names are at most \(maximumLength) bytes long" }
        if rest.utf8.first == UInt8(ascii: "-") { return "a name must not begin with \"-\" (a command line would read it as an option)" }
        if !rest.utf8.allSatisfy(isNameByte) {
            return "names use only ASCII letters, digits, \"_\", \"-\" and \".\" (compared byte for byte)"
        }
        return "the \"\(role.prefix)\" prefix may be written at most once"
    }

    /// `name` without the role's prefix (once) and, for an action, without one trailing `:`.
    /// Never longer than `name`; not checked.
    static func stripped(_ name: String, as role: Role) -> String {
        var rest = Substring(name)
        if rest.utf8.starts(with: role.prefix.utf8) { rest = rest.dropFirst(role.prefix.utf8.count) }
        if role == .action, rest.utf8.last == UInt8(ascii: ":") { rest = rest.dropLast() }
        return String(rest)
    }

    /// CTMediator's class name for a target asked for as `name`: `Nope` and `Target_Nope` are both
    /// `Target_Nope`.
    static func className(ofTarget name: String) -> String {
        targetPrefix + stripped(name, as: .target)
    }

    /// CTMediator's selector string for an action asked for as `name`: `go`, `Action_go` and
    /// `Action_go:` are all `Action_go:`.
    static func selector(ofAction name: String) -> String {
        actionPrefix + stripped(name, as: .action) + ":"
    }

    /// CTMediator's rule: actions whose canonical name begins with `native` are never reachable by
    /// URL. Case-sensitive, as in CTMediator (`Native...` is an ordinary name).
    @usableFromInline
    static func isNative(_ canonicalActionName: String) -> Bool {
        // Over the bytes in place: the generic `starts(with:)` of two UTF-8 views cost ~430
        // instructions per registered action.
        var name = canonicalActionName
        return name.withUTF8 { bytes in
            let prefix: StaticString = "native"
            return bytes.count >= prefix.utf8CodeUnitCount && (0..<prefix.utf8CodeUnitCount).allSatisfy { bytes[$0] == prefix.utf8Start[$0] }
        }
    }

    /// Whether `byte` may appear in a name: an ASCII letter or digit, `_`, `-` or `.`.
    @inline(__always)
    package static func isNameByte(_ byte: UInt8) -> Bool {
        // One bit per ASCII byte: `-` `.` `0`-`9` in the low word, `A`-`Z` `_` `a`-`z` in the high.
        let low: UInt64 = 0x03FF_6000_0000_0000
        let high: UInt64 = 0x07FF_FFFE_87FF_FFFE
        return byte < 64 ? (low >> byte) & 1 == 1 : byte < 128 && (high >> (byte &- 64)) & 1 == 1
    }

    /// Whether `name` is already canonical (valid bytes and no prefix of its role), and the FNV-1a
    /// hash of its bytes (unless `hashing` is `false`), in one pass. A name longer than
    /// ``maximumLength`` bytes is not canonical and is not read (its hash is left uncomputed).
    @inline(__always)
    static func scan(_ name: String, as role: Role, hashing: Bool = true) -> (isCanonical: Bool, hash: UInt64) {
        var name = name
        return name.withUTF8 { scan($0, as: role, hashing: hashing) }
    }

    /// ``scan(_:as:)`` over the name's bytes.
    @inline(__always)
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, as role: Role, hashing: Bool) -> (isCanonical: Bool, hash: UInt64) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        // A leading "-" would read as an option on a command line.
        guard let first = bytes.first, bytes.count <= maximumLength, first != UInt8(ascii: "-") else { return (false, hash) }
        var allNameBytes = true
        for byte in bytes {
            if hashing { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            if !isNameByte(byte) { allNameBytes = false }
        }
        // Both prefixes are seven bytes ending in "_": most names fail that test at once.
        guard allNameBytes, bytes.count >= 7, bytes[6] == UInt8(ascii: "_") else { return (allNameBytes, hash) }
        let prefix: StaticString = role == .target ? "Target_" : "Action_"
        return (!(0..<6).allSatisfy { bytes[$0] == prefix.utf8Start[$0] }, hash)
    }
}

extension Dictionary where Key == String {
    /// The value stored under exactly `key`, byte for byte. A dictionary's own lookup uses
    /// `String`'s equality, which also matches a canonically equivalent spelling (a KELVIN SIGN
    /// for `K`); the bytes are compared only on a hit.
    @inline(__always)
    func value(forExactKey key: String) -> Value? {
        guard let index = index(forKey: key), keys[index].utf8.elementsEqual(key.utf8) else { return nil }
        return values[index]
    }
}
