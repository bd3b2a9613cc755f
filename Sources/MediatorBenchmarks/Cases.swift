import Mediator

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The work every case does: take an Int "v" and a String "name", return v + name's byte count.

/// The typed API (the floor every dispatch is compared with).
final class BenchService: Sendable {
    @inline(never)
    func echo(v: Int, name: String) -> Int { v &+ name.utf8.count }

    /// What every synchronous `echo` action of the benchmarks runs: its two params read, then
    /// the typed call.
    @inline(__always)
    func echo(_ params: Params) throws -> Int { echo(v: try params.value("v", as: Int.self), name: try params.value("name", as: String.self)) }
}

/// The provider's target.
final class Target_Bench: MediatorTarget {
    static let actions: [Action<Target_Bench>] = [
        Action("echo") { target, params in
            try target.service.echo(params)
        }
    ]
    let service = BenchService()
}

/// A provider's target whose action is async (it awaits a service method, which here finishes
/// without suspending: the cost measured is the async machinery's, not a wait's).
final class Target_BenchAsync: MediatorTarget {
    static let actions: [Action<Target_BenchAsync>] = [
        Action("echo") { target, params async throws in
            await target.service.echo(v: try params.value("v", as: Int.self), name: try params.value("name", as: String.self))
        }
    ]
    let service = AsyncBenchService()
}

/// The typed API's async twin.
final class AsyncBenchService: Sendable {
    @inline(never)
    func echo(v: Int, name: String) async -> Int { v &+ name.utf8.count }
}

/// A main-actor target (a screen, a view model): the same work, on the main actor.
final class Target_BenchMain: MainActorTarget {
    static let actions: [Action<Target_BenchMain>] = [
        Action("echo") { target, params in
            try target.service.echo(params)
        }
    ]
    let service = BenchService()
}

/// The same action with its two params declared: validated (and coerced) before it runs. Named
/// "Bench" like performCached's target (in a mediator of its own), so that only the contract differs.
final class Target_BenchDeclared: MediatorTarget {
    static let targetName = "Bench"
    static let actions: [Action<Target_BenchDeclared>] = [
        Action("echo", params: [.required("v", .integer), .required("name", .string)], result: .integer) { target, params in
            try target.service.echo(params)
        }
    ]
    let service = BenchService()
}

/// The typed key a caller module would declare, and its input.
struct BenchInput: Codable, Sendable {
    var v: Int
    var name: String
}

extension ActionKey where Input == BenchInput, Output == Int {
    static var benchEcho: Self { Self(target: "Bench", action: "echo") }
}

/// The same action registered against the key: the input arrives as is. Also named "Bench", in a
/// mediator of its own.
final class Target_BenchKeyed: MediatorTarget {
    static let targetName = "Bench"
    static let actions: [Action<Target_BenchKeyed>] = [
        Action(.benchEcho) { target, input in target.service.echo(v: input.v, name: input.name) }
    ]
    let service = BenchService()
}

/// The typed wrappers a caller module would ship.
extension Mediator {
    /// As the example extension modules write theirs: over the typed key.
    @inline(never)
    func benchEcho(v: Int, name: String) throws(MediatorError) -> Int {
        try callNow(.benchEcho, BenchInput(v: v, name: name))
    }

    /// The classic form, as CTMediator's categories are written: the names as text, the params
    /// as a dictionary built per call, the result cast.
    @inline(never)
    func benchEchoByName(v: Int, name: String) throws(MediatorError) -> Int {
        try callNow(target: "Bench", action: "echo", params: ["v": v, "name": name], as: Int.self)
    }
}

/// Keeps the optimizer from deleting work whose result is otherwise unused.
@_optimize(none)
func consume<T>(_ value: T) {}

/// A mediator with 5,000 targets of 5 actions each, registered one by one.
func registerFiveThousandTargets() -> Mediator {
    let fresh = Mediator()
    for target in 0..<5_000 {
        let actions: [Action<Mediator>] = (0..<5).map { (number: Int) -> Action<Mediator> in
            Action("a" + String(number)) { _, _ in number }
        }
        try? fresh.register(target: "T" + String(target), actions: actions)
    }
    return fresh
}

