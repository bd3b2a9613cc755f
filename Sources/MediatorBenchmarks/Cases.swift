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
}

/// The provider's target.
final class Target_Bench: MediatorTarget {
    static let actions: [Action<Target_Bench>] = [
        Action("echo") { target, params in
            target.service.echo(v: try params.value("v", as: Int.self), name: try params.value("name", as: String.self))
        }
    ]
    let service = BenchService()
}

/// The typed wrapper a caller module would ship.
extension Mediator {
    @inline(never)
    func benchEcho(v: Int, name: String) throws(MediatorError) -> Int {
        try call(target: "Bench", action: "echo", params: ["v": v, "name": name], as: Int.self)
    }
}

/// Keeps the optimizer from deleting work whose result is otherwise unused.
@_optimize(none)
func consume<T>(_ value: T) {}

/// One benchmark case: runs `iterations` operations and returns how many operations that was
/// (a registration case counts one operation per whole registration).
struct BenchCase {
    let name: String
    /// Iterations per round in a normal run; `--quick` divides it.
    let iterations: Int
    let run: @Sendable (Int) -> Void
    /// When set, timing is per thread: the case runs on this many threads at once.
    var threads = 1
}

/// The naive baseline: nested dictionaries of closures over plain dictionaries.
typealias NaiveAction = @Sendable ([String: any Sendable]) -> (any Sendable)?

func makeCases() throws -> [BenchCase] {
    let service = BenchService()
    let params: Params = ["v": 1, "name": "abc"]
    let plainParams = params.values

    let mediator = Mediator()
    try mediator.register(Target_Bench.self) { _ in Target_Bench() }
    _ = mediator.perform(target: "Bench", action: "echo", params: params, shouldCacheTarget: true)  // warm the cache
    let uncached = Mediator()
    try uncached.register(Target_Bench.self) { _ in Target_Bench() }
    let handle = try mediator.handle(target: "Bench", action: "echo", shouldCacheTarget: true)

    var naive: [String: [String: NaiveAction]] = [:]
    naive["Bench", default: [:]]["echo"] = { params in
        service.echo(v: params["v"] as! Int, name: params["name"] as! String)
    }
    let naiveTable = naive

    let url = "app://Bench/echo?v=1&name=abc"

    // Failed calls through the throwing path, whose error lists names and suggests one: the work
    // must not grow with the length of the name a caller sends.
    let twoHundred = Mediator()
    for index in 0..<200 { try twoHundred.register(target: "Target" + String(index), actions: []) }
    let typoURL = "app://Targt1/go"
    let hugeNameURL = "app://" + String(repeating: "Target1", count: 3_000) + "/go"
    let crowdedURL = "app://" + String(repeating: "u", count: 64) + "/go"

    return [
        BenchCase(name: "direct", iterations: 1_000_000) { count in
            for index in 0..<count { consume(service.echo(v: index, name: "abc")) }
        },
        BenchCase(name: "naiveDictionary", iterations: 200_000) { count in
            for _ in 0..<count { consume(naiveTable["Bench"]?["echo"]?(plainParams)) }
        },
        BenchCase(name: "performCached", iterations: 200_000) { count in
            for _ in 0..<count { consume(mediator.perform(target: "Bench", action: "echo", params: params, shouldCacheTarget: true)) }
        },
        BenchCase(name: "performUncached", iterations: 100_000) { count in
            for _ in 0..<count { consume(uncached.perform(target: "Bench", action: "echo", params: params)) }
        },
        BenchCase(name: "typedWrapper", iterations: 100_000) { count in
            for index in 0..<count { consume(try? mediator.benchEcho(v: index, name: "abc")) }
        },
        BenchCase(name: "resolvedHandle", iterations: 200_000) { count in
            for _ in 0..<count { consume(handle.perform(params)) }
        },
        BenchCase(name: "openURL", iterations: 100_000) { count in
            for _ in 0..<count { consume(mediator.open(url)) }
        },
        BenchCase(name: "foundationURLComponents", iterations: 20_000) { count in
            for _ in 0..<count {
                guard let components = URLComponents(string: url) else { continue }
                var query: [String: String] = [:]
                for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
                consume((components.host, components.path, query))
            }
        },
        BenchCase(name: "notFound", iterations: 200_000) { count in
            for _ in 0..<count { consume(mediator.perform(target: "Bench", action: "missing", params: params)) }
        },
        BenchCase(name: "missTypo", iterations: 5_000) { count in
            for _ in 0..<count { consume(try? twoHundred.call(url: typoURL)) }
        },
        BenchCase(name: "missHugeName", iterations: 500) { count in
            for _ in 0..<count { consume(try? twoHundred.call(url: hugeNameURL)) }
        },
        BenchCase(name: "missAmong100000", iterations: 20) { count in
            let mediator = crowded
            for _ in 0..<count { consume(try? mediator.call(url: crowdedURL)) }
        },
        BenchCase(name: "register5000x5", iterations: 3) { count in
            for _ in 0..<count {
                let fresh = Mediator()
                for target in 0..<5_000 {
                    let actions = (0..<5).map { (number: Int) -> Action<Mediator> in
                        let name = "a" + String(number)
                        return Action(name) { _, _ in number }
                    }
                    try? fresh.register(target: "T" + String(target), actions: actions)
                }
                consume(fresh)
            }
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
        BenchCase(
            name: "parallelCached", iterations: 200_000,
            run: { count in
                for _ in 0..<count { consume(mediator.perform(target: "Bench", action: "echo", params: params, shouldCacheTarget: true)) }
            }, threads: 2),
    ]
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
