import Mediator
import Testing

struct Point: Decodable, Equatable {
    let x: Int
    let y: Double
    let label: String?
}

struct Shape: Decodable, Equatable {
    let name: String
    let points: [Point]
    let tags: [String]
    let small: Int8
}

@Suite("Typed results")
struct TypedResultTests {
    let mediator: Mediator

    init() throws {
        mediator = Mediator()
        try mediator.register(
            target: "Geo",
            actions: [
                Action("point") { _, _ in ["x": 1, "y": 2.5, "label": "p"] as [String: any Sendable] },
                Action("shape") { _, params in
                    [
                        "name": "tri",
                        "points": [["x": 0, "y": 0], ["x": "3", "y": "4.5", "label": "text coerced"]] as [[String: any Sendable]],
                        "tags": "single",
                        "small": try params.value("small", as: Int.self),
                    ] as [String: any Sendable]
                },
                Action("number") { _, _ in 7 },
                Action("nothing") { _, _ in nil },
            ])
    }

    @Test("A dictionary result decodes into the caller's own Decodable type")
    func decodesDictionary() throws {
        #expect(try mediator.callNow(target: "Geo", action: "point", as: Point.self) == Point(x: 1, y: 2.5, label: "p"))
    }

    @Test("Nested arrays and dictionaries decode, with text coerced as params are")
    func decodesNested() throws {
        let shape = try mediator.callNow(target: "Geo", action: "shape", params: ["small": 5], as: Shape.self)
        #expect(shape == Shape(name: "tri", points: [Point(x: 0, y: 0, label: nil), Point(x: 3, y: 4.5, label: "text coerced")], tags: ["single"], small: 5))
    }

    @Test("A result that does not fit names the path and the value")
    func mismatchNamesPath() {
        let error = #expect(throws: MediatorError.self) {
            try mediator.callNow(target: "Geo", action: "shape", params: ["small": 300], as: Shape.self)
        }
        #expect(error?.code == .resultTypeMismatch)
        #expect(error?.target == "Geo")
        #expect(error?.action == "shape")
        #expect(error?.description.contains("at \"small\": expected Int8, got Int 300") == true)
    }

    @Test("A plain result of the wrong type is a resultTypeMismatch; nil fits only an Optional")
    func plainMismatch() throws {
        #expect(try mediator.callNow(target: "Geo", action: "number", as: Int.self) == 7)
        let wrong = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Geo", action: "number", as: String.self) }
        #expect(wrong?.code == .resultTypeMismatch)
        let none = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Geo", action: "nothing", as: Point.self) }
        #expect(none?.description.contains("got nothing") == true)
        #expect(try mediator.callNow(target: "Geo", action: "nothing", as: Int?.self) == nil)
    }

    @Test(
        "Numbers convert only when the type holds them exactly and in range, for every numeric type",
        arguments: [
            // (the result, the type asked for, the value expected or nil for a mismatch)
            (1e39 as Double, "Float", nil), (16_777_217, "Float", nil), (16_777_216, "Float", 16_777_216.0),
            (0.5 as Double, "Float", 0.5), (0.1 as Double, "Float", nil), (1e300 as Double, "Float", nil),
            (3.0 as Double, "Int", 3.0), (3.5 as Double, "Int", nil), (300, "Int8", nil), (-1, "UInt", nil),
            (Int64.max, "Int", Double(Int64.max)), (9_007_199_254_740_993 as Int, "Double", nil),
            ("0.1", "Float", Double(Float(0.1))), ("1e39", "Float", nil), ("16777216", "Float", 16_777_216.0),
            ("16777217", "Float", nil), ("9007199254740993", "Double", nil), ("9007199254740992", "Double", 9_007_199_254_740_992),
            ("1e-50", "Float", nil), ("1e-400", "Double", nil), ("0.0", "Float", 0), ("-0", "Double", 0), ("300", "Int8", nil),
            ("18446744073709551615", "UInt64", Double(UInt64.max)), ("-1", "UInt64", nil), ("+7", "Int8", 7),
        ] as [(any Sendable, String, Double?)])
    func exactNumbers(result: any Sendable, type: String, expected: Double?) throws {
        let mediator = Mediator()
        try mediator.register(target: "Number", actions: [Action("get") { _, _ in result }])
        func decoded<T: Decodable & BinaryFloatingPoint>(_: T.Type) throws(MediatorError) -> Double {
            Double(try mediator.callNow(target: "Number", action: "get", as: T.self))
        }
        func decoded<T: Decodable & BinaryInteger>(_: T.Type) throws(MediatorError) -> Double {
            Double(try mediator.callNow(target: "Number", action: "get", as: T.self))
        }
        let outcome: Result<Double, MediatorError> =
            switch type {
            case "Float": Result { () throws(MediatorError) in try decoded(Float.self) }
            case "Int": Result { () throws(MediatorError) in try decoded(Int.self) }
            case "Int8": Result { () throws(MediatorError) in try decoded(Int8.self) }
            case "UInt": Result { () throws(MediatorError) in try decoded(UInt.self) }
            case "UInt64": Result { () throws(MediatorError) in try decoded(UInt64.self) }
            default: Result { () throws(MediatorError) in try decoded(Double.self) }
            }
        switch (outcome, expected) {
        case (.success(let value), let expected?): #expect(value == expected)
        case (.failure(let error), nil): #expect(error.code == .resultTypeMismatch)
        default: Issue.record("\(result) as \(type): got \(outcome), expected \(String(describing: expected))")
        }
    }

    @Test("Inside a Decodable type, a Float field follows the same rule")
    func nestedFloat() throws {
        struct Reading: Decodable { let value: Float }
        let mediator = Mediator()
        try mediator.register(
            target: "Sensor",
            actions: [
                Action("exact") { _, _ in ["value": 0.25] as [String: any Sendable] },
                Action("huge") { _, _ in ["value": 1e39] as [String: any Sendable] },
            ])
        #expect(try mediator.callNow(target: "Sensor", action: "exact", as: Reading.self).value == 0.25)
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Sensor", action: "huge", as: Reading.self) }
        #expect(error?.code == .resultTypeMismatch)
        #expect(error?.reason.contains("value") == true)
    }
}
