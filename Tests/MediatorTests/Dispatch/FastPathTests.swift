import Mediator
import TestSupport
import Testing

// The fast paths against the behaviour they must keep: Params kept as pairs read through raw
// pointers, typed action handles with an inlined fast path, the call depth in a C thread-local
// word, the flat route trie with hashed literal children, deep links, and inlined typed results.

// MARK: - Shared fixtures

/// A class value whose instances count their deinitialisation, to find leaks and double frees.
final class FastPathTracked: Sendable {
    /// The instance's number.
    let id: Int
    /// Incremented once when the instance goes away.
    let freed: Counter

    /// A tracked instance numbered `id`, counted in `made` now and in `freed` when it goes away.
    init(_ id: Int, made: Counter, freed: Counter) {
        self.id = id
        self.freed = freed
        made.increment()
    }

    deinit { freed.increment() }
}

/// A value larger than an existential's inline buffer (three words), so it is boxed.
struct FastPathLarge: Sendable, Equatable {
    /// Payload words.
    var a, b, c, d, e, f, g, h: Int
    /// A text field, so the value holds a reference too.
    var name: String
}

/// The parts of an error two paths must agree on.
private func errorParts(_ error: MediatorError?) -> String {
    guard let error else { return "no error" }
    return "\(error.code) \(error.target ?? "-") \(error.action ?? "-") \(error.reason)"
}

/// Params of `count` Int values under the keys `k0`, `k1`, ... (set one by one).
private func numbered(_ count: Int) -> Params {
    var params: Params = [:]
    for index in 0..<count { params["k\(index)"] = index }
    return params
}

// MARK: - Params

@Suite("Params as pairs")
struct ParamsPairsTests {
    /// The answers of `params` that a dictionary model must give too, for `probes`.
    private func expectLike(_ params: Params, _ model: [String: any Sendable], probes: [String], _ context: String) {
        #expect(params.count == model.count, "count \(context)")
        #expect(params.isEmpty == model.isEmpty, "isEmpty \(context)")
        #expect(params.keys == model.keys.sorted(), "keys \(context)")
        #expect(params.values.keys.sorted() == model.keys.sorted(), "values \(context)")
        for key in probes {
            #expect(params[key] as? Int == model[key] as? Int, "subscript \(key.unicodeScalars.map(\.value)) \(context)")
            #expect(params.contains(key) == (model[key] != nil), "contains \(key.unicodeScalars.map(\.value)) \(context)")
            #expect((try? params.value(key, as: Int.self)) == model[key] as? Int, "value \(key.unicodeScalars.map(\.value)) \(context)")
        }
    }

