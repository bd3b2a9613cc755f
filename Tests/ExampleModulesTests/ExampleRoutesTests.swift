import ExampleAccounts
import ExampleNotes
import Foundation
import Mediator
import Testing

/// The example modules' deep links: `Target_Notes.routes`, `Target_Accounts.routes`, and
/// `Targets/routes.json`, the same table for `mediate --routes`.
@Suite("Example routes: the providers' routes and Targets/routes.json")
struct ExampleRoutesTests {
    /// The text of `Targets/routes.json`, found from this file's path.
    static func tableText() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("Targets/routes.json"), encoding: .utf8)
    }

    /// Every route of the example modules, as an app adds them.
    static let all = Target_Notes.routes + Target_Accounts.routes

    @Test("Targets/routes.json holds exactly the routes the providers declare in code")
    func fileMatchesCode() throws {
        let fromFile = Mediator()
        try fromFile.addRoutes(json: try Self.tableText())
        let fromCode = Mediator()
        try fromCode.addRoutes(Self.all)
        #expect(fromFile.routes == fromCode.routes)
        #expect(fromFile.routes.count == 5)
        // Each provider's routes name its own target only.
        #expect(Target_Notes.routes.allSatisfy { $0.target == "Notes" })
        #expect(Target_Accounts.routes.allSatisfy { $0.target == "Accounts" })
    }

    /// The placeholder names of a pattern without optional groups: `/notes/:id<int>` gives `id`.
    static func placeholders(_ pattern: String) -> [String] {
        pattern.split(separator: "/").filter { $0.hasPrefix(":") }.map { segment in
            String(segment.dropFirst().prefix { $0 != "<" })
        }
    }

    @Test("Every route reaches a registered remote action that declares each of the route's path params", arguments: all)
    func destinations(_ route: URLRoute) throws {
        let mediator = try exampleMediator()
        let action = try #require(mediator.target(named: route.target)?.actions.first { $0.name == route.action }, "\(route)")
        #expect(!action.isLocalOnly, "\(route)")
        let declared = Set((action.parameters ?? []).map(\.name))
        for name in Self.placeholders(route.pattern) {
            #expect(declared.contains(name), "\(route): \(name) is not declared")
        }
    }

    @Test("Routed URLs in process: notes by id and tag, the export, and who a token belongs to")
    func routedCalls() async throws {
        let pair = try SignedInPair()
        try pair.writeNotes()
        try pair.mediator.addRoutes(Self.all)
        // Callers by URL get plain values: a note as a dictionary, notes as an array of them.
        typealias Object = [String: any Sendable]
        let note = try await pair.mediator.call(url: "app://notes/3")
        #expect((note as? Object)?["title"] as? String == "Analysis", "\(String(describing: note))")
        let math = try await pair.mediator.call(url: "https://example.com/notes/tag/math")
        #expect((math as? [Object])?.map { $0["id"] as? Int } == [1], "\(String(describing: math))")
        #expect((try await pair.mediator.call(url: "app://notes") as? [Object])?.map { $0["id"] as? Int } == [1, 2, 3, 4])
        let me = try await pair.mediator.call(url: "app://me?token=\(pair.grace)")
        #expect((me as? Object)?["username"] as? String == "grace", "\(String(describing: me))")
        let export = try await pair.mediator.call(url: "app://notes/export?token=\(pair.ada)")
        #expect(export as? String == SignedInPair.adasExport)
        #expect(pair.mediator.canOpen("app://notes/4"))
        #expect(!pair.mediator.canOpen("app://notes/a/b"))
        // /me is for the app scheme only.
        #expect(throws: MediatorError.self) { try pair.mediator.callNow(url: "https://example.com/me?token=\(pair.ada)") }
    }
}
