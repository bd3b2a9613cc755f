import Mediator
import Testing

// Placeholders with literal text around them in their segment (`/file/:name.json`), as routing-kit
// (`:{name}.json`) and path-to-regexp (`/:name.json`) match them.

@Suite("Deep links: placeholders with text around them in their segment")
struct RouteAffixTests {
    @Test("A placeholder with text before or after it captures what lies between, which must not be empty")
    func capturesBetween() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/file/:name.json", to: "Echo", action: "echo")
        try mediator.route("/api/v:version<int>/items", to: "Echo", action: "echo")
        try mediator.route("/tag/#:tag", to: "Echo", action: "echo")
        #expect(echoed(mediator, "myapp://file/report.json")?["name"] as? String == "report")
        #expect(echoed(mediator, "myapp://file/a%20b.json")?["name"] as? String == "a b")
        #expect(echoed(mediator, "myapp://file/a.json.json")?["name"] as? String == "a.json")
        #expect(echoed(mediator, "myapp://api/v2/items")?["version"] as? String == "2")
        #expect(echoed(mediator, "myapp://tag/%23swift")?["tag"] as? String == "swift")
        for url in [
            "myapp://file/.json", "myapp://file/report.xml", "myapp://file/report.JSON", "myapp://api/v/items", "myapp://api/vx/items", "myapp://api/V2/items",
        ] {
            #expect(!mediator.canOpen(url), "\(url)")
            #expect(throws: MediatorError.self, "\(url)") { try mediator.validate(url: url) }
        }
    }

    @Test("The literal wins, then more text around the placeholder, then typed before untyped, then a plain placeholder")
    func precedence() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/f/:any", to: "Echo", action: "echo")
        try mediator.route("/f/:name.json", to: "Echo", action: "echo")
        try mediator.route("/f/:id<int>.json", to: "Echo", action: "echo")
        try mediator.route("/f/:name.tar.json", to: "Echo", action: "echo")
        try mediator.route("/f/index.json", to: "Other", action: "ping")
        #expect(mediator.open("myapp://f/index.json") as? String == "pong")
        #expect(echoed(mediator, "myapp://f/5.json")?["id"] as? String == "5")
        #expect(echoed(mediator, "myapp://f/x.json")?["name"] as? String == "x")
        #expect(echoed(mediator, "myapp://f/x.tar.json")?["name"] as? String == "x")
        #expect(echoed(mediator, "myapp://f/x.tar.json")?[URLRoute.patternKey] as? String == "/f/:name.tar.json")
        #expect(echoed(mediator, "myapp://f/x.xml")?["any"] as? String == "x.xml")
        #expect(
            mediator.routes.map(\.pattern) == ["/f/index.json", "/f/:name.tar.json", "/f/:id<int>.json", "/f/:name.json", "/f/:any"])
    }

    @Test("Between the same texts, more text before the placeholder wins; texts are compared byte for byte")
    func textBeforeFirst() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/p/ab:x", to: "Echo", action: "echo")
        try mediator.route("/p/a:y<alpha>b", to: "Echo", action: "echo")
        try mediator.route("/caf\u{E9}/:n\u{E9}", to: "Other", action: "ping")
        #expect(echoed(mediator, "myapp://p/abcb")?["x"] as? String == "cb")
        #expect(echoed(mediator, "myapp://p/acb")?["y"] as? String == "c")
        #expect(mediator.canOpen("myapp://caf%C3%A9/x%C3%A9"))
        #expect(!mediator.canOpen("myapp://caf%C3%A9/xe%CC%81"))
    }

    @Test("Many placeholders with text around them at one place: each reaches its own route, and duplicates are still found")
    func manyAtOnePlace() throws {
        let mediator = try urlTestMediator()
        for index in 0..<40 { try mediator.route("/f/:n.e\(index)", to: "Echo", action: "echo") }
        try mediator.route("/f/:n.e7", to: "Other", action: "ping", replacing: true)
        #expect(throws: MediatorError.self) { try mediator.route("/f/:m.e39", to: "Other", action: "ping") }
        for index in [0, 8, 9, 39] {
            let reached = echoed(mediator, "myapp://f/x.e\(index)")
            #expect(reached?["n"] as? String == "x", "\(index)")
            #expect(reached?[URLRoute.patternKey] as? String == "/f/:n.e\(index)", "\(index)")
        }
        #expect(mediator.open("myapp://f/x.e7") as? String == "pong")
        #expect(!mediator.canOpen("myapp://f/x.e40"))
    }

    @Test("Routes that differ only in the placeholder's name are duplicates; other texts are not")
    func duplicates() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/file/:name.json", to: "Echo", action: "echo")
        let error = #expect(throws: MediatorError.self) { try mediator.route("/file/:other.json", to: "Other", action: "ping") }
        #expect(error?.code == .duplicateRoute)
        try mediator.route("/file/:name.xml", to: "Other", action: "ping")
        try mediator.route("/file/x:name.json", to: "Other", action: "ping")
        try mediator.route("/file/:name<int>.json", to: "Other", action: "ping")
        #expect(mediator.routes.count == 4)
    }
}
