import TestSupport
import Testing

@testable import Mediator

// The trie against a brute-force reference: random route sets from the pattern grammar, paths
// built from their variants, and random paths, all from a seeded generator. The reference tries
// every variant of every route and picks the best by the documented rule (priority, then segment
// kinds from the left, then registration order, then variant order), so it shares nothing with
// the trie but the parser (tested by its own tables).

// MARK: - Seeded randomness

// (TestSupport's SeededGenerator: the same seed gives the same routes and paths, so a failure
// reproduces.)
extension SeededGenerator {
    /// `true` with probability `percent` / 100.
    fileprivate mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }

    /// One of `items`.
    fileprivate mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &self)] }
}

// MARK: - Reference matcher

/// A route as the reference sees it.
private struct ReferenceRoute {
    /// Its label (the payload in the trie).
    let label: String
    /// The parsed pattern.
    let pattern: RoutePattern
    /// Its priority.
    let priority: Int
    /// Its registration order.
    let order: Int
}

/// What a path matched, by the reference or the trie, with texts as bytes (Swift's `String`
/// equality would hide a mix-up of precomposed and decomposed text).
private struct Outcome: Equatable, CustomStringConvertible {
    /// The winning route's label.
    let label: String
    /// The captures, by name.
    let parameters: [String: [UInt8]]
    /// The wildcard's segments.
    let rest: [[UInt8]]?

    /// The outcome on one line, for failure messages.
    var description: String {
        let parameters = self.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\(String(decoding: $0.value, as: UTF8.self))" }
        let rest = self.rest.map { " *=" + $0.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "|") } ?? ""
        return label + " " + parameters.joined(separator: ",") + rest
    }
}

/// One variant matching a path, with what decides between candidates.
private struct Candidate {
    /// The route's label, captures and rest.
    let outcome: Outcome
    /// The route's priority.
    let priority: Int
    /// Segment kinds from the left, four numbers each (``referenceKinds(_:)``).
    let kinds: [Int]
    /// The route's registration order.
    let order: Int
    /// The variant's index in its route.
    let variant: Int

    /// Whether `self` wins over `other` by the documented rule.
    func beats(_ other: Candidate) -> Bool {
        if priority != other.priority { return priority > other.priority }
        if kinds != other.kinds { return kinds.lexicographicallyPrecedes(other.kinds) }
        if order != other.order { return order < other.order }
        return variant < other.variant
    }
}

/// Whether `text` is of `type`, written independently of the library's checks.
private func referenceAccepts(_ type: RoutePlaceholderType, _ text: String) -> Bool {
    let isDigit = { (byte: UInt8) in (48...57).contains(byte) }
    let isLetter = { (byte: UInt8) in (65...90).contains(byte) || (97...122).contains(byte) }
    switch type {
    case .int:
        let digits = text.hasPrefix("-") ? text.utf8.dropFirst() : text.utf8[...]
        return !digits.isEmpty && digits.allSatisfy(isDigit) && Int64(text) != nil
    case .uuid:
        let groups = text.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        let isHex = { (byte: UInt8) in isDigit(byte) || (65...70).contains(byte) || (97...102).contains(byte) }
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(isHex) }
    case .alpha:
        return !text.utf8.isEmpty && text.utf8.allSatisfy(isLetter)
    case .float:
        // Split at the exponent, then at the point; every part but the exponent's sign is digits.
        let parts = text.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "E", maxSplits: 1, omittingEmptySubsequences: false)
        }
        guard (1...2).contains(parts.count), let mantissa = parts.first else { return false }
        let unsigned = mantissa.hasPrefix("-") ? mantissa.dropFirst() : mantissa[...]
        let pieces = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(pieces.count), pieces.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(isDigit) }) else { return false }
        if parts.count == 2 {
            let exponent = parts[1].first.map { "+-".contains($0) } == true ? parts[1].dropFirst() : parts[1][...]
            guard !exponent.isEmpty, exponent.utf8.allSatisfy(isDigit) else { return false }
        }
        return Double(text).map { $0.isFinite } == true
    }
}

/// A variant's segment kinds from the left, as the documented rule orders them, four numbers per
/// segment (so that comparing the lists compares segment by segment): the kind (literal 0, with
/// text around it 1, typed 2, `float` 3 after `int`, which overlaps it, untyped 4, wildcard 5),
/// then for a placeholder with text around it minus the text's length, minus the length of the
/// text before it, and its type's order (typed 1, `float` 2, untyped 3).
private func referenceKinds(_ variant: RouteVariant) -> [Int] {
    variant.segments.flatMap { segment -> [Int] in
        switch segment {
        case .literal: return [0, 0, 0, 0]
        case .affixed(_, let type, let prefix, let suffix):
            return [1, -(prefix.utf8.count + suffix.utf8.count), -prefix.utf8.count, type == nil ? 3 : type == .float ? 2 : 1]
        case .parameter(_, let type): return [type == nil ? 4 : type == .float ? 3 : 2, 0, 0, 0]
        case .wildcard: return [5, 0, 0, 0]
        }
    }
}