    @Test("Keys a String holds equal (Kelvin sign and K, é two ways) are one key in literals of every size, last value wins")
    func canonicalKeysInLiterals() {
        let probes = ["K", "\u{212A}", "é", "e\u{301}", "a", "b"]
        let small: Params = ["K": 1, "\u{212A}": 2]
        expectLike(small, Dictionary([("K", 1 as any Sendable), ("\u{212A}", 2)], uniquingKeysWith: { _, last in last }), probes: probes, "small")
        let mixed: Params = ["e\u{301}": 1, "a": 2, "é": 3, "K": 4, "\u{212A}": 5, "b": 6]
        let mixedModel = Dictionary(
            [("e\u{301}", 1 as any Sendable), ("a", 2), ("é", 3), ("K", 4), ("\u{212A}", 5), ("b", 6)], uniquingKeysWith: { _, last in last })
        expectLike(mixed, mixedModel, probes: probes, "mixed")
        #expect(mixed.keys == mixedModel.keys.sorted())
        let big: Params = ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "K": 9, "\u{212A}": 10]
        #expect(big.count == 9)
        #expect(big["K"] as? Int == 10)
        #expect(big["\u{212A}"] as? Int == 10)
    }

    @Test("Setting a key by its other spelling replaces the value and keeps the first spelling, as a dictionary does, in both storages")
    func otherSpellingKeepsFirstKey() {
        for extra in [0, 10] {
            var params = numbered(extra)
            var model: [String: any Sendable] = [:]
            for index in 0..<extra { model["k\(index)"] = index }
            params["é"] = 1
            model["é"] = 1
            params["e\u{301}"] = 2
            model["e\u{301}"] = 2
            params["\u{212A}"] = 3
            model["\u{212A}"] = 3
            params["K"] = 4
            model["K"] = 4
            #expect(params.keys.map { Array($0.unicodeScalars) } == model.keys.sorted().map { Array($0.unicodeScalars) }, "extra \(extra)")
            #expect(params.count == model.count)
            params["K"] = nil
            model["K"] = nil
            #expect(params["\u{212A}"] == nil)
            expectLike(params, model, probes: ["é", "e\u{301}", "K", "\u{212A}"], "extra \(extra)")
        }
    }

    @Test("Literal with a repeated key among eight, nine and ten entries: last wins, count as a dictionary")
    func repeatedKeysAroundTheLimit() {
        let eight: Params = ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "a": 8]
        #expect(eight.count == 7)
        #expect(eight["a"] as? Int == 8)
        let nine: Params = ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "a": 9]
        #expect(nine.count == 8)
        #expect(nine["a"] as? Int == 9)
        let ten: Params = ["a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9, "a": 10]
        #expect(ten.count == 9)
        #expect(ten["a"] as? Int == 10)
        #expect(ten.keys == ["a", "b", "c", "d", "e", "f", "g", "h", "i"])
        #expect(eight.description == "[a: 8, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7]")
    }

    @Test("Class values are released exactly once however params are made, copied, grown, shrunk, read and dropped")
    func noLeaksNoDoubleFrees() throws {
        let made = Counter()
        let freed = Counter()
        func make(_ id: Int) -> FastPathTracked { FastPathTracked(id, made: made, freed: freed) }
        do {
            var small: Params = ["a": make(1), "b": make(2), "a": make(3)]
            var copy = small
            copy["c"] = make(4)
            copy["a"] = nil
            for index in 0..<12 { copy["k\(index)"] = make(10 + index) }
            for index in 0..<12 where index % 2 == 0 { copy["k\(index)"] = nil }
            let big: Params = [
                "a": make(30), "b": make(31), "c": make(32), "d": make(33), "e": make(34), "f": make(35), "g": make(36), "h": make(37), "i": make(38),
            ]
            let distinct: Params = ["x": make(40), "y": make(41), "z": make(42)]
            #expect(try small.value("a", as: FastPathTracked.self).id == 3)
            #expect(try distinct.value("y", as: FastPathTracked.self).id == 41)
            #expect(try big.valueIfPresent("i", as: FastPathTracked.self)?.id == 38)
            #expect((copy["k1"] as? FastPathTracked)?.id == 11)
            #expect(small.values.count == 2)
            #expect(!big.description.isEmpty && !copy.description.isEmpty && !distinct.description.isEmpty)
            small["b"] = make(5)
            small["b"] = make(6)
            #expect((small["b"] as? FastPathTracked)?.id == 6)
            #expect(copy.count == 1 + 1 + 6)
            #expect(made.value - freed.value == 2 + 8 + 9 + 3, "live instances while the params exist")
        }
        #expect(freed.value == made.value)
    }

    @Test("A copy mutated (set, replace, remove, grow past eight) leaves the original as it was")
    func copyOnWrite() {
        let original: Params = ["a": 1, "b": 2, "c": 3]
        var copy = original
        copy["a"] = 10
        copy["b"] = nil
        copy["d"] = 4
        #expect(original["a"] as? Int == 1 && original["b"] as? Int == 2 && original["d"] == nil && original.count == 3)
        var grown = original
        for index in 0..<10 { grown["k\(index)"] = index }
        #expect(original.count == 3 && grown.count == 13)
        let big = numbered(12)
        var bigCopy = big
        bigCopy["k0"] = nil
        bigCopy["k1"] = "changed"
        #expect(big.count == 12 && big["k0"] as? Int == 0 && big["k1"] as? Int == 1)
        #expect(bigCopy.count == 11)
    }

    @Test("nil Optionals, closures, large structs and class values stored as values read back as before")
    func valuesOfEveryKind() throws {
        let none: Int? = nil
        let closure: @Sendable (Int) -> Int = { $0 * 2 }
        let large = FastPathLarge(a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, name: "large value of many words")
        let params: Params = ["none": none as any Sendable, "closure": closure, "large": large, "some": Int?.some(5) as any Sendable]
        #expect(params.count == 4)
        #expect(params.keys == ["closure", "large", "none", "some"])
        #expect(!params.contains("none"))
        #expect(params["none"] != nil)
        #expect(try params.valueIfPresent("none", as: Int.self) == nil)
        #expect(try params.value("none", as: Int.self, default: 9) == 9)
        #expect(mediatorError { _ = try params.value("none", as: Int.self) }?.code == .invalidParameter)
        #expect(try params.value("closure", as: (@Sendable (Int) -> Int).self)(21) == 42)
        #expect(try params.value("large", as: FastPathLarge.self) == large)
        #expect(try params.value("some", as: Int.self) == 5)
        let model: [String: any Sendable] = ["none": none as any Sendable, "closure": closure, "large": large, "some": Int?.some(5) as any Sendable]
        #expect(params.description == Params(model).description)
    }

    @Test("Params shared by many threads read every value right, in both storages")
    func concurrentReads() {
        let wrong = Counter()
        let small: Params = ["a": 1, "b": "two", "c": 3.0, "d": [4], "e": 5, "f": 6, "g": 7, "h": 8]
        let big = numbered(40)
        onThreads(8) { thread in
            for round in 0..<2_000 {
                let key = ["a", "e", "f", "g", "h"][round % 5]
                if (try? small.value(key, as: Int.self)) == nil { wrong.increment() }
                if (try? small.value("b", as: String.self)) != "two" { wrong.increment() }
                if (try? big.value("k\((round + thread) % 40)", as: Int.self)) != (round + thread) % 40 { wrong.increment() }
                if small.contains("zz") || small.count != 8 { wrong.increment() }
            }
        }
        #expect(wrong.value == 0)
    }

    /// Text read as `Int`, with what the documented rules (and `Int.init(_: String)`) give.
    static let intTexts: [(String, Int?)] = [
        ("42", 42), ("-7", -7), ("+3", 3), ("-0", 0), ("+0", 0), ("007", 7), (" 5", nil), ("5 ", nil), ("", nil), ("+", nil), ("-", nil),
        ("4x", nil), ("1.0", nil), ("0x10", nil), ("1_000", nil), ("９", nil), ("٤", nil), ("9223372036854775807", Int.max),
        ("9223372036854775808", nil), ("-9223372036854775808", Int.min), ("-9223372036854775809", nil), ("++1", nil), ("+-1", nil),
    ]

    @Test("Text read as Int follows the documented rules in both storages and every reader", arguments: intTexts)
    func intCoercion(text: String, expected: Int?) throws {
        var big = numbered(9)
        big["v"] = text
        for params in [["v": text] as Params, big] {
            #expect((try? params.value("v", as: Int.self)) == expected, "\(text.debugDescription)")
            #expect((try? params.valueIfPresent("v", as: Int.self)) == expected, "\(text.debugDescription)")
            #expect((try? params.value("v", as: Int.self, default: 99)) == expected, "\(text.debugDescription)")
            #expect((try? params.value("v", as: [Int].self)) == expected.map { [$0] }, "\(text.debugDescription)")
            if expected == nil {
                let error = mediatorError { _ = try params.value("v", as: Int.self) }
                #expect(error?.code == .invalidParameter)
                #expect(error?.parameter == "v")
            }
        }
    }

    /// Text read as `Double`, as the documented table has it.
    static let doubleTexts: [(String, Double?)] = [
        ("1.5", 1.5), ("-2e3", -2000), ("7", 7), ("-0", 0), ("+5", 5), ("nan", nil), ("inf", nil), ("0x10", nil), ("1,5", nil),
        ("9007199254740993", nil), ("1e-400", nil), (" 1", nil), ("1e400", nil), ("", nil),
    ]

    @Test("Text read as Double follows the documented table", arguments: doubleTexts)
    func doubleCoercion(text: String, expected: Double?) {
        let params: Params = ["v": text]
        #expect((try? params.value("v", as: Double.self)) == expected, "\(text.debugDescription)")
        #expect((try? params.value("v", as: [Double].self)) == expected.map { [$0] }, "\(text.debugDescription)")
    }

    @Test("Bool, [String], numbers between Int and Double, and nothing else convert, as documented")
    func otherCoercions() throws {
        let params: Params = ["t": "true", "o": "1", "z": "0", "y": "yes", "T": "TRUE", "e": "", "two": 2.0, "half": 2.5, "int": 2, "many": ["1", "2"]]
        #expect(try params.value("t", as: Bool.self) == true)
        #expect(try params.value("o", as: Bool.self) == true)
        #expect(try params.value("z", as: Bool.self) == false)
        for key in ["y", "T", "e"] { #expect(mediatorError { _ = try params.value(key, as: Bool.self) }?.code == .invalidParameter) }
        #expect(try params.value("t", as: [String].self) == ["true"])
        #expect(try params.value("two", as: Int.self) == 2)
        #expect(mediatorError { _ = try params.value("half", as: Int.self) }?.code == .invalidParameter)
        #expect(try params.value("int", as: Double.self) == 2.0)
        #expect(mediatorError { _ = try params.value("int", as: String.self) }?.code == .invalidParameter)
        #expect(try params.value("many", as: [Int].self) == [1, 2])
        #expect(mediatorError { _ = try params.value("o", as: Int64.self) }?.code == .invalidParameter)
    }

    @Test("A URL query repeating a key in two spellings of é is one key, as before, with few and many items")
    func urlQueryKeys() throws {
        let mediator = Mediator()
        try mediator.register(target: "Echo", make: { _ in FastPathBox() }, actions: [Action("echo") { _, params in params }])
        let few = try mediator.callNow(url: "myapp://Echo/echo?%C3%A9=1&e%CC%81=2&x=3") as? Params
        #expect(few?.count == 2)
        #expect(few?["é"] as? [String] == ["1", "2"])
        #expect(few?["e\u{301}"] as? [String] == ["1", "2"])
        let items = (0..<10).map { "k\($0)=\($0)" }.joined(separator: "&")
        let many = try mediator.callNow(url: "myapp://Echo/echo?e%CC%81=1&\(items)&%C3%A9=2") as? Params
        #expect(many?.count == 11)
        #expect(many?["é"] as? [String] == ["1", "2"])
        #expect(try many?.value("k9", as: Int.self) == 9)
    }
}

