import Mediator
import Testing

/// What a mediator's routes may cost: at most 400,000 segments, each variant's counted once its
/// optional groups are expanded.
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
                && error?.reason.hasPrefix(#"route 1563: route "/g1562(/a)(/b)(/c)(/d)(/e)(/f)": the routes would take 400128 segments"#) == true
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
}
