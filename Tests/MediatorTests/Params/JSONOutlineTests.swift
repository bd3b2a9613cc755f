import Mediator
import Testing

/// The outline a Model Context Protocol server reads each request with agrees with the JSON
/// parser: the same texts accepted, the same errors (reason and offset) for the others, the same
/// values read back.
@Suite("JSON outline")
struct JSONOutlineTests {
    /// Members past the first 16 are checked for repeats with a set, the first ones one by one.
    static let manyKeys = (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")

    static let texts: [String] = [
        // Accepted.
        #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"Echo.echo","arguments":{"a":"1"}}}"#,
        #" { "a" : [ 1 , { "b" : null } , [ ] ] , "c" : { } , "d" : -2.5e3 , "e" : "\u00e9\n" } "#,
        "[1,2,[3,[4]]]", #""text""#, "42", "true", "null", "{}", "[]",
        "{" + manyKeys + "}",
        #"{"o":{"p":{"q":{"r":[{"s":1},{"s":2}]}}}}"#,
        String(repeating: "[", count: 255) + String(repeating: "]", count: 255),
        // Refused.
        "", "{", "[1,]", #"{"a"}"#, #"{"a":}"#, "tru", "01", "1.", "-", #""unterminated"#, #""\x""#, #""\ud800""#, "[1] 2",
        "\"a\u{1}b\"", "1e999", "{\"a\":1e999}", "[1e999]",
        String(repeating: "[", count: 256) + String(repeating: "]", count: 256),
        String(repeating: "{\"a\":", count: 300) + "1" + String(repeating: "}", count: 300),
        #"{"a":1,"a":2}"#, #"{"a":{"b":1,"b":2}}"#, #"[{"b":1},{"c":1,"c":2}]"#, #"{"\u0061":1,"a":2}"#,
        "{\"é\":1,\"e\u{301}\":2}", "{\"K\":1,\"\u{212A}\":2}", #"{"K":1,"\u212A":2}"#,
        "{" + manyKeys + #","k3":0}"#, "{" + manyKeys + #","k39":0}"#, "{" + manyKeys + #","k40":0,"k40":1}"#,
        #"{"a":[1,2}"#, #"{"a":1,}"#, #"{"a":1 "b":2}"#, #"{1:2}"#,
    ]

    @Test("Accepts what the parser accepts and refuses the rest with its error", arguments: texts)
    func agreesWithParser(text: String) {
        let parsed = Result { () throws(JSONValue.ParseError) in try JSONValue(parsing: text) }
        let outlined = Result { () throws(JSONValue.ParseError) in try JSONOutline(parsing: text) }.map { $0.value(of: $0.root) }
        #expect(outlined == parsed)
    }

    @Test("Finds members in the order written, in objects at any depth")
    func members() throws {
        let outline = try JSONOutline(parsing: #"{"b":1,"a":{"y":[1,{"z":2}],"x":"t"},"c":null}"#)
        let top = try #require(outline.members(of: outline.root))
        #expect(top.map(\.key) == ["b", "a", "c"])
        #expect(outline.value(of: top[0].value) == .int(1))
        #expect(outline.value(of: top[2].value) == .null)
        let inner = try #require(outline.member("a", of: outline.root))
        #expect(outline.members(of: inner)?.map(\.key) == ["y", "x"])
        let array = try #require(outline.member("y", of: inner))
        #expect(!outline.isObject(array))
        #expect(outline.members(of: array) == nil)
        #expect(outline.value(of: array) == .array([.int(1), .object(["z": .int(2)])]))
        #expect(outline.member("x", of: inner).map(outline.value(of:)) == .string("t"))
        #expect(outline.member("z", of: outline.root) == nil)
        #expect(outline.member("b", of: array) == nil)
    }
}
