/// "Did you mean" support for the throwing paths only; the `nil`-returning paths never call it.
package enum Suggestions {
    /// The candidate closest to `name` when it is close enough to be a plausible typo, else `nil`.
    ///
    /// A case-insensitive exact match wins; otherwise the smallest edit distance of at most
    /// one third of the name's length (at least 1, at most 3). Ties go to the first in sorted order.
    package static func closest(to name: String, in candidates: [String]) -> String? {
        let lowered = name.lowercased()
        if let caseMatch = candidates.first(where: { $0.lowercased() == lowered }) { return caseMatch }
        let limit = min(3, max(1, name.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in candidates.sorted() {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// Edit distance over characters where an insertion, deletion, substitution or swap of two
    /// neighbours costs 1 (optimal string alignment), so `gte` is one edit from `get`.
    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs), b = Array(rhs)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows: two back (for swaps), previous, current.
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var distance = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distance = min(distance, twoBack[j - 2] + 1)
                }
                current[j] = distance
            }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[b.count]
    }
}
