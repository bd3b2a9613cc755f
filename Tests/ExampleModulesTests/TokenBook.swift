/// A session token as an operation names it. Tokens are random, so the same sequence of
/// operations gives each world different tokens: operations name them by the order of issue.
enum TokenChoice: CustomStringConvertible {
    /// The n-th token this world issued (from 0); a well-formed token nobody was given when fewer
    /// were issued.
    case issued(Int)
    /// A well-formed token nobody was given.
    case unissued
    /// The n-th token issued, in uppercase: never valid.
    case uppercased(Int)
    /// This exact text.
    case literal(String)

    var description: String {
        switch self {
        case .issued(let index): "issued[\(index)]"
        case .unissued: "unissued"
        case .uppercased(let index): "uppercased[\(index)]"
        case .literal(let text): text.debugDescription
        }
    }
}

/// The tokens one world was issued, in order.
struct TokenBook {
    private(set) var issued: [String] = []

    /// Never issued: 128 bits of zeros is as likely as any other value, which is to say not at all.
    static let unissued = String(repeating: "0", count: 32)

    func resolve(_ choice: TokenChoice) -> String {
        switch choice {
        case .issued(let index): return index < issued.count ? issued[index] : Self.unissued
        case .unissued: return Self.unissued
        case .uppercased(let index):
            let token = index < issued.count ? issued[index] : Self.unissued
            // A token of digits only has no uppercase: make it invalid another way.
            return token.uppercased() == token ? token + "A" : token.uppercased()
        case .literal(let text): return text
        }
    }

    /// Records a newly issued token and returns its outcome: its order of issue, the same in
    /// every world that issued the same tokens in the same order.
    mutating func record(_ token: String) -> Outcome {
        issued.append(token)
        return .token(issued.count - 1)
    }
}