/// `bytes` with ASCII capitals made small, when `fold`.
private func folded(_ bytes: [UInt8], _ fold: Bool) -> [UInt8] {
    fold ? bytes.map { (65...90).contains($0) ? $0 | 0x20 : $0 } : bytes
}

/// The captures and rest if `variant` matches `path`, else `nil`; `fold`: literal text compared
/// ignoring ASCII case (values captured as given).
private func referenceMatch(_ variant: RouteVariant, _ path: [String], fold: Bool = false) -> (parameters: [String: [UInt8]], rest: [[UInt8]]?)? {
    var parameters: [String: [UInt8]] = [:]
    for (index, segment) in variant.segments.enumerated() {
        switch segment {
        case .wildcard:
            return (parameters, path[index...].map { Array($0.utf8) })
        case .literal(let text):
            guard index < path.count, folded(Array(text.utf8), fold) == folded(Array(path[index].utf8), fold) else { return nil }
        case .parameter(let name, let type):
            guard index < path.count, !path[index].isEmpty else { return nil }
            if let type, !referenceAccepts(type, path[index]) { return nil }
            parameters[name] = Array(path[index].utf8)
        case .affixed(let name, let type, let prefix, let suffix):
            guard index < path.count else { return nil }
            let bytes = Array(path[index].utf8)
            let (head, tail) = (folded(Array(prefix.utf8), fold), folded(Array(suffix.utf8), fold))
            let compared = folded(bytes, fold)
            guard compared.count > head.count + tail.count, compared.starts(with: head), compared.reversed().starts(with: tail.reversed()) else {
                return nil
            }
            let value = Array(bytes[head.count..<(bytes.count - tail.count)])
            if let type, !referenceAccepts(type, String(decoding: value, as: UTF8.self)) { return nil }
            parameters[name] = value
        }
    }
    return variant.segments.count == path.count ? (parameters, nil) : nil
}

/// Every variant of every route that matches `path`.
private func referenceCandidates(_ routes: [ReferenceRoute], _ path: [String], fold: Bool) -> [Candidate] {
    guard path.count <= 64 else { return [] }
    var candidates: [Candidate] = []
    for route in routes {
        for (index, variant) in route.pattern.variants.enumerated() {
            guard let (parameters, rest) = referenceMatch(variant, path, fold: fold) else { continue }
            let kinds = referenceKinds(variant)
            let outcome = Outcome(label: route.label, parameters: parameters, rest: rest)
            candidates.append(Candidate(outcome: outcome, priority: route.priority, kinds: kinds, order: route.order, variant: index))
        }
    }
    return candidates
}

/// The best candidate by the documented rule.
private func referenceBest(_ candidates: [Candidate]) -> Candidate? {
    candidates.reduce(nil) { best, candidate in
        guard let best else { return candidate }
        return candidate.beats(best) ? candidate : best
    }
}

/// The trie's answer in the reference's terms.
private func trieOutcome(_ trie: RouteTrie<String>, _ path: [String]) -> Outcome? {
    trie.match(path).map { match in
        Outcome(label: match.payload, parameters: match.parameters.mapValues { Array($0.utf8) }, rest: match.rest?.map { Array($0.utf8) })
    }
}

// MARK: - Generators

/// Literal segments the generator uses: few, so that routes share prefixes and paths collide.
private let literalWords = ["a", "b", "c", "caf\u{E9}", "B"]
/// Texts around placeholders (each begins with a byte that cannot continue a name): few, so that
/// they collide with each other and with the literals.
private let affixWords = ["", ".json", ".tar.json", "#", "-a", "\u{E9}"]
/// Values for untyped placeholders and random paths: literals, values of each type, near misses,
/// values with the texts around placeholders.
private let segmentPool =
    literalWords + [
        "1", "-3", "007", "9223372036854775808", "xyz", "Q", "cafe\u{301}", "a b", "x-y", "+5",
        "123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-42661417400g",
        "a1", "ab", "a.json", "1.tar.json", ".json", "x#", "#", "#-a", "-a-a", "\u{E9}\u{E9}", "c\u{E9}.json", "A", "C", "CAF\u{E9}",
        "CAF\u{C9}", "Ab", "x.JSON", "-A",
    ]

