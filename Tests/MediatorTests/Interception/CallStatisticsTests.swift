import TestSupport
import Testing

@testable import Mediator
@testable import MediatorDiagnostics

@Suite("CallStatistics: calls, failures and latency percentiles per action")
struct CallStatisticsTests {
    /// The exact nearest-rank percentile of `values`.
    private func exactPercentile(_ percent: Int, of values: [UInt64]) -> UInt64 {
        let sorted = values.sorted()
        let rank = max(1, (percent * sorted.count + 99) / 100)
        return sorted[rank - 1]
    }

    @Test("Durations below 32 ns are exact: 1 to 20 ns give p50 10, p90 18, p99 20")
    func exactSmallValues() throws {
        let statistics = CallStatistics()
        for nanoseconds in UInt64(1)...20 { statistics.count(name: "A/x", succeeded: true, nanoseconds: nanoseconds) }
        let summary = try #require(statistics.snapshot.actions["A/x"])
        #expect(summary.calls == 20)
        #expect(summary.failures == 0)
        #expect(summary.p50Nanoseconds == 10)
        #expect(summary.p90Nanoseconds == 18)
        #expect(summary.p99Nanoseconds == 20)
        #expect(summary.minimumNanoseconds == 1)
        #expect(summary.maximumNanoseconds == 20)
        #expect(summary.totalNanoseconds == 210)
        #expect(summary.meanNanoseconds == 10)
    }

    @Test("A percentile is the upper bound of its bucket: 1 µs to 1 ms in steps of 1 µs give p50 507,903 ns (exact 500,000)")
    func bucketUpperBound() throws {
        let statistics = CallStatistics()
        for step in UInt64(1)...1_000 { statistics.count(name: "A/x", succeeded: true, nanoseconds: step * 1_000) }
        let summary = try #require(statistics.snapshot.actions["A/x"])
        #expect(summary.p50Nanoseconds == 507_903)
        #expect(summary.p90Nanoseconds == 917_503)
        #expect(summary.p99Nanoseconds == 1_000_000)  // its bucket reaches higher: capped at the maximum
        #expect(summary.maximumNanoseconds == 1_000_000)
        #expect(summary.minimumNanoseconds == 1_000)
    }

    @Test("Every percentile is at least the exact value and less than 1/16 above it, whatever the durations")
    func precision() throws {
        var generator = SeededGenerator(seed: 14)
        for round in 0..<20 {
            let statistics = CallStatistics()
            let count = Int.random(in: 1...2_000, using: &generator)
            // Durations over many magnitudes: 2^0 to 2^50 ns.
            let values = (0..<count).map { _ in UInt64.random(in: 0...(UInt64(1) << UInt64.random(in: 0...50, using: &generator)), using: &generator) }
            for value in values { statistics.count(name: "A/x", succeeded: true, nanoseconds: value) }
            let summary = try #require(statistics.snapshot.actions["A/x"])
            for (percent, reported) in [(50, summary.p50Nanoseconds), (90, summary.p90Nanoseconds), (99, summary.p99Nanoseconds)] {
                let exact = exactPercentile(percent, of: values)
                #expect(reported >= exact, "round \(round) p\(percent)")
                #expect(reported >= exact && reported - exact <= exact / 16, "round \(round) p\(percent): \(reported) for \(exact)")
            }
            #expect(summary.maximumNanoseconds == values.max())
            #expect(summary.minimumNanoseconds == values.min())
        }
    }

