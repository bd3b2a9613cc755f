import Mediator
import TestSupport
import Testing

/// A piece of a generated route: a literal, a placeholder (with its type, if any), or an optional
/// group that starts with a literal of its own (so that leaving it out or putting it in can never
/// be read as another variant).
private indirect enum Piece {
    case literal(String)
    case placeholder(String, String?)
    case group(String, [Piece])

    /// The piece as pattern text.
    var pattern: String {
        switch self {
        case .literal(let text): "/" + text
        case .placeholder(let name, let type): "/:" + name + (type.map { "<\($0)>" } ?? "")
        case .group(let literal, let pieces): "(/" + literal + pieces.map(\.pattern).joined() + ")"
        }
    }
}

/// Characters values are drawn from: URL delimiters, `%`, `+`, spaces and non-ASCII included.
private let valueCharacters: [Character] = Array("abcXYZ019-_.~ /?#&=%+:@!$'()*,;é€😀\u{301}")

/// Percent-encodes everything but unreserved ASCII, byte by byte.
private func encoded(_ text: String) -> String {
    var result = ""
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"),
            UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
            result.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            let hex = Array("0123456789ABCDEF")
            result += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 15)])"
        }
    }
    return result
}

/// A value a placeholder of `type` accepts.
private func value(for type: String?, using random: inout SeededGenerator) -> String {
    switch type {
    case "int": return String(Int.random(in: -1_000_000...Int.max, using: &random))
    case "alpha": return String((0..<Int.random(in: 1...12, using: &random)).map { _ in Character(Unicode.Scalar(UInt8.random(in: 97...122, using: &random))) })
    case "uuid":
        let hex = Array("0123456789abcdefABCDEF")
        return [8, 4, 4, 4, 12].map { count in String((0..<count).map { _ in hex.randomElement(using: &random)! }) }.joined(separator: "-")
    default:
        return String((0..<Int.random(in: 1...10, using: &random)).map { _ in valueCharacters.randomElement(using: &random)! })
    }
}

@Suite("Deep links: URLs built from patterns route back")
struct DeepLinkPropertyTests {
    @Test("A URL built from a random pattern and random values reaches that pattern's action with exactly those values", arguments: [1, 2, 3, 4] as [UInt64])
    func roundTrip(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let mediator = Mediator()
        let types: [String?] = [nil, nil, "int", "alpha", "uuid"]
        var routes: [(pieces: [Piece], action: String)] = []
        for index in 0..<60 {
            var pieces: [Piece] = [.literal("r\(index)")]
            var nameCount = 0
            func placeholder() -> Piece {
                nameCount += 1
                return .placeholder("p\(nameCount)", types.randomElement(using: &random)!)
            }
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                switch Int.random(in: 0..<5, using: &random) {
                case 0: pieces.append(.literal("l\(Int.random(in: 0..<3, using: &random))"))
                case 1: pieces.append(.group("g\(nameCount)", (0..<Int.random(in: 0...2, using: &random)).map { _ in placeholder() }))
                default: pieces.append(placeholder())
                }
            }
            routes.append((pieces, "a\(index)"))
        }
        try mediator.register(
            target: "P",
            actions: routes.map { route in
                Action(route.action) { (_: Mediator, params: Params) in params.values.merging(["@action": route.action]) { _, tag in tag } }
            })
        try mediator.addRoutes(routes.map { URLRoute($0.pieces.map(\.pattern).joined(), target: "P", action: $0.action) })

        for _ in 0..<400 {
            let route = routes.randomElement(using: &random)!
            var path = ""
            var expected: [String: String] = [:]
            func build(_ pieces: [Piece]) {
                for piece in pieces {
                    switch piece {
                    case .literal(let text): path += "/" + text
                    case .placeholder(let name, let type):
                        let text = value(for: type, using: &random)
                        expected[name] = text
                        path += "/" + encoded(text)
                    case .group(let literal, let inner):
                        if Bool.random(using: &random) {
                            path += "/" + literal
                            build(inner)
                        }
                    }
                }
            }
            build(route.pieces)
            let url = "myapp:/" + path + (Bool.random(using: &random) ? "/" : "")
            let values = try #require(try mediator.callNow(url: url) as? [String: any Sendable], "\(url)")
            #expect(values["@action"] as? String == route.action, "\(url)")
            var got: [String: String] = [:]
            for (key, raw) in values where !key.hasPrefix("@") { got[key] = raw as? String }
            #expect(got == expected, "\(url)")
            #expect(values["@route"] as? String == route.pieces.map(\.pattern).joined(), "\(url)")
        }
    }
}
