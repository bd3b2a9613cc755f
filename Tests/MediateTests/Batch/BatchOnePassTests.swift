import Mediator
import TestSupport
import Testing

@testable import MediatorCommandLine

/// The batch line's pieces read bytes in one pass, and results are written as JSON without
/// building a `JSONValue` for the usual types: each must say exactly what the slower forms said.
@Suite("Batch lines in one pass, results written directly")
struct BatchOnePassTests {
    @Test(
        "A line is a URL when its first word holds :// byte for byte",
        arguments: [
            ("app://Echo/echo", true), ("://", true), ("a://", true), ("x://\u{301}", true),
            ("Echo echo u=http://x", false), ("a\t://x", false), ("a:/ /x", false), (":/", false), ("", false),
            ("x:\u{301}//", false), ("a:/", false),
        ])
    func urlLines(line: String, isURL: Bool) {
        #expect(BatchLine.startsWithURL(line) == isURL)
    }

    @Test("Lines without quotes split as the spaces and tabs between their words say (generated lines)")
    func plainLinesSplitAsSeparatorsSay() throws {
        // Pieces with non-ASCII text, combining marks (after a separator too) and runs of separators.
        let pieces = ["a", "Echo", "k=v", "é", "\u{301}", "日本", "x:=1", " ", "\t", "  ", "=", "😀"]
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let line = (0..<Int(generator.next() % 9)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            // The reference: split the scalars at spaces and tabs, dropping empty runs.
            let expected = line.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { String($0) }
            #expect(try BatchLine.words(line) == expected, "\(line.debugDescription)")
        }
    }

    @Test("A repeated key collects its values, also past the keys searched one by one")
    func repeatedKeysPastTheLinearSearch() throws {
        var parameters = ParameterArguments()
        for index in 0..<10 { try parameters.add(argument: "k\(index)=v\(index)") }
        try parameters.add(argument: "k0=again")
        try parameters.add(argument: "k9=again")
        try parameters.add(argument: "n:=1")
        try parameters.add(argument: "n=x")
        let params = parameters.params
        #expect(params.count == 11)
        #expect(params["k0"] as? [String] == ["v0", "again"])
        #expect(params["k9"] as? [String] == ["v9", "again"])
        #expect(params["k5"] as? String == "v5")
        let mixed = try #require(params["n"] as? [any Sendable])
        #expect(mixed.count == 2)
        #expect(mixed.first as? Int == 1)
        #expect(mixed.last as? String == "x")
    }

    @Test(
        "A result is written as the general conversion writes it",
        arguments: [
            (Optional<any Sendable>.some("plain"), #""plain""#),
            ("q\"b\\", #""q\"b\\""#),
            ("é\u{7}\u{202E}", #""é\u0007\u202e""#),
            (42, "42"),
            (true, "true"),
            (2.5, "2.5"),
            (Optional<any Sendable>.none, "null"),
            (Optional("wrapped") as any Sendable, #""wrapped""#),
            (Params(["b": 1, "a": "x"]), #"{"a":"x","b":1}"#),
            (["b": 1, "a": "x"] as Params, #"{"a":"x","b":1}"#),
            (Params(["n": String?.none, "p": ["z": true] as Params]), #"{"n":null,"p":{"z":true}}"#),
            (
                Params(Dictionary(uniqueKeysWithValues: (0..<9).map { ("k\(8 - $0)", $0 as any Sendable) })),
                #"{"k0":8,"k1":7,"k2":6,"k3":5,"k4":4,"k5":3,"k6":2,"k7":1,"k8":0}"#
            ),
            (["x", "y"], #"["x","y"]"#),
        ])
    func resultsAsJSON(result: (any Sendable)?, json: String) {
        #expect(JSONValue.serialized(result: result) == json)
        #expect(JSONValue(result: result).serialized == json)
    }

    @Test("--params-json= is cut after its bytes: a combining mark after = stays in the JSON, which is refused")
    func paramsJSONCutByBytes() async throws {
        let mediator = Mediator()
        try mediator.registerEcho()
        let tool = CommandLineTool(mediator: mediator, name: "t", version: "0")
        await #expect(throws: CommandError.self) { try await tool.perform(["Echo", "echo", "--params-json=\u{301}{\"a\":1}"]) }
        let result = try await tool.perform(["Echo", "echo", #"--params-json={"a":1}"#])
        #expect(JSONValue.serialized(result: result) == #"{"a":1}"#)
    }
}
