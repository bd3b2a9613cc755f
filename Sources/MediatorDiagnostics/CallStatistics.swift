import Mediator

/// An observer that counts calls, failures and latencies per action, readable at any time as a
/// ``Snapshot``.
///
/// ```swift
/// let statistics = CallStatistics()
/// mediator.addObserver(statistics)
/// // ... calls ...
/// let create = statistics.snapshot.actions["Notes/create"]
/// print(create?.calls, create?.failures, create?.p99Nanoseconds)
/// print(statistics.snapshot.json)
/// ```
///
/// A call counts toward the `Target/action` where it ended (after redirects and a degradation),
/// nested calls included; an answer is a success, an error a failure.
///
/// **Bounded memory.** Latencies are not kept one by one but counted in a fixed log-scale
/// histogram per action: 16 buckets per power of two, so every duration below 32 ns has a bucket
/// of its own and each bucket above is 1/16 of its lower bound wide. A percentile is the upper
/// bound of the bucket that holds it (nearest-rank method), capped at the largest duration seen:
/// never below the exact value, and above it by less than 1/16 (6.25%). Unlike a sample of
/// calls, the histogram sees every call (a rare slow one moves p99 and the maximum), its result
/// does not depend on chance, and recording a call costs the same whatever came before. An action
/// holds only the buckets between its fastest and slowest call (976 at most, 8 bytes each); at
/// most `maximumActions` actions are tracked by name, and the calls to any further action are
/// counted together in ``Snapshot/otherActions``, so a stream of made-up names from URLs cannot
/// grow it without bound. Names longer than 256 characters are cut.
///
/// Thread-safe: calls finishing on several threads at once are counted under one small lock,
/// which is held only to add a call or copy the counts.
public final class CallStatistics: CallObserver {
    /// How many actions are tracked by name (see ``Snapshot/otherActions``).
    public let maximumActions: Int

    private let tallies: ReadWriteLock<Tallies>

    /// Statistics that track up to `maximumActions` actions by name.
    ///
    /// ```swift
    /// let statistics = CallStatistics(maximumActions: 200)
    /// ```
    ///
    /// - Parameter maximumActions: how many actions are tracked by name (1,000 by default; at
    ///   most about 8 KB each, and usually far less); calls to further actions are counted
    ///   together.
    public init(maximumActions: Int = 1_000) {
        self.maximumActions = max(0, maximumActions)
        self.tallies = ReadWriteLock(Tallies())
    }

    /// Counts the call.
    ///
    /// - Parameter record: the finished call.
    public func callDidFinish(_ record: CallRecord) {
        count(name: record.name, succeeded: record.succeeded, nanoseconds: record.durationNanoseconds)
    }

    /// Counts one call to `name` (the entry point tests use to record known durations).
    func count(name: String, succeeded: Bool, nanoseconds: UInt64) {
        let key = Self.key(name)
        let limit = maximumActions
        tallies.withLock { tallies in
            if tallies.actions[key] != nil || tallies.actions.count < limit {
                tallies.actions[key, default: Tally()].add(nanoseconds, succeeded: succeeded)
            } else {
                tallies.others.add(nanoseconds, succeeded: succeeded)
            }
        }
    }

    /// The counts so far: the calls, failures and latencies of each action.
    public var snapshot: Snapshot {
        // Copied under the lock (the storage is shared, not duplicated), summarized after it.
        let copy = tallies.withReadLock { $0 }
        return Snapshot(
            actions: copy.actions.mapValues(ActionSummary.init), otherActions: copy.others.calls == 0 ? nil : ActionSummary(copy.others))
    }

    /// Forgets every call counted so far.
    public func reset() {
        let old = tallies.withLock { tallies in
            let old = tallies
            tallies = Tallies()
            return old
        }
        // Released here, after the lock.
        _ = old
    }

