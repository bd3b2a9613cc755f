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
    ]

    @Test("Every shape and usual value gives the text the general path gives", arguments: 0..<values.count)
    func sameText(index: Int) {
        let outcome = CallOutcome.value(Self.values[index])
        let shapes: [AgentTools.ResultShape] = [.free, .wrapped, .object]
        for shape in shapes {
            #expect(outcome.serializedToolResult(shape, target: "T", action: "a") == outcome.toolResult(shape, target: "T", action: "a").serialized)
        }
    }
}