/// An interceptor that passes every call on unchanged (the cost of the chain itself).
struct PassThrough: Interceptor {
    func intercept(_ request: inout CallRequest) throws -> InterceptorDecision { .proceed }
}

/// An observer that does almost nothing with each record (the cost of observing itself).
struct CountingObserver: CallObserver {
    func callDidFinish(_ record: CallRecord) { consume(record.durationNanoseconds) }
}

/// One benchmark case: runs `iterations` operations and returns how many operations that was
/// (a registration case counts one operation per whole registration).
struct BenchCase {
    let name: String
    /// Iterations per round in a normal run; `--quick` divides it.
    let iterations: Int
    let workload: Workload
    /// When above 1, timing is per thread: the case runs on this many threads at once (synchronous
    /// cases only).
    let threads: Int
    /// The case measured round for round with this one in a normal run (a round of it, then a
    /// round of this one, and so on), so that the two medians share the machine's state.
    let sameRoundsAs: String?

    /// A synchronous case, run on the main thread (or on `threads` threads at once).
    init(name: String, iterations: Int, threads: Int = 1, sameRoundsAs: String? = nil, run: @escaping @Sendable (Int) -> Void) {
        self.name = name
        self.iterations = iterations
        self.workload = .sync(run)
        self.threads = threads
        self.sameRoundsAs = sameRoundsAs
    }

    private init(name: String, iterations: Int, workload: Workload, sameRoundsAs: String?) {
        self.name = name
        self.iterations = iterations
        self.workload = workload
        self.threads = 1
        self.sameRoundsAs = sameRoundsAs
    }

    /// A case that awaits, run in a task off the main actor.
    static func awaiting(name: String, iterations: Int, sameRoundsAs: String? = nil, _ body: @escaping @Sendable (Int) async -> Void) -> BenchCase {
        BenchCase(name: name, iterations: iterations, workload: .awaiting(body), sameRoundsAs: sameRoundsAs)
    }
}

/// The naive baseline: nested dictionaries of closures over plain dictionaries.
typealias NaiveAction = @Sendable ([String: any Sendable]) -> (any Sendable)?

