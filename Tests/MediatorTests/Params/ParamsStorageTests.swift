import Mediator
import TestSupport
import Testing

// Params keep a few values as a list of pairs and more in a dictionary. Whatever the storage, they
// must answer exactly as a dictionary of the same values does: these tests drive both with the
// same operations and compare every answer.

/// Keys for the model test: short and long, ASCII and not, and two spellings of "é" that a
/// `String` (and so a dictionary) holds equal.
private let modelKeys = ["v", "name", "id", "title", "a", "b", "c", "d", "e", "f", "g", "h", "a-much-longer-key-than-fits-inline", "é", "e\u{301}"]

/// A value tagged with the step that stored it, so a stale value cannot pass for a new one.
private func tagged(_ step: Int) -> any Sendable { step }

/// Params from a literal of `pairs` (the literal initializer is variadic, so build it by hand).
private func literal(_ pairs: [(String, any Sendable)]) -> Params {
    switch pairs.count {
    case 0: return [:]
    case 1: return [pairs[0].0: pairs[0].1]
    case 2: return [pairs[0].0: pairs[0].1, pairs[1].0: pairs[1].1]
    case 3: return [pairs[0].0: pairs[0].1, pairs[1].0: pairs[1].1, pairs[2].0: pairs[2].1]
    default:
        // Beyond three the test goes through `Params(_:)` and then the subscript, which also
        // exercises growing past the pair limit.
        var params: Params = [:]
        for (key, value) in pairs { params[key] = value }
        return params
    }
}

/// Every observable answer of `params`, compared with `model`.
private func expectSame(_ params: Params, _ model: [String: any Sendable], _ context: String) {
    #expect(params.count == model.count, "count, \(context)")
    #expect(params.isEmpty == model.isEmpty, "isEmpty, \(context)")
    #expect(params.keys == model.keys.sorted(), "keys, \(context)")
    #expect(params.values.count == model.count, "values, \(context)")
    for key in modelKeys {
        #expect(params[key] as? Int == model[key] as? Int, "subscript \(key.debugDescription), \(context)")
        #expect(params.contains(key) == (model[key] != nil), "contains \(key.debugDescription), \(context)")
        #expect((try? params.valueIfPresent(key, as: Int.self)) == model[key] as? Int, "valueIfPresent \(key.debugDescription), \(context)")
        #expect(params.values[key] as? Int == model[key] as? Int, "values[\(key.debugDescription)], \(context)")
    }
}

@Suite("Params storage")
struct ParamsStorageTests {
    @Test("A dictionary literal that repeats a key keeps the last value, as documented")
    func repeatedKeyInLiteral() {
        let params: Params = ["v": 1, "name": "x", "v": 3]
        #expect(params.count == 2)
        #expect(params["v"] as? Int == 3)
        #expect(params.keys == ["name", "v"])
    }

    @Test("Keys that a String holds equal (two spellings of é) are one key, as in a dictionary")
    func canonicalEquivalence() {
        let params: Params = ["é": 1, "e\u{301}": 2]
        #expect(params.count == 1)
        #expect(params["é"] as? Int == 2)
        #expect(params["e\u{301}"] as? Int == 2)
    }

    @Test("Params grow past the pair limit and shrink back with every value still readable")
    func growAndShrink() throws {
        var params: Params = [:]
        for index in 0..<40 { params["k\(index)"] = index }
        #expect(params.count == 40)
        for index in 0..<40 { #expect(try params.value("k\(index)", as: Int.self) == index) }
        for index in 0..<38 { params["k\(index)"] = nil }
        #expect(params.keys == ["k38", "k39"])
        #expect(params["k0"] == nil)
    }

    @Test("Seeded sequences of literals, sets and removals answer as a dictionary does (400 runs)", arguments: 0..<4)
    func model(seed: UInt64) {
        var generator = SeededGenerator(seed: 0x5eed_0000 + seed)
        for run in 0..<100 {
            let initialCount = Int(generator.next() % 6)
            var initial: [(String, any Sendable)] = []
            var model: [String: any Sendable] = [:]
            for step in 0..<initialCount {
                let key = modelKeys[Int(generator.next() % UInt64(modelKeys.count))]
                initial.append((key, tagged(step)))
                model[key] = tagged(step)
            }
            var params = literal(initial)
            expectSame(params, model, "seed \(seed) run \(run) after the literal")
            for step in 0..<Int(generator.next() % 30) {
                let key = modelKeys[Int(generator.next() % UInt64(modelKeys.count))]
                let value: (any Sendable)? = generator.next() % 4 == 0 ? nil : tagged(100 + step)
                params[key] = value
                model[key] = value
                expectSame(params, model, "seed \(seed) run \(run) step \(step)")
            }
        }
    }
}
