/// Where calls are sent instead of where they were asked: redirects (`Old/action -> New/action`,
/// whole targets `Old -> New`) and degradations (the calls of a failing or missing target sent to a
/// fallback, such as a web page or an error screen).
///
/// ```swift
/// var table = RedirectTable()
/// try table.redirect("Payments/pay", to: "PaymentsV2/pay")
/// try table.redirect("Legacy", to: "Modern")
/// try table.degrade("Shop", to: "Web/open")
/// mediator.setRedirects(table)
/// ```
///
/// The same table reads from JSON, so one remote-configuration file can serve every platform:
///
/// ```json
/// {"redirects": {"Payments/pay": "PaymentsV2/pay", "Legacy": "Modern"},
///  "degradations": {"Shop": "Web/open"}}
/// ```
///
/// A call's pair is looked up first (`Old/action`), then its target (`Old`, keeping the action's
/// name); the destination is looked up again, up to ``maximumHops`` times. A table whose entries
/// lead round in a cycle is refused when it is built, as is a chain longer than ``maximumHops``
/// that starts at one entry. A longer chain that only a mix of target entries leading into pair
/// entries makes is not seen then: the call ends in ``MediatorError/Code/tooManyRedirects`` when
/// it is made, never in a hang.
///
/// A degraded call goes to the fallback when the target is missing, the action is missing, or the
/// call failed in the target (``MediatorError/Code/actionFailed``), never for the caller's own
/// mistakes (invalid params, a refused URL). The fallback gets the params `target` and `action`
/// (the names that failed), `params` (the original params) and `reason` (the error's text).
public struct RedirectTable: Sendable, Equatable, CustomStringConvertible {
    /// The longest chain of redirects a call may follow (the degradation counts as one more hop).
    public static let maximumHops = 8

    /// The most entries a table may hold (redirects and degradations together), so that a hostile
    /// file cannot make checking it slow.
    public static let maximumEntries = 10_000

    /// `Old/action` -> (`New`, `action`).
    private(set) var actions: [Destination: Destination] = [:]
    /// `Old` -> `New`.
    private(set) var targets: [String: String] = [:]
    /// `Target` -> its fallback.
    private(set) var fallbacks: [String: Destination] = [:]

    struct Destination: Sendable, Hashable {
        let target: String
        let action: String
        var name: String { "\(target)/\(action)" }
    }

    /// Whether calls to `target`/`action` (canonical names) go elsewhere: a redirect of the pair or
    /// of the target, or a degradation of the target.
    func redirects(target: String, action: String) -> Bool {
        actions[Destination(target: target, action: action)] != nil || targets[target] != nil || fallbacks[target] != nil
    }

    /// An empty table: every call goes where it is asked.
    public init() {}

