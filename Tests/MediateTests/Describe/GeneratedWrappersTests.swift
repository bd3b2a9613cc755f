import ExampleAccounts
import ExampleNotes
import Foundation
import Mediator
import Testing

@testable import MediatorCommandLine

// `Accounts` and `Notes` are imported through `mediate`, which this test target depends on and
// which links them (the test target does not list them itself).

@Suite("Generated wrappers")
struct GeneratedWrappersTests {
    /// A mediator with the specimen targets (GeneratedWrappersFixture.swift) and the example
    /// modules, registered as `mediate` registers them.
    static func registry() throws -> Mediator {
        let mediator = Mediator()
        try Target_Accounts.register(in: mediator)
        try Target_Notes.register(in: mediator)
        try Target_Specimen.register(in: mediator)
        return mediator
    }

    static func target(_ name: String) throws -> TargetInfo {
        try #require(try registry().target(named: name))
    }

    static func source(_ name: String) throws -> String {
        SwiftWrappers.source(for: try target(name))
    }

    @Test("Methods are the target then the action, made identifiers, collisions numbered, Mediator's own names avoided")
    func methodNames() throws {
        let names = SwiftWrappers.methods(for: try Self.target("Specimen")).map { "\($0.action.name) \($0.name)" }
        #expect(
            names == [
                "anything specimenAnything", "everything specimenEverything", "get-by.id specimenGetById", "getById specimenGetById2",
                "half specimenHalf", "handle specimenHandle", "isEven specimenIsEven", "keywords specimenKeywords", "legacy specimenLegacy",
                "matrix specimenMatrix", "nothing specimenNothing", "oddities specimenOddities", "points specimenPoints", "shout specimenShout",
                "stats specimenStats",
                "sum specimenSum", "untyped specimenUntyped", "words specimenWords",
            ])
        #expect(SwiftWrappers.methods(for: try Self.target("Registry")).map(\.name) == ["registryDescriptionAction"])
        #expect(SwiftWrappers.methodName(target: "URLCache", action: "get") == "urlCacheGet")
        #expect(SwiftWrappers.methodName(target: "ID", action: "list") == "idList")
        #expect(SwiftWrappers.methodName(target: "user-profile", action: "get.by-id") == "userProfileGetById")
        #expect(SwiftWrappers.methodName(target: "2fa", action: "check") == "_2faCheck")
        #expect(SwiftWrappers.methodName(target: "_", action: ".") == "_action")
        #expect(SwiftWrappers.methodName(target: "init", action: ".") == "init")
        #expect(SwiftWrappers.mediatorMembers.contains("init"), "a method named init gets Action appended")
    }

    @Test("Result structs are named after their method with a capital first, so no method can hide them")
    func resultStructNames() {
        #expect(SwiftWrappers.resultStructName(method: "notesGet") == "NotesGetResult")
        #expect(SwiftWrappers.resultStructName(method: "_xGet") == "XGetResult")
        #expect(SwiftWrappers.resultStructName(method: "_2faCheck") == "Action2faCheckResult")
    }

    @Test("Parameters are labelled by their names: keywords in backticks, others made identifiers, taken names numbered")
    func parameterNames() throws {
        let method = try #require(SwiftWrappers.methods(for: try Self.target("Specimen")).first { $0.action.name == "keywords" })
        #expect(method.arguments?.map(\.name) == ["default", "in", "self", "firstName", "firstName2", "_2fa", "params", "class"])
        // Inside the method `self` is the mediator: the argument labelled `self` has another name.
        #expect(method.arguments?.map(\.localName) == ["default", "in", "selfValue", "firstName", "firstName2", "_2fa", "params", "class"])
        #expect(method.paramsVariable == "_params")
        let source = try Self.source("Specimen")
        #expect(
            source.contains(
                "public func specimenKeywords(`default`: Swift.Int, `in`: Swift.String, `self` selfValue: Swift.Bool? = nil, "
                    + "firstName: Swift.String? = nil, firstName2: Swift.String? = nil, _2fa: Swift.String? = nil, params: Swift.String? = nil, "
                    + "`class`: Swift.String? = nil) throws(MediatorError) -> SpecimenKeywordsResult {"))
        #expect(source.contains("        _params[\"first-name\"] = firstName\n"))
        #expect(source.contains("        _params[\"self\"] = selfValue\n"))
        #expect(source.contains("        case firstName = \"first-name\"\n"))
        #expect(source.contains("    public let `Type`: Swift.String?\n"))
        #expect(source.contains("    public let string: StringValue?\n"))
    }

    @Test("Names and summaries that a string literal or a comment cannot hold as they are are escaped")
    func escaping() throws {
        let method = try #require(SwiftWrappers.methods(for: try Self.target("Specimen")).first { $0.action.name == "oddities" })
        #expect(method.arguments?.map(\.name) == ["naVeQuoted", "value", "value2"])
        let source = try Self.source("Specimen")
        #expect(source.contains("[\"na\\u{ef}ve \\\"quoted\\\"\\\\\\n\": naVeQuoted]"))
        #expect(source.contains("    /// Names a string literal must escape, and a summary on two lines\n"))
        #expect(source.contains("        case naVe = \"na\\u{ef}ve\"\n"))
        #expect(SwiftWrappers.identifier("__") == "value")
        #expect(SwiftWrappers.identifier("_id") == "_id")
        #expect(SwiftWrappers.stringLiteral("tab\tcr\r\u{7}") == "\"tab\\tcr\\r\\u{7}\"")
    }

    @Test("Each parameter type and result shape has its Swift type; async actions have only the async form")
    func types() throws {
        let source = try Self.source("Specimen")
        let signatures = [
            "public func specimenEverything(text: Swift.String, count: Swift.Int, ratio: Swift.Double, flag: Swift.Bool, names: [Swift.String], scores: [Swift.Int]? = nil, "
                + "weights: [Swift.Double]? = nil, switches: [Swift.Bool]? = nil, grid: [[Swift.Int]]? = nil, options: [Swift.String: any Swift.Sendable]? = nil, "
                + "point: [Swift.String: any Swift.Sendable]? = nil, handle: (any Swift.Sendable)? = nil, limit: Swift.Int? = nil) throws(MediatorError) "
                + "-> SpecimenEverythingResult {",
            "public func specimenSum(numbers: [Swift.Int]) async throws(MediatorError) -> Swift.Int {",
            "public func specimenStats(values: [Swift.Double]) async throws(MediatorError) -> SpecimenStatsResult {",
            "public func specimenHalf(value: Swift.Double) throws(MediatorError) -> Swift.Double {",
            "public func specimenIsEven(value: Swift.Int) async throws(MediatorError) -> Swift.Bool {",
            "public func specimenMatrix(size: Swift.Int) throws(MediatorError) -> [[Swift.Double]] {",
            "public func specimenPoints(count: Swift.Int) throws(MediatorError) -> [SpecimenPointsResultItem] {",
            "public func specimenAnything(key: Swift.String? = nil) throws(MediatorError) -> [Swift.String: any Swift.Sendable] {",
            "public func specimenHandle(name: Swift.String) throws(MediatorError) -> any Swift.Sendable {",
            "public func specimenUntyped(value: Swift.String) throws(MediatorError) -> (any Swift.Sendable)? {",
            "public func specimenLegacy(params: Params = [:]) throws(MediatorError) -> (any Swift.Sendable)? {",
            "public func specimenNothing() throws(MediatorError) -> Swift.String {",
            "public struct SpecimenEverythingResult: Swift.Decodable, Swift.Sendable, Swift.Equatable {",
            "    public let received: [ReceivedItem]",
            "    public struct ReceivedItem: Swift.Decodable, Swift.Sendable, Swift.Equatable {",
            "    public let point: Point?",
            "/// Not decoded, having no Decodable Swift type: `options` (object); call the action by name to read it.",
        ]
        for signature in signatures { #expect(source.contains(signature), "missing: \(signature)") }
        #expect(!source.contains("func specimenSum(numbers: [Swift.Int]) throws"), "an async action has no synchronous form")
        #expect(!source.contains("public let options"), "a field without a Decodable type is left out")
    }

    @Test("The same target gives the same text, headed by the command and the registry")
    func deterministic() throws {
        for name in ["Specimen", "Notes", "Accounts"] {
            let first = try Self.source(name)
            #expect(first == (try Self.source(name)))
            #expect(first.hasPrefix("// Generated by `mediate describe \(name) --swift` from the registry of `mediate`:\n"))
        }
        // Two equal dictionaries that list their keys in different orders (different capacities)
        // as defaults: the text must not depend on which one the target declared.
        let (small, large) = try Self.equalDictionariesInTwoOrders()
        func source(defaulting options: [String: any Sendable]) throws -> String {
            let mediator = Mediator()
            try mediator.register(
                target: "Defaults", actions: [Action("set", params: [.optional("options", .object, default: options)]) { _, _ in nil }])
            return SwiftWrappers.source(for: try #require(mediator.target(named: "Defaults")))
        }
        #expect(try source(defaulting: small) == (try source(defaulting: large)))
        #expect(try source(defaulting: small).contains("`options?: object = [\"key0\": 1, \"key1\": 1, \"key10\": 1,"))

        let other = SwiftWrappers.source(for: try Self.target("Notes"), program: "myapp")
        #expect(other.hasPrefix("// Generated by `myapp describe Notes --swift` from the registry of `myapp`:\n"))
    }

    /// Two equal dictionaries whose keys come out in different orders (different capacities).
    static func equalDictionariesInTwoOrders() throws -> (small: [String: any Sendable], large: [String: any Sendable]) {
        let keys = (0..<40).map { "key\($0)" }
        let small = [String: any Sendable](uniqueKeysWithValues: keys.map { ($0, 1) })
        var large = [String: any Sendable](minimumCapacity: 4_096)
        for key in keys.reversed() { large[key] = 1 }
        try #require(String(describing: small) != String(describing: large), "the two orders must differ for the test to mean anything")
        return (small, large)
    }

    // A library bug found on the way (the generator shows defaults its own way): `Parameter`
    // compared and showed a dictionary default with `String(describing:)`, which lists its keys in
    // hash order, so equal declarations could compare unequal and describe themselves differently.
    @Test("Library: Parameter's == and description do not depend on the order a dictionary default lists its keys in")
    func parameterDefaultsInHashOrder() throws {
        let (small, large) = try Self.equalDictionariesInTwoOrders()
        let first = Parameter.optional("options", .object, default: small)
        let second = Parameter.optional("options", .object, default: large)
        #expect(first == second)
        #expect(first.description == second.description)
    }

    @Test("Wrappers generated for the specimens and the example modules compile without warnings and agree with calls by name")
    func compileAndRun() async throws {
        let started = Date()
        let mediator = try Self.registry()
        let targets = mediator.targets
        let examples = targets.filter { ["Accounts", "Notes"].contains($0.name) }
        #expect(examples.count == 2)
        var generated: [String: String] = [:]
        for target in targets { generated[target.name + ".swift"] = SwiftWrappers.source(for: target) }

        let tests = GeneratedWrappersPackage.repositoryRoot.appendingPathComponent("Tests/MediateTests/Describe")
        var program: [String: String] = [
            "main.swift": """
            func check() async -> WrapperVerdict {
                var verdict = WrapperVerdict(makeMediator: makeMediator)
                await verdict.checkSpecimens()
                await verdict.checkExamples()
                return verdict
            }
            let verdict = await check()
            for line in verdict.disagreements { print(line) }
            print(verdict.summary)

            """,
            "ExampleCalls.swift": GeneratedWrappersCalls.source(for: examples),
        ]
        for name in ["Fixture", "Harness", "World", "SpecimenCalls"] {
            program[name + ".swift"] = try String(contentsOf: tests.appendingPathComponent("GeneratedWrappers\(name).swift"), encoding: .utf8)
        }

        let manifest = try GeneratedWrappersPackage.manifest()
        let copied = try GeneratedWrappersPackage.closure(
            of: ["Mediator", "ExampleAccounts", "ExampleAccountsMediator", "ExampleNotes", "ExampleNotesMediator"],
            in: GeneratedWrappersPackage.manifestTargets(manifest))
        #expect(copied.first { $0.name == "ExampleNotes" }?.dependencies.contains("ExampleAccountsMediator") == true)
        let package = try GeneratedWrappersPackage()
        defer { package.remove() }
        try package.write(copying: copied, generated: generated, program: program, manifest: manifest)

        let build = try await package.swift(["build", "-Xswiftc", "-warnings-as-errors"])
        try #require(build.status == 0, "swift build failed:\n\(build.output)")
        #expect(!build.output.contains("warning:"), "\(build.output)")
        let run = try await package.swift(["run", "--skip-build", "-Xswiftc", "-warnings-as-errors", "Verdict"])
        #expect(run.status == 0, "\(run.output)")
        let verdict = run.output.split(separator: "\n").last { $0.hasPrefix("verdict: ") }
        #expect(verdict?.hasPrefix("verdict: all ") == true && verdict?.hasSuffix(" checks agree") == true, "\(run.output)")
        print("generated wrappers: \(verdict ?? "no verdict") in \(Int(Date().timeIntervalSince(started))) s")
    }
}
