import Mediator
import Testing

/// What a URL in the table must do: reach an action with exactly these params (the mediator's
/// `@` keys aside), or fail with a code.
enum DeepLinkExpectation: Sendable, CustomStringConvertible {
    case reaches(String, [String: QueryValue])
    case fails(MediatorError.Code)

    var description: String {
        switch self {
        case .reaches(let action, let params): "\(action) \(params)"
        case .fails(let code): "fails \(code.rawValue)"
        }
    }
}

/// The routes of the table, registered in this order. `R` answers every action with its name
/// under `"@action"` and its params.
let deepLinkTableRoutes: [URLRoute] = [
    URLRoute("/user/me", target: "R", action: "me"),
    URLRoute("/user/:id<int>", target: "R", action: "userInt"),
    URLRoute("/user/:name", target: "R", action: "userName"),
    URLRoute("/user/:id<int>/profile", target: "R", action: "profile"),
    URLRoute("/files/*", target: "R", action: "files"),
    URLRoute("/files/readme", target: "R", action: "readme"),
    URLRoute("/post(/:year<int>(/:month<int>))", target: "R", action: "archive"),
    URLRoute("/item/:id<uuid>", target: "R", action: "item"),
    URLRoute("/tag/:tag<alpha>", target: "R", action: "tagAlpha"),
    URLRoute("/tag/:tag", target: "R", action: "tagAny"),
    URLRoute("/boost/literal", target: "R", action: "boostLiteral"),
    URLRoute("/boost/:x", target: "R", action: "boosted", priority: 5),
    URLRoute("/only/:x", target: "R", action: "special", scheme: "Special"),
    URLRoute("/only/:x", target: "R", action: "anyOnly"),
    URLRoute("/secret/:x", target: "R", action: "local"),
    URLRoute("/a b/:x", target: "R", action: "space"),
    URLRoute("/home", target: "R", action: "home"),
    URLRoute("/notes/:id<int>", target: "R", action: "note"),
    URLRoute("/native/:x", target: "R", action: "plainAction"),
    URLRoute("/docs(/:section(/*))", target: "R", action: "docs"),
    URLRoute("/missing/:x", target: "Nowhere", action: "nothing"),
    URLRoute("/q/:id", target: "R", action: "query"),
]

/// A mediator with the table's routes and the target `R`.
func deepLinkTableMediator(policy: URLPolicy = URLPolicy()) throws -> Mediator {
    let mediator = Mediator()
    let names = Set(deepLinkTableRoutes.map(\.action)).subtracting(["local", "nothing"])
    var actions: [Action<Mediator>] = names.sorted().map { name in
        Action(name) { (_: Mediator, params: Params) in params.values.merging(["@action": name]) { _, tag in tag } }
    }
    actions.append(Action("local", localOnly: true) { (_: Mediator, _: Params) in "local" })
    actions.append(Action("ping") { (_: Mediator, _: Params) in ["@action": "ping"] })
    try mediator.register(target: "R", actions: actions)
    try mediator.addRoutes(deepLinkTableRoutes)
    mediator.urlPolicy = policy
    return mediator
}