    /// A table read from a JSON document: an object with an optional `redirects` member (an object
    /// of `"Old/action": "New/action"` and `"Old": "New"` entries) and an optional `degradations`
    /// member (an object of `"Target": "Fallback/action"` entries). Any other member is refused, so
    /// a misspelt key is not silently ignored.
    ///
    /// - Parameter json: the document's text.
    ///
    /// - Throws: ``MediatorError/Code/invalidRedirect`` naming the entry at fault (not JSON, not an
    ///   object, a value that is not a string, an invalid name, a target mapped to a pair or the
    ///   reverse, too many entries), or ``MediatorError/Code/redirectCycle`` /
    ///   ``MediatorError/Code/tooManyRedirects`` naming the chain.
    public init(json: String) throws(MediatorError) {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: json)
        } catch {
            throw Self.invalid("the redirect table is not valid JSON: \(error)")
        }
        guard case .object(let members) = document else { throw Self.invalid("the redirect table must be a JSON object") }
        for key in members.keys.sorted() where key != "redirects" && key != "degradations" {
            throw Self.invalid("unknown member \"\(oneLine(key, limit: 60))\" (a redirect table has \"redirects\" and \"degradations\")")
        }
        var table = RedirectTable()
        for member in ["redirects", "degradations"] {
            guard let value = members[member] else { continue }
            guard case .object(let entries) = value else { throw Self.invalid("\"\(member)\" must be an object of \"from\": \"to\" strings") }
            guard entries.count <= Self.maximumEntries else { throw Self.tooMany() }
            for key in entries.keys.sorted() {
                guard case .string(let to) = entries[key] else {
                    throw Self.invalid("\(member) entry \"\(oneLine(key, limit: 100))\": the destination must be a string")
                }
                if member == "redirects" {
                    try table.insertRedirect(key, to: to)
                } else {
                    try table.insertDegradation(key, to: to)
                }
            }
        }
        try table.check()
        self = table
    }

    /// Sends the calls to `from` to `to`: both `Target/action` pairs, or both target names (the
    /// action keeps its name). Names may be short or full. Replaces an earlier redirect of `from`.
    ///
    /// - Parameters:
    ///   - from: the pair or target whose calls are sent elsewhere.
    ///   - to: where they go: a pair for a pair, a target for a target.
    ///
    /// - Throws: ``MediatorError/Code/invalidRedirect`` for an invalid name or a pair mapped to a
    ///   target, ``MediatorError/Code/redirectCycle`` or ``MediatorError/Code/tooManyRedirects``
    ///   when the table would lead round or too far (the table is then unchanged).
    public mutating func redirect(_ from: String, to: String) throws(MediatorError) {
        var changed = self
        try changed.insertRedirect(from, to: to)
        try changed.check()
        self = changed
    }

    /// Sends the calls of `target` that fail in it, or find it or its action missing, to the
    /// `Fallback/action` pair `to`. Replaces an earlier degradation of `target`.
    ///
    /// - Parameters:
    ///   - target: the target whose failing calls degrade.
    ///   - to: the fallback, a `Target/action` pair.
    ///
    /// - Throws: ``MediatorError/Code/invalidRedirect`` for an invalid name.
    public mutating func degrade(_ target: String, to: String) throws(MediatorError) {
        var changed = self
        try changed.insertDegradation(target, to: to)
        self = changed
    }

    /// Removes the redirect of `from` (a pair or a target), if there is one.
    ///
    /// - Parameter from: the pair (`Old/action`) or target (`Old`) redirected.
    public mutating func removeRedirect(_ from: String) {
        // Canonical names only: `String`'s equality would let a look-alike remove another entry.
        if let pair = Self.pair(from) {
            actions[pair] = nil
        } else if let target = Names.canonical(from, as: .target) {
            targets[target] = nil
        }
    }

    /// Removes the degradation of `target`, if there is one.
    ///
    /// - Parameter target: the target that degrades.
    public mutating func removeDegradation(_ target: String) {
        guard let target = Names.canonical(target, as: .target) else { return }
        fallbacks[target] = nil
    }

    /// Whether the table sends no call anywhere else.
    public var isEmpty: Bool { actions.isEmpty && targets.isEmpty && fallbacks.isEmpty }

    /// The redirects as `(from, to)` pairs of canonical names, sorted by `from`.
    public var redirects: [(from: String, to: String)] {
        (actions.map { ($0.key.name, $0.value.name) } + targets.map { ($0.key, $0.value) }).sorted { $0.0 < $1.0 }
    }

    /// The degradations as `(target, fallback)` pairs, sorted by target.
    public var degradations: [(target: String, fallback: String)] {
        fallbacks.map { ($0.key, $0.value.name) }.sorted { $0.0 < $1.0 }
    }

    /// The table as JSON, in the form ``init(json:)`` reads, with keys sorted.
    public var json: String {
        var redirects: [String: JSONValue] = [:]
        for (from, to) in self.redirects { redirects[from] = .string(to) }
        var degradations: [String: JSONValue] = [:]
        for (target, fallback) in self.degradations { degradations[target] = .string(fallback) }
        return JSONValue.object(["redirects": .object(redirects), "degradations": .object(degradations)]).serialized
    }

    /// The table as JSON (see ``json``).
    public var description: String { json }

    /// Two tables are equal when they send every call to the same place.
    ///
    /// - Parameters:
    ///   - lhs: a table.
    ///   - rhs: another table.
    public static func == (lhs: RedirectTable, rhs: RedirectTable) -> Bool {
        lhs.actions == rhs.actions && lhs.targets == rhs.targets && lhs.fallbacks == rhs.fallbacks
    }

    // MARK: Lookups

    /// Where one hop sends a call to `target`/`action`, or `nil`. Names are compared byte for
    /// byte: `String`'s own equality would let a look-alike (`"\u{212A}iosk"`, KELVIN SIGN)
    /// find the entry of `Kiosk` (the entries are canonical, ASCII; the check runs only on a hit).
    @inline(__always)
    func destination(target: String, action: String) -> Destination? {
        if !actions.isEmpty, let index = actions.index(forKey: Destination(target: target, action: action)) {
            let key = actions.keys[index]
            if key.target.utf8.elementsEqual(target.utf8) && key.action.utf8.elementsEqual(action.utf8) { return actions.values[index] }
        }
        if !targets.isEmpty, let renamed = targets.value(forExactKey: target) { return Destination(target: renamed, action: action) }
        return nil
    }

    /// Whether any target degrades.
    var hasFallbacks: Bool { !fallbacks.isEmpty }

    /// The fallback for the failing calls of `target`, or `nil` (compared byte for byte, as
    /// ``destination(target:action:)`` compares).
    func fallback(of target: String) -> Destination? {
        fallbacks.isEmpty ? nil : fallbacks.value(forExactKey: target)
    }

    // MARK: Building

    private mutating func insertRedirect(_ from: String, to: String) throws(MediatorError) {
        guard actions.count + targets.count + fallbacks.count < Self.maximumEntries else { throw Self.tooMany() }
        let fromPair = from.utf8.contains(UInt8(ascii: "/"))
        let toPair = to.utf8.contains(UInt8(ascii: "/"))
        guard fromPair == toPair else {
            throw Self.invalid(
                "redirect \"\(oneLine(from, limit: 100))\" -> \"\(oneLine(to, limit: 100))\": a Target/action pair must be redirected to a pair, and a target to a target"
            )
        }
        if fromPair {
            let source = try Self.parsedPair(from, entry: from)
            actions[source] = try Self.parsedPair(to, entry: from)
        } else {
            targets[try Self.parsedTarget(from, entry: from)] = try Self.parsedTarget(to, entry: from)
        }
    }

    private mutating func insertDegradation(_ target: String, to: String) throws(MediatorError) {
        guard actions.count + targets.count + fallbacks.count < Self.maximumEntries else { throw Self.tooMany() }
        let name = try Self.parsedTarget(target, entry: target)
        guard to.utf8.contains(UInt8(ascii: "/")) else {
            throw Self.invalid("degradation \"\(oneLine(target, limit: 100))\": the fallback must be a Target/action pair, not \"\(oneLine(to, limit: 100))\"")
        }
        fallbacks[name] = try Self.parsedPair(to, entry: target)
    }

    /// Every chain a call could follow ends within ``maximumHops`` without coming round: from each
    /// pair entry (following pair and target entries), and along target entries alone. A cycle
    /// through a pair entry is found from that entry; one of target entries alone, on its own.
    private func check() throws(MediatorError) {
        do {
            try walkAll(sorted: false)
        } catch {
            // Of several problems the same one is always reported: the first in name order (only
            // a table at fault pays for the sort).
            try walkAll(sorted: true)
            throw error
        }
    }

    private func walkAll(sorted: Bool) throws(MediatorError) {
        // An action name no pair entry uses follows the target entries alone (action `*`).
        if sorted {
            for start in actions.keys.sorted(by: { $0.name < $1.name }) { try walk(from: start) }
            for target in targets.keys.sorted() { try walk(from: Destination(target: target, action: "*")) }
        } else {
            for start in actions.keys { try walk(from: start) }
            for target in targets.keys { try walk(from: Destination(target: target, action: "*")) }
        }
    }

    /// Follows the chain from `start`; along target entries alone (action `*`), the chain is named
    /// by its targets, as the entries are written.
    private func walk(from start: Destination) throws(MediatorError) {
        let byTarget = start.action == "*"
        var route: [String] = []
        var current = start
        while let next = destination(target: current.target, action: current.action) {
            if let problem = Self.hop(&route, from: byTarget ? current.target : current.name, to: byTarget ? next.target : next.name) { throw problem }
            current = next
        }
    }

    /// Records one hop of a call on `route`: the error when the destination is already on it (a
    /// cycle) or the route has grown past ``maximumHops``.
    static func hop(_ route: inout [String], from: String, to: String) -> MediatorError? {
        route.append(from)
        if route.contains(to) {
            return MediatorError(.redirectCycle, reason: "redirect cycle: \((route + [to]).map { oneLine($0, limit: 100) }.joined(separator: " -> "))")
        }
        if route.count > maximumHops {
            return MediatorError(
                .tooManyRedirects,
                reason:
                    "more than \(maximumHops) redirects (RedirectTable.maximumHops): \((route + [to]).map { oneLine($0, limit: 100) }.joined(separator: " -> "))"
            )
        }
        return nil
    }

    /// `Target/action` split into canonical names, or `nil` when it is not one.
    static func pair(_ text: String) -> Destination? {
        let parts = text.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 2, let target = Names.canonical(String(parts[0]), as: .target), let action = Names.canonical(String(parts[1]), as: .action)
        else { return nil }
        return Destination(target: target, action: action)
    }

    private static func parsedPair(_ text: String, entry: String) throws(MediatorError) -> Destination {
        if let pair = pair(text) { return pair }
        throw invalid("entry \"\(oneLine(entry, limit: 100))\": \"\(oneLine(text, limit: 100))\" is not a valid Target/action pair")
    }

    private static func parsedTarget(_ text: String, entry: String) throws(MediatorError) -> String {
        if let name = Names.canonical(text, as: .target) { return name }
        let why = Names.problem(with: text, as: .target) ?? "invalid name"
        throw invalid("entry \"\(oneLine(entry, limit: 100))\": \"\(oneLine(text, limit: 100))\" is not a valid target name (\(why))")
    }

    private static func invalid(_ reason: String) -> MediatorError { MediatorError(.invalidRedirect, reason: reason) }

    private static func tooMany() -> MediatorError {
        invalid("the redirect table has more than \(maximumEntries) entries (RedirectTable.maximumEntries)")
    }
}
