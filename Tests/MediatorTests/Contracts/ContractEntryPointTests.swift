import Mediator
import TestSupport
import Testing

// The same bad input gives the same error through every entry point: synchronous and async calls,
// `perform` (nil), the completion form, a handle, a URL (where a URL can say it), the
// command-line layer's entry points, and the dry runs, which run nothing.

/// One bad input: as params, as a URL query when a URL can express it, and the message expected.
struct BadInput: Sendable, CustomTestStringConvertible {
    let name: String
    let params: Params
    let query: String?
    let message: String
    var testDescription: String { name }
}

/// A result handed over from a completion, read after the task that called it has ended.
final class Handoff: Sendable {
    private let box = ReadWriteLock<Result<(any Sendable)?, MediatorError>?>(nil)
    func set(_ result: Result<(any Sendable)?, MediatorError>) { box.withLock { $0 = result } }
    var result: Result<(any Sendable)?, MediatorError>? { box.withReadLock { $0 } }
}

/// A dictionary handed over from a URL completion.
final class URLHandoff: Sendable {
    private let box = ReadWriteLock<[String: any Sendable]?>(nil)
    func set(_ result: [String: any Sendable]) { box.withLock { $0 = result } }
    var result: [String: any Sendable]? { box.withReadLock { $0 } }
}

@Suite("Contracts: the same error through every entry point", hangLimit)
struct ContractEntryPointTests {
    static let params: [Parameter] = [
        .required("token", .string), .optional("limit", .integer(minimum: 1, maximum: 100), default: 20),
        .optional("tags", .array(of: .integer)), .optional("flag", .boolean),
    ]
    static let signature = "token, limit?, tags?, flag?"