    /// `name`, cut to 256 characters with "…".
    private static func key(_ name: String) -> String {
        let limit = 256
        guard name.utf8.count > limit, !name.unicodeScalars.dropFirst(limit).isEmpty else { return name }
        var cut = ""
        cut.unicodeScalars.append(contentsOf: name.unicodeScalars.prefix(limit))
        return cut + "…"
    }
}

// MARK: - Snapshot

extension CallStatistics {
    /// The counts at one moment: per action, and for the actions past ``CallStatistics/maximumActions``.
    public struct Snapshot: Sendable, Equatable, CustomStringConvertible {
        /// The actions by `Target/action` (where the calls ended).
        public let actions: [String: ActionSummary]
        /// The calls to actions beyond ``CallStatistics/maximumActions``, counted together; `nil`
        /// when there were none.
        public let otherActions: ActionSummary?

        /// Every call counted.
        public var calls: Int { actions.values.reduce(otherActions?.calls ?? 0) { $0 + $1.calls } }

        /// Every failed call counted.
        public var failures: Int { actions.values.reduce(otherActions?.failures ?? 0) { $0 + $1.failures } }

        /// The snapshot as one line of JSON, keys sorted, durations in whole nanoseconds:
        ///
        /// ```json
        /// {"actions":{"Notes/create":{"calls":3,"failures":1,
        ///   "latencyNanoseconds":{"max":91000,"mean":40333,"min":12000,"p50":17407,"p90":91000,"p99":91000}}},
        ///  "calls":3,"failures":1}
        /// ```
        ///
        /// `actions` maps each `Target/action` to its counts; `calls` and `failures` are the
        /// totals; an `otherActions` member, in the same form as an action, is present when calls
        /// went to actions beyond ``CallStatistics/maximumActions``.
        public var json: String {
            var members: [String: JSONValue] = [
                "actions": .object(actions.mapValues(\.jsonValue)), "calls": .int(calls), "failures": .int(failures),
            ]
            if let otherActions { members["otherActions"] = otherActions.jsonValue }
            return JSONValue.object(members).serialized
        }

        /// The snapshot as JSON (see ``json``).
        public var description: String { json }
    }

    /// The calls to one action: how many, how many failed, and how long they took.
    public struct ActionSummary: Sendable, Equatable {
        /// How many calls finished.
        public let calls: Int
        /// How many of them failed.
        public let failures: Int
        /// Their durations added up, in nanoseconds.
        public let totalNanoseconds: UInt64
        /// The shortest call, in nanoseconds (exact).
        public let minimumNanoseconds: UInt64
        /// The median duration: half the calls took at most this long (within 1/16 above).
        public let p50Nanoseconds: UInt64
        /// 90% of the calls took at most this long (within 1/16 above).
        public let p90Nanoseconds: UInt64
        /// 99% of the calls took at most this long (within 1/16 above).
        public let p99Nanoseconds: UInt64
        /// The longest call, in nanoseconds (exact).
        public let maximumNanoseconds: UInt64

        /// The mean duration, in nanoseconds.
        public var meanNanoseconds: UInt64 { calls == 0 ? 0 : totalNanoseconds / UInt64(calls) }

        init(_ tally: Tally) {
            calls = tally.calls
            failures = tally.failures
            totalNanoseconds = tally.total
            minimumNanoseconds = tally.calls == 0 ? 0 : tally.minimum
            maximumNanoseconds = tally.maximum
            p50Nanoseconds = tally.percentile(50)
            p90Nanoseconds = tally.percentile(90)
            p99Nanoseconds = tally.percentile(99)
        }

        var jsonValue: JSONValue {
            func int(_ value: UInt64) -> JSONValue { .int(Int(clamping: value)) }
            let latency: [String: JSONValue] = [
                "min": int(minimumNanoseconds), "mean": int(meanNanoseconds), "p50": int(p50Nanoseconds), "p90": int(p90Nanoseconds),
                "p99": int(p99Nanoseconds), "max": int(maximumNanoseconds),
            ]
            return .object(["calls": .int(calls), "failures": .int(failures), "latencyNanoseconds": .object(latency)])
        }
    }
}

