import Mediator
import Testing

/// One URL and what opening it must give.
struct URLCase: CustomTestStringConvertible, Sendable {
    enum Expected: Sendable {
        case params([String: QueryValue])
        case value(String)
        case error(MediatorError.Code, String)
    }

    let url: String
    let expected: Expected
    var testDescription: String { url.count > 80 ? String(url.prefix(80)) + "…" : url }

    static func ok(_ url: String, _ params: [String: QueryValue] = [:]) -> URLCase { URLCase(url: url, expected: .params(params)) }
    static func value(_ url: String, _ value: String) -> URLCase { URLCase(url: url, expected: .value(value)) }
    static func fails(_ url: String, _ code: MediatorError.Code, _ text: String) -> URLCase { URLCase(url: url, expected: .error(code, text)) }
}

@Suite("URL calls: the rules, case by case")
struct URLTableTests {
    static let cases: [URLCase] = [
        // Valid forms and names
        .ok("app://Echo/echo"),
        .ok("app://Echo/echo?a=1", ["a": .one("1")]),
        .ok("app://Target_Echo/echo?a=1", ["a": .one("1")]),
        .ok("app://Echo/Action_echo?a=1", ["a": .one("1")]),
        .ok("app://Target_Echo/Action_echo", [:]),
        .ok("app://Echo/echo/", [:]),
        .ok("app://Echo/echo/?a=1", ["a": .one("1")]),
        .ok("app://Echo/echo?", [:]),
        .value("app://Other/ping", "pong"),
        .value("app://Other/ping/#frag", "pong"),
        // Schemes
        .ok("myapp://Echo/echo", [:]),
        .ok("APP://Echo/echo", [:]),
        .ok("x-y.z+w://Echo/echo", [:]),
        .ok("https://Echo/echo?q=1", ["q": .one("1")]),
        .ok("MyApp+x://Echo/echo", [:]),
        .ok("app://Echo/echo?t=caf%C3%A9%20au%20lait", ["t": .one("café au lait")]),
        // Fragments
        .ok("app://Echo/echo#fragment", [:]),
        .ok("app://Echo/echo?a=1#b=2", ["a": .one("1")]),
        .ok("app://Echo/echo?a=1#", ["a": .one("1")]),
        .ok("app://Echo/echo?a=%23#x", ["a": .one("#")]),
        // Decoding
        .ok("app://Echo/echo?t=hello%20world", ["t": .one("hello world")]),
        .ok("app://Echo/echo?t=a+b", ["t": .one("a+b")]),
        .ok("app://Echo/echo?t=a%2Bb", ["t": .one("a+b")]),
        .ok("app://Echo/echo?t=%26%3D%25%3F%2F", ["t": .one("&=%?/")]),
        .ok("app://Echo/echo?t=%e2%82%ac", ["t": .one("€")]),
        .ok("app://Echo/echo?t=%E2%82%AC", ["t": .one("€")]),
        .ok("app://Echo/echo?t=%F0%9F%98%80", ["t": .one("😀")]),
        .ok("app://Echo/echo?%6B%65%79=v", ["key": .one("v")]),
        .ok("app://Echo/echo?t=a=b=c", ["t": .one("a=b=c")]),
        .ok("app://Echo/echo?t=%00", ["t": .one("\u{0}")]),
        // Unicode in keys and values, raw and escaped
        .ok("app://Echo/echo?名前=値", ["名前": .one("値")]),
        .ok("app://Echo/echo?%E5%90%8D%E5%89%8D=%E5%80%A4", ["名前": .one("値")]),
        .ok("app://Echo/echo?émoji=😀", ["émoji": .one("😀")]),
        .ok("app://Echo/echo?t=Ω≈ç√", ["t": .one("Ω≈ç√")]),
        // Repeated keys, flags, empty values, empty items
        .ok("app://Echo/echo?tag=a&tag=b", ["tag": .many(["a", "b"])]),
        .ok("app://Echo/echo?tag=a&x=1&tag=b&tag=c", ["tag": .many(["a", "b", "c"]), "x": .one("1")]),
        .ok("app://Echo/echo?tag=&tag=", ["tag": .many(["", ""])]),
        .ok("app://Echo/echo?flag", ["flag": .one("")]),
        .ok("app://Echo/echo?flag&flag", ["flag": .many(["", ""])]),
        .ok("app://Echo/echo?a=", ["a": .one("")]),
        .ok("app://Echo/echo?a=1&&b=2", ["a": .one("1"), "b": .one("2")]),
        .ok("app://Echo/echo?a=1&", ["a": .one("1")]),
        .ok("app://Echo/echo?&", [:]),
        .ok("app://Echo/echo?A=1&a=2", ["A": .one("1"), "a": .one("2")]),
        // Not URLs / wrong form
        .fails("", .invalidURL, "no \"scheme://\""),
        .fails("Echo/echo", .invalidURL, "no \"scheme://\""),
        .fails("app:/Echo/echo", .invalidURL, "no \"scheme://\""),
        .fails("app:Echo/echo", .invalidURL, "no \"scheme://\""),
        .fails("://Echo/echo", .invalidURL, "the scheme must be"),
        .fails("1app://Echo/echo", .invalidURL, "the scheme must be"),
        .fails("a pp://Echo/echo", .invalidURL, "the scheme must be"),
        .fails("app://", .invalidURL, "the target is empty"),
        .fails("app:///echo", .invalidURL, "the target is empty"),
        .fails("app://?a=1", .invalidURL, "the target is empty"),
        .fails("app://Echo", .invalidURL, "the action is missing"),
        .fails("app://Echo/", .invalidURL, "the action is missing"),
        .fails("app://Echo?a=1", .invalidURL, "the action is missing"),
        .fails("app://Echo/echo/extra", .invalidURL, "more than one segment"),
        .fails("app://Echo//echo", .invalidURL, "more than one segment"),
        .fails("app://Echo/echo//", .invalidURL, "more than one segment"),
        .fails("app://Ec ho/echo", .invalidURL, "not a valid name"),
        .fails("app://user@Echo/echo", .invalidURL, "not a valid name"),
        .fails("app://Echo:80/echo", .invalidURL, "not a valid name"),
        .fails("app://Echo/ec%zzho", .invalidURL, "malformed percent-escape \"%zz\""),
        // Malformed escapes and empty keys
        .fails("app://Echo/echo?t=%zz", .invalidURL, "value of query key \"t\" has a malformed percent-escape \"%zz\""),
        .fails("app://Echo/echo?t=%4", .invalidURL, "value of query key \"t\" has a malformed percent-escape \"%4\""),
        .fails("app://Echo/echo?t=%", .invalidURL, "value of query key \"t\" has a malformed percent-escape \"%\""),
        .fails("app://Echo/echo?t=abc%G1", .invalidURL, "malformed percent-escape \"%G1\""),
        .fails("app://Echo/echo?k%zz=1", .invalidURL, "query key \"k%zz\" has a malformed percent-escape"),
        .fails("app://Echo/echo?t=%FF", .invalidURL, "not valid UTF-8"),
        .fails("app://Echo/echo?t=%C3", .invalidURL, "not valid UTF-8"),
        .fails("app://Echo/echo?=x", .invalidURL, "empty key"),
        .fails("app://Echo/echo?a=1&=", .invalidURL, "empty key"),
        // native and local-only actions, unknown names
        .fails("app://Echo/nativeEcho?a=1", .forbidden, "begins with \"native\""),
        .fails("app://Echo/Action_nativeEcho", .forbidden, "begins with \"native\""),
        .fails("app://Echo/nativeMissing", .forbidden, "begins with \"native\""),
        .fails("app://Echo/secret", .forbidden, "local-only"),
        .fails("app://Echo/ehco", .actionNotFound, "did you mean \"echo\"?"),
        .fails("app://Ecko/echo", .targetNotFound, "did you mean \"Echo\"?"),
        .fails("app://echo/echo", .targetNotFound, "did you mean \"Echo\"?"),
    ]

    @Test("Each URL gives exactly the params, value or error its rule says", arguments: cases)
    func rule(_ testCase: URLCase) throws {
        let mediator = try urlTestMediator()
        switch testCase.expected {
        case .params(let expected):
            #expect(echoed(try mediator.callNow(url: testCase.url)) == expected)
        case .value(let expected):
            #expect(try mediator.callNow(url: testCase.url) as? String == expected)
        case .error(let code, let text):
            let error = #expect(throws: MediatorError.self) { try mediator.callNow(url: testCase.url) }
            #expect(error?.code == code)
            #expect(error?.description.contains(text) == true, "\(error?.description ?? "no error")")
            #expect(mediator.open(testCase.url) == nil)
        }
    }

    @Test("The table has at least 60 cases")
    func enoughCases() {
        #expect(Self.cases.count >= 60)
    }
}