    static let inputs: [BadInput] = [
        BadInput(
            name: "missing required", params: ["limit": "5"], query: "limit=5",
            message: #"Shapes/list: missing required parameter "token" (expected string)"#),
        BadInput(
            name: "text that is not an integer", params: ["token": "t", "limit": "abc"], query: "token=t&limit=abc",
            message: #"Shapes/list: invalid parameter "limit": expected integer (1...100), got String "abc""#),
        BadInput(
            name: "text out of range", params: ["token": "t", "limit": "500"], query: "token=t&limit=500",
            message: #"Shapes/list: invalid parameter "limit": expected integer (1...100), got String "500" (out of range)"#),
        BadInput(
            name: "undeclared", params: ["token": "t", "x": "1"], query: "token=t&x=1",
            message: #"Shapes/list: undeclared parameter "x": the action takes token, limit?, tags?, flag?"#),
        BadInput(
            name: "near miss", params: ["token": "t", "limt": "5"], query: "token=t&limt=5",
            message: #"Shapes/list: undeclared parameter "limt": the action takes token, limit?, tags?, flag?; did you mean "limit"?"#),
        BadInput(
            name: "a repeated key for a scalar", params: ["token": ["a", "b"]], query: "token=a&token=b",
            message: #"Shapes/list: invalid parameter "token": expected string, got Array<String> ["a", "b"]"#),
        BadInput(
            name: "a bad array element", params: ["token": "t", "tags": ["1", "x"]], query: "token=t&tags=1&tags=x",
            message: #"Shapes/list: invalid parameter "tags": element 1: expected integer, got String "x""#),
        BadInput(
            name: "a bad boolean", params: ["token": "t", "flag": "yes"], query: "token=t&flag=yes",
            message: #"Shapes/list: invalid parameter "flag": expected boolean, got String "yes""#),
        BadInput(
            name: "several problems: the first declared wins", params: ["limit": "abc", "x": "1"], query: "x=1&limit=abc",
            message: #"Shapes/list: missing required parameter "token" (expected string)"#),
        BadInput(
            name: "an integer out of range (in-process only)", params: ["token": "t", "limit": 500], query: nil,
            message: #"Shapes/list: invalid parameter "limit": expected integer (1...100), got Int 500 (out of range)"#),
        BadInput(
            name: "a number where text is expected (in-process only)", params: ["token": 42], query: nil,
            message: #"Shapes/list: invalid parameter "token": expected string, got Int 42"#),
        BadInput(
            name: "NaN for an integer (in-process only)", params: ["token": "t", "limit": Double.nan], query: nil,
            message: #"Shapes/list: invalid parameter "limit": expected integer (1...100), got Double nan"#),
    ]

    /// A world whose `Shapes/list` refuses undeclared params from every caller (so in-process and
    /// outside callers can be compared), with an async twin `Shapes/listLater`.
    static func world() throws -> ContractWorld {
        try ContractWorld { runs in
            [
                Action<ContractBox>("list", params: params) { _, params in
                    runs.increment()
                    return params
                }.undeclaredParameters(.refused),
                Action<ContractBox>("listLater", params: params) { _, params async in
                    runs.increment()
                    return params
                }.undeclaredParameters(.refused),
            ]
        }
    }

    /// Every entry point's error for `input` against `action`, labelled.
    static func errors(_ input: BadInput, action: String = "list", world: ContractWorld) async throws -> [(String, MediatorError?)] {
        let mediator = world.mediator
        let params = input.params
        var seen: [(String, MediatorError?)] = []
        seen.append(("call", mediatorError { () throws(MediatorError) in _ = try mediator.callNow(target: "Shapes", action: action, params: params) }))
        seen.append(
            (
                "call (full names)",
                mediatorError { () throws(MediatorError) in _ = try mediator.callNow(target: "Target_Shapes", action: "Action_" + action, params: params) }
            ))
        seen.append(
            (
                "await call",
                await awaitedMediatorError { () async throws(MediatorError) in _ = try await mediator.call(target: "Shapes", action: action, params: params) }
            ))
        let handoff = Handoff()
        await mediator.perform(target: "Shapes", action: action, params: params, as: (any Sendable)?.self) { handoff.set($0) }.value
        switch handoff.result {
        case .failure(let error): seen.append(("completion", error))
        case .success: seen.append(("completion", nil))
        case nil: Issue.record("the completion was not called")
        }
        let handle = try synchronously { try mediator.handle(target: "Shapes", action: action) }
        seen.append(("handle.call", mediatorError { () throws(MediatorError) in _ = try handle.callNow(params) }))
        seen.append(("await handle.call", await awaitedMediatorError { () async throws(MediatorError) in _ = try await handle.call(params) }))
        seen.append(("validate", mediatorError { () throws(MediatorError) in try mediator.validate(target: "Shapes", action: action, params: params) }))
        seen.append(
            (
                "validateFromOutside",
                mediatorError { () throws(MediatorError) in try mediator.validateFromOutside(target: "Shapes", action: action, params: params) }
            ))
        seen.append(
            (
                "callFromOutside",
                await awaitedMediatorError { () async throws(MediatorError) in
                    _ = try await mediator.callFromOutside(target: "Shapes", action: action, params: params, shouldCacheTarget: false)
                }
            ))
        if let query = input.query {
            let url = "app://Shapes/\(action)?\(query)"
            seen.append(("call(url:)", mediatorError { () throws(MediatorError) in _ = try mediator.callNow(url: url) }))
            seen.append(("await call(url:)", await awaitedMediatorError { () async throws(MediatorError) in _ = try await mediator.call(url: url) }))
            seen.append(("validate(url:)", mediatorError { () throws(MediatorError) in try mediator.validate(url: url) }))
            if action == "list" {
                let urlHandoff = URLHandoff()
                _ = mediator.open(url) { urlHandoff.set($0) }
                seen.append(("open(_:completion:)", urlHandoff.result?["error"] as? MediatorError))
            }
        }
        return seen
    }

    @Test("Every entry point fails with the same code and the same words, and nothing runs", arguments: inputs)
    func sameError(_ input: BadInput) async throws {
        let world = try Self.world()
        for (entry, error) in try await Self.errors(input, world: world) {
            #expect(error?.description == input.message, "\(entry)")
            #expect(error?.code == .invalidParameter, "\(entry)")
        }
        // The nil-returning forms: nil, and nothing ran either.
        #expect(synchronously { world.mediator.perform(target: "Shapes", action: "list", params: input.params) } == nil)
        #expect((try? await world.mediator.call(target: "Shapes", action: "list", params: input.params)) == nil)
        #expect(
            try synchronously {
                let handle = try world.mediator.handle(target: "Shapes", action: "list")
                return try? handle.callNow(input.params)
            } == nil)
        #expect(!world.mediator.canPerform(target: "Shapes", action: "list", params: input.params))
        if let query = input.query {
            #expect(synchronously { world.mediator.open("app://Shapes/list?\(query)") } == nil)
            #expect((try? await world.mediator.call(url: "app://Shapes/list?\(query)")) == nil)
        }
        #expect(world.runs.value == 0)
        #expect(world.makes.value == 0)
    }

    @Test("An async action fails validation the same way, even through the synchronous entry points", arguments: inputs)
    func sameErrorForAsyncAction(_ input: BadInput) async throws {
        let world = try Self.world()
        let expected = input.message.replacingOccurrences(of: "Shapes/list:", with: "Shapes/listLater:")
        for (entry, error) in try await Self.errors(input, action: "listLater", world: world) {
            #expect(error?.description == expected, "\(entry)")
            #expect(error?.code == .invalidParameter, "\(entry)")
        }
        #expect(world.runs.value == 0)
        #expect(world.makes.value == 0)
    }

    @Test("Valid params pass every entry point, coerced the same way, and the dry runs run nothing")
    func validInput() async throws {
        let world = try Self.world()
        let mediator = world.mediator
        let params: Params = ["token": "t", "limit": "5", "tags": "7", "flag": "1"]
        try mediator.validate(target: "Shapes", action: "list", params: params)
        try mediator.validate(target: "Shapes", action: "listLater", params: params)
        try mediator.validate(url: "app://Shapes/list?token=t&limit=5&tags=7&flag=1")
        try mediator.validateFromOutside(target: "Shapes", action: "list", params: params)
        #expect(mediator.canPerform(target: "Shapes", action: "list", params: params))
        #expect(world.runs.value == 0)
        #expect(world.makes.value == 0)

        var results: [(String, (any Sendable)?)] = []
        results.append(("call", try synchronously { try mediator.callNow(target: "Shapes", action: "list", params: params) }))
        results.append(("await call", try await mediator.call(target: "Shapes", action: "list", params: params)))
        results.append(("await call (async action)", try await mediator.call(target: "Shapes", action: "listLater", params: params)))
        results.append(("perform", synchronously { mediator.perform(target: "Shapes", action: "list", params: params) }))
        results.append(("handle.call", try synchronously { try mediator.handle(target: "Shapes", action: "list").callNow(params) }))
        let handle = try synchronously { try mediator.handle(target: "Shapes", action: "listLater") }
        results.append(("await handle.call", try await handle.call(params)))
        results.append(("call(url:)", try synchronously { try mediator.callNow(url: "app://Shapes/list?token=t&limit=5&tags=7&flag=1") }))
        results.append(("callFromOutside", try await mediator.callFromOutside(target: "Shapes", action: "list", params: params, shouldCacheTarget: false)))
        let handoff = Handoff()
        await mediator.perform(target: "Shapes", action: "list", params: params, as: (any Sendable)?.self) { handoff.set($0) }.value
        results.append(("completion", try handoff.result?.get()))
        for (entry, result) in results {
            let received = try #require(result as? Params, "\(entry)")
            #expect(received.keys == ["flag", "limit", "tags", "token"], "\(entry)")
            #expect(typed(received["limit"]) == "Int 5", "\(entry)")
            #expect(typed(received["tags"]) == "Array<Int> [7]", "\(entry)")
            #expect(typed(received["flag"]) == "Bool true", "\(entry)")
        }
        #expect(world.runs.value == results.count)
    }

    @Test("The dry runs give the errors a call would for a missing target, a missing action and a local-only action, and run nothing")
    func dryRunNotFound() throws {
        let world = try ContractWorld { runs in
            [
                Action<ContractBox>("list", params: [.required("token", .string)]) { _, _ in
                    runs.increment()
                    return nil
                },
                Action<ContractBox>("secret", params: [], localOnly: true) { _, _ in
                    runs.increment()
                    return nil
                },
            ]
        }
        let mediator = world.mediator
        let pairs: [(String, String)] = [("Nope", "list"), ("Shapes", "lst")]
        for (target, action) in pairs {
            let call = mediatorError { () throws(MediatorError) in _ = try mediator.callNow(target: target, action: action) }
            let dry = mediatorError { () throws(MediatorError) in try mediator.validate(target: target, action: action, params: [:]) }
            #expect(call != nil)
            #expect(dry?.description == call?.description)
            #expect(dry?.code == call?.code)
            #expect(!mediator.canPerform(target: target, action: action, params: [:]))
        }
        let byURL = mediatorError { () throws(MediatorError) in _ = try mediator.callNow(url: "app://Shapes/secret") }
        let dryURL = mediatorError { () throws(MediatorError) in try mediator.validate(url: "app://Shapes/secret") }
        #expect(byURL?.code == .forbidden)
        #expect(dryURL?.description == byURL?.description)
        #expect(mediatorError { () throws(MediatorError) in try mediator.validate(target: "Shapes", action: "secret", params: [:]) } == nil)
        #expect(world.runs.value == 0)
        #expect(world.makes.value == 0)
    }

    @Test("With refusedFromOutside an undeclared param passes in-process and is refused from outside, with the same words by URL and command line")
    func strictPolicyAcrossEntryPoints() async throws {
        let world = try ContractWorld([.required("token", .string)], mediatorPolicy: .refusedFromOutside)
        let mediator = world.mediator
        let message = #"Shapes/take: undeclared parameter "x": the action takes token"#
        let params: Params = ["token": "t", "x": "1"]
        #expect(mediatorError { () throws(MediatorError) in try mediator.validate(target: "Shapes", action: "take", params: params) } == nil)
        #expect(try synchronously { try mediator.callNow(target: "Shapes", action: "take", params: params) } is Params)
        #expect(try await mediator.call(target: "Shapes", action: "take", params: params) is Params)
        #expect(try synchronously { try mediator.handle(target: "Shapes", action: "take").callNow(params) } is Params)
        let outside: [MediatorError?] = [
            mediatorError { () throws(MediatorError) in _ = try mediator.callNow(url: "app://Shapes/take?token=t&x=1") },
            mediatorError { () throws(MediatorError) in try mediator.validate(url: "app://Shapes/take?token=t&x=1") },
            mediatorError { () throws(MediatorError) in try mediator.validateFromOutside(target: "Shapes", action: "take", params: params) },
            await awaitedMediatorError { () async throws(MediatorError) in
                _ = try await mediator.callFromOutside(target: "Shapes", action: "take", params: params, shouldCacheTarget: false)
            },
        ]
        for error in outside {
            #expect(error?.description == message)
        }
        #expect(world.runs.value == 3)
    }

    @Test("A cached instance does not change the checks: the same error, and the action does not run")
    func cachedInstance() throws {
        let world = try Self.world()
        _ = try world.mediator.callNow(target: "Shapes", action: "list", params: ["token": "t"], shouldCacheTarget: true)
        #expect(world.makes.value == 1)
        for input in Self.inputs {
            let error = mediatorError { () throws(MediatorError) in _ = try world.mediator.callNow(target: "Shapes", action: "list", params: input.params) }
            #expect(error?.description == input.message, "\(input.name)")
        }
        #expect(world.runs.value == 1)
        #expect(world.makes.value == 1)
    }
}
