import Testing

@testable import Mediator

// MARK: - Fixtures

/// A route to register in a test: its pattern, a label standing for its payload, its priority.
struct RouteSpec: Sendable {
    /// The pattern text.
    let pattern: String
    /// The payload, named so that a row can say which route won.
    let label: String
    /// The route's priority.
    let priority: Int
}

/// A route spec, briefly: `route("/user/:id", "user")`.
private func route(_ pattern: String, _ label: String, priority: Int = 0) -> RouteSpec {
    RouteSpec(pattern: pattern, label: label, priority: priority)
}

/// A trie of `specs`, registered in order.
private func makeRouteTrie(_ specs: [RouteSpec]) throws -> RouteTrie<String> {
    var builder = RouteTrieBuilder<String>()
    for spec in specs { try builder.add(spec.pattern, payload: spec.label, priority: spec.priority) }
    return builder.build()
}

/// A path split the way the URL reader will hand it over: on `/`, one leading and one trailing
/// empty segment dropped, empty segments in between kept.
private func routeSegments(_ path: String) -> [Substring] {
    var segments = path.split(separator: "/", omittingEmptySubsequences: false)
    if segments.first?.isEmpty == true { segments.removeFirst() }
    if segments.last?.isEmpty == true { segments.removeLast() }
    return segments
}

/// One row of the matching table: routes, a path, and the route and captures it must give.
struct RouteMatchCase: Sendable, CustomTestStringConvertible {
    /// What the row pins, as a sentence.
    let name: String
    /// The routes, registered in this order.
    let routes: [RouteSpec]
    /// The path (split with ``routeSegments(_:)``).
    let path: String
    /// The label of the route that must win, `nil` for no match.
    let expected: String?
    /// The placeholders' captures.
    let parameters: [String: String]
    /// The wildcard's segments, `nil` when the winner has no wildcard.
    let rest: [String]?

    /// The row's name, shown for each test case.
    var testDescription: String { name }

    /// A row expecting `expected` with these captures.
    init(_ name: String, _ routes: [RouteSpec], _ path: String, _ expected: String?, _ parameters: [String: String] = [:], rest: [String]? = nil) {
        self.name = name
        self.routes = routes
        self.path = path
        self.expected = expected
        self.parameters = parameters
        self.rest = rest
    }
}

/// A valid UUID in lower case.
private let uuid = "123e4567-e89b-12d3-a456-426614174000"
/// A path of `count` segments `s0`, `s1`, ….
private func longPath(_ count: Int) -> String { (0..<count).map { "/s\($0)" }.joined() }

// MARK: - Matching table

