import Mediator
import Testing

@testable import MediatorCommandLine

/// A tool call's result written directly as text is, byte for byte, the result built as a value
/// and serialized: the fast path and the general one agree.
@Suite("Agent bridge: a tool result's text is the same on the fast path")
struct AgentResultTextTests {
    static let values: [(any Sendable)?] = [
        nil, "text with \"quotes\" and \u{1B}", 42, true, 2.5, Params(["b": 1, "a": ["x", "y"], "é": "ü"]),
        ["k": "v", "n": 3] as [String: any Sendable], Params([:]),
        // What the text must escape twice, or not at all: backslashes, line breaks, bidi and
        // invisible characters, line separators, emoji, in values and in keys.
        #"a\b "c" \u0041"#, "line\nbreak\ttab\r", "\u{202E}reversed\u{200B}\u{2028}", "😀 é",
        Params(["\u{1}key\"\\": "\u{7F}\u{85}", "nested": Params(["x": [1, 2] as [any Sendable]])]),
        // Results the direct writer hands to the general conversion.
        [1, "two", 3.5] as [any Sendable], Double.infinity, Int8(7), Optional<Int>.some(3) as any Sendable, Optional<Int>.none as any Sendable,
        ["result": 1] as [String: any Sendable],
    ]

    @Test("Every shape and usual value gives the text the general path gives", arguments: 0..<values.count)
    func sameText(index: Int) {
        let outcome = CallOutcome.value(Self.values[index])
        let shapes: [AgentTools.ResultShape] = [.free, .wrapped, .object]
        for shape in shapes {
            var written: [UInt8] = []
            outcome.writeToolResult(shape, target: "T", action: "a", to: &written)
            #expect(String(decoding: written, as: UTF8.self) == outcome.toolResult(shape, target: "T", action: "a").serialized, "shape \(shape)")
        }
    }
}
