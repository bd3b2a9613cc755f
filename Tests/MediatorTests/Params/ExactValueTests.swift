import Testing

@testable import Mediator

// Typed reads (a param as a type, a result as a type) go through `castValue`: first `exactValue`,
// which answers only when the type the value was stored as is the type asked for, then the
// runtime's cast for every other case. These tests hold it to that: whenever `exactValue`
// answers, it answers what the cast does, and what it leaves the cast still decides.

private struct ExactPoint: Sendable, Equatable {
    let x: Int
    let y: Int
}

/// Whether `exactValue` answers for `value` as a `T`, after checking that any answer is the cast's.
private func exactAnswers<T: Equatable>(_ value: any Sendable, as type: T.Type) -> Bool {
    let exact = exactValue(value, as: T.self)
    if let exact { #expect(exact == value as? T, "exactValue gave \(exact), the cast \(String(describing: value as? T))") }
    return exact != nil
}

@Suite("Params: reading a value of exactly the type asked for")
struct ExactValueTests {
    @Test("A value of the very type it was stored as is read as it is")
    func sameType() {
        #expect(exactAnswers(42, as: Int.self))
        #expect(exactAnswers("hé", as: String.self))
        #expect(exactAnswers([1, 2, 3], as: [Int].self))
        #expect(exactAnswers(["a": 1], as: [String: Int].self))
        #expect(exactAnswers(ExactPoint(x: 1, y: -2), as: ExactPoint.self))
        #expect(exactAnswers(Optional(7) as any Sendable, as: Int?.self))
        #expect(exactAnswers(Optional<Int>.none as any Sendable, as: Int?.self))
    }

    @Test("Functions, metatypes and existentials follow the same rule")
    func unusualTypes() {
        let double: @Sendable (Int) -> Int = { $0 * 2 }
        let function = exactValue(double, as: (@Sendable (Int) -> Int).self)
        #expect(function?(21) == 42)
        #expect(exactValue(double, as: ((Int) -> Int).self) == nil)
        #expect(exactValue(Int.self, as: Int.Type.self) == Int.self)
        #expect(exactValue(Int.self, as: Any.Type.self) == nil)
        // An existential asked for as itself is the cast's to open: answered only as the cast does.
        let anything = exactValue(42, as: (any Sendable).self)
        #expect(anything == nil || anything as? Int == 42)
    }

    @Test("Any other type is left to the cast, which may still accept it")
    func otherTypes() {
        #expect(!exactAnswers(42, as: String.self))
        #expect(!exactAnswers(42, as: Int32.self))
        #expect(!exactAnswers(42, as: Int?.self))
        #expect(!exactAnswers(Optional(7) as any Sendable, as: Int.self))
        #expect(!exactAnswers("42", as: Int.self))
        #expect(!exactAnswers([1, 2], as: [Int?].self))
        #expect(exactValue(42, as: (any BinaryInteger).self) == nil)
        #expect(exactValue(nil, as: Int.self) == nil)
    }

    @Test("Reads that the exact path leaves to the cast still succeed")
    func castStillDecides() throws {
        let params: Params = ["count": Optional(3) as any Sendable, "n": 5]
        #expect(Int(try params.value("n", as: (any BinaryInteger).self)) == 5)
        #expect(try params.value("count", as: Int.self) == 3)
        #expect(try params.value("n", as: Int?.self) == 5)
        #expect(try params.valueIfPresent("n", as: (any BinaryInteger).self).map { Int($0) } == 5)
        #expect(castValue(5, as: (any BinaryInteger).self).map { Int($0) } == 5)
        #expect(castValue(nil, as: Int.self) == nil)
    }

    @Test("A typed result is read through the same rule: exact, else cast, else decoded")
    func typedResults() throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Shapes",
            actions: [
                Action("point") { _, _ in ExactPoint(x: 3, y: 4) },
                Action("number") { _, _ in 6 },
            ])
        #expect(Int(try mediator.callNow(target: "Shapes", action: "number", as: (any BinaryInteger).self)) == 6)
        #expect(try mediator.callNow(target: "Shapes", action: "point", as: ExactPoint.self) == ExactPoint(x: 3, y: 4))
        #expect(try mediator.callNow(target: "Shapes", action: "number", as: Int?.self) == 6)
        #expect(throws: MediatorError.self) { try mediator.callNow(target: "Shapes", action: "number", as: String.self) }
    }
}
