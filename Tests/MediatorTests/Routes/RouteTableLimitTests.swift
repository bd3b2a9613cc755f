import Testing

@testable import Mediator

/// What a mediator's routes may cost: at most 500,000 units of room, one for each route, each
/// segment of each variant once optional groups are expanded and every 32 bytes of a variant's
/// text, and two for each scheme with routes.
@Suite("Route tables: the size limit")
struct RouteTableLimitTests {
    /// A JSON route table of `count` routes with six optional groups each (64 variants, 256
    /// segments: 257 units), numbered from `first`.
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
        // The scheme and 1,945 routes of 257 units are 499,867 units; the next passes 500,000.
        #expect {
            try mediator.addRoutes(json: groupedTable(2_000))
        } throws: { error in
            let error = error as? MediatorError
            return error?.code == .invalidRoute
                && error?.reason.hasPrefix(#"route 1946: route "/g1945(/a)(/b)(/c)(/d)(/e)(/f)": the routes would take 500124 units of room"#) == true
                && error?.reason.hasSuffix("over the limit of 500000 for one mediator") == true
        }
        #expect(mediator.routes.count == 0)
    }

    @Test("The limit is the mediator's: routes added earlier count, and removed ones free their room")
    func limitAcrossCalls() throws {
        let mediator = Mediator()
        try mediator.addRoutes(json: groupedTable(1_900))
        #expect(throws: MediatorError.self) { try mediator.addRoutes(json: groupedTable(100, from: 1_900)) }
        #expect(mediator.routes.count == 1_900)
        // One route at a time, too.
        try mediator.addRoutes(json: groupedTable(45, from: 1_900))
        #expect(throws: MediatorError.self) { try mediator.route("/h(/a)(/b)(/c)(/d)(/e)(/f)", to: "Echo", action: "echo") }
        #expect(mediator.removeRoute("/g0(/a)(/b)(/c)(/d)(/e)(/f)"))
        try mediator.route("/h(/a)(/b)(/c)(/d)(/e)(/f)", to: "Echo", action: "echo")
        #expect(mediator.routes.count == 1_945)
    }

    @Test("Replacing a route frees the room of the one it replaces")
    func replacingFreesRoom() throws {
        let mediator = Mediator()
        try mediator.addRoutes(json: groupedTable(1_945))
        // The same shapes again, replacing: the size stays where it was.
        try mediator.addRoutes(json: groupedTable(10), replacing: true)
        #expect(mediator.routes.count == 1_945)
    }

    @Test("Long literals count by their bytes, not only as one segment")
    func bytesCount() throws {
        let mediator = Mediator()
        let long = String(repeating: "a", count: 4_000)
        // 64 variants of about 4 KB each: about 8,250 units a route, so 70 routes pass 500,000.
        let routes = (0..<70).map { URLRoute("/\($0)\(long)(/a)(/b)(/c)(/d)(/e)(/f)", target: "Echo", action: "echo") }
        #expect {
            try mediator.addRoutes(routes)
        } throws: { error in
            (error as? MediatorError)?.reason.contains("units of room or more") == true
        }
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
        // The scheme, 1,944 grouped routes (499,608) and one of 321 units: 499,931. The batch adds
        // 257 and replaces the 321-unit route by a 3-unit one with the same URLs: 499,870 either
        // way, though adding first passes 500,000 on the way.
        for reversed in [false, true] {
            let mediator = Mediator()
            try mediator.addRoutes(json: groupedTable(1_944))
            try mediator.route("/w(/:a)(/:b)(/:c)(/:d)(/:e)(/:f)/*", to: "Echo", action: "echo")
            var batch = [URLRoute("/n(/a)(/b)(/c)(/d)(/e)(/f)", target: "Echo", action: "echo"), URLRoute("/w/*", target: "Echo", action: "other")]
            if reversed { batch.reverse() }
            try mediator.addRoutes(batch, replacing: true)
            #expect(mediator.routes.count == 1_946)
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

    @Test("Removing every route, or the routes added by keys, gives all the room back")
    func roomAfterRemovals() throws {
        let mediator = Mediator()
        try mediator.addRoutes(json: groupedTable(1_945))
        mediator.removeAllRoutes()
        let keys = try mediator.addedRoutes(json: groupedTable(1_945))
        mediator.removeRoutes(keys)
        try mediator.addRoutes(json: groupedTable(1_945))
        #expect(mediator.routes.count == 1_945)
    }

    @Test("Tries built from routes that changed meanwhile are not kept")
    func staleSnapshotNotInstalled() throws {
        var table = RouteTable()
        func entry(_ pattern: String) throws -> RouteTable.Entry {
            RouteTable.Entry(
                route: URLRoute(pattern, target: "Echo", action: "echo"), destination: RouteDestination(target: "Echo", action: "echo"),
                tableKey: RouteTable.anyScheme, pattern: try RoutePattern(parsing: pattern))
        }
        table.add([try entry("/a")], replacing: false)
        let generation = table.generation
        let made = RouteSnapshot(tries: table.builders.mapValues { $0.build() })
        table.add([try entry("/b")], replacing: false)
        #expect(table.install(made, builtAt: generation).snapshot === made)
        #expect(table.snapshot == nil)
        let current = RouteSnapshot(tries: table.builders.mapValues { $0.build() })
        #expect(table.install(current, builtAt: table.generation).snapshot === current)
        #expect(table.snapshot === current)
        // A snapshot folded otherwise is replaced and handed back, to be released outside the lock.
        let folded = RouteSnapshot(tries: table.builders.mapValues { $0.build(foldingCase: true) }, foldsCase: true)
        let installed = table.install(folded, builtAt: table.generation)
        #expect(installed.snapshot === folded)
        #expect(installed.replaced === current)
        #expect(table.snapshot === folded)
    }
}