/// The cases, their mediators built and their cached targets made. On the main actor (the main
/// thread), for the check that a main-actor action runs there without a hop.
@MainActor
func makeCases() async throws -> [BenchCase] {
    let service = BenchService()
    let params: Params = ["v": 1, "name": "abc"]
    let plainParams = params.values

    let mediator = Mediator()
    try mediator.register(Target_Bench.self) { _ in Target_Bench() }
    _ = try? await mediator.call(target: "Bench", action: "echo", params: params, shouldCacheTarget: true)  // warm the cache
    let uncached = Mediator()
    try uncached.register(Target_Bench.self) { _ in Target_Bench() }
    let handle = try mediator.handle(target: "Bench", action: "echo", shouldCacheTarget: true)

    // Async actions and main-actor targets, each in a mediator of its own (the mediator above stays
    // as it was before they existed). Their cached instances are made before timing starts.
    let asyncMediator = Mediator()
    try asyncMediator.register(Target_BenchAsync.self) { _ in Target_BenchAsync() }
    _ = try await asyncMediator.call(target: "BenchAsync", action: "echo", params: params, shouldCacheTarget: true)
    let mainActorMediator = Mediator()
    try mainActorMediator.register(Target_BenchMain.self) { _ in Target_BenchMain() }
    _ = try await mainActorMediator.call(target: "BenchMain", action: "echo", params: params, shouldCacheTarget: true)

    // Contracts, each in a mediator of its own: declared params, and a typed key.
    let declaredMediator = Mediator()
    try declaredMediator.register(Target_BenchDeclared.self) { _ in Target_BenchDeclared() }
    _ = try? await declaredMediator.call(target: "Bench", action: "echo", params: params, shouldCacheTarget: true)
    let keyedMediator = Mediator()
    try keyedMediator.register(Target_BenchKeyed.self) { _ in Target_BenchKeyed() }
    let typedHandle = try keyedMediator.handle(.benchEcho, shouldCacheTarget: true)

    // Each call a case times must succeed: a failed call takes another, cheaper path.
    try expectAnswer(try? await declaredMediator.call(target: "Bench", action: "echo", params: params, shouldCacheTarget: true), "validatedCached")
    try expectAnswer(try? await keyedMediator.call(.benchEcho, BenchInput(v: 1, name: "abc"), shouldCacheTarget: true), "typedKey")
    try expectAnswer(callSynchronously(typedHandle), "typedHandle")
    try expectAnswer(performSynchronously(mediator, target: "Bench", params: params), "performCached")
    try expectAnswer(try? await mediator.call(target: "Bench", action: "echo", params: params, shouldCacheTarget: true), "asyncPerformCached")
    try expectAnswer(try? await asyncMediator.call(target: "BenchAsync", action: "echo", params: params, shouldCacheTarget: true), "asyncAction")
    try expectAnswer(performSynchronously(mainActorMediator, target: "BenchMain", params: params), "mainActorOnMain")
    let hopped = await Task.detached { try? await mainActorMediator.call(target: "BenchMain", action: "echo", params: params, shouldCacheTarget: true) }.value
    try expectAnswer(hopped, "mainActorHop")

    // Interception, each in a mediator of its own like performCached's: one pass-through
    // interceptor, and one observer.
    let interceptedMediator = Mediator()
    try interceptedMediator.register(Target_Bench.self) { _ in Target_Bench() }
    interceptedMediator.addInterceptor(PassThrough())
    let observedMediator = Mediator()
    try observedMediator.register(Target_Bench.self) { _ in Target_Bench() }
    observedMediator.addObserver(CountingObserver())
    try expectAnswer(performSynchronously(interceptedMediator, target: "Bench", params: params), "interceptedCached")
    try expectAnswer(performSynchronously(observedMediator, target: "Bench", params: params), "observedCached")

    var naive: [String: [String: NaiveAction]] = [:]
    naive["Bench", default: [:]]["echo"] = { params in
        service.echo(v: params["v"] as! Int, name: params["name"] as! String)
    }
    let naiveTable = naive

    let url = "app://Bench/echo?v=1&name=abc"
    let url5 = url + "&a=1&b=2&c=3&d=4&e=5"
    // (In a closure: in async code the async overload of `open` would be chosen.)
    try expectAnswer({ mediator.open(url5) }(), "openURL5")

    let plain5 = try plainTarget(actions: 5)
    let plain500 = try plainTarget(actions: 500)
    try expectAnswer(performSynchronously(plain5, target: "Plain", action: "a2", params: params), "plainAmong5Actions")
    try expectAnswer(performSynchronously(plain500, target: "Plain", action: "a250", params: params), "plainAmong500Actions")

    // `mediate batch` lines, as the issue measured them.
    let batchTool = try makeBatchTool()
    let batchLine = "Echo echo a=1"
    let answers = await batchAnswers(batchTool, line: batchLine, count: 2)
    guard answers == [#"{"a":"1"}"#, #"{"a":"1"}"#] else { throw SetupError(message: "the batch of case batchLine answered \(answers)") }

    // The agent bridge: one tools/call through the protocol layer (no process, no pipe).
    let agentServer = try makeAgentServer()
    let agentAnswer = await agentServer.handle(agentCallMessage)
    guard agentAnswer == #"{"id":1,"jsonrpc":"2.0","result":{"content":[{"text":"{\"a\":\"1\"}","type":"text"}],"structuredContent":{"a":"1"}}}"# else {
        throw SetupError(message: "the tools/call of case mcpCall answered \(agentAnswer ?? "nothing")")
    }

    // Failed calls through the throwing path, whose error lists names and suggests one: the work
    // must not grow with the length of the name a caller sends.
    let twoHundred = Mediator()
    for index in 0..<200 { try twoHundred.register(target: "Target" + String(index), actions: []) }
    // Deep-link routes: 10 routes here; the 10,000 of `routes10000` are built on first use.
    let routes10 = try makeRouteMediator(count: 10)

    let typoURL = "app://Targt1/go"
    let hugeNameURL = "app://" + String(repeating: "Target1", count: 3_000) + "/go"
    let crowdedURL = "app://" + String(repeating: "u", count: 64) + "/go"

    // Built in parts: one array literal of every case took the type checker past its limit.
    var cases: [BenchCase] = [
        BenchCase(name: "direct", iterations: 1_000_000) { count in
            for index in 0..<count { consume(service.echo(v: index, name: "abc")) }
        },
        BenchCase(name: "naiveDictionary", iterations: 200_000) { count in
            for _ in 0..<count { consume(naiveTable["Bench"]?["echo"]?(plainParams)) }
        },
        BenchCase(name: "performCached", iterations: 200_000) { count in
            for _ in 0..<count { consume(mediator.perform(target: "Bench", action: "echo", params: params, shouldCacheTarget: true)) }
        },
        // performCached's call with one interceptor that passes every call on, and with one observer.
        BenchCase(name: "interceptedCached", iterations: 200_000) { count in
            for _ in 0..<count { consume(interceptedMediator.perform(target: "Bench", action: "echo", params: params, shouldCacheTarget: true)) }
        },
        BenchCase(name: "observedCached", iterations: 200_000) { count in
            for _ in 0..<count { consume(observedMediator.perform(target: "Bench", action: "echo", params: params, shouldCacheTarget: true)) }
        },
        BenchCase(name: "performUncached", iterations: 100_000) { count in
            for _ in 0..<count { consume(uncached.perform(target: "Bench", action: "echo", params: params)) }
        },
        // The wrapper over the typed key, against the provider registered against it.
        BenchCase(name: "typedWrapper", iterations: 200_000) { count in
            for index in 0..<count { consume(try? keyedMediator.benchEcho(v: index, name: "abc")) }
        },
        BenchCase(name: "classicWrapper", iterations: 100_000) { count in
            for index in 0..<count { consume(try? mediator.benchEchoByName(v: index, name: "abc")) }
        },
        // A declared two-param action through perform: the params are checked before it runs.
        BenchCase(name: "validatedCached", iterations: 200_000) { count in
            for _ in 0..<count { consume(declaredMediator.perform(target: "Bench", action: "echo", params: params, shouldCacheTarget: true)) }
        },
        // A typed-key call in-process: the input value is passed as is, the output returned as is.
        BenchCase(name: "typedKey", iterations: 200_000) { count in
            for index in 0..<count { consume(try? keyedMediator.callNow(.benchEcho, BenchInput(v: index, name: "abc"), shouldCacheTarget: true)) }
        },
        // The typed key resolved once: the input passed to the body as is, no params, no lookup.
        BenchCase(name: "typedHandle", iterations: 1_000_000) { count in
            for index in 0..<count { consume(try? typedHandle.callNow(BenchInput(v: index, name: "abc"))) }
        },
        BenchCase(name: "resolvedHandle", iterations: 200_000) { count in
            for _ in 0..<count { consume(try? handle.callNow(params)) }
        },
        BenchCase(name: "openURL", iterations: 100_000) { count in
            for _ in 0..<count { consume(mediator.open(url)) }
        },
        BenchCase(name: "foundationURLComponents", iterations: 20_000) { count in
            for _ in 0..<count { parseWithURLComponents(url) }
        },
        // The same two with 5 more query items (the action ignores them): the cost of a query item
        // is the difference divided by 5.
        BenchCase(name: "openURL5", iterations: 100_000) { count in
            for _ in 0..<count { consume(mediator.open(url5)) }
        },
        BenchCase(name: "foundationURLComponents5", iterations: 20_000) { count in
            for _ in 0..<count { parseWithURLComponents(url5) }
        },
        // Route matching without the call: `canOpen` parses routeURL (`myapp://user/42/posts/7`),
        // walks the routes' trie (the host `user` as a literal, `42` as an `int`, `posts`, `7`),
        // builds the routed call's params (the two captures, the query's none, the @-keys) and
        // finds the action registered and remote; it runs nothing. Among 10 routes, then among
        // 10,000 (budget: at most 1.2x the 10).
        BenchCase(name: "routeMatch10", iterations: 200_000) { count in
            for _ in 0..<count { consume(routes10.canOpen(routeURL)) }
        },
        BenchCase(name: "routeMatch10000", iterations: 200_000) { count in
            let mediator = routes10000
            for _ in 0..<count { consume(mediator.canOpen(routeURL)) }
        },
        // The matcher alone, as routing-kit's TrieRouter lookup is measured: the path already
        // split (`user`, `42`, `posts`, `7`), the trie walked, the two captures returned.
        BenchCase(name: "routeTrieMatch10", iterations: 200_000) { count in
            for _ in 0..<count { consume(routes10.matchRoute(scheme: "myapp", segments: routeSegments)?.captures) }
        },
        BenchCase(name: "routeTrieMatch10000", iterations: 200_000) { count in
            let mediator = routes10000
            for _ in 0..<count { consume(mediator.matchRoute(scheme: "myapp", segments: routeSegments)?.captures) }
        },
        // The full routed call: `open(routeURL)` matches as above, then dispatches as a URL call
        // (URL rules, the action looked up and called with the params); the action reads `id` and
        // `post` as Int (from their text) and returns their sum.
        BenchCase(name: "routeOpen10", iterations: 100_000) { count in
            for _ in 0..<count { consume(routes10.open(routeURL)) }
        },
        BenchCase(name: "routeOpen10000", iterations: 100_000) { count in
            let mediator = routes10000
            for _ in 0..<count { consume(mediator.open(routeURL)) }
        },
        // Flat in the registry's size: performCached's call among 100,000 more targets, and a
        // plain target's action (the middle one) among 5 and among 500.
    ]
    cases += [
        BenchCase(name: "performAmong100000Targets", iterations: 200_000) { count in
            let mediator = benchAmong100000
            for _ in 0..<count { consume(mediator.perform(target: "Bench", action: "echo", params: params, shouldCacheTarget: true)) }
        },
        BenchCase(name: "plainAmong5Actions", iterations: 200_000) { count in
            for _ in 0..<count { consume(plain5.perform(target: "Plain", action: "a2", params: params)) }
        },
        BenchCase(name: "plainAmong500Actions", iterations: 200_000) { count in
            for _ in 0..<count { consume(plain500.perform(target: "Plain", action: "a250", params: params)) }
        },
        BenchCase(name: "notFound", iterations: 200_000) { count in
            for _ in 0..<count { consume(mediator.perform(target: "Bench", action: "missing", params: params)) }
        },
        BenchCase(name: "missTypo", iterations: 5_000) { count in
            for _ in 0..<count { consume(try? twoHundred.callNow(url: typoURL)) }
        },
        BenchCase(name: "missHugeName", iterations: 500) { count in
            for _ in 0..<count { consume(try? twoHundred.callNow(url: hugeNameURL)) }
        },
        BenchCase(name: "missAmong100000", iterations: 20) { count in
            let mediator = crowded
            for _ in 0..<count { consume(try? mediator.callNow(url: crowdedURL)) }
        },
        BenchCase(name: "register5000x5", iterations: 3) { count in
            for _ in 0..<count { consume(registerFiveThousandTargets()) }
        },
        BenchCase(name: "naiveRegister5000x5", iterations: 3) { count in
            for _ in 0..<count {
                var table: [String: [String: NaiveAction]] = [:]
                for target in 0..<5_000 {
                    var actions: [String: NaiveAction] = [:]
                    for number in 0..<5 { actions["a" + String(number)] = { _ in number } }
                    table["T" + String(target)] = actions
                }
                consume(table)
            }
        },
        // parallelCached's loop on one thread; a normal run measures it in the same rounds as
        // parallelCached (one round of each, in turn), so their ratio comes from one stretch of time.
        BenchCase(name: "parallelBaseline", iterations: 200_000) { count in
            for _ in 0..<count { consume(mediator.perform(target: "Bench", action: "echo", params: params, shouldCacheTarget: true)) }
        },
        BenchCase(name: "parallelCached", iterations: 200_000, threads: 2, sameRoundsAs: "parallelBaseline") { count in
            for _ in 0..<count { consume(mediator.perform(target: "Bench", action: "echo", params: params, shouldCacheTarget: true)) }
        },
        // The async entry point on performCached's synchronous action: the sync pipeline runs
        // inside it and ends there, nothing suspends.
        BenchCase.awaiting(name: "asyncPerformCached", iterations: 200_000) { count in
            for _ in 0..<count { consume(try? await mediator.call(target: "Bench", action: "echo", params: params, shouldCacheTarget: true)) }
        },
        // An async action (cached target) through the async entry point: the call stops before the
        // action, then goes on awaiting it (it finishes without suspending).
        BenchCase.awaiting(name: "asyncAction", iterations: 200_000) { count in
            for _ in 0..<count { consume(try? await asyncMediator.call(target: "BenchAsync", action: "echo", params: params, shouldCacheTarget: true)) }
        },
        // The same main-actor action called synchronously on the main thread: no hop, it runs at once.
        BenchCase(name: "mainActorOnMain", iterations: 200_000) { count in
            for _ in 0..<count { consume(mainActorMediator.perform(target: "BenchMain", action: "echo", params: params, shouldCacheTarget: true)) }
        },
        // A main-actor target's action called from a task off the main actor: every call hops to
        // the main actor (served by the main thread) and back.
        BenchCase.awaiting(name: "mainActorHop", iterations: 20_000) { count in
            for _ in 0..<count { consume(try? await mainActorMediator.call(target: "BenchMain", action: "echo", params: params, shouldCacheTarget: true)) }
        },
        // `mediate batch`, per line, without the process: one request per line, its result written
        // as JSON (to nowhere), as text and with --json.
        BenchCase.awaiting(name: "batchLine", iterations: 20_000) { count in
            consume(await runBatch(batchTool, ["batch"], line: batchLine, count: count))
        },
        BenchCase.awaiting(name: "batchLineJSON", iterations: 20_000) { count in
            consume(await runBatch(batchTool, ["batch", "--json"], line: batchLine, count: count))
        },
        // The agent bridge's `tools/call`: the request parsed, the call made, the response written.
        // Round for round with batchLine, its baseline: measured apart, the two medians were taken
        // minutes apart and their ratio moved from 1.3 to 2.8 from one run to the next.
        BenchCase.awaiting(name: "mcpCall", iterations: 20_000, sameRoundsAs: "batchLine") { count in
            for _ in 0..<count { consume(await agentServer.handle(agentCallMessage)) }
        },
    ]
    return cases
}