/// An empty target instance.
final class FastPathBox: Sendable {
    /// A box.
    init() {}
}

// MARK: - Typed handles

/// A typed input.
struct FastPathIn: Codable, Sendable, Equatable {
    /// The number.
    var n: Int
    /// Where a recursing body stops.
    var stop: Int = 0
}

/// A typed output.
struct FastPathOut: Codable, Sendable, Equatable {
    /// The number.
    var n: Int
}

/// Another input type with the same fields: a key of it reaches the same action by its plain form.
struct FastPathOtherIn: Codable, Sendable, Equatable {
    /// The number.
    var n: Int
    /// Where a recursing body stops.
    var stop: Int = 0
}

/// Another output type with the same fields.
struct FastPathOtherOut: Codable, Sendable, Equatable {
    /// The number.
    var n: Int
}

/// What a keyed body throws.
struct FastPathFailure: Error, CustomStringConvertible {
    /// The text.
    let message: String
    /// The text.
    var description: String { message }
}

extension ActionKey where Input == FastPathIn, Output == FastPathOut {
    /// Doubles `n`.
    static var rsDouble: Self { Self(target: "RSKeyed", action: "double") }
    /// Throws.
    static var rsFail: Self { Self(target: "RSKeyed", action: "fail") }
    /// Calls itself through the key until `n` reaches `stop`.
    static var rsRecurse: Self { Self(target: "RSKeyed", action: "recurse") }
    /// Calls itself through the handle in the target's box until `n` reaches `stop`.
    static var rsRecurseHandle: Self { Self(target: "RSKeyed", action: "recurseHandle") }
    /// Async, checks cancellation.
    static var rsLater: Self { Self(target: "RSKeyed", action: "later") }
    /// Registered by name.
    static var rsPlain: Self { Self(target: "RSPlain", action: "double") }
}

/// The keyed target: its factory numbers nothing; its recursing bodies count their runs.
final class FastPathKeyed: Sendable {
    /// The mediator, for the recursing body.
    let mediator: Mediator
    /// Runs of the recursing bodies.
    let runs: Counter
    /// The handle the handle-recursing body calls.
    let box: ReadWriteLock<ActionHandle<FastPathIn, FastPathOut>?>

    /// An instance calling back into `mediator`.
    init(mediator: Mediator, runs: Counter, box: ReadWriteLock<ActionHandle<FastPathIn, FastPathOut>?>) {
        self.mediator = mediator
        self.runs = runs
        self.box = box
    }

    /// The keyed actions.
    static let actions: [Action<FastPathKeyed>] = [
        Action(.rsDouble) { _, input in FastPathOut(n: input.n * 2) },
        Action(.rsFail) { _, input in throw FastPathFailure(message: "boom \(input.n)") },
        Action(.rsRecurse) { target, input in
            target.runs.increment()
            guard input.n < input.stop else { return FastPathOut(n: input.n) }
            return try target.mediator.callNow(.rsRecurse, FastPathIn(n: input.n + 1, stop: input.stop))
        },
        Action(.rsRecurseHandle) { target, input in
            target.runs.increment()
            guard input.n < input.stop, let handle = target.box.withReadLock({ $0 }) else { return FastPathOut(n: input.n) }
            return try handle.callNow(FastPathIn(n: input.n + 1, stop: input.stop))
        },
        Action(.rsLater) { _, input async throws in
            try Task.checkCancellation()
            return FastPathOut(n: input.n * 3)
        },
    ]
}

