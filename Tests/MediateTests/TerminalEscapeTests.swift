import Mediator
import Testing

@testable import MediatorCommandLine

/// A scalar a terminal acts on instead of showing; named by its code point in test names, which
/// must not print it raw either.
struct HostileScalar: Sendable, CustomTestStringConvertible {
    let scalar: Unicode.Scalar
    var escaped: String { "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" }
    var testDescription: String { "U+" + String(scalar.value, radix: 16, uppercase: true) }
}

/// Characters a terminal acts on instead of showing: each must reach the terminal escaped.
enum Hostile {
    /// Scalars that drive or reorder a terminal, or hide text: C1 controls (U+009B is CSI, which
    /// starts an escape sequence like ESC "["), bidi marks, embeddings, overrides and isolates,
    /// zero-width characters, a BOM and an invisible tag character.
    static let scalars: [Unicode.Scalar] = [
        "\u{80}", "\u{85}", "\u{9B}", "\u{9F}",
        "\u{061C}", "\u{200E}", "\u{200F}",
        "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
        "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
        "\u{200B}", "\u{00AD}", "\u{FEFF}", "\u{E0041}",
    ]

    static let cases = scalars.map(HostileScalar.init)

    /// Whether `bytes` (UTF-8 output) holds any of them raw.
    static func containsRaw(_ bytes: some Sequence<UInt8>) -> Bool {
        let text = String(decoding: Array(bytes), as: UTF8.self)
        return text.unicodeScalars.contains { scalars.contains($0) }
    }
}

@Suite("Terminal escapes: text from outside cannot drive the terminal")
struct TerminalEscapeTests {
    @Test("Error lines escape C1 controls, bidi controls and invisible format characters", arguments: Hostile.cases)
    func errorLineEscapes(hostile: HostileScalar) {
        #expect(oneLine("a\(hostile.scalar)b") == "a\(hostile.escaped)b")
    }

    @Test("Error lines keep printable text from every script as it is")
    func printableTextStays() {
        let text = "café 名前 😀 שלום مرحبا"
        #expect(oneLine(text) == text)
        #expect(oneLine("\u{1B}[31m\n") == "\\u{1B}[31m\\n")
    }

    @Test("JSON output escapes them as \\u escapes (a surrogate pair above U+FFFF) and parses back to the same text")
    func jsonEscapes() throws {
        let value = JSONValue.string("x\u{9B}31m\u{202E}txt\u{E0041}é")
        #expect(value.serialized == #""x\u009b31m\u202etxt\udb40\udc41é""#)
        #expect(try JSONValue(parsing: value.serialized) == value)
        for scalar in Hostile.scalars {
            #expect(!Hostile.containsRaw(JSONValue.string("a\(scalar)b").serialized.utf8), "U+\(String(scalar.value, radix: 16)) printed raw")
        }
    }

    @Test("list escapes names and summaries too, one row per action")
    func listEscapes() throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Shown", summary: "about \u{9B}31m\u{202E}",
            actions: [
                Action("go", summary: "line\nbreak \u{2066}") { _, _ in nil }
            ])
        let text = Listing(targets: mediator.targets).text
        #expect(text == "Shown (Target_Shown): about \\u{9B}31m\\u{202E}\n  go  Action_go  remote      line\\nbreak \\u{2066}")
    }

    @Test("mediate's error lines, --json objects and results hold none of them raw", arguments: Hostile.cases)
    func mediateOutput(hostile: HostileScalar) throws {
        let name = "ec\(hostile.scalar)ho"
        let failure = try Mediate.run(["--in-memory", "perform", "Echo", name])
        #expect(failure.status == 69)
        #expect(failure.errorLines.count == 1, "\(failure)")
        #expect(failure.error.contains(hostile.escaped), "\(failure)")
        #expect(!Hostile.containsRaw(failure.error.utf8), "\(failure)")

        let json = try Mediate.run(["--in-memory", "--json", "perform", "Echo", name])
        #expect(json.status == 69)
        #expect(!Hostile.containsRaw(json.output.utf8), "\(json)")
        #expect((json.json?["error"] as? [String: Any])?["action"] as? String == name)

        let echo = try Mediate.run(["--in-memory", "perform", "Echo", "echo", "v=\(name)"])
        #expect(echo.status == 0)
        #expect(!Hostile.containsRaw(echo.output.utf8), "\(echo)")
        #expect(echo.json?["v"] as? String == name)
    }
}
