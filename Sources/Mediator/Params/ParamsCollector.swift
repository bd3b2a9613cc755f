/// Collects values under keys in the order given, for params read from outside (a URL's query,
/// `key=value` arguments): a key given more than once collects its values, in order, into an
/// array (`[String]` when every value is a string, else `[any Sendable]`). Keys compare as
/// `String`s do, as ``Params`` compares them.
package struct ParamsCollector {
    /// The keys in the order first given, each with its first value: the params' own storage.
    private var pairs: [(String, any Sendable)] = []
    /// The later values of repeated keys, by the key's position in `pairs` (usually empty).
    private var laterValues: [Int: [any Sendable]] = [:]
    /// The position of each key, made once there are more than a handful (before that, a linear
    /// search costs less than hashing): the work stays linear in the number of items.
    private var positions: [String: Int] = [:]
    private static let linearSearchLimit = 8

    package init() {}

    /// Room for `count` distinct keys without growing, up to ``Params``' limit for pairs: the
    /// pairs become the params' own storage, which would keep any room beyond what they hold (a
    /// query of empty items asked for room it never used), and more pairs make a dictionary.
    package mutating func reserveCapacity(_ count: Int) {
        pairs.reserveCapacity(min(count, Params.pairLimit))
    }

    /// Records `value` under `key`: a new key at the end, a repeated one among its later values.
    package mutating func add(key: String, value: any Sendable) {
        let position: Int?
        if pairs.count <= Self.linearSearchLimit {
            position = Params.index(ofKey: key, in: pairs)
        } else {
            if positions.isEmpty {
                for index in pairs.indices { positions[pairs[index].0] = index }
            }
            position = positions[key]
        }
        guard let position else {
            if !positions.isEmpty { positions[key] = pairs.count }
            pairs.append((key, value))
            return
        }
        laterValues[position, default: []].append(value)
    }

    /// One value per key; a repeated key's values as `[String]` when all are text, else
    /// `[any Sendable]`.
    package var params: Params {
        var pairs = pairs
        for (position, later) in laterValues {
            let all = [pairs[position].1] + later
            pairs[position].1 = (all as? [String]).map { $0 as any Sendable } ?? all
        }
        return Params(distinctPairs: pairs)
    }
}