/// Counts what it sees and answers `answer` when set.
struct FastPathInterceptor: Interceptor {
    /// Calls seen.
    let seen: Counter
    /// The answer, if any.
    let answer: FastPathOut?

    /// Counts and answers or proceeds.
    func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
        seen.increment()
        return answer.map { .answer($0) } ?? .proceed
    }
}

/// Counts finished calls.
struct FastPathObserver: CallObserver {
    /// Records seen.
    let seen: Counter

    /// Counts the record.
    func callDidFinish(_ record: CallRecord) { seen.increment() }
}

/// A world with the keyed target `RSKeyed` and the by-name target `RSPlain`.
struct FastPathWorld {
    /// The mediator.
    let mediator: Mediator
    /// Runs of the recursing bodies.
    let runs = Counter()
    /// The handle the handle-recursing body calls.
    let box = ReadWriteLock<ActionHandle<FastPathIn, FastPathOut>?>(nil)

    /// A world whose mediator allows `depth` nested calls.
    init(depth: Int = Mediator.defaultMaximumCallDepth) throws {
        mediator = Mediator(maximumCallDepth: depth)
        let runs = runs
        let box = box
        try mediator.register(
            target: "RSKeyed", make: { mediator in FastPathKeyed(mediator: mediator, runs: runs, box: box) }, actions: FastPathKeyed.actions)
        try mediator.register(
            target: "RSPlain", make: { _ in FastPathBox() },
            actions: [Action("double") { _, params in ["n": try params.value("n", as: Int.self) * 2] as [String: any Sendable] }])
    }
}

/// The synchronous call of a typed handle (an async context would pick the async overload).
private func callNow<Input, Output>(_ handle: ActionHandle<Input, Output>, _ input: Input) throws(MediatorError) -> Output {
    try handle.callNow(input)
}

/// The synchronous call through a key.
private func callKeyNow<Input, Output>(_ mediator: Mediator, _ key: ActionKey<Input, Output>, _ input: Input) throws(MediatorError) -> Output {
    try mediator.callNow(key, input)
}

@Suite("Typed handles: the fast path")
struct TypedHandleFastPathTests {
    @Test("A body's error is the same from the fast path, the general path, the intercepted path and a call by key")
    func sameErrors() throws {
        let world = try FastPathWorld()
        let fast = try world.mediator.handle(.rsFail, shouldCacheTarget: true)
        let general = try world.mediator.handle(.rsFail)
        let byKey = errorParts(mediatorError { _ = try callKeyNow(world.mediator, .rsFail, FastPathIn(n: 1)) })
        #expect(byKey.hasPrefix("actionFailed RSKeyed fail"))
        #expect(errorParts(mediatorError { _ = try callNow(fast, FastPathIn(n: 1)) }) == byKey)
        #expect(errorParts(mediatorError { _ = try callNow(general, FastPathIn(n: 1)) }) == byKey)
        let underlying = mediatorError { _ = try callNow(fast, FastPathIn(n: 1)) }?.underlying
        #expect((underlying as? FastPathFailure)?.message == "boom 1")
        _ = world.mediator.addInterceptor(FastPathInterceptor(seen: Counter(), answer: nil))
        #expect(errorParts(mediatorError { _ = try callNow(fast, FastPathIn(n: 1)) }) == byKey)
    }

    @Test("Full names in the key: the handle's errors name the call as the call by key does")
    func fullNames() throws {
        let world = try FastPathWorld()
        let key = ActionKey<FastPathIn, FastPathOut>(target: "Target_RSKeyed", action: "Action_fail")
        let fast = try world.mediator.handle(key, shouldCacheTarget: true)
        let byKey = errorParts(mediatorError { _ = try callKeyNow(world.mediator, key, FastPathIn(n: 2)) })
        #expect(errorParts(mediatorError { _ = try callNow(fast, FastPathIn(n: 2)) }) == byKey)
        let double = ActionKey<FastPathIn, FastPathOut>(target: "Target_RSKeyed", action: "Action_double")
        #expect(try callNow(world.mediator.handle(double, shouldCacheTarget: true), FastPathIn(n: 4)) == FastPathOut(n: 8))
    }

    @Test("Interceptors and observers added after the handle was made see its calls; removed ones stop")
    func laterInterception() throws {
        let world = try FastPathWorld()
        let fast = try world.mediator.handle(.rsDouble, shouldCacheTarget: true)
        #expect(try callNow(fast, FastPathIn(n: 2)) == FastPathOut(n: 4))
        let seen = Counter()
        let id = world.mediator.addInterceptor(FastPathInterceptor(seen: seen, answer: FastPathOut(n: -1)))
        #expect(try callNow(fast, FastPathIn(n: 2)) == FastPathOut(n: -1))
        #expect(seen.value == 1)
        _ = world.mediator.removeInterception(id)
        #expect(try callNow(fast, FastPathIn(n: 2)) == FastPathOut(n: 4))
        #expect(seen.value == 1)
        let records = Counter()
        let observer = world.mediator.addObserver(FastPathObserver(seen: records))
        #expect(try callNow(fast, FastPathIn(n: 3)) == FastPathOut(n: 6))
        #expect(records.value == 1)
        _ = world.mediator.removeInterception(observer)
        #expect(try callNow(fast, FastPathIn(n: 3)) == FastPathOut(n: 6))
        #expect(records.value == 1)
    }