// MARK: - Counting

extension CallStatistics {
    /// What the lock guards.
    struct Tallies {
        var actions: [String: Tally] = [:]
        var others = Tally()
    }

    /// The counts of one action.
    struct Tally {
        var calls = 0
        var failures = 0
        var total: UInt64 = 0
        var minimum = UInt64.max
        var maximum: UInt64 = 0
        var histogram = LatencyHistogram()

        mutating func add(_ nanoseconds: UInt64, succeeded: Bool) {
            calls += 1
            if !succeeded { failures += 1 }
            let (sum, overflow) = total.addingReportingOverflow(nanoseconds)
            total = overflow ? .max : sum
            minimum = Swift.min(minimum, nanoseconds)
            maximum = Swift.max(maximum, nanoseconds)
            histogram.add(nanoseconds)
        }

        /// The duration below which `percent` of the calls fall (nearest rank), from the
        /// histogram, never above the maximum; 0 when there were no calls.
        func percentile(_ percent: Int) -> UInt64 {
            guard calls > 0 else { return 0 }
            // The rank of the call the percentile names, ceil(percent × calls / 100) in integers
            // (0.9 × 10 is 9.000000000000002 in floating point): at least the first, at most the last.
            let rank = Swift.min(calls, Swift.max(1, (percent * calls + 99) / 100))
            return Swift.min(histogram.upperBound(ofRank: rank), maximum)
        }
    }
}

/// Durations counted in log-scale buckets: 16 per power of two (values below 32 exactly). Only
/// the buckets from the first to the last one used are stored.
struct LatencyHistogram {
    /// Sub-buckets per power of two, as a power of two: 2^4 = 16.
    static let subBucketBits = 4
    static let subBuckets = 1 << subBucketBits
    /// Buckets for every `UInt64`: 16 exact values, then 16 per power of two from 2^4 to 2^63.
    static let bucketCount = subBuckets + (64 - subBucketBits) * subBuckets

    /// The index of ``counts``' first element.
    private(set) var first = 0
    private(set) var counts: [UInt64] = []

    mutating func add(_ value: UInt64) {
        let bucket = Self.bucket(of: value)
        if counts.isEmpty {
            first = bucket
            counts = [0]
        } else if bucket < first {
            counts.insert(contentsOf: repeatElement(0, count: first - bucket), at: 0)
            first = bucket
        } else if bucket >= first + counts.count {
            counts.append(contentsOf: repeatElement(0, count: bucket - first - counts.count + 1))
        }
        counts[bucket - first] &+= 1
    }

    /// The bucket `value` falls in.
    static func bucket(of value: UInt64) -> Int {
        guard value >= UInt64(subBuckets) else { return Int(value) }
        let exponent = 63 - value.leadingZeroBitCount
        let shift = exponent - subBucketBits
        let sub = Int(truncatingIfNeeded: value >> UInt64(shift)) & (subBuckets - 1)
        return subBuckets + shift * subBuckets + sub
    }

    /// The largest value in `bucket`.
    static func upperBound(of bucket: Int) -> UInt64 {
        guard bucket >= subBuckets else { return UInt64(bucket) }
        let shift = (bucket - subBuckets) / subBuckets
        let sub = UInt64((bucket - subBuckets) % subBuckets)
        let lower = (UInt64(subBuckets) + sub) << UInt64(shift)
        return lower &+ ((1 << UInt64(shift)) &- 1)
    }

    /// The upper bound of the bucket holding the `rank`-th smallest value (from 1).
    func upperBound(ofRank rank: Int) -> UInt64 {
        var seen: UInt64 = 0
        for (offset, count) in counts.enumerated() {
            seen &+= count
            if seen >= UInt64(rank) { return Self.upperBound(of: first + offset) }
        }
        return Self.upperBound(of: first + counts.count - 1)
    }
}
