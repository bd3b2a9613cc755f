import Foundation  // RunLoop, for the main thread to serve the main actor
import Mediator
import MediatorCommandLine

// mediator-bench: the cost of each way of calling an action, against baselines in the same run.
//
//   swift run -c release mediator-bench                 a table of medians and ratios
//   swift run -c release mediator-bench --json          {"cases":[{"name":...,"nsPerOp":...}]}
//   mediator-bench --case openURL --iterations 100000   one case, fixed count (for callgrind)
//   mediator-bench --quick                              every case briefly (a smoke test for CI)
//   mediator-bench --memory                             resident memory of 5,000 targets x 5 actions
//   mediator-bench --flat-memory                        a million calls per entry point leave memory flat
//   mediator-bench --route-load TABLE                   load a route table: time, memory kept, peak
struct Measurement {
    let name: String
    let median: Double
    let minimum: Double
    let maximum: Double
    let iterations: Int
}

struct Options {
    var json = false
    var quick = false
    var only: String?
    var fixedIterations: Int?
    var memory = false
    var flatMemory = false
    var routeLoad: RouteLoadTable?

    init(_ arguments: [String]) throws(UsageError) {
        var words = arguments.makeIterator()
        while let argument = words.next() {
            switch argument {
            case "--json": json = true
            case "--quick": quick = true
            case "--memory": memory = true
            case "--flat-memory": flatMemory = true
            case "--route-load":
                guard let name = words.next() else { throw UsageError(message: "--route-load needs a table name") }
                guard let table = RouteLoadTable(rawValue: name) else {
                    throw UsageError(
                        message: "--route-load: no table \"\(name)\"; tables: \(RouteLoadTable.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                routeLoad = table
            case "--case", "--iterations":
                guard let value = words.next() else { throw UsageError(message: "\(argument) needs a value") }
                if argument == "--case" {
                    only = value
                } else {
                    guard let count = Int(value), count > 0 else { throw UsageError(message: "--iterations needs a positive integer, got \"\(value)\"") }
                    fixedIterations = count
                }
            default:
                throw UsageError(
                    message:
                        "unknown argument \"\(argument)\"; usage: mediator-bench [--json] [--quick] [--case NAME] [--iterations N] [--memory] [--flat-memory] [--route-load TABLE]"
                )
            }
        }
    }
}

struct UsageError: Error {
    let message: String
}

/// Nanoseconds per operation of one round of `iterations` operations (per thread for threaded cases:
/// every thread runs the same count and the slowest thread's time per call is reported). On the
/// main actor, so synchronous cases run on the main thread; awaiting cases run off it.
@MainActor
func round(_ benchCase: BenchCase, iterations: Int) async -> Double {
    let run: @Sendable (Int) -> Void
    switch benchCase.workload {
    case .awaiting(let body):
        return await elapsedNanoseconds { await body(iterations) } / Double(iterations)
    case .sync(let body):
        run = body
    }
    if benchCase.threads == 1 {
        return elapsedNanoseconds { run(iterations) } / Double(iterations)
    }
    let times = ReadWriteLock<[Double]>([])
    let ready = ReadWriteLock(0)
    let threadCount = benchCase.threads
    let threads = (0..<threadCount).map { _ in
        let started = startThread {
            // Start together: each thread spins until all have arrived (before its clock starts).
            ready.withLock { $0 += 1 }
            while ready.withReadLock({ $0 }) < threadCount {}
            let elapsed = elapsedNanoseconds { run(iterations) }
            times.withLock { $0.append(elapsed / Double(iterations)) }
        }
        guard let started else { fatalError("mediator-bench: no thread could be started for \(benchCase.name)") }
        return started
    }
    for thread in threads { thread.join() }
    return times.withLock { $0.max() ?? 0 }
}

@MainActor
func measure(_ cases: [BenchCase], options: Options) async -> [Measurement] {
    // A case that another measures in its own rounds is measured there (in a normal run).
    let paired = options.only == nil ? Set(cases.compactMap(\.sameRoundsAs)) : []
    var results: [Measurement] = []
    for benchCase in cases where (options.only == nil || benchCase.name == options.only) && !paired.contains(benchCase.name) {
        let iterations = options.fixedIterations ?? (options.quick ? max(1, benchCase.iterations / 100) : benchCase.iterations)
        let rounds = options.fixedIterations != nil ? 1 : (options.quick ? 2 : 11)
        // Timed runs only: a fixed count (for callgrind) measures the one case asked for.
        let partner = options.fixedIterations == nil ? cases.first { $0.name == benchCase.sameRoundsAs } : nil
        let group = (partner.map { [$0] } ?? []) + [benchCase]
        if options.fixedIterations == nil {
            for member in group { _ = await round(member, iterations: max(1, iterations / 10)) }  // warm-up
        }
        var samples = Array(repeating: [Double](), count: group.count)
        for _ in 0..<rounds {
            for (index, member) in group.enumerated() { samples[index].append(await round(member, iterations: iterations)) }
        }
        for (member, memberSamples) in zip(group, samples) {
            let sorted = memberSamples.sorted()
            results.append(
                Measurement(
                    name: member.name, median: sorted[sorted.count / 2], minimum: sorted[0], maximum: sorted[sorted.count - 1], iterations: iterations))
        }
    }
    return results
}

/// Each case's baseline for the ratio column.
let baselines: [String: String] = [
    "naiveDictionary": "direct", "performCached": "naiveDictionary", "performUncached": "naiveDictionary",
    "typedWrapper": "performCached", "classicWrapper": "performCached", "resolvedHandle": "direct", "openURL": "foundationURLComponents",
    "openURL5": "openURL", "foundationURLComponents5": "foundationURLComponents", "batchLine": "asyncPerformCached",
    "performAmong100000Targets": "performCached", "plainAmong500Actions": "plainAmong5Actions", "batchLineJSON": "batchLine", "mcpCall": "batchLine",
    "notFound": "naiveDictionary", "register5000x5": "naiveRegister5000x5", "parallelCached": "parallelBaseline",
    "parallelBaseline": "performCached", "typedHandle": "direct",
    "missHugeName": "missTypo", "missAmong100000": "missTypo", "asyncPerformCached": "performCached", "asyncAction": "performCached",
    "mainActorHop": "performCached", "mainActorOnMain": "performCached", "validatedCached": "performCached", "typedKey": "performCached",
    "interceptedCached": "performCached", "observedCached": "performCached",
    "routeMatch10000": "routeMatch10", "routeTrieMatch10000": "routeTrieMatch10", "routeOpen10": "openURL", "routeOpen10000": "routeOpen10",
]

func printTable(_ results: [Measurement]) {
    func pad(_ text: String, _ width: Int) -> String { text.count >= width ? text : text + String(repeating: " ", count: width - text.count) }
    func short(_ value: Double) -> String { String((value * 100).rounded() / 100) }
    print(pad("case", 26) + pad("median ns/op", 15) + pad("min", 12) + pad("max", 12) + "ratio (median / baseline median)")
    for item in results {
        var ratio = ""
        if let baseline = baselines[item.name], let base = results.first(where: { $0.name == baseline })?.median, base > 0 {
            ratio = short(item.median / base) + "x " + baseline
        }
        print(pad(item.name, 26) + pad(short(item.median), 15) + pad(short(item.minimum), 12) + pad(short(item.maximum), 12) + ratio)
    }
}

func printJSON(_ results: [Measurement]) {
    let items = results.map { item in
        "{\"name\":\"\(item.name)\",\"nsPerOp\":\(item.median),\"minNsPerOp\":\(item.minimum),\"maxNsPerOp\":\(item.maximum),\"iterations\":\(item.iterations)}"
    }
    print("{\"cases\":[\(items.joined(separator: ","))]}")
}

/// The program, on the main actor (the main thread): synchronous cases run here as in any app's
/// main-thread code; awaiting cases run off it, and while they await, the main thread serves the
/// main actor (see the end of this file).
@MainActor
func main() async -> Int32 {
    let options: Options
    do {
        options = try Options(Array(CommandLine.arguments.dropFirst()))
    } catch {
        print("mediator-bench: error: \(error.message)")
        return 64
    }
    let cases: [BenchCase]
    do {
        cases = try await makeCases()
    } catch {
        print("mediator-bench: error: \(error)")
        return 70
    }
    if let only = options.only, !cases.contains(where: { $0.name == only }) {
        print("mediator-bench: error: no case \"\(only)\"; cases: \(cases.map(\.name).joined(separator: ", "))")
        return 64
    }
    if options.memory {
        reportMemory()
        return 0
    }
    if options.flatMemory {
        return await checkFlatMemory()
    }
    if let table = options.routeLoad {
        return reportRouteLoad(table)
    }
    let results = await measure(cases, options: options)
    if options.json { printJSON(results) } else { printTable(results) }
    return 0
}

/// Resident memory in bytes (Linux: /proc/self/statm), or nil where unavailable.
func residentBytes() -> Int? {
    guard let file = fopen("/proc/self/statm", "r") else { return nil }
    defer { fclose(file) }
    var size = 0
    var resident = 0
    guard
        withUnsafeMutablePointer(
            to: &size,
            { sizePointer in
                withUnsafeMutablePointer(to: &resident) { residentPointer in
                    withVaList([sizePointer, residentPointer]) { vfscanf(file, "%ld %ld", $0) }
                }
            }) == 2
    else { return nil }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The resident memory that 5,000 targets x 5 actions add to a process.
func reportMemory() {
    guard let before = residentBytes() else {
        print("resident memory: not available on this system")
        return
    }
    let mediator = Mediator()
    for target in 0..<5_000 {
        let actions = (0..<5).map { (number: Int) -> Action<Mediator> in Action("a" + String(number)) { _, _ in number } }
        try? mediator.register(target: "T" + String(target), actions: actions)
    }
    let after = residentBytes() ?? before
    consume(mediator)
    let added = after - before
    print("resident memory of 25,000 registered actions (5,000 targets x 5): \(added / 1024) KiB, \(added / 25_000) bytes per action")
}

// The program runs in a task on the main actor, and the main thread serves the main actor with its
// run loop, as an app's main thread does: main-actor code (a main-actor target's actions, the
// synchronous cases) runs on the main thread, and a call from another task hops there and back.
// An async top level would not do: on Linux, once the main task waits, the main thread leaves for
// `dispatch_main` and the main actor goes on on a pool thread (where the library's main-thread
// check fails), and valgrind cannot run a process whose main thread has left.
Task { @MainActor in exit(await main()) }
RunLoop.main.run()