    @Test("A key of other types with the same fields, and an action registered by name, answer as the call by key")
    func otherTypes() throws {
        let world = try FastPathWorld()
        let other = ActionKey<FastPathOtherIn, FastPathOtherOut>(target: "RSKeyed", action: "double")
        let handle = try world.mediator.handle(other, shouldCacheTarget: true)
        #expect(try callNow(handle, FastPathOtherIn(n: 5)) == FastPathOtherOut(n: 10))
        #expect(try callKeyNow(world.mediator, other, FastPathOtherIn(n: 5)) == FastPathOtherOut(n: 10))
        let plain = try world.mediator.handle(.rsPlain, shouldCacheTarget: true)
        #expect(try callNow(plain, FastPathIn(n: 6)) == FastPathOut(n: 12))
        let mismatched = ActionKey<FastPathIn, String>(target: "RSKeyed", action: "double")
        let mismatch = try world.mediator.handle(mismatched, shouldCacheTarget: true)
        let fromHandle = mediatorError { _ = try callNow(mismatch, FastPathIn(n: 1)) }
        let fromKey = mediatorError { _ = try callKeyNow(world.mediator, mismatched, FastPathIn(n: 1)) }
        #expect(fromHandle?.code == .resultTypeMismatch)
        #expect(errorParts(fromHandle) == errorParts(fromKey))
        let missing = mediatorError { _ = try world.mediator.handle(ActionKey<FastPathIn, FastPathOut>(target: "RSKeyed", action: "nope")) }
        #expect(missing?.code == .actionNotFound)
    }

    @Test("Runaway recursion stops at the same depth through the fast path, the general path and the key, and the depth is restored after")
    func recursionLimit() throws {
        let depth = 12
        for cached in [true, false] {
            let world = try FastPathWorld(depth: depth)
            let handle = try world.mediator.handle(.rsRecurseHandle, shouldCacheTarget: cached)
            world.box.withLock { $0 = handle }
            // `stop` levels below the first: `stop + 1` nested calls.
            #expect(try callNow(handle, FastPathIn(n: 0, stop: depth - 1)) == FastPathOut(n: depth - 1), "cached \(cached)")
            world.runs.set(0)
            let error = mediatorError { _ = try callNow(handle, FastPathIn(n: 0, stop: depth)) }
            #expect(error?.code == .callDepthExceeded, "cached \(cached)")
            #expect(world.runs.value == depth, "cached \(cached)")
            #expect(try callNow(handle, FastPathIn(n: 0, stop: depth - 1)) == FastPathOut(n: depth - 1), "cached \(cached): depth restored")
            world.runs.set(0)
            #expect(mediatorError { _ = try callKeyNow(world.mediator, .rsRecurse, FastPathIn(n: 0, stop: depth)) }?.code == .callDepthExceeded)
            #expect(world.runs.value == depth)
            #expect(try callKeyNow(world.mediator, .rsRecurse, FastPathIn(n: 0, stop: depth - 1)) == FastPathOut(n: depth - 1))
        }
    }

    @Test("Async keyed body: the sync call says asyncAction, the async call answers, a cancelled task gets cancelled, as by key")
    func asyncBodies() async throws {
        let world = try FastPathWorld()
        let handle = try world.mediator.handle(.rsLater, shouldCacheTarget: true)
        #expect(mediatorError { _ = try callNow(handle, FastPathIn(n: 1)) }?.code == .asyncAction)
        #expect(mediatorError { _ = try callKeyNow(world.mediator, .rsLater, FastPathIn(n: 1)) }?.code == .asyncAction)
        #expect(try await handle.call(FastPathIn(n: 2)) == FastPathOut(n: 6))
        let codes = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            let viaHandle = await awaitedMediatorError { _ = try await handle.call(FastPathIn(n: 1)) }
            let viaKey = await awaitedMediatorError { _ = try await world.mediator.call(.rsLater, FastPathIn(n: 1)) }
            return [errorParts(viaHandle), errorParts(viaKey)]
        }.value
        #expect(codes[0].hasPrefix("cancelled"))
        #expect(codes[0] == codes[1])
    }
}

// MARK: - Call depth

/// The synchronous call of `Deep/action` (an async context would pick the async overload).
private func syncCall(_ mediator: Mediator, _ action: String, _ params: Params) throws(MediatorError) -> (any Sendable)? {
    try mediator.callNow(target: "Deep", action: action, params: params)
}

@Suite("Call depth in a thread-local word")
struct CallDepthWordTests {
    /// A mediator whose `Deep/down` calls itself `n` more times, counting runs; `Deep/later` is
    /// async and calls `down` synchronously.
    private func deepMediator(depth: Int, runs: Counter) throws -> Mediator {
        let mediator = Mediator(maximumCallDepth: depth)
        try mediator.register(
            target: "Deep", make: { _ in FastPathBox() },
            actions: [
                Action("down") { _, params in
                    runs.increment()
                    let left = try params.value("n", as: Int.self)
                    guard left > 0 else { return 0 }
                    return try mediator.callNow(target: "Deep", action: "down", params: ["n": left - 1])
                },
                Action("later") { _, params async throws in
                    let left = try params.value("n", as: Int.self)
                    return try syncCall(mediator, "down", ["n": left])
                },
                Action("laterDown") { _, params async throws in
                    runs.increment()
                    let left = try params.value("n", as: Int.self)
                    guard left > 0 else { return 0 }
                    return try await mediator.call(target: "Deep", action: "laterDown", params: ["n": left - 1])
                },
            ])
        return mediator
    }

    @Test("Sequential nested calls from one frame each count one level: the depth is restored after every call, fast path or not")
    func siblings() throws {
        let world = try FastPathWorld(depth: 3)
        let handle = try world.mediator.handle(.rsDouble, shouldCacheTarget: true)
        let mediator = Mediator(maximumCallDepth: 3)
        try mediator.register(
            target: "Fan", make: { _ in FastPathBox() },
            actions: [
                Action("leaf") { _, _ in 1 },
                Action("fan") { _, _ in
                    var total = 0
                    for _ in 0..<30 {
                        total += try mediator.callNow(target: "Fan", action: "leaf", as: Int.self)
                        total += try handle.callNow(FastPathIn(n: 0)).n + 1
                    }
                    return total
                },
            ])
        #expect(try mediator.callNow(target: "Fan", action: "fan", as: Int.self) == 60)
        #expect(try mediator.callNow(target: "Fan", action: "fan", as: Int.self) == 60)
    }

