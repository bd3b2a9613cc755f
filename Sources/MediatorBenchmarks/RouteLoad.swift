import Mediator

// Loading a route table: the time `addRoutes(json:)` and the first match (which builds the tries)
// take, the memory the routes keep, and the peak on the way. One table per process, so that the
// peak (`ru_maxrss`, which only grows) is this table's: `mediator-bench --route-load NAME`.

/// The route tables `--route-load` knows, by name: the JSON text and what loading it must do.
enum RouteLoadTable: String, CaseIterable {
    /// 100,000 plain routes (`/1f/items/:id`), the most a JSON table may hold: accepted.
    case plain
    /// 99,999 routes of four segments (`/1f/items/:id/:tab`, 5 units each): as many as the size
    /// limit admits. Accepted.
    case plainAtLimit
    /// 100,000 routes `/a/:id`, each for a scheme of its own (`s1f`): a trie per scheme, 5 units
    /// each with the scheme's. Accepted, at the limit.
    case manySchemes
    /// 100,000 routes of six optional groups each (`/1f(/a)(/b)(/c)(/d)(/e)(/f)`, 64 variants):
    /// inside the per-table limits, far over the size limit: refused, before most are expanded.
    case grouped
    /// As many six-group routes as the size limit admits (256 segments each): accepted.
    case groupedAtLimit
    /// As many routes of 64 distinct literal segments as the size limit admits: the most trie
    /// nodes a mediator's routes can make. Accepted.
    case longAtLimit

    /// The table's JSON text.
    var json: String {
        var text = "["
        func append(_ number: Int, _ pattern: String, scheme: String? = nil) {
            if number > 0 { text += "," }
            text += "{\"pattern\":\"" + pattern + "\",\"target\":\"Echo\",\"action\":\"echo\""
            if let scheme { text += ",\"scheme\":\"" + scheme + "\"" }
            text += "}"
        }
        switch self {
        case .plain:
            for number in 0..<100_000 { append(number, "/" + String(number, radix: 16) + "/items/:id") }
        case .plainAtLimit:
            for number in 0..<((500_000 - 2) / 5) { append(number, "/" + String(number, radix: 16) + "/items/:id/:tab") }
        case .manySchemes:
            for number in 0..<100_000 { append(number, "/a/:id", scheme: "s" + String(number, radix: 16)) }
        case .grouped:
            for number in 0..<100_000 { append(number, "/" + String(number, radix: 16) + "(/a)(/b)(/c)(/d)(/e)(/f)") }
        case .groupedAtLimit:
            for number in 0..<((500_000 - 2) / 257) { append(number, "/" + String(number, radix: 16) + "(/a)(/b)(/c)(/d)(/e)(/f)") }
        case .longAtLimit:
            // The route, 64 segments and at most 512 bytes: 81 units of room.
            for number in 0..<((500_000 - 2) / 81) {
                let prefix = String(number, radix: 16)
                append(number, (0..<64).map { "/" + prefix + "s" + String($0) }.joined())
            }
        }
        return text + "]"
    }

    /// A URL that the table routes (for the tables that are accepted).
    var url: String {
        switch self {
        case .plain: return "app://1f/items/3"
        case .plainAtLimit: return "app://1f/items/3/posts"
        case .manySchemes: return "s1f://a/3"
        case .grouped, .groupedAtLimit: return "app://1f/a/c/f"
        case .longAtLimit: return "app://" + (0..<64).map { "1fs" + String($0) }.joined(separator: "/")
        }
    }

    /// Whether adding the table must succeed.
    var accepted: Bool { self != .grouped }
}

#if canImport(Glibc)
/// glibc's `malloc_trim`, which Swift's Glibc module does not import (`malloc.h` is not in it):
/// hands the pages of freed memory back to the system, so that resident memory counts what is
/// still allocated rather than what the allocator keeps for later. `int malloc_trim(size_t)`: an
/// integer argument and result, called the same way from Swift as from C.
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> Int32
#endif

/// The largest resident memory of the process so far, in bytes.
private func peakResidentBytes() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)  // an imported enum in Glibc
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    #if canImport(Darwin)
    return Int(usage.ru_maxrss)  // bytes on Darwin
    #else
    return Int(usage.ru_maxrss) * 1024  // KiB elsewhere
    #endif
}

/// Loads `table` into a new mediator and prints the time, the memory kept and the peak; 1 when
/// the table was not treated as it must be (accepted or refused), else 0.
func reportRouteLoad(_ table: RouteLoadTable) -> Int32 {
    let json = table.json
    let mediator = Mediator()
    try? mediator.register(target: "Echo", actions: [Action("echo") { _, params in params }])
    let before = residentBytes() ?? 0
    let peakBefore = peakResidentBytes()
    let start = monotonicNanoseconds()
    var outcome = "accepted"
    do {
        try mediator.addRoutes(json: json)
        // The first match builds the tries.
        guard mediator.canOpen(table.url) else {
            print("route load \(table.rawValue): \(table.url) does not match")
            return 1
        }
    } catch {
        outcome = "refused (\(error.reason.prefix(120))...)"
    }
    let seconds = (monotonicNanoseconds() - start) / 1e9
    let kept = (residentBytes() ?? before) - before
    #if canImport(Glibc)
    _ = mallocTrim(0)
    let live: Int? = (residentBytes() ?? before) - before
    #else
    let live: Int? = nil
    #endif
    let peak = peakResidentBytes() - peakBefore
    // Counted after the memory is read: the listing allocates.
    let count = mediator.routes.count
    consume(mediator)
    var perRoute = ""
    if count > 0 {
        perRoute = ", \(kept / count) bytes per route"
        if let live { perRoute += "; \(live / 1_048_576) MiB, \(live / count) bytes per route once freed memory is returned" }
    }
    print(
        "route load \(table.rawValue): \(outcome), \(count) routes, \(Int(seconds * 1000)) ms, kept \(kept / 1_048_576) MiB\(perRoute), peak +\(peak / 1_048_576) MiB (process peak \(peakResidentBytes() / 1_048_576) MiB; JSON \(json.utf8.count / 1024) KiB)"
    )
    return (outcome == "accepted") == table.accepted ? 0 : 1
}