/// The table: URL, what it must do. Path params are strings; `@rest` is the wildcard's segments.
let deepLinkTable: [(url: String, expected: DeepLinkExpectation)] = [
    // Literals, and literals before placeholders.
    ("myapp://user/me", .reaches("me", [:])),
    ("myapp://home", .reaches("home", [:])),
    ("myapp://home/", .reaches("home", [:])),
    ("myapp://Home", .fails(.routeNotFound)),
    ("myapp://files/readme", .reaches("readme", [:])),
    // Untyped and typed placeholders; typed beats untyped.
    ("myapp://user/42", .reaches("userInt", ["id": .one("42")])),
    ("myapp://user/-7", .reaches("userInt", ["id": .one("-7")])),
    ("myapp://user/4%32", .reaches("userInt", ["id": .one("42")])),
    ("myapp://user/99999999999999999999", .reaches("userName", ["name": .one("99999999999999999999")])),
    ("myapp://user/4x", .reaches("userName", ["name": .one("4x")])),
    ("myapp://user/Zo%C3%AB", .reaches("userName", ["name": .one("Zoë")])),
    ("myapp://user/a%2Fb", .reaches("userName", ["name": .one("a/b")])),
    ("myapp://user/a+b", .reaches("userName", ["name": .one("a+b")])),
    ("myapp://user/a%20b", .reaches("userName", ["name": .one("a b")])),
    ("myapp://user/42/profile", .reaches("profile", ["id": .one("42")])),
    ("myapp://user/42/profile/", .reaches("profile", ["id": .one("42")])),
    ("myapp://user/me/profile", .fails(.routeNotFound)),
    ("myapp://user/42/profile/x", .fails(.routeNotFound)),
    ("myapp://item/123e4567-e89b-12d3-a456-426614174000", .reaches("item", ["id": .one("123e4567-e89b-12d3-a456-426614174000")])),
    ("myapp://item/123E4567-E89B-12D3-A456-426614174000", .reaches("item", ["id": .one("123E4567-E89B-12D3-A456-426614174000")])),
    ("myapp://item/123e4567-e89b-12d3-a456-42661417400", .fails(.targetNotFound)),
    ("myapp://item/123e4567e89b12d3a456426614174000", .fails(.targetNotFound)),
    ("myapp://tag/swift", .reaches("tagAlpha", ["tag": .one("swift")])),
    ("myapp://tag/swift6", .reaches("tagAny", ["tag": .one("swift6")])),
    ("myapp://tag/caf%C3%A9", .reaches("tagAny", ["tag": .one("café")])),
    // Wildcards: the rest of the path, possibly nothing, decoded segment by segment.
    ("myapp://files", .reaches("files", ["@rest": .many([])])),
    ("myapp://files/a", .reaches("files", ["@rest": .many(["a"])])),
    ("myapp://files/a/b/c", .reaches("files", ["@rest": .many(["a", "b", "c"])])),
    ("myapp://files/a%2Fb/c", .reaches("files", ["@rest": .many(["a/b", "c"])])),
    ("myapp://files/readme/x", .reaches("files", ["@rest": .many(["readme", "x"])])),
    ("myapp://files/a//b", .reaches("files", ["@rest": .many(["a", "", "b"])])),
    // Optional groups, nested.
    ("myapp://post", .reaches("archive", [:])),
    ("myapp://post/2024", .reaches("archive", ["year": .one("2024")])),
    ("myapp://post/2024/06", .reaches("archive", ["year": .one("2024"), "month": .one("06")])),
    ("myapp://post/2024/june", .fails(.routeNotFound)),
    ("myapp://post/june", .fails(.targetNotFound)),
    ("myapp://docs", .reaches("docs", [:])),
    ("myapp://docs/guide", .reaches("docs", ["section": .one("guide")])),
    ("myapp://docs/guide/a/b", .reaches("docs", ["section": .one("guide"), "@rest": .many(["a", "b"])])),
    // Priority beats precedence.
    ("myapp://boost/literal", .reaches("boosted", ["x": .one("literal")])),
    ("myapp://boost/other", .reaches("boosted", ["x": .one("other")])),
    // A scheme's own routes before the routes for every scheme; schemes compared ignoring case.
    ("special://only/1", .reaches("special", ["x": .one("1")])),
    ("SPECIAL://only/1", .reaches("special", ["x": .one("1")])),
    ("myapp://only/1", .reaches("anyOnly", ["x": .one("1")])),
    // http and https: the host is the server, the path is matched.
    ("https://example.com/notes/7", .reaches("note", ["id": .one("7")])),
    ("http://example.com:8080/notes/7?x=1", .reaches("note", ["id": .one("7"), "x": .one("1")])),
    ("https://example.com/notes/seven", .fails(.routeNotFound)),
    ("https://notes/7", .fails(.routeNotFound)),
    ("https://R/ping", .fails(.routeNotFound)),
    // Trailing slashes, empty segments, encoded literals.
    ("myapp://notes/7/", .reaches("note", ["id": .one("7")])),
    ("myapp://notes//7", .fails(.routeNotFound)),
    ("myapp://notes/7//", .fails(.routeNotFound)),
    ("myapp://a%20b/1", .reaches("space", ["x": .one("1")])),
    ("myapp://a+b/1", .fails(.routeNotFound)),
    // Query params, and path params over them.
    ("myapp://q/1?tab=posts&tab=likes", .reaches("query", ["id": .one("1"), "tab": .many(["posts", "likes"])])),
    ("myapp://q/1?id=2", .reaches("query", ["id": .one("1")])),
    ("myapp://q/1?v=a+b", .reaches("query", ["id": .one("1"), "v": .one("a+b")])),
    ("myapp://q/1#fragment", .reaches("query", ["id": .one("1")])),
    ("myapp://q/1?@url=forged", .fails(.invalidURL)),
    ("myapp://q/1?@route=forged", .fails(.invalidURL)),
    ("myapp://q/%zz", .fails(.invalidURL)),
    ("myapp://q/%C3", .fails(.invalidURL)),
    // The URL rules apply to routed calls.
    ("myapp://secret/1", .fails(.forbidden)),
    ("myapp://native/1", .reaches("plainAction", ["x": .one("1")])),
    ("myapp://missing/1", .fails(.targetNotFound)),
    // The built-in form still works where no route matches; a URL of neither form is routeNotFound.
    ("myapp://R/ping", .reaches("ping", [:])),
    ("myapp://R/ping/extra", .fails(.routeNotFound)),
    ("myapp:///home", .fails(.invalidURL)),
    ("myapp://", .fails(.invalidURL)),
    ("not a url", .fails(.invalidURL)),
]