/// What foundationURLComponents does per URL: Foundation's parse, and the query as a dictionary.
func parseWithURLComponents(_ url: String) {
    guard let components = URLComponents(string: url) else { return }
    var query: [String: String] = [:]
    for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
    consume((components.host, components.path, query))
}

/// The synchronous `perform` of a cached target's `echo` (in async code the async overload wins).
func performSynchronously(_ mediator: Mediator, target: String, action: String = "echo", params: Params) -> (any Sendable)? {
    mediator.perform(target: target, action: action, params: params, shouldCacheTarget: true)
}

/// The synchronous call of a typed handle (in async code the async overload wins).
func callSynchronously(_ handle: ActionHandle<BenchInput, Int>) -> Int? {
    try? handle.callNow(BenchInput(v: 1, name: "abc"))
}

/// Throws unless `value` is `answer`: by default the one every echo case's call gives
/// (1 + "abc".utf8.count).
func expectAnswer(_ value: (any Sendable)?, answer: Int = 4, _ caseName: String) throws(SetupError) {
    guard value as? Int == answer else {
        throw SetupError(message: "the call of case \(caseName) did not answer \(answer): \(String(describing: value))")
    }
}

/// A case whose call does not work as it must.
struct SetupError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// The worst registry for suggestions: 100,000 names, all of the length a failed call asks for
/// (64). A global, so it is built on first use, by its case only.
let crowded: Mediator = {
    let mediator = Mediator()
    for index in 0..<100_000 {
        let number = String(index)
        try? mediator.register(target: String(repeating: "t", count: 64 - number.count) + number, actions: [])
    }
    return mediator
}()