/// Random patterns from the grammar, with names unique within each pattern.
private struct PatternGenerator {
    /// The random source.
    var random: SeededGenerator
    /// The next parameter number.
    private var nameCount = 0
    /// Groups so far in the current pattern (kept at most 4, well inside the caps).
    private var groupCount = 0

    /// A generator drawing from `random`.
    init(random: SeededGenerator) { self.random = random }

    /// A random pattern, prefixed by `prefix` (a literal segment, or empty).
    mutating func pattern(prefix: String) -> String {
        nameCount = 0
        groupCount = 0
        var text = prefix + sequence(depth: 0, minimum: 0)
        if random.chance(15) {
            text += "/*"
        } else if random.chance(8) {
            text += "(/*)"
        }
        return text
    }

    /// Segments and groups, at least `minimum` of them.
    private mutating func sequence(depth: Int, minimum: Int) -> String {
        var text = ""
        for _ in 0..<Int.random(in: max(minimum, 0)...3, using: &random) {
            if depth < 2, groupCount < 4, random.chance(25) {
                groupCount += 1
                text += "(" + sequence(depth: depth + 1, minimum: 1) + ")"
            } else {
                text += "/" + segment()
            }
        }
        return text
    }

    /// One segment: a literal or a placeholder, typed or not, sometimes with text around it.
    private mutating func segment() -> String {
        if random.chance(40) { return random.pick(literalWords) }
        nameCount += 1
        let name = ":p\(nameCount)"
        let placeholder: String
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1: placeholder = name + "<int>"
        case 2: placeholder = name + "<uuid>"
        case 3, 4: placeholder = name + "<alpha>"
        case 5: placeholder = name + "<float>"
        default: placeholder = name
        }
        guard random.chance(30) else { return placeholder }
        var (prefix, suffix) = (random.pick(literalWords + affixWords), random.pick(affixWords))
        if prefix.isEmpty, suffix.isEmpty { suffix = ".json" }
        return prefix + placeholder + suffix
    }

    /// A random value of `type`.
    mutating func value(of type: RoutePlaceholderType?) -> String {
        switch type {
        case .int?:
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return String(Int64.min)
            case 1: return String(Int64.max)
            default: return String(Int.random(in: -50...50, using: &random))
            }
        case .uuid?:
            let hex = Array("0123456789abcdefABCDEF")
            return [8, 4, 4, 4, 12].map { count in String((0..<count).map { _ in random.pick(hex) }) }.joined(separator: "-")
        case .alpha?:
            return String((0..<Int.random(in: 1...4, using: &random)).map { _ in random.pick(Array("abcXYZ")) })
        case .float?:
            return random.pick(["4.5", "-0.25", "1e3", "2.5E-2", String(Int.random(in: -50...50, using: &random))])
        case nil:
            return random.pick(segmentPool)
        }
    }

    /// A path that `variant` matches, with the values used.
    mutating func path(for variant: RouteVariant) -> [String] {
        var path: [String] = []
        for segment in variant.segments {
            switch segment {
            case .literal(let text): path.append(text)
            case .parameter(_, let type): path.append(value(of: type))
            case .affixed(_, let type, let prefix, let suffix): path.append(prefix + value(of: type) + suffix)
            case .wildcard:
                for _ in 0..<Int.random(in: 0...3, using: &random) { path.append(random.pick(segmentPool + [""])) }
            }
        }
        return path
    }

    /// A random path, mostly short, sometimes over the segment cap.
    mutating func randomPath() -> [String] {
        let count = random.chance(1) ? 65 : Int.random(in: 0...5, using: &random)
        return (0..<count).map { _ in random.pick(segmentPool + ["", "k0", "k1"]) }
    }
}

// MARK: - Properties

/// The trie routes like the brute-force reference, on random routes and paths.
@Suite("Route trie properties")
struct RouteTriePropertyTests {
    /// One random route set and its paths; returns counts for the coverage checks.
    private struct Tally {
        /// Paths checked.
        var paths = 0
        /// Paths some route matched.
        var matched = 0
        /// Paths two or more routes matched (where precedence or priority had to decide).
        var contested = 0
        /// Contested paths where a priority decided.
        var decidedByPriority = 0
        /// Routes refused as duplicates.
        var duplicates = 0
    }

