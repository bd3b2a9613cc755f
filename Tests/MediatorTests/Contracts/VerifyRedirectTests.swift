import Testing

@testable import Mediator

/// The world of `ContractVerifyTests` with a redirect table.
private func world(redirects: [(String, String)] = [], degradations: [(String, String)] = []) throws -> VerifyWorld {
    let world = try VerifyWorld()
    var table = RedirectTable()
    for (from, to) in redirects { try table.redirect(from, to: to) }
    for (target, fallback) in degradations { try table.degrade(target, to: fallback) }
    world.mediator.setRedirects(table)
    return world
}

@Suite("verify(): requirements the redirect table sends elsewhere")
struct VerifyRedirectTests {
    @Test(
        "A requirement that a redirect sends to a registered action is met by that action",
        .bug(id: "verify-redirects", "a requirement covered by a redirect was reported as missing")
    )
    func metThroughARedirect() throws {
        let world = try world(redirects: [("Legacy", "Notes"), ("Old/tally", "Notes/count"), ("Older/tally", "Old/tally")])
        world.mediator.require(
            [
                .action(target: "Legacy", action: "list", params: [.required("token", .string)], result: .array(of: .object)),
                .action(target: "Target_Old", action: "Action_tally", params: [.required("token", .string)], result: .integer),
                .action(target: "Older", action: "tally"),
            ], by: "Feed")
        #expect(world.mediator.verify().map(\.description) == [])
        #expect(world.makes.value == 0)
        #expect(world.runs.value == 0)
    }

    @Test("A redirected requirement's params and result are checked against the destination, and the problem says where it goes")
    func checkedAgainstTheDestination() throws {
        let world = try world(redirects: [("Old/tally", "Notes/count")])
        world.mediator.require([.action(target: "Old", action: "tally", params: [.required("limit", .integer)], result: .string)], by: "Feed")
        let problems = world.mediator.verify()
        #expect(
            problems.map(\.description) == [
                #"Old/tally: redirected to Notes/count: Feed does not send "token" (string), which the action requires; send it"#,
                #"Old/tally: redirected to Notes/count: Feed reads the result as string, but the action declares integer; make them agree"#,
                #"Old/tally: redirected to Notes/count: Feed sends "limit", which the action does not declare; remove it or declare it"#,
            ])
        #expect(problems.map(\.code) == [.invalidParameter, .resultTypeMismatch, .invalidParameter])
    }

    @Test("A redirect to a target or action that is not registered: missing, naming the destination")
    func redirectedToNothing() throws {
        let world = try world(redirects: [("Legacy", "Note"), ("Old/tally", "Notes/cont")])
        world.mediator.require([.action(target: "Legacy", action: "list"), .action(target: "Old", action: "tally")], by: "Feed")
        let problems = world.mediator.verify()
        #expect(
            problems.map(\.description) == [
                #"Legacy/list: redirected to Note/list: Feed requires it, but no target "Note" is registered (did you mean "Notes"?); register Target_Note or fix the redirect"#,
                #"Old/tally: redirected to Notes/cont: Feed requires it, but target "Notes" has no action "cont" (did you mean "count"?); add the action or fix the redirect"#,
            ])
        #expect(problems.map(\.code) == [.targetNotFound, .actionNotFound])
    }

    @Test("A degradation does not meet a requirement: the action is still missing, and the problem says where its calls degrade")
    func degradationIsNotAProvider() throws {
        let world = try world(degradations: [("Payments", "Notes/raw"), ("Notes", "Notes/raw")])
        world.mediator.require([.action(target: "Payments", action: "pay"), .action(target: "Notes", action: "lst")], by: "Checkout")
        let problems = world.mediator.verify()
        #expect(
            problems.map(\.description) == [
                #"Notes/lst: Checkout requires it, but target "Notes" has no action "lst" (did you mean "list"?); add the action (meanwhile its calls degrade to Notes/raw)"#,
                #"Payments/pay: Checkout requires it, but no target "Payments" is registered; register Target_Payments (meanwhile its calls degrade to Notes/raw)"#,
            ])
        #expect(problems.map(\.code) == [.actionNotFound, .targetNotFound])
    }

    @Test("A route of redirects too long to follow: the requirement is reported, with the chain")
    func tooManyRedirects() throws {
        // Target entries leading into pair entries: a chain the table cannot see when it is built.
        var pairs = (0..<5).map { ("T\($0)", "T\($0 + 1)") }
        pairs += (5..<8).map { ("T\($0)/x", "T\($0 + 1)/x") }
        pairs.append(("T8/x", "Notes/raw"))
        #expect(pairs.count > RedirectTable.maximumHops)
        let world = try world(redirects: pairs)
        world.mediator.require([.action(target: "T0", action: "x")], by: "Feed")
        let problems = world.mediator.verify()
        #expect(problems.map(\.code) == [.actionNotFound])
        let description = try #require(problems.first?.description)
        #expect(description.hasPrefix("T0/x: Feed requires it, but its redirects never reach an action: "), "\(description)")
        #expect(description.hasSuffix("; fix the redirect table"), "\(description)")
    }
}
