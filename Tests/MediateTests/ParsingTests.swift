import Mediator
import Testing

@testable import MediatorCommandLine

@Suite("Command-line parsing pieces")
struct ParsingTests {
    @Test(
        "JSON values parse and print back in canonical form",
        arguments: [
            (#"{"b":1,"a":[true,false,null,"x"]}"#, #"{"a":[true,false,null,"x"],"b":1}"#),
            (#" [ 1 , -2.5 , 1e3 , 0 ] "#, #"[1,-2.5,1000.0,0]"#),
            (#""\u00e9\ud83d\ude00\n\"\\\/""#, #""é😀\n\"\\/""#),
            (#""tab\there""#, #""tab\there""#),
            ("9223372036854775807", "9223372036854775807"),
            ("9223372036854775808", "9.223372036854776e+18"),
        ])
    func jsonRoundTrip(input: String, canonical: String) throws {
        #expect(try JSONValue(parsing: input).serialized == canonical)
    }

    @Test(
        "Malformed JSON is an error with its position, never a crash",
        arguments: [
            "", "{", "[1,]", "{\"a\"}", "{\"a\":}", "tru", "01", "1.", "-", "\"unterminated", "\"\\x\"", "\"\\ud800\"", "[1] 2",
            "\"a\u{1}b\"", "1e999", String(repeating: "[", count: 10_000),
        ])
    func malformedJSON(input: String) {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: input) }
    }

    @Test("Control characters are escaped on output")
    func controlCharacters() {
        #expect(JSONValue.string("\u{0}\u{1f}\u{7f}").serialized == #""\u0000\u001f\u007f""#)
    }

    @Test(
        "Batch lines split like a shell",
        arguments: [
            ("Notes create title='a b' body=\"c \\\"d\\\" e\"", ["Notes", "create", "title=a b", "body=c \"d\" e"]),
            ("  spaced\tout  ", ["spaced", "out"]),
            ("a\\ b c", ["a b", "c"]),
            ("empty='' x", ["empty=", "x"]),
            ("'it''s'", ["its"]),
            ("\"keep \\n as is\"", ["keep \\n as is"]),
        ])
    func batchWords(line: String, words: [String]) throws {
        #expect(try BatchLine.words(line) == words)
    }

    @Test(
        "key=value splits at the first = (or :=) scalar; a backslash makes one scalar of the key literal",
        arguments: [
            ("a\\=b=1", "a=b", "1"),
            ("k\\:=v", "k:", "v"),
            ("e=\u{301}x", "e", "\u{301}x"),
            ("é=x=y", "é", "x=y"),
        ])
    func parameterSplitting(argument: String, key: String, value: String) throws {
        var parameters = ParameterArguments()
        try parameters.add(argument: argument)
        #expect(parameters.params.values.keys.sorted() == [key])
        #expect(parameters.params.values[key] as? String == value)
    }

    @Test("Unterminated quotes and trailing backslashes are usage errors", arguments: ["'open", "\"open", "end\\"])
    func batchErrors(line: String) {
        #expect(throws: CommandError.self) { try BatchLine.words(line) }
    }
}

struct Receipt: Encodable {
    let id: Int
    let items: [String]
    let total: Double?
}

/// Encodes a nil through a single-value container.
struct EncodesNil: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}

final class Opaque: CustomStringConvertible, Sendable {
    var description: String { "an opaque value" }
}

@Suite("Results as JSON")
struct ResultJSONTests {
    @Test("Plain values, nested collections and Params print as themselves")
    func plainValues() {
        let nested: [String: any Sendable] = ["n": 1, "s": "x", "b": false, "list": [1, 2] as [Int], "none": String?.none]
        #expect(JSONValue(result: nested).serialized == #"{"b":false,"list":[1,2],"n":1,"none":null,"s":"x"}"#)
        #expect(JSONValue(result: nil).serialized == "null")
        #expect(JSONValue(result: Int8(-3)).serialized == "-3")
        #expect(JSONValue(result: UInt64.max).serialized == "\"18446744073709551615\"")
        #expect(JSONValue(result: Double.infinity).serialized == "null")
        let optionals: [String?] = ["x", nil]
        #expect(JSONValue(result: optionals).serialized == #"["x",null]"#)
        let doubleOptional: Int?? = 7
        #expect(JSONValue(result: doubleOptional as Any).serialized == "7")
    }

    @Test("Encodable values print as their encode(to:) writes them (the library's encoder), keys sorted")
    func encodable() {
        #expect(JSONValue(result: Receipt(id: 7, items: ["a"], total: nil)).serialized == #"{"id":7,"items":["a"]}"#)
        // Through the library's encoder (no Foundation): a Double stays a Double, as a Double
        // result prints, where JSONEncoder wrote 12.
        #expect(JSONValue(result: Receipt(id: 7, items: [], total: 12)).serialized == #"{"id":7,"items":[],"total":12.0}"#)
        // A value that encodes nothing prints as null (not as a failure to encode).
        #expect(JSONValue(result: EncodesNil()).serialized == "null")
        // What cannot be encoded prints as its description, as anything else does.
        #expect(JSONValue(result: Receipt(id: 1, items: [], total: .nan)).serialized == #""Receipt(id: 1, items: [], total: Optional(nan))""#)
    }

    @Test("Anything else prints as the JSON string of its description")
    func opaque() {
        #expect(JSONValue(result: Opaque()).serialized == #""an opaque value""#)
    }
}