/// The matching rules, row by row.
private let routeMatchCases: [RouteMatchCase] = [
    // Literals
    .init("a literal route matches its own path", [route("/user/me", "me")], "/user/me", "me"),
    .init("a literal does not match another literal", [route("/user/me", "me")], "/user/you", nil),
    .init("a route does not match a longer path", [route("/user", "user")], "/user/me", nil),
    .init("a route does not match a shorter path", [route("/user/me", "me")], "/user", nil),
    .init("the leading slash of a pattern is optional", [route("user/me", "me")], "/user/me", "me"),
    .init("one trailing slash of a pattern is dropped", [route("/user/me/", "me")], "/user/me", "me"),
    .init("literals are case-sensitive", [route("/User", "upper")], "/user", nil),
    .init("a literal with a space matches the decoded segment", [route("/a b", "space")], "/a b", "space"),
    .init("a non-ASCII literal matches the same bytes", [route("/caf\u{E9}", "cafe")], "/caf\u{E9}", "cafe"),
    .init("a precomposed literal does not match the decomposed path", [route("/caf\u{E9}", "cafe")], "/cafe\u{301}", nil),
    .init("a decomposed literal does not match the precomposed path", [route("/cafe\u{301}", "cafe")], "/caf\u{E9}", nil),
    // Untyped placeholders
    .init("a placeholder captures one segment", [route("/user/:id", "user")], "/user/42", "user", ["id": "42"]),
    .init("a placeholder does not match an empty segment", [route("/a/:x/b", "axb")], "/a//b", nil),
    .init("a placeholder does not match two segments", [route("/user/:id", "user")], "/user/1/2", nil),
    .init("three placeholders capture three segments", [route("/:a/:b/:c", "abc")], "/x/y/z", "abc", ["a": "x", "b": "y", "c": "z"]),
    .init("a placeholder between literals", [route("/user/:id/profile", "profile")], "/user/7/profile", "profile", ["id": "7"]),
    .init("names may hold digits and underscores", [route("/:_id2", "x")], "/v", "x", ["_id2": "v"]),
    .init("a placeholder captures a decoded space as is", [route("/:x", "x")], "/a b", "x", ["x": "a b"]),
    .init("a placeholder captures non-ASCII as is", [route("/:x", "x")], "/\u{E9}", "x", ["x": "\u{E9}"]),
    // Typed placeholders
    .init("int matches digits", [route("/n/:v<int>", "int")], "/n/42", "int", ["v": "42"]),
    .init("int matches a negative number", [route("/n/:v<int>", "int")], "/n/-17", "int", ["v": "-17"]),
    .init("int keeps leading zeros as text", [route("/n/:v<int>", "int")], "/n/007", "int", ["v": "007"]),
    .init("int matches Int64.max", [route("/n/:v<int>", "int")], "/n/9223372036854775807", "int", ["v": "9223372036854775807"]),
    .init("int matches Int64.min", [route("/n/:v<int>", "int")], "/n/-9223372036854775808", "int", ["v": "-9223372036854775808"]),
    .init("int does not match Int64.max + 1", [route("/n/:v<int>", "int")], "/n/9223372036854775808", nil),
    .init("int does not match Int64.min - 1", [route("/n/:v<int>", "int")], "/n/-9223372036854775809", nil),
    .init("int does not match a plus sign", [route("/n/:v<int>", "int")], "/n/+5", nil),
    .init("int does not match a lone minus", [route("/n/:v<int>", "int")], "/n/-", nil),
    .init("int does not match trailing letters", [route("/n/:v<int>", "int")], "/n/12a", nil),
    .init("int does not match a leading space", [route("/n/:v<int>", "int")], "/n/ 1", nil),
    .init("int does not match non-ASCII digits", [route("/n/:v<int>", "int")], "/n/\u{661}\u{662}", nil),
    .init("uuid matches lower-case hex", [route("/d/:u<uuid>", "uuid")], "/d/" + uuid, "uuid", ["u": uuid]),
    .init(
        "uuid matches mixed-case hex", [route("/d/:u<uuid>", "uuid")], "/d/123E4567-e89B-12D3-a456-426614174ABC", "uuid",
        ["u": "123E4567-e89B-12D3-a456-426614174ABC"]),
    .init("uuid does not match misplaced hyphens", [route("/d/:u<uuid>", "uuid")], "/d/123e456-7e89b-12d3-a456-426614174000", nil),
    .init("uuid does not match without hyphens", [route("/d/:u<uuid>", "uuid")], "/d/123e4567e89b12d3a456426614174000", nil),
    .init("uuid does not match a non-hex letter", [route("/d/:u<uuid>", "uuid")], "/d/123e4567-e89b-12d3-a456-42661417400g", nil),
    .init("alpha matches ASCII letters", [route("/w/:a<alpha>", "alpha")], "/w/abcXYZ", "alpha", ["a": "abcXYZ"]),
    .init("alpha does not match digits", [route("/w/:a<alpha>", "alpha")], "/w/abc1", nil),
    .init("alpha does not match non-ASCII letters", [route("/w/:a<alpha>", "alpha")], "/w/caf\u{E9}", nil),
    // float: URLNavigator's <float> (Float(segment)), narrowed to finite decimal text
    .init("float matches a decimal", [route("/xyz/:id<float>", "float")], "/xyz/123.456", "float", ["id": "123.456"]),
    .init("float matches an integer", [route("/f/:v<float>", "float")], "/f/42", "float", ["v": "42"]),
    .init("float matches a negative decimal", [route("/f/:v<float>", "float")], "/f/-1.5", "float", ["v": "-1.5"]),
    .init("float matches an exponent", [route("/f/:v<float>", "float")], "/f/2.5e-3", "float", ["v": "2.5e-3"]),
    .init("float matches a capital exponent with a plus", [route("/f/:v<float>", "float")], "/f/1E+5", "float", ["v": "1E+5"]),
    .init("float does not match a plus sign", [route("/f/:v<float>", "float")], "/f/+3", nil),
    .init("float does not match a bare fraction", [route("/f/:v<float>", "float")], "/f/.5", nil),
    .init("float does not match a trailing point", [route("/f/:v<float>", "float")], "/f/5.", nil),
    .init("float does not match nan", [route("/f/:v<float>", "float")], "/f/nan", nil),
    .init("float does not match inf", [route("/f/:v<float>", "float")], "/f/inf", nil),
    .init("float does not match hexadecimal", [route("/f/:v<float>", "float")], "/f/0x1p3", nil),
    .init("float does not match an overflow", [route("/f/:v<float>", "float")], "/f/1e400", nil),
    .init("float does not match an exponent without digits", [route("/f/:v<float>", "float")], "/f/1e", nil),
    .init("float does not match two points", [route("/f/:v<float>", "float")], "/f/1.2.3", nil),
    .init("int beats float for an integer", [route("/p/:v<float>", "float"), route("/p/:v<int>", "int")], "/p/42", "int", ["v": "42"]),
    .init("float takes what int does not", [route("/p/:v<int>", "int"), route("/p/:v<float>", "float")], "/p/4.5", "float", ["v": "4.5"]),
    .init("float beats untyped", [route("/p/:v", "untyped"), route("/p/:v<float>", "float")], "/p/4.5", "float", ["v": "4.5"]),
    // Optional parts
    .init("an optional part left out", [route("/user(/:id)", "user")], "/user", "user"),
    .init("an optional part included", [route("/user(/:id)", "user")], "/user/5", "user", ["id": "5"]),
    .init("two optional parts both included", [route("/user(/:id)(/:tab)", "user")], "/user/a/b", "user", ["id": "a", "tab": "b"]),
    .init("with one of two optional parts the earlier group takes it", [route("/user(/:id)(/:tab)", "user")], "/user/a", "user", ["id": "a"]),
    .init("nested optional parts all included", [route("/a(/b(/c))", "abc")], "/a/b/c", "abc"),
    .init("a nested part needs its parent", [route("/a(/b(/c))", "abc")], "/a/c", nil),
    .init("a nested placeholder captures", [route("/a(/b(/:c))", "abc")], "/a/b/x", "abc", ["c": "x"]),
    .init("optional typed parts: the one whose type fits", [route("/n(/:v<int>)(/:w<alpha>)", "n")], "/n/abc", "n", ["w": "abc"]),
    .init("an optional part inside a segment", [route("/user(s)", "users")], "/users", "users"),
    // Wildcards
    .init("a wildcard matches zero segments", [route("/files/*", "files")], "/files", "files", rest: []),
    .init("a wildcard matches one segment", [route("/files/*", "files")], "/files/a", "files", rest: ["a"]),
    .init("a wildcard matches many segments", [route("/files/*", "files")], "/files/a/b/c", "files", rest: ["a", "b", "c"]),
    .init("a wildcard keeps empty segments", [route("/files/*", "files")], "/files/a//b", "files", rest: ["a", "", "b"]),
    .init("a root wildcard matches the empty path", [route("/*", "all")], "", "all", rest: []),
    .init("a placeholder then a wildcard", [route("/:x/*", "x")], "/a/b", "x", ["x": "a"], rest: ["b"]),
    // Precedence at one segment
    .init("literal beats typed", [route("/n/:v<int>", "typed"), route("/n/42", "literal")], "/n/42", "literal"),
    .init("literal beats untyped", [route("/user/:id", "untyped"), route("/user/me", "literal")], "/user/me", "literal"),
    .init("literal beats wildcard", [route("/files/*", "wildcard"), route("/files/readme", "literal")], "/files/readme", "literal"),
    .init("typed beats untyped", [route("/n/:v", "untyped"), route("/n/:v<int>", "typed")], "/n/5", "typed", ["v": "5"]),
    .init("typed beats wildcard", [route("/n/*", "wildcard"), route("/n/:v<uuid>", "typed")], "/n/" + uuid, "typed", ["v": uuid]),
    .init("untyped beats wildcard", [route("/a/*", "wildcard"), route("/a/:x", "untyped")], "/a/b", "untyped", ["x": "b"]),
    .init("the path ending beats a wildcard matching nothing", [route("/a/*", "wildcard"), route("/a", "exact")], "/a", "exact"),
    .init("the first segment that differs decides", [route("/:a/b", "late literal"), route("/a/:b", "early literal")], "/a/b", "early literal", ["b": "b"]),
    .init("two placeholders beat a wildcard", [route("/*", "wildcard"), route("/:x/:y", "pair")], "/a/b", "pair", ["x": "a", "y": "b"]),
    .init("a wildcard wins when nothing else matches", [route("/a/:x", "one"), route("/a/*", "wildcard")], "/a/b/c", "wildcard", rest: ["b", "c"]),
    .init("a typed placeholder that does not fit falls to untyped", [route("/n/:v<int>", "typed"), route("/n/:v", "untyped")], "/n/x", "untyped", ["v": "x"]),
    // Backtracking
    .init(
        "a literal that fails deeper falls back to a placeholder", [route("/user/me/settings", "settings"), route("/user/:id/profile", "profile")],
        "/user/me/profile", "profile", ["id": "me"]),
    .init(
        "a typed branch that fails deeper falls back to untyped", [route("/n/:v<int>/x", "typed"), route("/n/:v/y", "untyped")], "/n/5/y", "untyped",
        ["v": "5"]),
    .init(
        "a literal branch that fails deeper falls back to a wildcard", [route("/a/b/c", "literal"), route("/a/*", "wildcard")], "/a/b/d", "wildcard",
        rest: ["b", "d"]),
    .init(
        "backtracking over several levels", [route("/a/b/c/d", "literal"), route("/:w/:x/:y/e", "params")], "/a/b/c/e", "params",
        ["w": "a", "x": "b", "y": "c"]),
    // Priority
    .init(
        "priority overrides literal before untyped", [route("/user/me", "literal"), route("/user/:id", "untyped", priority: 1)], "/user/me", "untyped",
        ["id": "me"]),
    .init(
        "priority lets a wildcard beat a literal", [route("/files/readme", "literal"), route("/files/*", "wildcard", priority: 5)], "/files/readme",
        "wildcard", rest: ["readme"]),
    .init(
        "a negative priority loses to the default", [route("/user/:id", "negative", priority: -1), route("/*", "wildcard")], "/user/5", "wildcard",
        rest: ["user", "5"]),
    .init(
        "equal priorities fall back to precedence", [route("/user/:id", "untyped", priority: 3), route("/user/me", "literal", priority: 3)], "/user/me",
        "literal"),
    .init(
        "the highest of three priorities wins",
        [route("/a/b/c", "one", priority: 1), route("/a/:x/c", "three", priority: 3), route("/a/b/:y", "two", priority: 2)],
        "/a/b/c", "three", ["x": "b"]),
    .init("a high priority that does not match is ignored", [route("/a/x", "high", priority: 9), route("/a/:y", "low")], "/a/b", "low", ["y": "b"]),
    // Registration order
    .init("the earlier registered of two equally good routes wins", [route("/a/:x", "first"), route("/a(/:y)", "second")], "/a/q", "first", ["x": "q"]),
    .init("registration order, the other way round", [route("/a(/:y)", "first"), route("/a/:x", "second")], "/a/q", "first", ["y": "q"]),
    .init("registration order between typed routes", [route("/n/:a<int>", "first"), route("/n(/:b<int>)", "second")], "/n/1", "first", ["a": "1"]),
    // Empty path and trailing slash
    .init("the empty path matches the route /", [route("/", "root")], "", "root"),
    .init("the empty path matches the empty pattern", [route("", "root")], "", "root"),
    .init("the path / is the empty path", [route("/", "root")], "/", "root"),
    .init("a path's trailing slash is dropped by the caller", [route("/user/:id", "user")], "/user/5/", "user", ["id": "5"]),
    .init("the empty path does not match a placeholder", [route("/:x", "x")], "", nil),
    .init("the empty path without a root route does not match", [route("/a", "a")], "", nil),
    .init("no routes: no match", [], "/a", nil),
    // The segment cap
    .init("64 segments are matched", [route(longPath(64), "long")], longPath(64), "long"),
    .init("a wildcard takes up to the cap", [route("/*", "all")], longPath(64), "all", rest: (0..<64).map { "s\($0)" }),
    .init("65 segments never match", [route("/*", "all")], longPath(65), nil),
]

