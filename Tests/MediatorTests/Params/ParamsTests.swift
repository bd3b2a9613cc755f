import Mediator
import Testing

@Suite("Params")
struct ParamsTests {
    @Test("Values of the asked type are returned as they are")
    func exactTypes() throws {
        let params: Params = ["i": 42, "d": 1.5, "b": true, "s": "hi", "a": ["x", "y"], "n": Params(["k": 1])]
        #expect(try params.value("i", as: Int.self) == 42)
        #expect(try params.value("d", as: Double.self) == 1.5)
        #expect(try params.value("b", as: Bool.self) == true)
        #expect(try params.value("s", as: String.self) == "hi")
        #expect(try params.value("a", as: [String].self) == ["x", "y"])
        #expect(try params.value("n", as: Params.self).value("k", as: Int.self) == 1)
    }

    @Test("Unambiguous text converts to Int", arguments: [("42", 42), ("-7", -7), ("+3", 3), ("0", 0), ("9223372036854775807", Int.max)])
    func textToInt(text: String, expected: Int) throws {
        #expect(try Params(["k": text]).value("k", as: Int.self) == expected)
    }

    @Test("Unambiguous text converts to Double", arguments: [("1.5", 1.5), ("-2e3", -2000), ("7", 7)])
    func textToDouble(text: String, expected: Double) throws {
        #expect(try Params(["k": text]).value("k", as: Double.self) == expected)
    }

    @Test("Exactly true/false/1/0 convert to Bool", arguments: [("true", true), ("false", false), ("1", true), ("0", false)])
    func textToBool(text: String, expected: Bool) throws {
        #expect(try Params(["k": text]).value("k", as: Bool.self) == expected)
    }

    @Test("Arrays: a single value becomes one element, and elements convert")
    func arrays() throws {
        #expect(try Params(["k": "a"]).value("k", as: [String].self) == ["a"])
        #expect(try Params(["k": ["1", "2"]]).value("k", as: [Int].self) == [1, 2])
        #expect(try Params(["k": "3"]).value("k", as: [Int].self) == [3])
        #expect(try Params(["k": ["true", "0"]]).value("k", as: [Bool].self) == [true, false])
    }

    @Test("Numbers convert between Int and Double only without loss")
    func numbers() throws {
        #expect(try Params(["k": 3]).value("k", as: Double.self) == 3.0)
        #expect(try Params(["k": 4.0]).value("k", as: Int.self) == 4)
        #expect(throws: MediatorError.self) { try Params(["k": 4.5]).value("k", as: Int.self) }
    }

    @Test(
        "Ambiguous or malformed text is an error naming the key, the type and the text",
        arguments: [
            ("4x", "Int"), ("", "Int"), (" 4", "Int"), ("1.0", "Int"), ("99999999999999999999", "Int"),
            ("nan", "Double"), ("inf", "Double"), ("0x10", "Double"), ("1,5", "Double"),
            ("yes", "Bool"), ("TRUE", "Bool"), ("", "Bool"),
        ])
    func badText(text: String, type: String) {
        let params: Params = ["key": text]
        let error = #expect(throws: MediatorError.self) {
            switch type {
            case "Int": _ = try params.value("key", as: Int.self)
            case "Double": _ = try params.value("key", as: Double.self)
            default: _ = try params.value("key", as: Bool.self)
            }
        }
        #expect(error?.code == .invalidParameter)
        #expect(error?.parameter == "key")
        #expect(error?.description == "invalid parameter \"key\": expected \(type), got String \"\(text)\"")
    }

    @Test("Numbers are never turned into text")
    func noNumberToText() {
        let error = #expect(throws: MediatorError.self) { try Params(["k": 42]).value("k", as: String.self) }
        #expect(error?.description == "invalid parameter \"k\": expected String, got Int 42")
    }

    @Test("A missing key is an error for value and nil for valueIfPresent; a wrong value is an error for both")
    func missingAndOptional() throws {
        let params: Params = ["present": "x"]
        let error = #expect(throws: MediatorError.self) { try params.value("absent", as: Int.self) }
        #expect(error?.description == "missing required parameter \"absent\" (expected Int)")
        #expect(try params.valueIfPresent("absent", as: Int.self) == nil)
        #expect(throws: MediatorError.self) { try params.valueIfPresent("present", as: Int.self) }
        #expect(try params.value("absent", as: Int.self, default: 5) == 5)
    }

    @Test("nil values count as absent")
    func nilIsAbsent() throws {
        let none: String? = nil
        let params: Params = ["k": none]
        #expect(!params.contains("k"))
        #expect(try params.valueIfPresent("k", as: String.self) == nil)
        #expect(throws: MediatorError.self) { try params.value("k", as: String.self) }
    }

    @Test("Sendable closures pass through and can be called back")
    func closures() throws {
        let params: Params = ["onDone": { @Sendable (value: Int) -> Int in value + 1 }]
        let callback = try params.value("onDone", as: (@Sendable (Int) -> Int).self)
        #expect(callback(41) == 42)
        #expect(throws: MediatorError.self) { try params.value("onDone", as: (@Sendable (String) -> Int).self) }
    }

    @Test("A repeated literal key keeps the last value; subscripts set and remove")
    func literalAndSubscript() {
        var params: Params = ["k": 1, "k": 2]
        #expect(params["k"] as? Int == 2)
        params["k"] = nil
        params["j"] = "v"
        #expect(params.keys == ["j"])
        #expect(params.count == 1)
        #expect(params.description == "[j: \"v\"]")
    }

    @Test("Long values are cut in error messages")
    func longValuesCut() {
        let long = String(repeating: "x", count: 500)
        let error = #expect(throws: MediatorError.self) { try Params(["k": long]).value("k", as: Int.self) }
        #expect((error?.description.count ?? 0) < 150)
    }
}
