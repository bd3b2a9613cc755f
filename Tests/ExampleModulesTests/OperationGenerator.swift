import TestSupport

/// Generates operation sequences full of edge cases, leaning on one action.
struct OperationGenerator {
    var random: SeededGenerator

    static let usernames = [
        "ada", "grace", "alan", "a.b_c-9", "", " ", "a b", "名前", "émile", "😀", String(repeating: "u", count: 32),
        String(repeating: "u", count: 33), "tab\t", "\u{FF41}da", "ada\u{200B}", "\u{212A}elvin", "Kelvin",
    ]
    static let passwords = ["analytical", "12345678", "short", "", "ünïcødé-pass", String(repeating: "p", count: 10_000)]
    static let titles = [
        "Engines", "", "   ", "📝 ünïcode", "a&b=c%20+d", String(repeating: "t", count: 200), String(repeating: "t", count: 201), "line\nbreak",
    ]
    static let bodies = ["", "body", String(repeating: "β", count: 5_000), "\"quoted\""]
    static let tagSets: [[String]] = [[], ["math"], ["math", "draft"], ["日本"], [""], ["two words"], ["draft"]]
    static let tagFilters: [String?] = [nil, "math", "draft", "日本", "", "missing"]

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    mutating func pick<T>(_ values: [T]) -> T {
        values[Int.random(in: 0..<values.count, using: &random)]
    }

    /// Tokens are random, so each world issues its own: an operation names "the n-th token issued"
    /// and each world substitutes its own. Asking for a few past the ones issued, and for forms
    /// that are never valid, yields valid and invalid tokens without looking at any world.
    mutating func token() -> TokenChoice {
        pick([
            .issued(0), .issued(0), .issued(1), .issued(1), .issued(2), .issued(8), .unissued,
            .uppercased(0), .literal(""), .literal("forged"), .literal("token-1"),
        ])
    }

    mutating func id() -> Int {
        Int.random(in: 0..<4, using: &random) == 0 ? pick([0, -1, 99, Int.max, Int.min]) : Int.random(in: 1...12, using: &random)
    }

    mutating func operation(leaningOn focus: String) -> Operation {
        // Writes that succeed need notes to write to: when leaning on update or delete, keep
        // creating some.
        let others =
            focus == "update" || focus == "delete"
            ? ["create", "create", "create", "signUp", "logIn", "get", "list"]
            : ["signUp", "logIn", "whoAmI", "create", "get", "list", "update", "delete"]
        let action = Int.random(in: 0..<3, using: &random) == 0 ? pick(others) : focus
        switch action {
        case "signUp": return .signUp(username: pick(Self.usernames), password: pick(Self.passwords))
        case "logIn": return .logIn(username: pick(Self.usernames), password: pick(Self.passwords))
        case "whoAmI": return .whoAmI(token: token())
        case "create": return .create(token: token(), title: pick(Self.titles), body: pick(Self.bodies), tags: pick(Self.tagSets))
        case "get": return .get(id: id())
        case "list": return .list(tag: pick(Self.tagFilters))
        case "update":
            let title: String? = Bool.random(using: &random) ? pick(Self.titles) : nil
            let body: String? = Bool.random(using: &random) ? pick(Self.bodies) : nil
            let tags: [String]? = Bool.random(using: &random) ? pick(Self.tagSets) : nil
            return .update(token: token(), id: id(), title: title, body: body, tags: tags)
        default: return .delete(token: token(), id: id())
        }
    }

    /// A sequence that first sets up a few accounts, sessions and notes, then leans on `focus`.
    mutating func sequence(leaningOn focus: String, count: Int) -> [Operation] {
        var operations: [Operation] = [
            .signUp(username: "ada", password: "analytical"),
            .signUp(username: "grace", password: "12345678"),
            .logIn(username: "ada", password: "analytical"),
            .logIn(username: "grace", password: "12345678"),
            .create(token: .issued(0), title: "Engines", body: "", tags: ["math"]),
            .create(token: .issued(1), title: "Compilers", body: "b", tags: ["draft"]),
        ]
        for _ in 0..<count { operations.append(operation(leaningOn: focus)) }
        return operations
    }
}