    @Test("On many threads at once each thread gets exactly the limit, before and after a failure")
    func threads() throws {
        let runs = Counter()
        let mediator = try deepMediator(depth: 9, runs: runs)
        let wrong = Counter()
        onThreads(6) { _ in
            for _ in 0..<20 {
                if (try? mediator.callNow(target: "Deep", action: "down", params: ["n": 8])) == nil { wrong.increment() }
                let error = mediatorError { _ = try mediator.callNow(target: "Deep", action: "down", params: ["n": 9]) }
                if error?.code != .callDepthExceeded { wrong.increment() }
            }
        }
        #expect(wrong.value == 0)
    }

    @Test("Async recursion and sync calls inside an async action add up to the same limit")
    func mixed() async throws {
        let runs = Counter()
        let mediator = try deepMediator(depth: 8, runs: runs)
        _ = try await mediator.call(target: "Deep", action: "laterDown", params: ["n": 7])
        runs.set(0)
        let error = await awaitedMediatorError { _ = try await mediator.call(target: "Deep", action: "laterDown", params: ["n": 8]) }
        #expect(error?.code == .callDepthExceeded)
        #expect(runs.value == 8)
        // `later` is one level; the sync chain under it gets the other seven.
        _ = try await mediator.call(target: "Deep", action: "later", params: ["n": 6])
        let mixedError = await awaitedMediatorError { _ = try await mediator.call(target: "Deep", action: "later", params: ["n": 7]) }
        #expect(mixedError?.code == .callDepthExceeded)
        // And the thread's count is back to zero: a full sync chain fits again.
        #expect(try syncCall(mediator, "down", ["n": 7]) as? Int == 0)
    }
}

// MARK: - Route trie

/// A mediator whose target `Echo/echo` returns its params and `Other/ping` returns "pong".
private func routeMediator() throws -> Mediator {
    let mediator = Mediator()
    try mediator.register(
        target: "Echo", make: { _ in FastPathBox() }, actions: [Action("echo") { _, params in params.values }, Action("other") { _, _ in "other" }])
    try mediator.register(target: "Other", make: { _ in FastPathBox() }, actions: [Action("ping") { _, _ in "pong" }])
    return mediator
}

/// The pattern of the route `url` reached through `Echo/echo`, or `nil`.
private func routed(_ mediator: Mediator, _ url: String) -> String? {
    ((try? mediator.callNow(url: url)) as? [String: any Sendable])?[URLRoute.patternKey] as? String
}

