import Mediator
import TestSupport
import Testing

// The redirect table as a value: built in code or read from JSON, with one-line errors naming the
// entry at fault, and refused when its entries lead round in a cycle or too far.

@Suite("Redirect tables: building and JSON")
struct RedirectTableTests {
    /// The error `RedirectTable(json:)` throws for `json`.
    func jsonError(_ json: String) -> MediatorError? {
        mediatorError { try RedirectTable(json: json) }
    }

    /// The error of building a table with `body`.
    func buildError(_ body: (inout RedirectTable) throws -> Void) -> MediatorError? {
        var table = RedirectTable()
        return mediatorError { try body(&table) }
    }

    @Test("A table reads its redirects and degradations from JSON, with short or full names")
    func validJSON() throws {
        let table = try RedirectTable(
            json: #"""
                {"redirects": {"Payments/pay": "PaymentsV2/pay", "Target_Legacy": "Modern", "Old/a": "Target_B/Action_c:"},
                 "degradations": {"Shop": "Web/open"}}
                """#)
        #expect(table.redirects.map { "\($0.from) -> \($0.to)" } == ["Legacy -> Modern", "Old/a -> B/c", "Payments/pay -> PaymentsV2/pay"])
        #expect(table.degradations.map { "\($0.target) -> \($0.fallback)" } == ["Shop -> Web/open"])
        #expect(!table.isEmpty)
    }

    @Test("An empty object, or empty members, make an empty table")
    func emptyJSON() throws {
        #expect(try RedirectTable(json: "{}").isEmpty)
        #expect(try RedirectTable(json: #"{"redirects": {}, "degradations": {}}"#) == RedirectTable())
    }

    @Test("A table written as JSON reads back as the same table")
    func roundTrip() throws {
        var table = RedirectTable()
        try table.redirect("Payments/pay", to: "PaymentsV2/pay")
        try table.redirect("Legacy", to: "Modern")
        try table.degrade("Shop", to: "Web/open")
        #expect(table.json == #"{"degradations":{"Shop":"Web/open"},"redirects":{"Legacy":"Modern","Payments/pay":"PaymentsV2/pay"}}"#)
        #expect(table.description == table.json)
        #expect(try RedirectTable(json: table.json) == table)
        #expect(RedirectTable().json == #"{"degradations":{},"redirects":{}}"#)
    }

    @Test(
        "A malformed JSON table is refused with one line naming what is wrong",
        arguments: [
            ("not json", "the redirect table is not valid JSON: invalid literal at byte 0"),
            ("{\"redirects\": #}", "the redirect table is not valid JSON: unexpected character at byte 14"),
            ("{\"redirects\": {}", "the redirect table is not valid JSON: unterminated object at byte 16"),
            ("[]", "the redirect table must be a JSON object"),
            ("\"Old\"", "the redirect table must be a JSON object"),
            (#"{"redirect": {"A": "B"}}"#, #"unknown member "redirect" (a redirect table has "redirects" and "degradations")"#),
            (#"{"redirects": {}, "extra\n": 1}"#, #"unknown member "extra\n" (a redirect table has "redirects" and "degradations")"#),
            (#"{"redirects": ["A", "B"]}"#, #""redirects" must be an object of "from": "to" strings"#),
            (#"{"degradations": "Web/open"}"#, #""degradations" must be an object of "from": "to" strings"#),
            (#"{"redirects": {"A/x": 1}}"#, #"redirects entry "A/x": the destination must be a string"#),
            (#"{"degradations": {"Shop": null}}"#, #"degradations entry "Shop": the destination must be a string"#),
            (#"{"redirects": {"A b/x": "B/x"}}"#, #"entry "A b/x": "A b/x" is not a valid Target/action pair"#),
            (#"{"redirects": {"A/x": "B/x/y"}}"#, #"entry "A/x": "B/x/y" is not a valid Target/action pair"#),
            (#"{"redirects": {"A/": "B/x"}}"#, #"entry "A/": "A/" is not a valid Target/action pair"#),
            (
                #"{"redirects": {"A": "B c"}}"#,
                #"entry "A": "B c" is not a valid target name (names use only ASCII letters, digits, "_", "-" and "." (compared byte for byte))"#
            ),
            (#"{"redirects": {"": "B"}}"#, #"entry "": "" is not a valid target name (a name must not be empty)"#),
            (
                #"{"redirects": {"A/x": "B"}}"#,
                #"redirect "A/x" -> "B": a Target/action pair must be redirected to a pair, and a target to a target"#
            ),
            (
                #"{"redirects": {"A": "B/x"}}"#,
                #"redirect "A" -> "B/x": a Target/action pair must be redirected to a pair, and a target to a target"#
            ),
            (#"{"degradations": {"Shop": "Web"}}"#, #"degradation "Shop": the fallback must be a Target/action pair, not "Web""#),
            (
                #"{"degradations": {"Shop/buy": "Web/open"}}"#,
                #"entry "Shop/buy": "Shop/buy" is not a valid target name (names use only ASCII letters, digits, "_", "-" and "." (compared byte for byte))"#
            ),
        ])
    func malformed(_ json: String, _ message: String) throws {
        let error = try #require(jsonError(json))
        #expect(error.code == .invalidRedirect)
        #expect(error.description == message)
        #expect(!error.description.contains("\n"))
    }

    @Test("A table with more than maximumEntries entries is refused")
    func tooManyEntries() throws {
        let entries = (0...RedirectTable.maximumEntries).map { "\"T\($0)\": \"U\($0)\"" }.joined(separator: ", ")
        let error = try #require(jsonError("{\"redirects\": {\(entries)}}"))
        #expect(error.code == .invalidRedirect)
        #expect(error.description == "the redirect table has more than 10000 entries (RedirectTable.maximumEntries)")
    }

    @Test("Redirects and degradations count together toward maximumEntries")
    func tooManyTogether() throws {
        let half = RedirectTable.maximumEntries / 2
        let redirects = (0..<half).map { "\"T\($0)\": \"U\($0)\"" }.joined(separator: ", ")
        let degradations = (0...half).map { "\"D\($0)\": \"Web/open\"" }.joined(separator: ", ")
        let error = try #require(jsonError("{\"redirects\": {\(redirects)}, \"degradations\": {\(degradations)}}"))
        #expect(error.description == "the redirect table has more than 10000 entries (RedirectTable.maximumEntries)")
        // Exactly the limit is accepted.
        let fewer = (0..<(half - 1)).map { "\"D\($0)\": \"Web/open\"" }.joined(separator: ", ")
        #expect(try RedirectTable(json: "{\"redirects\": {\(redirects)}, \"degradations\": {\(fewer), \"Last\": \"Web/open\"}}").degradations.count == half)
    }

    @Test("A cycle of pairs is refused, naming the chain")
    func pairCycle() throws {
        let error = try #require(jsonError(#"{"redirects": {"A/x": "B/x", "B/x": "A/x"}}"#))
        #expect(error.code == .redirectCycle)
        #expect(error.description == "redirect cycle: A/x -> B/x -> A/x")
    }

    @Test("A redirect of a pair to itself is a cycle")
    func selfCycle() throws {
        #expect(jsonError(#"{"redirects": {"A/x": "Target_A/Action_x"}}"#)?.description == "redirect cycle: A/x -> A/x")
        #expect(jsonError(#"{"redirects": {"A": "A"}}"#)?.description == "redirect cycle: A -> A")
    }

    @Test("A cycle of targets is refused, naming the targets")
    func targetCycle() throws {
        let error = try #require(jsonError(#"{"redirects": {"A": "B", "B": "C", "C": "A"}}"#))
        #expect(error.code == .redirectCycle)
        #expect(error.description == "redirect cycle: A -> B -> C -> A")
    }

    @Test("A cycle through a pair and a target entry is refused")
    func mixedCycle() throws {
        let error = try #require(jsonError(#"{"redirects": {"A/x": "B/x", "B": "A"}}"#))
        #expect(error.code == .redirectCycle)
        #expect(error.description == "redirect cycle: A/x -> B/x -> A/x")
    }

    @Test("Of several cycles, the one reported is always the same: the first by name")
    func deterministicCycle() throws {
        let pairs = (10..<60).map { #""C\#($0)/x": "D\#($0)/x", "D\#($0)/x": "C\#($0)/x""# }.joined(separator: ", ")
        #expect(jsonError("{\"redirects\": {\(pairs)}}")?.description == "redirect cycle: C10/x -> D10/x -> C10/x")
        let targets = (10..<60).map { #""C\#($0)": "D\#($0)", "D\#($0)": "C\#($0)""# }.joined(separator: ", ")
        #expect(jsonError("{\"redirects\": {\(targets)}}")?.description == "redirect cycle: C10 -> D10 -> C10")
    }

    @Test("A chain of maximumHops redirects is accepted; one more is refused, naming the chain")
    func longChain() throws {
        let hops = RedirectTable.maximumHops
        let accepted = (0..<hops).map { "\"A\($0)/x\": \"A\($0 + 1)/x\"" }.joined(separator: ", ")
        #expect(try RedirectTable(json: "{\"redirects\": {\(accepted)}}").redirects.count == hops)
        let refused = (0...hops).map { "\"A\($0)/x\": \"A\($0 + 1)/x\"" }.joined(separator: ", ")
        let error = try #require(jsonError("{\"redirects\": {\(refused)}}"))
        #expect(error.code == .tooManyRedirects)
        #expect(
            error.description
                == "more than 8 redirects (RedirectTable.maximumHops): A0/x -> A1/x -> A2/x -> A3/x -> A4/x -> A5/x -> A6/x -> A7/x -> A8/x -> A9/x")
    }

    @Test("A chain of targets longer than maximumHops is refused")
    func longTargetChain() throws {
        let refused = (0...RedirectTable.maximumHops).map { "\"T\($0)\": \"T\($0 + 1)\"" }.joined(separator: ", ")
        let error = try #require(jsonError("{\"redirects\": {\(refused)}}"))
        #expect(error.code == .tooManyRedirects)
        #expect(error.description == "more than 8 redirects (RedirectTable.maximumHops): T0 -> T1 -> T2 -> T3 -> T4 -> T5 -> T6 -> T7 -> T8 -> T9")
    }

    @Test("redirect(_:to:) refuses a cycle and leaves the table as it was")
    func redirectRefusesCycle() throws {
        var table = RedirectTable()
        try table.redirect("A/x", to: "B/x")
        let before = table
        #expect(throws: MediatorError.self) { try table.redirect("B/x", to: "A/x") }
        #expect(table == before)
        let error = buildError { table in
            try table.redirect("A/x", to: "B/x")
            try table.redirect("B", to: "A")
        }
        #expect(error?.code == .redirectCycle)
    }

    @Test("redirect(_:to:) and degrade(_:to:) refuse invalid names")
    func invalidNames() throws {
        #expect(buildError { try $0.redirect("A/x", to: "B") }?.code == .invalidRedirect)
        #expect(buildError { try $0.redirect("-A", to: "B") }?.code == .invalidRedirect)
        #expect(buildError { try $0.degrade("Shop", to: "Web") }?.code == .invalidRedirect)
        #expect(buildError { try $0.degrade("Sh op", to: "Web/open") }?.code == .invalidRedirect)
        #expect(buildError { try $0.degrade("Shop", to: "Web/op en") }?.description == #"entry "Shop": "Web/op en" is not a valid Target/action pair"#)
    }

    @Test("A later redirect of the same name replaces the earlier one")
    func replaces() throws {
        var table = RedirectTable()
        try table.redirect("Old/a", to: "New/a")
        try table.redirect("Target_Old/Action_a", to: "Newer/b")
        try table.degrade("Shop", to: "Web/open")
        try table.degrade("Target_Shop", to: "Web/error")
        #expect(table.redirects.map { "\($0.from) -> \($0.to)" } == ["Old/a -> Newer/b"])
        #expect(table.degradations.map { "\($0.target) -> \($0.fallback)" } == ["Shop -> Web/error"])
    }

    @Test("Removing redirects and degradations, by short or full names")
    func removal() throws {
        var table = RedirectTable()
        try table.redirect("Old/a", to: "New/a")
        try table.redirect("Legacy", to: "Modern")
        try table.degrade("Shop", to: "Web/open")
        table.removeRedirect("Target_Old/Action_a")
        #expect(table.redirects.map(\.from) == ["Legacy"])
        table.removeRedirect("Target_Legacy")
        table.removeRedirect("Not a name/x")
        table.removeRedirect("Never")
        #expect(table.redirects.isEmpty)
        #expect(!table.isEmpty)
        table.removeDegradation("Target_Shop")
        #expect(table.isEmpty)
        #expect(table == RedirectTable())
    }

    @Test("Tables are equal when they send every call to the same place")
    func equality() throws {
        var one = RedirectTable()
        try one.redirect("Old/a", to: "New/a")
        var other = RedirectTable()
        try other.redirect("Target_Old/Action_a:", to: "Target_New/a")
        #expect(one == other)
        try other.degrade("Shop", to: "Web/open")
        #expect(one != other)
    }
}
