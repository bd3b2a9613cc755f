/// The registry's tables (targets by name, each target's actions by name): a dictionary keyed by
/// canonical names, which compares them byte for byte and hashes their bytes with a short
/// unkeyed hash instead of `String`'s SipHash, the largest cost of a call's two lookups.
///
/// An unkeyed hash is safe here because only registration, the program's own code, inserts:
/// a name from outside (a URL, a command line) is only looked up, and a lookup walks at most the
/// probe sequence the registered names made.
struct NameTable<Value> {
    private var storage: [NameKey: Value] = [:]

    /// The value registered under exactly `name`, byte for byte (a name that is not canonical is
    /// never found).
    @inline(__always)
    subscript(name: String) -> Value? {
        get { storage[NameKey(name)] }
        set {
            assert(NameKey.isStorable(name), "not a canonical name: \(name)")
            storage[NameKey(name)] = newValue
        }
    }

    /// The value registered under `key` (``NameKey/init(lookingUp:as:)``); `nil` for no key.
    @inline(__always)
    subscript(key: NameKey?) -> Value? {
        guard let key else { return nil }
        return storage[key]
    }

    /// Every name in the table, in no particular order.
    var keys: [String] { storage.keys.map(\.name) }

    /// Every value in the table, in no particular order.
    var values: Dictionary<NameKey, Value>.Values { storage.values }

    var count: Int { storage.count }

    /// Stores `value` under `name`, returning the value it replaced.
    @discardableResult
    mutating func updateValue(_ value: consuming Value, forKey name: String) -> Value? {
        assert(NameKey.isStorable(name), "not a canonical name: \(name)")
        return storage.updateValue(value, forKey: NameKey(name))
    }

    /// Removes the value stored under `name`, returning it.
    @discardableResult
    mutating func removeValue(forKey name: String) -> Value? {
        storage.removeValue(forKey: NameKey(name))
    }

    mutating func reserveCapacity(_ capacity: Int) {
        storage.reserveCapacity(capacity)
    }
}

extension NameTable: Sendable where Value: Sendable {}

/// A canonical name as a ``NameTable`` key: equal to another only when their bytes are, hashed
/// over its bytes once (FNV-1a, by ``Names/scan(_:as:)``), the hash then mixed with each table's
/// seed.
struct NameKey: Hashable, Sendable {
    let name: String
    let bytesHash: UInt64

    /// The key of exactly `name`, a name as the registry stores it (canonical).
    init(_ name: String) {
        self.name = name
        bytesHash = Names.scan(name, as: .target).hash
    }

    /// The key to look `name` up by: its canonical form (``Names/canonical(_:as:)``), made and
    /// hashed in one pass over a name that is canonical already; `nil` when it has none, and so
    /// cannot be registered.
    @inline(__always)
    init?(lookingUp name: String, as role: Names.Role) {
        guard let form = Names.canonicalForm(of: name, as: role) else { return nil }
        self.name = form.name
        bytesHash = form.hash
    }

    /// Whether the two names have the same bytes. `String`'s `==` compares by canonical
    /// equivalence, under which `"\u{212A}iosk"` (KELVIN SIGN) equals `Kiosk`; with equal UTF-8
    /// lengths it compares bytes whenever one side is ASCII, as every stored name is (checked on
    /// every insert in debug builds, ``isStorable(_:)``): a non-ASCII scalar takes at least two
    /// bytes and is canonically equivalent to at most one ASCII scalar, so a name equivalent to an
    /// ASCII one but not byte-equal to it is longer.
    @inline(__always)
    static func == (lhs: NameKey, rhs: NameKey) -> Bool {
        lhs.bytesHash == rhs.bytesHash && lhs.name.utf8.count == rhs.name.utf8.count && lhs.name == rhs.name
    }

    /// Whether `name` may be stored: it is a canonical name (of a target or an action alike),
    /// and so ASCII, which ``==`` relies on.
    static func isStorable(_ name: String) -> Bool {
        Names.canonical(name, as: .target) == name || Names.canonical(name, as: .action) == name
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(bytesHash)
    }

    /// What `Dictionary` asks for: the bytes' hash mixed with the table's seed, without running
    /// `Hasher` (about 230 instructions a lookup for a short name).
    @inline(__always)
    func _rawHashValue(seed: Int) -> Int {
        // A multiply and shifts spread every bit of the hash and the seed over the low bits,
        // which pick the bucket.
        var mixed = bytesHash ^ UInt64(UInt(bitPattern: seed))
        mixed = (mixed ^ (mixed >> 32)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 29))
    }
}