@Suite("The flat route trie")
struct RouteTrieTests {
    @Test("Nodes with many literal children find each one, miss the others, and fall back to placeholders", arguments: [4, 5, 6, 8, 9, 17, 100, 2000])
    func manyLiterals(count: Int) throws {
        let mediator = try routeMediator()
        var routes = (0..<count).map { URLRoute("/n/\($0 % 3 == 0 ? "p" : "q")\($0)", target: "Echo", action: "echo") }
        routes.append(URLRoute("/n/:x<int>", target: "Echo", action: "echo"))
        routes.append(URLRoute("/n/:x", target: "Echo", action: "echo"))
        routes.append(URLRoute("/n/*", target: "Echo", action: "echo"))
        try mediator.addRoutes(routes)
        var wrong: [String] = []
        for index in 0..<count {
            let name = "\(index % 3 == 0 ? "p" : "q")\(index)"
            if routed(mediator, "myapp://n/\(name)") != "/n/\(name)" { wrong.append(name) }
            if !mediator.canOpen("myapp://n/\(name)") { wrong.append("canOpen " + name) }
            if routed(mediator, "myapp://n/\(name)x") != "/n/:x" { wrong.append(name + "x") }
            if routed(mediator, "myapp://n/\(name)/more") != "/n/*" { wrong.append(name + "/more") }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
        #expect(routed(mediator, "myapp://n/42") == "/n/:x<int>")
        #expect(routed(mediator, "myapp://n/") == "/n/*")
        #expect(routed(mediator, "myapp://n//") == "/n/*")
        #expect(routed(mediator, "myapp://n/p") == "/n/:x")
    }

    @Test("NFC and NFD literals are distinct routes and never match each other, in small and hashed nodes", arguments: [0, 10])
    func normalisation(extra: Int) throws {
        let mediator = try routeMediator()
        var routes = [URLRoute("/c/caf\u{E9}", target: "Echo", action: "echo"), URLRoute("/c/cafe\u{301}", target: "Echo", action: "echo")]
        routes += (0..<extra).map { URLRoute("/c/x\($0)", target: "Echo", action: "echo") }
        routes.append(URLRoute("/c/\u{212A}", target: "Echo", action: "echo"))
        try mediator.addRoutes(routes)
        #expect(routed(mediator, "myapp://c/caf%C3%A9") == "/c/caf\u{E9}")
        #expect(routed(mediator, "myapp://c/cafe%CC%81") == "/c/cafe\u{301}")
        #expect(routed(mediator, "myapp://c/%E2%84%AA") == "/c/\u{212A}")
        #expect(routed(mediator, "myapp://c/K") == nil)
        #expect(routed(mediator, "myapp://c/caf%C3%A9%CC%81") == nil)
    }

    @Test("Literals sharing prefixes and lengths, and literals whose 64-bit FNV-1a hashes fold alike, are told apart")
    func prefixes() throws {
        let mediator = try routeMediator()
        let names = ["a", "aa", "aaa", "ab", "ba", "abc", "acb", "bac", "bca", "cab", "cba", "a b", "é", "ß", "日本", "🙂", "a\u{0}b", "a\u{0}c"]
        try mediator.addRoutes(names.map { URLRoute("/s/\($0)/end", target: "Echo", action: "echo") })
        for name in names {
            var encoded = ""
            for byte in name.utf8 {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
            #expect(routed(mediator, "myapp://s/\(encoded)/end") == "/s/\(name)/end", "\(name.debugDescription)")
            #expect(routed(mediator, "myapp://s/\(encoded)") == nil)
        }
    }

    @Test("Precedence in a hashed node: literal, then typed, then untyped, then wildcard; priority first")
    func precedence() throws {
        let mediator = try routeMediator()
        var routes = (0..<20).map { URLRoute("/p/l\($0)/:rest", target: "Echo", action: "echo") }
        routes.append(URLRoute("/p/:a<alpha>/:rest", target: "Echo", action: "echo"))
        routes.append(URLRoute("/p/:a/:rest", target: "Echo", action: "echo"))
        routes.append(URLRoute("/p/*", target: "Echo", action: "echo"))
        routes.append(URLRoute("/p/l3/:rest<int>", target: "Other", action: "ping", priority: 1))
        try mediator.addRoutes(routes)
        #expect(routed(mediator, "myapp://p/l5/x") == "/p/l5/:rest")
        #expect(routed(mediator, "myapp://p/l5z/x") == "/p/:a/:rest")
        #expect(routed(mediator, "myapp://p/lz/x") == "/p/:a<alpha>/:rest")
        #expect(routed(mediator, "myapp://p/ab/x") == "/p/:a<alpha>/:rest")
        #expect(routed(mediator, "myapp://p/l5") == "/p/*")
        #expect(try mediator.callNow(url: "myapp://p/l3/7") as? String == "pong")
        #expect(routed(mediator, "myapp://p/l3/x") == "/p/l3/:rest")
    }
}

// MARK: - Deep-link fixes

@Suite("Deep links: the fast path")
struct DeepLinkFastPathTests {
    @Test("canOpen agrees with opening when a degradation's fallback is itself redirected")
    func canOpenFallbackRedirected() throws {
        let mediator = try routeMediator()
        var table = RedirectTable()
        try table.degrade("Shop", to: "Web/open")
        try table.redirect("Web/open", to: "Other/ping")
        mediator.setRedirects(table)
        let opened = try? mediator.callNow(url: "myapp://Shop/buy")
        #expect(opened as? String == "pong")
        #expect(mediator.canOpen("myapp://Shop/buy") == (opened != nil))
    }

    @Test("canOpen agrees with opening when eight redirects end at a target that degrades (the degradation is a hop)")
    func canOpenHopLimit() throws {
        let mediator = try routeMediator()
        var table = RedirectTable()
        for hop in 0..<8 { try table.redirect("R\(hop)/go", to: "R\(hop + 1)/go") }
        try table.degrade("R8", to: "Other/ping")
        mediator.setRedirects(table)
        let opened = mediatorError { _ = try mediator.callNow(url: "myapp://R0/go") }
        #expect(mediator.canOpen("myapp://R0/go") == (opened == nil), "open: \(errorParts(opened))")
    }

    @Test("canOpen follows redirects with the URL rules and refuses a local-only end")
    func canOpenRules() throws {
        let mediator = try routeMediator()
        try mediator.register(target: "Vault", make: { _ in FastPathBox() }, actions: [Action("open", localOnly: true) { _, _ in "v" }])
        var table = RedirectTable()
        try table.redirect("Old/a", to: "Other/ping")
        try table.redirect("Old/b", to: "Vault/open")
        try table.redirect("Old/c", to: "Other/nativePing")
        try table.degrade("Gone", to: "Other/ping")
        mediator.setRedirects(table)
        #expect(mediator.canOpen("myapp://Old/a"))
        #expect(!mediator.canOpen("myapp://Old/b"))
        #expect(!mediator.canOpen("myapp://Old/c"))
        #expect(mediator.canOpen("myapp://Gone/x"))
        mediator.urlPolicy = URLPolicy(allowedTargets: ["Old", "Gone"])
        #expect(!mediator.canOpen("myapp://Old/a"))
        #expect(!mediator.canOpen("myapp://Gone/x"))
        #expect((try? mediator.callNow(url: "myapp://Old/a")) == nil)
    }

    @Test("The unmatched-URL handler sees paths of up to 64 segments (the host counting for a custom scheme) and no longer", arguments: [63, 64, 65])
    func handlerSegmentLimit(segments: Int) throws {
        let mediator = try routeMediator()
        try mediator.route("/only/route", to: "Other", action: "ping")
        let seen = ReadWriteLock<[Int]>([])
        mediator.unmatchedURLHandler = { url in
            seen.withLock { $0.append(url.path.count) }
            return .answer("handled")
        }
        let custom = "myapp://" + Array(repeating: "s", count: segments).joined(separator: "/")
        let web = "https://example.com/" + Array(repeating: "s", count: segments).joined(separator: "/")
        let customAnswer = mediator.open(custom) as? String
        let webAnswer = mediator.open(web) as? String
        #expect((customAnswer == "handled") == (segments <= 64))
        #expect((webAnswer == "handled") == (segments <= 64))
        #expect(seen.withReadLock { $0 } == (segments <= 64 ? [segments, segments] : []))
    }

    @Test("'//' after the host is the host and one empty segment for the handler and for routes")
    func doubleSlash() throws {
        let mediator = try routeMediator()
        try mediator.route("/user/*", to: "Echo", action: "echo")
        let rest = ((try? mediator.callNow(url: "myapp://user//")) as? [String: any Sendable])?[URLRoute.restKey] as? [String]
        #expect(rest == [""])
        let other = try routeMediator()
        try other.route("/x", to: "Other", action: "ping")
        let seen = ReadWriteLock<[[String]]>([])
        other.unmatchedURLHandler = { url in
            seen.withLock { $0.append(url.path) }
            return .answer("h")
        }
        _ = other.open("myapp://user//")
        _ = other.open("myapp://user///")
        _ = other.open("https://example.com//")
        #expect(seen.withReadLock { $0 } == [["user", ""], ["user", "", ""], [""]])
    }

    @Test("Patterns whose variants a wildcard covers are duplicates; others are not; removeRoute finds them by their URLs")
    func wildcardDuplicates() throws {
        let mediator = try routeMediator()
        try mediator.route("/a/*", to: "Echo", action: "echo")
        for pattern in ["/a(/*)", "/a(/:x)/*", "/a(/:x<int>)(/*)", "/a(/b)/*"] {
            let error = mediatorError { try mediator.route(pattern, to: "Other", action: "ping") }
            #expect(error?.code == .duplicateRoute, "\(pattern)")
        }
        try mediator.route("/a", to: "Other", action: "ping")
        try mediator.route("/a/:x", to: "Other", action: "ping")
        #expect(routed(mediator, "myapp://a/b/c") == "/a/*")
        #expect(try mediator.callNow(url: "myapp://a") as? String == "pong")
        #expect(mediator.removeRoute("/a(/*)"))
        #expect(routed(mediator, "myapp://a/b/c") == nil)
        #expect(!mediator.removeRoute("/a/*"))
        #expect(mediator.removeRoute("/a", scheme: "") == false)
        #expect(try mediator.callNow(url: "myapp://a") as? String == "pong")
    }

    @Test("Eight nested optional groups are accepted, nine refused, and a 100,000-deep pattern refused without a crash")
    func groupLimit() throws {
        let mediator = try routeMediator()
        let letters = Array("abcdefghij")
        func nested(_ count: Int) -> String {
            "/r" + (0..<count).map { "(/\(letters[$0])" }.joined() + String(repeating: ")", count: count)
        }
        try mediator.route(nested(8), to: "Other", action: "ping")
        #expect(try mediator.callNow(url: "myapp://r/a/b/c/d/e/f/g/h") as? String == "pong")
        #expect(mediatorError { try mediator.route("/s" + nested(9).dropFirst(2), to: "Other", action: "ping") }?.code == .invalidRoute)
        let deep = "/d" + String(repeating: "(/x", count: 100_000) + String(repeating: ")", count: 100_000)
        #expect(mediatorError { try mediator.route(deep, to: "Other", action: "ping") }?.code == .invalidRoute)
        let unclosed = "/u" + String(repeating: "(/x", count: 20)
        #expect(mediatorError { try mediator.route(unclosed, to: "Other", action: "ping") }?.code == .invalidRoute)
    }

    @Test("An empty authority's first path segment is matched as written; a host is matched ignoring case")
    func emptyAuthority() throws {
        let mediator = try routeMediator()
        mediator.urlPolicy.matchesHostIgnoringCase = true
        mediator.urlPolicy.allowsEmptyAuthority = true
        try mediator.route("/user/:id", to: "Echo", action: "echo")
        #expect(routed(mediator, "myapp:///user/1") == "/user/:id")
        #expect(routed(mediator, "myapp://User/1") == "/user/:id")
        #expect(routed(mediator, "myapp:///User/1") == nil)
    }
}

// MARK: - Typed results

/// A decodable result.
struct FastPathPoint: Codable, Sendable, Equatable {
    /// The x.
    var x: Int
    /// The y.
    var y: Double
}

@Suite("Inlined typed results")
struct TypedResultFastPathTests {
    /// A mediator whose `Res` actions return fixed results.
    private func resultMediator() throws -> Mediator {
        let mediator = Mediator()
        var actions: [Action<FastPathBox>] = []
        actions.append(Action("none") { _, _ in nil })
        actions.append(Action("five") { _, _ in 5 })
        actions.append(Action("text") { _, _ in "x" })
        actions.append(Action("point") { _, _ in ["x": 1, "y": 2] as [String: any Sendable] })
        actions.append(Action("big") { _, _ in 300 })
        actions.append(Action("typed") { _, _ in FastPathPoint(x: 3, y: 4.5) })
        try mediator.register(target: "Res", make: { _ in FastPathBox() }, actions: actions)
        return mediator
    }

    @Test("Generic results: nil is an Optional's nil and a mismatch otherwise; a wrong type is a mismatch")
    func generic() throws {
        let mediator = try resultMediator()
        #expect(try mediator.callNow(target: "Res", action: "none", as: Int?.self) == nil)
        #expect(try mediator.callNow(target: "Res", action: "five", as: Int?.self) == 5)
        #expect(mediatorError { _ = try mediator.callNow(target: "Res", action: "none", as: Int.self) }?.code == .resultTypeMismatch)
        #expect(mediatorError { _ = try mediator.callNow(target: "Res", action: "text", as: Int.self) }?.code == .resultTypeMismatch)
        #expect(try mediator.callNow(target: "Res", action: "typed", as: FastPathPoint.self) == FastPathPoint(x: 3, y: 4.5))
        let closure = try mediator.callNow(target: "Res", action: "five", as: (any Sendable).self)
        #expect(closure as? Int == 5)
    }

    @Test("Decodable results: decoded from plain values, numbers exactly, Optional nil, mismatches named")
    func decodable() throws {
        let mediator = try resultMediator()
        #expect(try mediator.callNow(target: "Res", action: "point", as: FastPathPoint.self) == FastPathPoint(x: 1, y: 2))
        #expect(try mediator.callNow(target: "Res", action: "five", as: Double.self) == 5.0)
        #expect(try mediator.callNow(target: "Res", action: "none", as: FastPathPoint?.self) == nil)
        #expect(mediatorError { _ = try mediator.callNow(target: "Res", action: "big", as: Int8.self) }?.code == .resultTypeMismatch)
        #expect(mediatorError { _ = try mediator.callNow(target: "Res", action: "none", as: FastPathPoint.self) }?.code == .resultTypeMismatch)
    }

    @Test("Async typed results answer as the synchronous ones")
    func asyncResults() async throws {
        let mediator = try resultMediator()
        #expect(try await mediator.call(target: "Res", action: "point", as: FastPathPoint.self) == FastPathPoint(x: 1, y: 2))
        #expect(try await mediator.call(target: "Res", action: "none", as: Int?.self) == nil)
        let asyncMismatch = await awaitedMediatorError { _ = try await mediator.call(target: "Res", action: "text", as: Int.self) }
        #expect(asyncMismatch?.code == .resultTypeMismatch)
    }
}
