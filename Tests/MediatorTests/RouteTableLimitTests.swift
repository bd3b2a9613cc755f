import Mediator
import Testing

/// What a mediator's routes may cost: at most 400,000 units of room, one for each segment of each
/// variant once optional groups are expanded and one for every 32 bytes of its text.
@Suite("Route tables: the size limit")
struct RouteTableLimitTests {
    /// A JSON route table of `count` routes with six optional groups each (64 variants, 256
    /// segments), numbered from `first`.
    func groupedTable(_ count: Int, from first: Int = 0) -> String {
        let entries = (first..<first + count).map { number in
            #"{"pattern":"/g\#(number)(/a)(/b)(/c)(/d)(/e)(/f)","target":"Echo","action":"echo"}"#
        }
        return "[" + entries.joined(separator: ",") + "]"
    }

    @Test(
        "A table whose optional groups expand past the limit is refused, naming the route that passes it",
        .bug(id: "routes-memory", "a table inside the per-table limits kept every expanded variant and exhausted memory"))
    func groupedTableRefused() throws {
        let mediator = Mediator()
        // 1,562 routes of 256 segments are 399,872 segments; the next passes 400,000.
        #expect {
            try mediator.addRoutes(json: groupedTable(1_600))
        } throws: { error in
            let error = error as? MediatorError
            return error?.code == .invalidRoute
                && error?.reason.hasPrefix(#"route 1563: route "/g1562(/a)(/b)(/c)(/d)(/e)(/f)": the routes would take 400128 units of room"#) == true
                && error?.reason.hasSuffix("over the limit of 400000 for one mediator") == true
        }
        #expect(mediator.routes.count == 0)
    }

    @Test("The limit is the mediator's: routes added earlier count, and removed ones free their room")
    func limitAcrossCalls() throws {
        let mediator = Mediator()
        try mediator.addRoutes(json: groupedTable(1_500))
        #expect(throws: MediatorError.self) { try mediator.addRoutes(json: groupedTable(100, from: 1_500)) }
        #expect(mediator.routes.count == 1_500)
        // One route at a time, too.
        try mediator.addRoutes(json: groupedTable(62, from: 1_500))
        #expect(throws: MediatorError.self) { try mediator.route("/h(/a)(/b)(/c)(/d)(/e)(/f)", to: "Echo", action: "echo") }
        #expect(mediator.removeRoute("/g0(/a)(/b)(/c)(/d)(/e)(/f)"))
        try mediator.route("/h(/a)(/b)(/c)(/d)(/e)(/f)", to: "Echo", action: "echo")
        #expect(mediator.routes.count == 1_562)
    }

    @Test("Replacing a route frees the room of the one it replaces")
    func replacingFreesRoom() throws {
        let mediator = Mediator()
        try mediator.addRoutes(json: groupedTable(1_562))
        // The same shapes again, replacing: the size stays where it was.
        try mediator.addRoutes(json: groupedTable(10), replacing: true)
        #expect(mediator.routes.count == 1_562)
    }

    @Test("Long literals count by their bytes, not only as one segment")
    func bytesCount() throws {
        let mediator = Mediator()
        let long = String(repeating: "a", count: 4_000)
        // 64 variants of about 4 KB each: about 8,000 units a route, so 50 routes pass 400,000.
        let routes = (0..<50).map { URLRoute("/\($0)\(long)(/a)(/b)(/c)(/d)(/e)(/f)", target: "Echo", action: "echo") }
        #expect(throws: MediatorError.self) { try mediator.addRoutes(routes) }
        #expect(mediator.routes.count == 0)
    }

    @Test("A pattern longer than 4,096 bytes is refused before it is expanded")
    func patternTooLong() throws {
        let mediator = Mediator()
        let pattern = "/" + String(repeating: "a", count: 4_096) + "(/b)"
        #expect {
            try mediator.route(pattern, to: "Echo", action: "echo")
        } throws: { error in
            let error = error as? MediatorError
            return error?.code == .invalidRoute && error?.reason.contains("4101 bytes long (at most 4096)") == true
        }
    }

    @Test("Whether a batch that replaces routes fits depends on the sum after it, not on its order")
    func batchOrderDoesNotMatter() throws {
        // 1,561 grouped routes (399,616) and one of 320 units: 399,936. The batch adds 256 and
        // replaces the 320-unit route by a 2-unit one with the same URLs: 399,874 either way.
        for reversed in [false, true] {
            let mediator = Mediator()
            try mediator.addRoutes(json: groupedTable(1_561))
            try mediator.route("/w(/:a)(/:b)(/:c)(/:d)(/:e)(/:f)/*", to: "Echo", action: "echo")
            var batch = [URLRoute("/n(/a)(/b)(/c)(/d)(/e)(/f)", target: "Echo", action: "echo"), URLRoute("/w/*", target: "Echo", action: "other")]
            if reversed { batch.reverse() }
            try mediator.addRoutes(batch, replacing: true)
            #expect(mediator.routes.count == 1_563)
        }
    }

    @Test("The routes mediate --routes added are removed by their keys, and no route added after a removeAllRoutes")
    func keysOutliveRemoveAll() throws {
        let mediator = Mediator()
        let keys = try mediator.addedRoutes(json: #"[{"pattern":"/a","target":"T","action":"a"}]"#)
        mediator.removeAllRoutes()
        try mediator.route("/b", to: "T", action: "b")
        mediator.removeRoutes(keys)
        #expect(mediator.routes.map(\.pattern) == ["/b"])
        // Emptying a scheme's routes does not restart its numbering either.
        let second = try mediator.addedRoutes(json: #"[{"pattern":"/c","target":"T","action":"c","scheme":"x"}]"#)
        #expect(mediator.removeRoute("/c", scheme: "x"))
        try mediator.route("/d", to: "T", action: "d", scheme: "x")
        mediator.removeRoutes(second)
        #expect(mediator.routes.map(\.pattern) == ["/d", "/b"])
    }
}