/// The matching table, row by row.
@Suite("Route matching table")
struct RouteMatchTableTests {
    @Test("Each row's path matches the expected route with the expected captures", arguments: routeMatchCases)
    func row(_ row: RouteMatchCase) throws {
        let trie = try makeRouteTrie(row.routes)
        let match = trie.match(routeSegments(row.path))
        #expect(match?.payload == row.expected)
        #expect(trie.canMatch(routeSegments(row.path)) == (row.expected != nil))
        guard let match else { return }
        #expect(match.parameters == row.parameters)
        #expect(match.rest == row.rest)
        #expect(match.pattern == row.routes.first(where: { $0.label == row.expected })?.pattern)
    }

    @Test("The table has at least 60 rows, with distinct names")
    func tableSize() {
        #expect(routeMatchCases.count >= 60)
        #expect(Set(routeMatchCases.map(\.name)).count == routeMatchCases.count)
    }

    @Test("String segments match as Substring segments do")
    func stringSegments() throws {
        let trie = try makeRouteTrie([route("/user/:id", "user")])
        #expect(trie.match(["user", "7"] as [String])?.parameters == ["id": "7"])
    }

    @Test("Params hold placeholders as String (even <int>) and the wildcard as [String] under \"*\"")
    func paramsValues() throws {
        let trie = try makeRouteTrie([route("/n/:v<int>/*", "n")])
        let params = try #require(trie.match(routeSegments("/n/5/a/b"))).params
        #expect(params["v"] as? String == "5")
        #expect(params["*"] as? [String] == ["a", "b"])
        #expect(params.count == 2)
    }

