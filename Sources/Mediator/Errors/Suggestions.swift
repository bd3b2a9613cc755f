/// "Did you mean" support for the throwing paths only; the `nil`-returning paths never call it.
///
/// The work is bounded whatever the caller sends: a name longer than ``maximumComparedLength``
/// gets no suggestion, candidates whose length differs by more than the allowed distance are
/// skipped on their length alone, and the distance itself is computed in a band of that width.
package enum Suggestions {
    /// Names longer than this (in characters) are not typos worth a suggestion; comparing them
    /// would only cost time.
    package static let maximumComparedLength = 64

    /// The candidate closest to `name` when it is close enough to be a plausible typo, else `nil`.
    ///
    /// A case-insensitive exact match wins; otherwise the smallest edit distance of at most
    /// one third of the name's length (at least 1, at most 3). Ties go to the first in sorted order.
    /// Candidates are registered names (ASCII); they are compared as lowercased bytes in buffers
    /// reused from one candidate to the next, so a large registry costs time but no allocation
    /// per name.
    package static func closest(to name: String, in candidates: some Sequence<String>) -> String? {
        var length = 0
        for _ in name.unicodeScalars {
            length += 1
            if length > maximumComparedLength { return nil }
        }
        // The name lowercased, one element per scalar; a scalar that is not ASCII after
        // lowercasing can equal no byte of a registered name, so it stands as 0xFF.
        let wanted: [UInt8] = name.lowercased().unicodeScalars.map { $0.isASCII ? UInt8($0.value) : 0xFF }
        let limit = min(3, max(1, wanted.count / 3))
        var table = DistanceTable(capacity: maximumComparedLength + limit)
        var candidateBytes: [UInt8] = []
        candidateBytes.reserveCapacity(maximumComparedLength + limit)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            guard abs(candidate.utf8.count - wanted.count) <= limit else { continue }
            candidateBytes.removeAll(keepingCapacity: true)
            for byte in candidate.utf8 {
                candidateBytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
            }
            // A case-only difference has distance 0 and wins over any typo.
            let distance = table.distance(wanted, candidateBytes, limit: limit)
            guard distance <= limit else { continue }
            if let current = best, distance > current.distance || (distance == current.distance && candidate > current.name) {
                continue
            }
            best = (candidate, distance)
        }
        return best?.name
    }

    /// The edit distance of `a` and `b` when it is at most `limit`, else some value over `limit`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        var table = DistanceTable(capacity: max(a.count, b.count))
        return table.distance(a, b, limit: limit)
    }
}

/// Edit distance where an insertion, deletion, substitution or swap of two neighbours costs 1
/// (optimal string alignment), so `gte` is one edit from `get`. Only cells within `limit` of the
/// diagonal are computed, so a comparison costs O(length x limit); the three rows are kept
/// between comparisons.
struct DistanceTable {
    private var twoBack: [Int] = []
    private var previous: [Int] = []
    private var current: [Int] = []

    init(capacity: Int) {
        twoBack.reserveCapacity(capacity + 1)
        previous.reserveCapacity(capacity + 1)
        current.reserveCapacity(capacity + 1)
    }

    /// The distance of `a` and `b` when it is at most `limit`, else some value over `limit`.
    mutating func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let outside = limit + 1
        Self.reset(&twoBack, to: b.count + 1, outside)
        Self.reset(&current, to: b.count + 1, outside)
        Self.reset(&previous, to: b.count + 1, outside)
        for j in 0...b.count { previous[j] = min(j, outside) }
        for i in 1...a.count {
            let low = max(1, i - limit)
            let high = min(b.count, i + limit)
            current[0] = i <= limit ? i : outside
            if low > 1 { current[low - 1] = outside }
            var rowMinimum = current[0]
            for j in low...high {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var distance = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distance = min(distance, twoBack[j - 2] + 1)
                }
                current[j] = min(distance, outside)
                rowMinimum = min(rowMinimum, current[j])
            }
            if high < b.count { current[high + 1] = outside }
            if rowMinimum > limit { return outside }
            swap(&twoBack, &previous)
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    private static func reset(_ row: inout [Int], to count: Int, _ value: Int) {
        row.removeAll(keepingCapacity: true)
        row.append(contentsOf: repeatElement(value, count: count))
    }
}

/// The names an error lists: the first few in sorted order and how many more exist, so that an
/// error about a registry of 100,000 targets stays one readable line.
struct NameListing {
    /// How many names an error lists at most.
    static let maximumCount = 20

    /// The first ``maximumCount`` names in sorted order.
    let names: [String]
    /// How many names exist beyond ``names``.
    let omittedCount: Int

    /// The first names of `all` without sorting them all: one pass keeping the smallest few.
    init(_ all: some Collection<String>) {
        var smallest: [String] = []
        smallest.reserveCapacity(Self.maximumCount + 1)
        for name in all {
            if smallest.count == Self.maximumCount, let last = smallest.last, name >= last { continue }
            let position = smallest.firstIndex(where: { name < $0 }) ?? smallest.endIndex
            smallest.insert(name, at: position)
            if smallest.count > Self.maximumCount { smallest.removeLast() }
        }
        names = smallest
        omittedCount = all.count - smallest.count
    }
}