@Suite("Deep links: the table of routes and URLs")
struct DeepLinkTableTests {
    @Test("Each URL reaches its action with exactly its params, or fails with its code", arguments: deepLinkTable)
    func row(url: String, expected: DeepLinkExpectation) throws {
        let mediator = try deepLinkTableMediator()
        switch expected {
        case .reaches(let action, let params):
            let result = try mediator.callNow(url: url)
            let values = try #require(result as? [String: any Sendable], "\(url) returned \(String(describing: result))")
            #expect(values["@action"] as? String == action, "\(url)")
            // Routed calls carry the URL; calls of the built-in form do not.
            #expect(values["@url"] as? String == (values["@route"] == nil ? nil : url), "\(url)")
            #expect((values["@route"] == nil) == (action == "ping"), "\(url)")
            var plain = values
            for key in ["@action", "@url", "@route", "@scheme"] { plain[key] = nil }
            #expect(echoed(plain) == params, "\(url)")
            #expect(mediator.canOpen(url), "\(url)")
        case .fails(let code):
            let error = #expect(throws: MediatorError.self, "\(url)") { try mediator.callNow(url: url) }
            #expect(error?.code == code, "\(url): \(String(describing: error))")
            #expect(!mediator.canOpen(url), "\(url)")
        }
    }

    @Test("The table has the 60 rows the issue asks for, at least")
    func size() {
        #expect(deepLinkTable.count >= 60)
    }

    @Test("A routed call carries the pattern as registered, the URL as given and the scheme lowercased")
    func mediatorKeys() throws {
        let mediator = try deepLinkTableMediator()
        let values = try #require(try mediator.callNow(url: "MyApp://post/2024") as? [String: any Sendable])
        #expect(values["@route"] as? String == "/post(/:year<int>(/:month<int>))")
        #expect(values["@url"] as? String == "MyApp://post/2024")
        #expect(values["@scheme"] as? String == "myapp")
    }
}
