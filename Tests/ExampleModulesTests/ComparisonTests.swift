import ExampleNotes
import Mediator
import Testing

@Suite("The mediator changes no behaviour: typed API, string API, wrappers and typed keys agree")
struct ComparisonTests {
    static let actions = ["signUp", "logIn", "whoAmI", "create", "get", "list", "update", "delete"]
    static let seeds: [UInt64] = [1, 2, 3]

    @Test("The same seeded sequence gives identical results and failures four ways", arguments: actions, seeds)
    func fourWays(action: String, seed: UInt64) async throws {
        var generator = OperationGenerator(seed: seed &* 7919 &+ UInt64(Self.actions.firstIndex(of: action)!))
        let operations = generator.sequence(leaningOn: action, count: 500)

        var typed = TypedAPIWorld()
        var strings = try StringAPIWorld(numbersAsText: false)
        var texts = try StringAPIWorld(numbersAsText: true)
        var wrappers = try WrapperWorld()
        var keys = try TypedKeyWorld()

        var successes = 0
        var failures: Set<String> = []
        for (index, operation) in operations.enumerated() {
            let expected = typed.run(operation)
            let viaStrings = strings.run(operation)
            let viaText = texts.run(operation)
            let viaWrapper = wrappers.run(operation)
            let viaKey = keys.run(operation)
            #expect(viaStrings == expected, "seed \(seed) step \(index): \(operation)")
            #expect(viaText == expected, "seed \(seed) step \(index) (numbers as text): \(operation)")
            #expect(viaWrapper == expected, "seed \(seed) step \(index) (wrapper): \(operation)")
            #expect(viaKey == expected, "seed \(seed) step \(index) (typed key): \(operation)")
            if operation.action == action {
                if case .failure(let code) = expected { failures.insert(code) } else { successes += 1 }
            }
        }
        // Then the async export, of each account's notes and with tokens that are not valid.
        var documents = 0
        for token: TokenChoice in [.issued(0), .issued(1), .issued(2), .unissued, .uppercased(0), .literal("forged")] {
            let expected = await typed.export(token)
            let viaStrings = await strings.export(token)
            let viaText = await texts.export(token)
            let viaWrapper = await wrappers.export(token)
            let viaKey = await keys.export(token)
            #expect(viaStrings == expected, "seed \(seed): export(\(token))")
            #expect(viaText == expected, "seed \(seed) (numbers as text): export(\(token))")
            #expect(viaWrapper == expected, "seed \(seed) (wrapper): export(\(token))")
            #expect(viaKey == expected, "seed \(seed) (typed key): export(\(token))")
            if case .document = expected { documents += 1 }
        }
        #expect(documents >= 2, "\(action): only \(documents) exports succeeded")
        // The sequence must exercise the action both ways, or agreement proves little.
        #expect(successes >= 5, "\(action): only \(successes) successes")
        #expect(!failures.isEmpty || action == "list", "\(action): no failures exercised")
    }

    @Test(
        "Every required parameter, when missing, fails as invalidParameter naming it",
        arguments: [
            ("Accounts", "signUp", ["username", "password"]), ("Accounts", "logIn", ["username", "password"]),
            ("Accounts", "whoAmI", ["token"]), ("Notes", "create", ["token", "title"]), ("Notes", "get", ["id"]),
            ("Notes", "update", ["token", "id"]), ("Notes", "delete", ["token", "id"]),
        ])
    func missingParameters(target: String, action: String, required: [String]) throws {
        let mediator = try exampleMediator()
        let complete: Params = ["username": "ada", "password": "analytical", "token": "token-1", "title": "t", "id": 1]
        for key in required {
            var params = complete
            params[key] = nil
            let error = #expect(throws: MediatorError.self) { try mediator.callNow(target: target, action: action, params: params) }
            #expect(error?.code == .invalidParameter)
            #expect(error?.parameter == key)
            #expect(error?.target == target)
            #expect(error?.action == action)
        }
    }

    @Test(
        "Wrong-typed parameters fail as invalidParameter naming the key",
        arguments: [
            ("Accounts", "signUp", "username", 42 as any Sendable), ("Accounts", "whoAmI", "token", [1, 2] as any Sendable),
            ("Notes", "create", "title", 3.5 as any Sendable), ("Notes", "create", "tags", 7 as any Sendable),
            ("Notes", "get", "id", "seven" as any Sendable), ("Notes", "get", "id", 1.5 as any Sendable),
            ("Notes", "list", "tag", true as any Sendable), ("Notes", "update", "body", 1 as any Sendable),
            ("Notes", "delete", "id", "" as any Sendable),
        ])
    func wrongTypes(target: String, action: String, key: String, value: any Sendable) throws {
        let mediator = try exampleMediator()
        var params: Params = ["username": "ada", "password": "analytical", "token": "token-1", "title": "t", "id": 1]
        params[key] = value
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(target: target, action: action, params: params) }
        #expect(error?.code == .invalidParameter)
        #expect(error?.parameter == key)
    }

    @Test("Notes checks tokens through the mediator: with Accounts missing, writes fail as authorizationUnavailable")
    func accountsMissing() throws {
        let mediator = Mediator()
        try Target_Notes.register(in: mediator)
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Notes", action: "create", params: ["token": "t", "title": "x"]) }
        #expect(error?.actionErrorCode == "authorizationUnavailable")
        #expect(error?.description.contains("no target named \"Accounts\"") == true)
    }
}