    @Test(
        "The trie agrees with the reference on paths from the routes and on random paths (2,000 seeded route sets), with literals compared byte for byte or ignoring ASCII case",
        arguments: [false, true])
    func agreesWithReference(foldingCase: Bool) throws {
        var generator = PatternGenerator(random: SeededGenerator(seed: foldingCase ? 0x5EED_0003 : 0x5EED_0001))
        var tally = Tally()
        for iteration in 0..<2_000 {
            // A third of the sets are disjoint: each pattern starts with its own literal.
            let disjoint = iteration % 3 == 0
            let withPriorities = iteration % 2 == 1
            var builder = RouteTrieBuilder<String>()
            var routes: [ReferenceRoute] = []
            for index in 0..<Int.random(in: 1...6, using: &generator.random) {
                let text = generator.pattern(prefix: disjoint ? "/k\(index)" : "")
                let pattern = try RoutePattern(parsing: text)
                let priority = withPriorities ? generator.random.pick([0, 0, 1, 2, -1]) : 0
                let label = "r\(index)"
                do {
                    try builder.add(text, payload: label, priority: priority)
                    routes.append(ReferenceRoute(label: label, pattern: pattern, priority: priority, order: routes.count))
                } catch let error as RouteError {
                    // Only a duplicate may be refused, and only when the shapes are equal.
                    guard case .duplicateRoute(let existing) = error.problem else { throw error }
                    let other = try #require(routes.first(where: { $0.pattern.text == existing }))
                    #expect(other.pattern.shape == pattern.shape)
                    tally.duplicates += 1
                }
            }
            let trie = builder.build(foldingCase: foldingCase)

            var paths: [[String]] = []
            for route in routes {
                for _ in 0..<2 {
                    let variantIndex = Int.random(in: 0..<route.pattern.variants.count, using: &generator.random)
                    let variant = route.pattern.variants[variantIndex]
                    let path = generator.path(for: variant)
                    paths.append(path)
                    // The generator and the reference agree: the variant matches its own path.
                    #expect(referenceMatch(variant, path) != nil, "\(variant) on \(path)")
                    if disjoint {
                        // Only this route can match: the trie must give it, and the values used
                        // when no other variant of the route matches too.
                        let match = trie.match(path)
                        #expect(match?.payload == route.label, "seed iteration \(iteration): \(route.pattern.text) on \(path)")
                        let matchingVariants = route.pattern.variants.filter { referenceMatch($0, path, fold: foldingCase) != nil }
                        if matchingVariants.count == 1, let (parameters, rest) = referenceMatch(variant, path, fold: foldingCase) {
                            #expect(trieOutcome(trie, path) == Outcome(label: route.label, parameters: parameters, rest: rest))
                        }
                    }
                }
            }
            for _ in 0..<4 { paths.append(generator.randomPath()) }

            for path in paths {
                let candidates = referenceCandidates(routes, path, fold: foldingCase)
                let expected = referenceBest(candidates)?.outcome
                let actual = trieOutcome(trie, path)
                #expect(actual == expected, "iteration \(iteration), routes \(routes.map { "\($0.pattern.text)@\($0.priority)" }), path \(path)")
                #expect(trie.canMatch(path) == (expected != nil))
                tally.paths += 1
                if expected != nil { tally.matched += 1 }
                if Set(candidates.map(\.outcome.label)).count > 1 {
                    tally.contested += 1
                    if Set(candidates.map(\.priority)).count > 1 { tally.decidedByPriority += 1 }
                }
            }
        }
        // The run is not vacuous: most paths match, many need precedence or priority to decide.
        #expect(tally.paths > 20_000)
        #expect(tally.matched > tally.paths / 2)
        #expect(tally.contested > 1_000)
        #expect(tally.decidedByPriority > 300)
        #expect(tally.duplicates > 0)
    }

    @Test("Routes are listed by priority, best variant kinds, then registration order (500 seeded sets)")
    func listingOrder() throws {
        var generator = PatternGenerator(random: SeededGenerator(seed: 0x5EED_0002))
        for _ in 0..<500 {
            var builder = RouteTrieBuilder<String>()
            var routes: [(label: String, priority: Int, kinds: [Int], order: Int)] = []
            for index in 0..<Int.random(in: 1...6, using: &generator.random) {
                let text = generator.pattern(prefix: "")
                let priority = generator.random.pick([0, 1, -1])
                guard (try? builder.add(text, payload: "r\(index)", priority: priority)) != nil else { continue }
                let pattern = try RoutePattern(parsing: text)
                let kinds = pattern.variants.map(referenceKinds)
                let best = kinds.min { $0.lexicographicallyPrecedes($1) } ?? []
                routes.append((label: "r\(index)", priority: priority, kinds: best, order: routes.count))
            }
            let expected = routes.sorted { lhs, rhs in
                if lhs.priority != rhs.priority { return lhs.priority > rhs.priority }
                if lhs.kinds != rhs.kinds { return lhs.kinds.lexicographicallyPrecedes(rhs.kinds) }
                return lhs.order < rhs.order
            }
            #expect(builder.build().routes.map(\.payload) == expected.map(\.label))
        }
    }
}