    @Test("Buckets cover every UInt64 in order, each bound within 1/16 of the values it holds")
    func buckets() {
        var edges: [UInt64] = [0, 1, 15, 16, 31, 32, 33, UInt64.max, UInt64.max - 1]
        for shift in UInt64(5)..<64 { edges += [(1 << shift) - 1, 1 << shift, (1 << shift) + 1] }
        for value in edges {
            let bucket = LatencyHistogram.bucket(of: value)
            #expect(bucket >= 0 && bucket < LatencyHistogram.bucketCount)
            let upper = LatencyHistogram.upperBound(of: bucket)
            #expect(upper >= value, "\(value)")
            #expect(upper >= value && upper - value <= value / 16, "\(value)")
            if bucket > 0 { #expect(LatencyHistogram.upperBound(of: bucket - 1) < value, "\(value)") }
        }
        #expect(LatencyHistogram.bucket(of: .max) == LatencyHistogram.bucketCount - 1)
    }

    @Test("Memory stays bounded: an action holds at most 976 buckets, whatever it is fed")
    func boundedBuckets() {
        var histogram = LatencyHistogram()
        for shift in UInt64(0)..<64 {
            for _ in 0..<1_000 { histogram.add(1 << shift) }
        }
        histogram.add(0)
        histogram.add(.max)
        #expect(histogram.counts.count == LatencyHistogram.bucketCount)
        #expect(LatencyHistogram.bucketCount == 976)
        var narrow = LatencyHistogram()
        for value in UInt64(10_000)...20_000 { narrow.add(value) }
        #expect(narrow.counts.count <= 17)
    }

    @Test("Calls count where they ended, failures apart, nested calls included, on a mediator")
    func onMediator() throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Outer",
            actions: [
                Action("run") { mediator, _ in try mediator.callNow(target: "Inner", action: "answer") },
                Action("fail") { _, _ in throw MediatorError(.forbidden, reason: "no") },
            ])
        try mediator.register(target: "Inner", actions: [Action("answer") { _, _ in 42 }])
        var table = RedirectTable()
        try table.redirect("Legacy/run", to: "Outer/run")
        mediator.setRedirects(table)
        let statistics = CallStatistics()
        mediator.addObserver(statistics)
        _ = try mediator.callNow(target: "Outer", action: "run")
        _ = try mediator.callNow(target: "Legacy", action: "run")
        _ = try? mediator.callNow(target: "Outer", action: "fail")
        let snapshot = statistics.snapshot
        #expect(snapshot.actions.keys.sorted() == ["Inner/answer", "Outer/fail", "Outer/run"])
        #expect(snapshot.actions["Outer/run"]?.calls == 2)
        #expect(snapshot.actions["Inner/answer"]?.calls == 2)
        #expect(snapshot.actions["Outer/fail"]?.failures == 1)
        #expect(snapshot.actions["Outer/run"]?.failures == 0)
        #expect(snapshot.calls == 5)
        #expect(snapshot.failures == 1)
        #expect(snapshot.otherActions == nil)
    }

    @Test("Past maximumActions, calls to further actions are counted together in otherActions")
    func otherActions() throws {
        let statistics = CallStatistics(maximumActions: 2)
        for index in 0..<10 { statistics.count(name: "T\(index)/x", succeeded: index % 2 == 0, nanoseconds: 5) }
        statistics.count(name: "T0/x", succeeded: true, nanoseconds: 5)
        let snapshot = statistics.snapshot
        #expect(snapshot.actions.keys.sorted() == ["T0/x", "T1/x"])
        #expect(snapshot.actions["T0/x"]?.calls == 2)
        let others = try #require(snapshot.otherActions)
        #expect(others.calls == 8)
        #expect(others.failures == 4)
        #expect(snapshot.calls == 11)
    }

    @Test("A name longer than 256 characters is cut, so made-up names cannot be huge keys")
    func longNames() {
        let statistics = CallStatistics()
        statistics.count(name: String(repeating: "n", count: 100_000), succeeded: false, nanoseconds: 1)
        #expect(statistics.snapshot.actions.keys.map(\.unicodeScalars.count) == [257])
    }

    @Test("reset forgets every call")
    func reset() {
        let statistics = CallStatistics()
        statistics.count(name: "A/x", succeeded: true, nanoseconds: 1)
        statistics.reset()
        #expect(statistics.snapshot.actions.isEmpty)
        #expect(statistics.snapshot.calls == 0)
    }

    @Test("json: actions with calls, failures and latencyNanoseconds, the totals, keys sorted")
    func json() throws {
        let statistics = CallStatistics(maximumActions: 1)
        for nanoseconds in UInt64(1)...4 { statistics.count(name: "A/x", succeeded: nanoseconds != 4, nanoseconds: nanoseconds) }
        statistics.count(name: "B/y", succeeded: true, nanoseconds: 7)
        let text = statistics.snapshot.json
        #expect(
            text
                == #"{"actions":{"A/x":{"calls":4,"failures":1,"latencyNanoseconds":{"max":4,"mean":2,"min":1,"p50":2,"p90":4,"p99":4}}},"calls":5,"failures":1,"#
                + #""otherActions":{"calls":1,"failures":0,"latencyNanoseconds":{"max":7,"mean":7,"min":7,"p50":7,"p90":7,"p99":7}}}"#)
        #expect(try JSONValue(parsing: text) == JSONValue(parsing: statistics.snapshot.description))
        #expect(CallStatistics().snapshot.json == #"{"actions":{},"calls":0,"failures":0}"#)
    }

    @Test("Calls counted from many threads at once are all counted")
    func concurrent() throws {
        let statistics = CallStatistics()
        onThreads(8) { _ in
            for index in 0..<5_000 {
                statistics.count(name: "T\(index % 4)/x", succeeded: index % 10 != 0, nanoseconds: UInt64(index))
                if index % 1_000 == 0 { _ = statistics.snapshot }
            }
        }
        let snapshot = statistics.snapshot
        #expect(snapshot.calls == 40_000)
        #expect(snapshot.failures == 4_000)
        #expect(snapshot.actions.values.allSatisfy { $0.calls == 10_000 && $0.maximumNanoseconds >= 4_996 })
    }
}