    @Test("A match names the route's pattern as registered, not the variant")
    func patternText() throws {
        let trie = try makeRouteTrie([route("user(/:id)/", "user")])
        #expect(trie.match(routeSegments("/user/1"))?.pattern == "user(/:id)/")
    }
}

// MARK: - Expansion

/// Patterns and the variants they expand into.
@Suite("Route pattern parsing")
struct RoutePatternParsingTests {
    @Test(
        "A pattern expands into its variants, in order",
        arguments: [
            ("/user/:id/profile", ["/user/:id/profile"]),
            ("user/:id", ["/user/:id"]),
            ("/", ["/"]),
            ("", ["/"]),
            ("/a/", ["/a"]),
            ("/:n<int>/:u<uuid>/:a<alpha>/*", ["/:n<int>/:u<uuid>/:a<alpha>/*"]),
            ("/user(/:id)(/:tab)", ["/user", "/user/:id", "/user/:tab", "/user/:id/:tab"]),
            ("/a(/b(/c))", ["/a", "/a/b", "/a/b/c"]),
            ("/a(/b(/c)(/d))", ["/a", "/a/b", "/a/b/c", "/a/b/d", "/a/b/c/d"]),
            ("/a(/b)(/b)", ["/a", "/a/b", "/a/b/b"]),
            ("(/a)", ["/", "/a"]),
            ("/user(s)", ["/user", "/users"]),
            ("/a(/)", ["/a"]),
            ("/files(/*)", ["/files", "/files/*"]),
        ]
    )
    func expansion(pattern: String, variants: [String]) throws {
        let parsed = try RoutePattern(parsing: pattern)
        #expect(parsed.variants.map(\.description) == variants)
        #expect(parsed.text == pattern)
    }

