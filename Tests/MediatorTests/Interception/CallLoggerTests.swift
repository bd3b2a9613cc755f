import Testing

@testable import Mediator
@testable import MediatorDiagnostics

/// Lines a logger wrote, collected from any thread.
private final class Lines: Sendable {
    private let lines = ReadWriteLock<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withReadLock { $0 } }
}

/// A record as the pipeline would make it, with a known start, depth and duration.
private func record(
    _ target: String, _ action: String, origin: CallOrigin = .inProcess, depth: Int = 1, redirectedFrom: [String] = [],
    error: MediatorError? = nil, startTime: Double = 1_740_821_412.125, nanoseconds: UInt64 = 12_300
) -> CallRecord {
    let asked = redirectedFrom.first?.split(separator: "/").map(String.init) ?? [target, action]
    let request = CallRequest(
        askedTarget: asked[0], askedAction: asked[1], target: asked[0], action: asked[1], params: [:], origin: origin, depth: depth)
    return CallRecord(
        request: request, destination: redirectedFrom.isEmpty ? nil : CallRecord.Destination(target: target, action: action, route: redirectedFrom),
        result: error.map { .failure($0) } ?? .success(nil),
        startTime: startTime, durationNanoseconds: nanoseconds)
}

@Suite("CallLogger: one line per call")
struct CallLoggerTests {
    @Test("A successful call's line: UTC time with milliseconds, origin, depth, Target/action, ok, duration")
    func successLine() {
        #expect(CallLogger.line(for: record("Notes", "create")) == "2025-03-01T09:30:12.125Z in-process depth=1 Notes/create ok 12.3µs")
        #expect(
            CallLogger.line(for: record("Accounts", "authorize", origin: .commandLine, depth: 2, nanoseconds: 850))
                == "2025-03-01T09:30:12.125Z command-line depth=2 Accounts/authorize ok 850ns")
    }

    @Test("The time pads every field: the first millisecond of a year is 2000-01-01T00:00:00.000Z")
    func paddedTime() {
        #expect(CallLogger.timestamp(946_684_800) == "2000-01-01T00:00:00.000Z")
        #expect(CallLogger.timestamp(946_684_800 + 3_661.5) == "2000-01-01T01:01:01.500Z")
        #expect(CallLogger.timestamp(0.25) == "1970-01-01T00:00:00.250Z")
    }

    @Test("A failed call's line ends with the error's code and description")
    func failureLine() {
        let error = MediatorError(.actionNotFound, target: "Notes", action: "crate", suggestion: "create", reason: "no action \"crate\"")
        #expect(
            CallLogger.line(for: record("Notes", "crate", error: error, nanoseconds: 3_000))
                == #"2025-03-01T09:30:12.125Z in-process depth=1 Notes/crate failed 3.0µs actionNotFound: Notes/crate: no action "crate"; did you mean "create"?"#
        )
    }

    @Test("A redirected call shows each pair it passed through, then where it ended")
    func redirectedLine() {
        let line = CallLogger.line(for: record("Modern", "open", redirectedFrom: ["Legacy/open", "Middle/open"]))
        #expect(line == "2025-03-01T09:30:12.125Z in-process depth=1 Legacy/open -> Middle/open -> Modern/open ok 12.3µs")
    }

    @Test("A URL call shows its URL; one with spaces or controls is quoted and escaped")
    func urlOrigin() {
        #expect(CallLogger.line(for: record("Notes", "get", origin: .url("app://Notes/get?id=1"))).contains(" url=app://Notes/get?id=1 depth=1 "))
        let hostile = CallLogger.line(for: record("Notes", "get", origin: .url("app://Notes/get?x=a b\n\u{1B}[31m\"")))
        #expect(hostile.contains(#" url="app://Notes/get?x=a b\n\u001b[31m\"" depth=1 "#))
    }

    @Test("Names a caller made up stay in one field of one line, with nothing a terminal would act on")
    func hostileNames() {
        let error = MediatorError(.targetNotFound, target: "Bad name\n\u{202E}x", action: "go", reason: "no target")
        let line = CallLogger.line(for: record("Bad name\n\u{202E}x", "go", error: error))
        #expect(line.contains(#" depth=1 "Bad name\n\u202ex/go" failed 12.3µs targetNotFound: "#))
        #expect(!line.unicodeScalars.contains { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format })
        #expect(CallLogger.line(for: record("->", "x")).contains(#" depth=1 "->/x" ok "#))
    }

    @Test("A name longer than 200 characters is cut with … inside its quotes")
    func longName() {
        let name = String(repeating: "a", count: 300)
        let line = CallLogger.line(for: record(name, "x"))
        #expect(line.contains(" depth=1 \"" + String(repeating: "a", count: 200) + "…\" ok "))
    }

    @Test("A duration that rounds up to the next unit is written in that unit (1.0ms, not 1000.0µs)")
    func durationRoundingAtUnitBoundaries() {
        #expect(CallRecord.formatted(nanoseconds: 999_949) == "999.9µs")
        #expect(CallRecord.formatted(nanoseconds: 999_960) == "1.0ms")
        #expect(CallRecord.formatted(nanoseconds: 999_960_000) == "1.00s")
    }

    @Test("A failure's message is cut at 500 characters and kept on one line")
    func longMessage() throws {
        let error = MediatorError(.actionFailed, reason: String(repeating: "x\n", count: 1_000))
        let line = CallLogger.line(for: record("Notes", "create", error: error))
        let message = try #require(line.split(separator: " ", maxSplits: 6).last)
        #expect(message.hasPrefix("actionFailed: x\\nx\\n"))
        #expect(message.hasSuffix("…"))
        #expect(!line.contains("\n"))
    }

    @Test("On a mediator, every call is a line, nested calls first, with their depth")
    func nestedCalls() throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Outer",
            actions: [
                Action("run") { mediator, _ in try mediator.callNow(target: "Inner", action: "answer") }
            ])
        try mediator.register(target: "Inner", actions: [Action("answer") { _, _ in 42 }])
        let lines = Lines()
        mediator.addObserver(CallLogger { lines.append($0) })
        #expect(try mediator.callNow(target: "Outer", action: "run") as? Int == 42)
        _ = try? mediator.callNow(target: "Outer", action: "missing")
        let written = lines.all
        try #require(written.count == 3)
        #expect(written[0].contains(" in-process depth=2 Inner/answer ok "))
        #expect(written[1].contains(" in-process depth=1 Outer/run ok "))
        #expect(written[2].contains(" in-process depth=1 Outer/missing failed "))
        #expect(written[2].contains(" actionNotFound: Outer/missing: "))
        let time = try #require(written[0].split(separator: " ").first)
        #expect(time.utf8.count == 24 && time.hasSuffix("Z") && time.dropFirst(10).first == "T")
    }
}
