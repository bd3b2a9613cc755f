import Mediator
import TestSupport
import Testing

// Fixtures of the interception suites: interceptors and observers built from closures that write
// to one shared log, and a small world of targets whose runs are counted.

/// What interceptors and observers saw, in order, shared by the threads of a call.
final class InterceptionLog: Sendable {
    private let state = ReadWriteLock<(events: [String], requests: [CallRequest], records: [CallRecord])>(([], [], []))

    init() {}

    func note(_ event: String) { state.withLock { $0.events.append(event) } }
    func saw(_ request: CallRequest) { state.withLock { $0.requests.append(request) } }
    func finished(_ record: CallRecord) { state.withLock { $0.records.append(record) } }

    /// `Name intercept Target/action` and `Name finish Target/action` lines, in the order they happened.
    var events: [String] { state.withReadLock { $0.events } }
    /// The requests interceptors saw (as they arrived, before their own change).
    var requests: [CallRequest] { state.withReadLock { $0.requests } }
    /// The records interceptors and observers were given.
    var records: [CallRecord] { state.withReadLock { $0.records } }
}

/// An interceptor that logs what it sees and decides with a closure (by default: proceed).
struct Probe: Interceptor, CallObserver {
    let name: String
    let log: InterceptionLog
    let decide: @Sendable (inout CallRequest) throws -> InterceptorDecision

    init(_ name: String, _ log: InterceptionLog, decide: @escaping @Sendable (inout CallRequest) throws -> InterceptorDecision = { _ in .proceed }) {
        self.name = name
        self.log = log
        self.decide = decide
    }

    func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
        log.note("\(name) intercept \(request.name)")
        log.saw(request)
        return try decide(&request)
    }

    func callDidFinish(_ record: CallRecord) {
        log.note("\(name) finish \(record.name)")
        log.finished(record)
    }
}

/// An observer that logs the records it is given.
struct Watcher: CallObserver {
    let name: String
    let log: InterceptionLog

    init(_ name: String, _ log: InterceptionLog) {
        self.name = name
        self.log = log
    }

    func callDidFinish(_ record: CallRecord) {
        log.note("\(name) observe \(record.name)")
        log.finished(record)
    }
}

/// An interceptor with neither a name nor a `callDidFinish` of its own (the protocol's defaults).
struct PlainGate: Interceptor {
    func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
        throw FixtureError(message: "closed")
    }
}

/// Installs an observing interceptor `A` that sets `key` to `value` in every request, then an
/// observer `W`; returns the log both write to.
func observedWithParam(_ mediator: Mediator, setting key: String, to value: some Sendable) -> InterceptionLog {
    let log = InterceptionLog()
    mediator.addInterceptor(
        Probe("A", log) { request in
            request.params[key] = value
            return .proceed
        })
    mediator.addObserver(Watcher("W", log))
    return log
}

/// A small world: targets whose every run is counted, by `Target/action`.
final class InterceptionWorld: Sendable {
    let mediator: Mediator
    let runs = ReadWriteLock<[String: Int]>([:])

    /// How many times `name` (`Target/action`) ran.
    func ran(_ name: String) -> Int { runs.withReadLock { $0[name] ?? 0 } }

    /// Every run, of every action.
    var totalRuns: Int { runs.withReadLock { $0.values.reduce(0, +) } }

    /// - Notes: `echo` (returns its params as a dictionary), `create` (declares `title: string` and
    ///   `count: integer` optional; returns the title), `fail` (throws), `wipeAll` (local-only),
    ///   `nativeReset` (local-only by its name), `slow` (async, returns "slow").
    /// - Profile: `show`, `wipeAll` (local-only), `nativeWipe`.
    /// - Web: `open` (returns its params), `nativeOpen`.
    /// - Archive: `echo` (returns its params; outside an allow-list of Notes and Web).
    init(maximumCallDepth: Int = Mediator.defaultMaximumCallDepth) throws {
        let mediator = Mediator(maximumCallDepth: maximumCallDepth)
        self.mediator = mediator
        let runs = self.runs
        func counted(_ name: String, _ body: @escaping @Sendable (Params) throws -> (any Sendable)?)
            -> @Sendable (Mediator, Params) throws -> (
                any Sendable
            )?
        {
            { _, params in
                runs.withLock { $0[name, default: 0] += 1 }
                return try body(params)
            }
        }
        try mediator.register(
            target: "Notes",
            actions: [
                Action("echo", counted("Notes/echo") { params in params.values }),
                Action(
                    "create", params: [.required("title", .string), .optional("count", .integer)],
                    counted("Notes/create") { params in try params.value("title", as: String.self) }),
                Action("fail", counted("Notes/fail") { _ in throw FixtureError(message: "broken") }),
                Action("wipeAll", localOnly: true, counted("Notes/wipeAll") { _ in "wiped" }),
                Action("nativeReset", counted("Notes/nativeReset") { _ in "reset" }),
                Action("slow") { _, _ async throws -> (any Sendable)? in
                    await Task.yield()
                    runs.withLock { $0["Notes/slow", default: 0] += 1 }
                    return "slow"
                },
            ])
        try mediator.register(
            target: "Profile",
            actions: [
                Action("show", counted("Profile/show") { _ in "profile" }),
                Action("wipeAll", localOnly: true, counted("Profile/wipeAll") { _ in "wiped" }),
                Action("nativeWipe", counted("Profile/nativeWipe") { _ in "wiped" }),
            ])
        try mediator.register(
            target: "Web",
            actions: [
                Action("open", counted("Web/open") { params in params.values }),
                Action("nativeOpen", counted("Web/nativeOpen") { _ in "native" }),
            ])
        try mediator.register(target: "Archive", actions: [Action("echo", counted("Archive/echo") { params in params.values })])
    }
}