    @Test("Six flat groups give 64 variants, the most allowed")
    func sixtyFourVariants() throws {
        let parsed = try RoutePattern(parsing: "/a(/b)(/c)(/d)(/e)(/f)(/g)")
        #expect(parsed.variants.count == 64)
    }

    @Test(
        "A malformed pattern is refused with a one-line reason",
        arguments: [
            ("/user/:id<double>", #"route "/user/:id<double>": unknown placeholder type "double" (known: int, uuid, alpha, float)"#),
            ("/user/:id<>", #"route "/user/:id<>": unknown placeholder type "" (known: int, uuid, alpha, float)"#),
            ("/user/:id<int", #"route "/user/:id<int": segment ":id<int" has "<" without a type and a closing ">""#),
            ("/user/v:id<int.json", #"route "/user/v:id<int.json": segment "v:id<int.json" has "<" without a type and a closing ">""#),
            ("/user/:id<json>.json", #"route "/user/:id<json>.json": unknown placeholder type "json" (known: int, uuid, alpha, float)"#),
            ("/user(/:id", #"route "/user(/:id": unbalanced "(": no matching ")""#),
            ("/user/:id)", #"route "/user/:id)": unbalanced ")": no matching "(""#),
            ("/a)(", #"route "/a)(": unbalanced ")": no matching "(""#),
            ("/user()", #"route "/user()": empty optional group "()""#),
            ("/a//b", #"route "/a//b": empty segment in "/a//b""#),
            ("//", #"route "//": empty segment in "//""#),
            ("/a(/)/b", #"route "/a(/)/b": empty segment in "/a//b""#),
            ("/*/a", #"route "/*/a": "*" must be the last segment"#),
            ("/a(/*)/b", #"route "/a(/*)/b": "*" must be the last segment"#),
            ("/a*", #"route "/a*": segment "a*" mixes "*" with other text ("*" must be a whole segment)"#),
            ("/:id:x", #"route "/:id:x": segment ":id:x" has two placeholders (at most one per segment)"#),
            ("/:a-:b", #"route "/:a-:b": segment ":a-:b" has two placeholders (at most one per segment)"#),
            ("/a:b<int>:c.json", #"route "/a:b<int>:c.json": segment "a:b<int>:c.json" has two placeholders (at most one per segment)"#),
            ("/user-:", #"route "/user-:": empty placeholder name in segment "user-:""#),
            ("/a/:x<int><uuid>", #"route "/a/:x<int><uuid>": segment ":x<int><uuid>" has "<" or ">" in its text (a type follows the name: ":id<int>")"#),
            ("/a/:x<int>>", #"route "/a/:x<int>>": segment ":x<int>>" has "<" or ">" in its text (a type follows the name: ":id<int>")"#),
            ("/a/<:x", #"route "/a/<:x": segment "<:x" has "<" or ">" in its text (a type follows the name: ":id<int>")"#),
            ("/v:1.json", #"route "/v:1.json": placeholder name "1" must start with an ASCII letter or "_""#),
            ("/:name.json/:name", #"route "/:name.json/:name": parameter "name" appears twice in one variant"#),
            ("/:", #"route "/:": empty placeholder name in segment ":""#),
            ("/:<int>", #"route "/:<int>": empty placeholder name in segment ":<int>""#),
            ("/:1d", #"route "/:1d": placeholder name "1d" must start with an ASCII letter or "_""#),
            ("/:id/:id", #"route "/:id/:id": parameter "id" appears twice in one variant"#),
            ("/:id(/:id<int>)", #"route "/:id(/:id<int>)": parameter "id" appears twice in one variant"#),
            ("/a(/b)(/c)(/d)(/e)(/f)(/g)(/h)(/i)(/j)", #"route "/a(/b)(/c)(/d)(/e)(/f)(/g)(/h)(/i)(/j)": 9 optional groups (at most 8)"#),
            ("/a(/b)(/c)(/d)(/e)(/f)(/g)(/h)", #"route "/a(/b)(/c)(/d)(/e)(/f)(/g)(/h)": expands into 128 variants (at most 64)"#),
            (String(repeating: "/s", count: 65), #"route ""# + String(repeating: "/s", count: 65) + #"": 65 segments (at most 64)"#),
            ("/a\n(", #"route "/a\n(": unbalanced "(": no matching ")""#),
        ]
    )
    func parseError(pattern: String, message: String) {
        #expect {
            _ = try RoutePattern(parsing: pattern)
        } throws: { error in
            (error as? RouteError)?.description == message && !message.contains("\n")
        }
    }
}

// MARK: - Duplicates

/// When a route duplicates another, and what replacing does.
@Suite("Route duplicates")
struct RouteDuplicateTests {
    @Test("Routes differing only in parameter names are duplicates")
    func renamedParameter() throws {
        var builder = RouteTrieBuilder<String>()
        try builder.add("/user/:id", payload: "first")
        #expect {
            try builder.add("/user/:uid", payload: "second")
        } throws: { error in
            (error as? RouteError)?.description
                == #"route "/user/:uid": matches exactly the URLs of route "/user/:id" (register with replacing: true to replace it)"#
        }
        #expect(builder.build().match(routeSegments("/user/1"))?.payload == "first")
    }

    @Test("The same pattern twice is a duplicate, optional groups included")
    func samePattern() throws {
        var builder = RouteTrieBuilder<String>()
        try builder.add("/a(/:x)", payload: "first")
        #expect(throws: RouteError(pattern: "/a(/:y)", problem: .duplicateRoute(existing: "/a(/:x)"))) {
            try builder.add("/a(/:y)", payload: "second")
        }
    }

    @Test("A typed and an untyped placeholder are not duplicates, and share no variant")
    func typedIsNotDuplicate() throws {
        var builder = RouteTrieBuilder<String>()
        try builder.add("/user/:id<int>", payload: "typed")
        try builder.add("/user/:id", payload: "untyped")
        #expect(builder.build().routes.count == 2)
    }

    @Test("Precomposed and decomposed literals are not duplicates")
    func bytesDecide() throws {
        var builder = RouteTrieBuilder<String>()
        try builder.add("/caf\u{E9}", payload: "precomposed")
        try builder.add("/cafe\u{301}", payload: "decomposed")
        let trie = builder.build()
        #expect(trie.match(routeSegments("/caf\u{E9}"))?.payload == "precomposed")
        #expect(trie.match(routeSegments("/cafe\u{301}"))?.payload == "decomposed")
    }

    @Test("A partial overlap is registered, and the earlier route wins what both match")
    func partialOverlap() throws {
        var builder = RouteTrieBuilder<String>()
        try builder.add("/a(/b)", payload: "optional")
        try builder.add("/a", payload: "short")
        try builder.add("/a/b", payload: "long")
        try builder.add("/a(/b)(/c)", payload: "more")
        let trie = builder.build()
        #expect(trie.routes.count == 4)
        #expect(trie.match(routeSegments("/a"))?.payload == "optional")
        #expect(trie.match(routeSegments("/a/b/c"))?.payload == "more")
    }

    @Test("Routes whose shapes share a hash are told apart by their shapes")
    func shapeHashCollision() throws {
        var builder = RouteTrieBuilder<String>()
        var patterns = try ["/a", "/b/:x", "/c(/d)"].map { try RoutePattern(parsing: $0) }
        for index in patterns.indices { patterns[index].shapeHash = 7 }
        for pattern in patterns { try builder.add(pattern, payload: pattern.text) }
        #expect(builder.count == 3)
        // A duplicate of the second is still found behind the first.
        var duplicate = try RoutePattern(parsing: "/b/:y")
        duplicate.shapeHash = 7
        #expect(throws: RouteError(pattern: "/b/:y", problem: .duplicateRoute(existing: "/b/:x"))) {
            try builder.add(duplicate, payload: "again")
        }
        // Removing the first leaves the others findable.
        var first = try RoutePattern(parsing: "/a")
        first.shapeHash = 7
        #expect(builder.existing(first)?.pattern.text == "/a")
        #expect(builder.remove(order: try #require(builder.existing(first)).order))
        #expect(builder.existing(first) == nil)
        #expect(builder.existing(patterns[1])?.pattern.text == "/b/:x")
        #expect(builder.existing(patterns[2])?.pattern.text == "/c(/d)")
        let trie = builder.build()
        #expect(trie.match(routeSegments("/c/d"))?.payload == "/c(/d)")
        #expect(trie.match(routeSegments("/a")) == nil)
    }

    @Test("Replacing removes the old route and adds the new one last")
    func replacing() throws {
        var builder = RouteTrieBuilder<String>()
        try builder.add("/a/:x", payload: "old")
        try builder.add("/a(/:y)", payload: "other")
        try builder.add("/a/:z", payload: "new", replacing: true)
        let trie = builder.build()
        #expect(trie.routes.map(\.payload) == ["other", "new"])
        // `other` now comes first in registration order, so it wins the tie on `/a/q`.
        #expect(trie.match(routeSegments("/a/q"))?.payload == "other")
    }

    @Test("Replacing a route with a new pattern text uses the new names")
    func replacingNames() throws {
        var builder = RouteTrieBuilder<String>()
        try builder.add("/user/:id", payload: "old")
        try builder.add("/user/:uid", payload: "new", replacing: true)
        let match = try #require(builder.build().match(routeSegments("/user/5")))
        #expect(match.payload == "new")
        #expect(match.parameters == ["uid": "5"])
        #expect(match.pattern == "/user/:uid")
    }

    @Test("Replacing when nothing is there just adds")
    func replacingNothing() throws {
        var builder = RouteTrieBuilder<String>()
        try builder.add("/a", payload: "a", replacing: true)
        #expect(builder.build().match(routeSegments("/a"))?.payload == "a")
    }

    @Test("A malformed pattern leaves the builder as it was")
    func malformedLeavesBuilder() throws {
        var builder = RouteTrieBuilder<String>()
        try builder.add("/a", payload: "a")
        #expect(throws: RouteError.self) { try builder.add("/a(", payload: "bad") }
        #expect(builder.build().routes.map(\.pattern) == ["/a"])
    }
}

// MARK: - Listing

/// The order of ``RouteTrie/routes``.
@Suite("Route listing")
struct RouteListingTests {
    @Test("Routes are listed by priority, then precedence, then registration order")
    func order() throws {
        let trie = try makeRouteTrie([
            route("/*", "wildcard"),
            route("/user/:id", "untyped"),
            route("/user/:id<int>", "typed"),
            route("/user/me", "literal"),
            route("/low", "low", priority: -1),
            route("/x/*", "high", priority: 2),
            route("/user/:a/:b", "deeper"),
        ])
        #expect(trie.routes.map(\.payload) == ["high", "literal", "typed", "untyped", "deeper", "wildcard", "low"])
        #expect(trie.routes.map(\.priority) == [2, 0, 0, 0, 0, 0, -1])
    }

    @Test("A route is listed by its best variant")
    func bestVariant() throws {
        let trie = try makeRouteTrie([route("/:x", "untyped"), route("(/:y)/a", "optional")])
        // `/a` (a literal) is the optional route's best variant: it lists before `/:x`.
        #expect(trie.routes.map(\.payload) == ["optional", "untyped"])
    }
}
