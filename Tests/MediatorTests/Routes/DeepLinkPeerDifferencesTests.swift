import Mediator
import Testing

// What a route table written for JLRoutes or URLNavigator does differently here: each row of the
// DeepLinkRoutes article's table of differences, as a test.

@Suite("Deep links: where route tables of JLRoutes and URLNavigator differ")
struct DeepLinkPeerDifferencesTests {
    @Test("The most specific route wins, not the first added (JLRoutes takes the first whose handler accepts)")
    func specificWins() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/user/:id", to: "Echo", action: "echo")
        try mediator.route("/user/me", to: "Other", action: "ping")
        #expect(mediator.open("myapp://user/me") as? String == "pong")
    }

    @Test("A pattern is matched decoded: /s/a%20b is the literal a%20b, and # is an ordinary character")
    func patternsDecoded() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/s/a%20b", to: "Other", action: "ping")
        try mediator.route("/user#/view/:id", to: "Echo", action: "echo")
        #expect(!mediator.canOpen("myapp://s/a%20b"))
        #expect(mediator.open("myapp://s/a%2520b") as? String == "pong")
        #expect(echoed(mediator, "myapp://user%23/view/5")?["id"] as? String == "5")
        #expect(!mediator.canOpen("myapp://user#/view/5"))
    }

    @Test("A scheme's own routes fall back to the routes for every scheme unless it is isolated (JLRoutes: only when asked)")
    func schemeFallsBack() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/only/:x", to: "Echo", action: "echo")
        try mediator.route("/y", to: "Other", action: "ping", scheme: "special")
        try mediator.route("/only/:x", to: "Other", action: "ping", scheme: "first")
        #expect(mediator.open("special://y") as? String == "pong")
        #expect(mediator.open("first://only/1") as? String == "pong")
        #expect(echoed(mediator, "special://only/1")?["x"] as? String == "1")
        mediator.urlPolicy.isolatedSchemes = ["special"]
        #expect(!mediator.canOpen("special://only/1"))
        #expect(mediator.open("special://y") as? String == "pong")
    }

    @Test("The fragment is ignored unless URLPolicy.readsFragmentsAsRoutes (JLRoutes always reads it for /user#/view/:id)")
    func fragmentIgnored() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/user", to: "Other", action: "ping")
        #expect(mediator.open("myapp://user#/view/5") as? String == "pong")
    }

    @Test("+ stays a + in the path and the query unless the policy says, each on its own (JLRoutes: a space in both)")
    func plusKept() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/tag/:t", to: "Echo", action: "echo")
        try mediator.route("/a b", to: "Other", action: "ping")
        let reached = echoed(mediator, "myapp://tag/a+b?q=c+d")
        #expect(reached?["t"] as? String == "a+b")
        #expect(reached?["q"] as? String == "c+d")
        #expect(!mediator.canOpen("myapp://a+b"))
        mediator.urlPolicy.decodesPlusAsSpace = true
        let query = echoed(mediator, "myapp://tag/a+b?q=c+d")
        #expect(query?["t"] as? String == "a+b")
        #expect(query?["q"] as? String == "c d")
        mediator.urlPolicy.decodesPlusAsSpace = false
        mediator.urlPolicy.decodesPlusAsSpaceInPaths = true
        let path = echoed(mediator, "myapp://tag/a+b%2Bc?q=c+d")
        #expect(path?["t"] as? String == "a b+c")
        #expect(path?["q"] as? String == "c+d")
        #expect(mediator.open("myapp://a+b") as? String == "pong")
    }

    @Test("A custom scheme's host is the first segment even with a dot or as localhost, unless the policy reads those as servers (JLRoutes drops them)")
    func dottedHostKept() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/user/:id", to: "Echo", action: "echo")
        #expect(echoed(mediator, "myapp://user/1")?["id"] as? String == "1")
        #expect(!mediator.canOpen("myapp://example.com/user/1"))
        #expect(!mediator.canOpen("myapp://localhost/user/1"))
        try mediator.route("/example.com/user/:id", to: "Other", action: "ping")
        #expect(mediator.open("myapp://example.com/user/1") as? String == "pong")
        mediator.urlPolicy.readsDottedHostsAsServers = true
        #expect(echoed(mediator, "myapp://example.com/user/1")?["id"] as? String == "1")
    }

    @Test("An https host is matched only by the routes for that host; the others match the path alone (URLNavigator matches it as a segment)")
    func webHostMatchedByHostRoutesOnly() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/notes/:id", to: "Echo", action: "echo")
        #expect(echoed(mediator, "https://example.com/notes/7")?["id"] as? String == "7")
        #expect(echoed(mediator, "https://shop.example.com/notes/8")?["id"] as? String == "8")
        // URLNavigator's "https://example.com/notes/<id>" is a route for the host.
        try mediator.route("/notes/:id", to: "Other", action: "ping", host: "example.com")
        #expect(mediator.open("https://example.com/notes/7") as? String == "pong")
        #expect(echoed(mediator, "https://shop.example.com/notes/8")?["id"] as? String == "8")
        // A pattern holding the host as its first segment, as URLNavigator writes it, is a path.
        #expect(!mediator.canOpen("https://example.com/example.com/notes"))
    }

    @Test("Literals are compared byte for byte unless URLPolicy.matchesRoutesIgnoringCase: case included, precomposed is not decomposed")
    func literalsKeepCase() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/User/:id", to: "Echo", action: "echo")
        try mediator.route("/caf\u{E9}", to: "Other", action: "ping")
        #expect(mediator.canOpen("myapp://User/1"))
        #expect(!mediator.canOpen("myapp://user/1"))
        #expect(mediator.canOpen("myapp://caf%C3%A9"))
        #expect(!mediator.canOpen("myapp://cafe%CC%81"))
    }

    @Test("<float> takes finite decimal text only (URLNavigator's takes what Float(text) reads)")
    func floatNarrower() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/f/:v<float>", to: "Echo", action: "echo")
        #expect(mediator.canOpen("myapp://f/123.456"))
        for text in ["nan", "inf", "+3", ".5", "0x1p3"] { #expect(!mediator.canOpen("myapp://f/\(text)"), "\(text)") }
        try mediator.route("/i/:v<int>", to: "Echo", action: "echo")
        #expect(!mediator.canOpen("myapp://i/+5"))
    }

    @Test("Path values arrive percent-decoded (URLNavigator's arrive as written)")
    func valuesDecoded() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/tag/:t", to: "Echo", action: "echo")
        #expect(echoed(mediator, "myapp://tag/a%20b")?["t"] as? String == "a b")
    }
}
