import Mediator
import TestSupport
import Testing

// Validation and coercion of declared parameters, type by type and error by error. Every expected
// value and message below is written by hand from the contract (and the API notes), not
// copied from the implementation's output.

/// One value sent for a parameter `v` of a type, and what the action must read (`typed` form).
struct Coerced: Sendable, CustomTestStringConvertible {
    let type: ParameterType
    let sent: any Sendable
    let read: String
    init(_ type: ParameterType, _ sent: any Sendable, _ read: String) {
        self.type = type
        self.sent = sent
        self.read = read
    }
    var testDescription: String { "\(type) <- \(typed(sent))" }
}

/// One value refused for a parameter `v` of a type, with the whole message expected.
struct Refused: Sendable, CustomTestStringConvertible {
    let type: ParameterType
    let sent: any Sendable
    let message: String
    init(_ type: ParameterType, _ sent: any Sendable, _ message: String) {
        self.type = type
        self.sent = sent
        self.message = message
    }
    var testDescription: String { "\(type) <- \(typed(sent))" }
}

@Suite("Contracts: validation and coercion of each type")
struct ContractValidationTests {
    static let accepted: [Coerced] = [
        // string: text only; a substring is text.
        Coerced(.string, "abc", #"String "abc""#),
        Coerced(.string, "", #"String """#),
        Coerced(.string, "42", #"String "42""#),
        Coerced(.string, Substring("abc"), #"String "abc""#),
        // integer: integers of any width that fit, integral floating-point numbers, decimal text.
        Coerced(.integer, 42, "Int 42"),
        Coerced(.integer, "42", "Int 42"),
        Coerced(.integer, "-7", "Int -7"),
        Coerced(.integer, "+7", "Int 7"),
        Coerced(.integer, 3.0, "Int 3"),
        Coerced(.integer, -0.0, "Int 0"),
        Coerced(.integer, Int8(-5), "Int -5"),
        Coerced(.integer, UInt64(9), "Int 9"),
        Coerced(.integer, Float(2), "Int 2"),
        Coerced(.integer, Int.max, "Int 9223372036854775807"),
        Coerced(.integer, "-9223372036854775808", "Int -9223372036854775808"),
        // integer with bounds: both ends included.
        Coerced(.integer(minimum: 1, maximum: 100), 1, "Int 1"),
        Coerced(.integer(minimum: 1, maximum: 100), 100, "Int 100"),
        Coerced(.integer(minimum: 1, maximum: 100), "100", "Int 100"),
        Coerced(.integer(minimum: 1, maximum: 100), 50.0, "Int 50"),
        Coerced(.integer(minimum: 0), 0, "Int 0"),
        Coerced(.integer(maximum: 0), -5, "Int -5"),
        // number: finite numbers, integers converted exactly, decimal text.
        Coerced(.number, 1.5, "Double 1.5"),
        Coerced(.number, "1.5", "Double 1.5"),
        Coerced(.number, "-0.25", "Double -0.25"),
        Coerced(.number, "1e3", "Double 1000.0"),
        Coerced(.number, "42", "Double 42.0"),
        Coerced(.number, 3, "Double 3.0"),
        Coerced(.number, Float(0.5), "Double 0.5"),
        Coerced(.number, 9_007_199_254_740_992, "Double 9007199254740992.0"),
        Coerced(.number, Double.greatestFiniteMagnitude, "Double 1.7976931348623157e+308"),
        // number with bounds.
        Coerced(.number(minimum: 0, maximum: 1), 0, "Double 0.0"),
        Coerced(.number(minimum: 0, maximum: 1), "1", "Double 1.0"),
        Coerced(.number(minimum: 0, maximum: 1), 0.5, "Double 0.5"),
        Coerced(.number(minimum: -1.5), -1.5, "Double -1.5"),
        // boolean: Bool, or exactly "true", "false", "1", "0".
        Coerced(.boolean, true, "Bool true"),
        Coerced(.boolean, false, "Bool false"),
        Coerced(.boolean, "true", "Bool true"),
        Coerced(.boolean, "1", "Bool true"),
        Coerced(.boolean, "false", "Bool false"),
        Coerced(.boolean, "0", "Bool false"),
        // arrays of each scalar: elements coerced; one value is a one-element array.
        Coerced(.array(of: .string), ["a", "b"], #"Array<String> ["a", "b"]"#),
        Coerced(.array(of: .string), "a", #"Array<String> ["a"]"#),
        Coerced(.array(of: .string), [String](), "Array<String> []"),
        Coerced(.array(of: .integer), ["1", "2"], "Array<Int> [1, 2]"),
        Coerced(.array(of: .integer), [1, 2], "Array<Int> [1, 2]"),
        Coerced(.array(of: .integer), [1.0, 2.0], "Array<Int> [1, 2]"),
        Coerced(.array(of: .integer), [1, "2"] as [any Sendable], "Array<Int> [1, 2]"),
        Coerced(.array(of: .integer), "7", "Array<Int> [7]"),
        Coerced(.array(of: .integer), 7, "Array<Int> [7]"),
        Coerced(.array(of: .integer(minimum: 0, maximum: 9)), [0, 9], "Array<Int> [0, 9]"),
        Coerced(.array(of: .integer(minimum: 0, maximum: 9)), "9", "Array<Int> [9]"),
        Coerced(.array(of: .number), ["1.5", "2"], "Array<Double> [1.5, 2.0]"),
        Coerced(.array(of: .number), [1, 2], "Array<Double> [1.0, 2.0]"),
        Coerced(.array(of: .number), 3, "Array<Double> [3.0]"),
        Coerced(.array(of: .boolean), ["true", "0"], "Array<Bool> [true, false]"),
        Coerced(.array(of: .boolean), "1", "Array<Bool> [true]"),
        Coerced(.array(of: .boolean), [true], "Array<Bool> [true]"),
        // value(T): a value of exactly that Swift type, as it is.
        Coerced(.value(Marker.self), Marker(id: 1), "Marker Marker(id: 1)"),
        Coerced(.array(of: .value(Marker.self)), [Marker(id: 1)], "Array<Marker> [MediatorTests.Marker(id: 1)]"),
    ]

    @Test("A value of the declared type, or text or a number that converts exactly, reaches the action converted", arguments: accepted)
    func acceptedAndCoerced(_ row: Coerced) throws {
        let world = try ContractWorld([.required("v", row.type)])
        let received = try world.received(["v": row.sent])
        #expect(typed(received["v"]) == row.read)
        #expect(world.runs.value == 1)
    }

    static let refused: [Refused] = [
        Refused(.string, 42, #"Shapes/take: invalid parameter "v": expected string, got Int 42"#),
        Refused(.string, true, #"Shapes/take: invalid parameter "v": expected string, got Bool true"#),
        Refused(.string, ["a"], #"Shapes/take: invalid parameter "v": expected string, got Array<String> ["a"]"#),
        Refused(.integer, "abc", #"Shapes/take: invalid parameter "v": expected integer, got String "abc""#),
        Refused(.integer, "1.5", #"Shapes/take: invalid parameter "v": expected integer, got String "1.5""#),
        Refused(.integer, " 42", #"Shapes/take: invalid parameter "v": expected integer, got String " 42""#),
        Refused(.integer, "4x", #"Shapes/take: invalid parameter "v": expected integer, got String "4x""#),
        Refused(.integer, "", #"Shapes/take: invalid parameter "v": expected integer, got String """#),
        Refused(.integer, "9223372036854775808", #"Shapes/take: invalid parameter "v": expected integer, got String "9223372036854775808""#),
        Refused(.integer, 3.5, #"Shapes/take: invalid parameter "v": expected integer, got Double 3.5"#),
        Refused(.integer, 1e20, #"Shapes/take: invalid parameter "v": expected integer, got Double 1e+20"#),
        Refused(.integer, Double.nan, #"Shapes/take: invalid parameter "v": expected integer, got Double nan"#),
        Refused(.integer, Double.infinity, #"Shapes/take: invalid parameter "v": expected integer, got Double inf"#),
        Refused(.integer, UInt64.max, #"Shapes/take: invalid parameter "v": expected integer, got UInt64 18446744073709551615"#),
        Refused(.integer, true, #"Shapes/take: invalid parameter "v": expected integer, got Bool true"#),
        Refused(.integer, ["1", "2"], #"Shapes/take: invalid parameter "v": expected integer, got Array<String> ["1", "2"]"#),
        Refused(.integer(minimum: 1, maximum: 100), 500, #"Shapes/take: invalid parameter "v": expected integer (1...100), got Int 500 (out of range)"#),
        Refused(.integer(minimum: 1, maximum: 100), 0, #"Shapes/take: invalid parameter "v": expected integer (1...100), got Int 0 (out of range)"#),
        Refused(
            .integer(minimum: 1, maximum: 100), "101", #"Shapes/take: invalid parameter "v": expected integer (1...100), got String "101" (out of range)"#),
        Refused(
            .integer(minimum: 1, maximum: 100), 100.0 + 1, #"Shapes/take: invalid parameter "v": expected integer (1...100), got Double 101.0 (out of range)"#),
        Refused(.integer(minimum: 1, maximum: 100), 1.5, #"Shapes/take: invalid parameter "v": expected integer (1...100), got Double 1.5"#),
        Refused(.integer(minimum: 1), 0, #"Shapes/take: invalid parameter "v": expected integer (1...), got Int 0 (out of range)"#),
        Refused(.integer(maximum: 10), 11, #"Shapes/take: invalid parameter "v": expected integer (...10), got Int 11 (out of range)"#),
        Refused(.number, "abc", #"Shapes/take: invalid parameter "v": expected number, got String "abc""#),
        Refused(.number, Double.nan, #"Shapes/take: invalid parameter "v": expected number, got Double nan"#),
        Refused(.number, Double.infinity, #"Shapes/take: invalid parameter "v": expected number, got Double inf"#),
        Refused(.number, -Double.infinity, #"Shapes/take: invalid parameter "v": expected number, got Double -inf"#),
        Refused(.number, Float.nan, #"Shapes/take: invalid parameter "v": expected number, got Float nan"#),
        Refused(.number, Float.infinity, #"Shapes/take: invalid parameter "v": expected number, got Float inf"#),
        Refused(.number, "inf", #"Shapes/take: invalid parameter "v": expected number, got String "inf""#),
        Refused(.number, "nan", #"Shapes/take: invalid parameter "v": expected number, got String "nan""#),
        Refused(.number, "1e999", #"Shapes/take: invalid parameter "v": expected number, got String "1e999""#),
        Refused(.number, "0x10", #"Shapes/take: invalid parameter "v": expected number, got String "0x10""#),
        Refused(.number, 9_007_199_254_740_993, #"Shapes/take: invalid parameter "v": expected number, got Int 9007199254740993"#),
        Refused(.number, true, #"Shapes/take: invalid parameter "v": expected number, got Bool true"#),
        Refused(.number(minimum: 0, maximum: 1), 1.5, #"Shapes/take: invalid parameter "v": expected number (0.0...1.0), got Double 1.5 (out of range)"#),
        Refused(.number(minimum: 0, maximum: 1), "-0.5", #"Shapes/take: invalid parameter "v": expected number (0.0...1.0), got String "-0.5" (out of range)"#),
        Refused(.number(minimum: 0, maximum: 1), 2, #"Shapes/take: invalid parameter "v": expected number (0.0...1.0), got Int 2 (out of range)"#),
        Refused(.number(minimum: 0.5), 0.25, #"Shapes/take: invalid parameter "v": expected number (0.5...), got Double 0.25 (out of range)"#),
        Refused(.boolean, "yes", #"Shapes/take: invalid parameter "v": expected boolean, got String "yes""#),
        Refused(.boolean, "TRUE", #"Shapes/take: invalid parameter "v": expected boolean, got String "TRUE""#),
        Refused(.boolean, "", #"Shapes/take: invalid parameter "v": expected boolean, got String """#),
        Refused(.boolean, 1, #"Shapes/take: invalid parameter "v": expected boolean, got Int 1"#),
        Refused(.array(of: .string), 5, #"Shapes/take: invalid parameter "v": expected array of string, got Int 5"#),
        Refused(.array(of: .integer), "x", #"Shapes/take: invalid parameter "v": expected array of integer, got String "x""#),
        Refused(.array(of: .integer), ["1", "x"], #"Shapes/take: invalid parameter "v": element 1: expected integer, got String "x""#),
        Refused(.array(of: .integer), [1.5], #"Shapes/take: invalid parameter "v": element 0: expected integer, got Double 1.5"#),
        Refused(
            .array(of: .integer(minimum: 0, maximum: 9)), [1, 10],
            #"Shapes/take: invalid parameter "v": element 1: expected integer (0...9), got Int 10 (out of range)"#),
        Refused(.array(of: .number), [1.0, .nan], #"Shapes/take: invalid parameter "v": element 1: expected number, got Double nan"#),
        Refused(.array(of: .boolean), ["true", "maybe"], #"Shapes/take: invalid parameter "v": element 1: expected boolean, got String "maybe""#),
        Refused(.object, "x", #"Shapes/take: invalid parameter "v": expected object, got String "x""#),
        Refused(.object, ["a"], #"Shapes/take: invalid parameter "v": expected object, got Array<String> ["a"]"#),
        Refused(
            .object([.required("name", .string), .optional("age", .integer)]), "x",
            #"Shapes/take: invalid parameter "v": expected object {name: string, age?: integer}, got String "x""#),
        Refused(.value(Marker.self), "x", #"Shapes/take: invalid parameter "v": expected value of type Marker, got String "x""#),
        Refused(.value(Marker.self), 1, #"Shapes/take: invalid parameter "v": expected value of type Marker, got Int 1"#),
        Refused(
            .array(of: .value(Marker.self)), [Marker(id: 1), "x"] as [any Sendable],
            #"Shapes/take: invalid parameter "v": element 1: expected value of type Marker, got String "x""#),
    ]

    @Test("A value of the wrong type or out of range is refused with the exact message; neither factory nor action runs", arguments: refused)
    func refusedExactly(_ row: Refused) throws {
        let world = try ContractWorld([.required("v", row.type)])
        let error = try #require(world.failure(["v": row.sent]))
        #expect(error.description == row.message)
        #expect(error.code == .invalidParameter)
        #expect(error.parameter == "v")
        #expect(error.target == "Shapes")
        #expect(error.action == "take")
        #expect(world.runs.value == 0)
        #expect(world.makes.value == 0)
    }

    @Test("Types describe themselves in words, bounds included")
    func typeDescriptions() {
        #expect(ParameterType.string.description == "string")
        #expect(ParameterType.integer.description == "integer")
        #expect(ParameterType.integer(minimum: 1, maximum: 100).description == "integer (1...100)")
        #expect(ParameterType.integer(minimum: 1).description == "integer (1...)")
        #expect(ParameterType.integer(maximum: 9).description == "integer (...9)")
        #expect(ParameterType.number(minimum: 0, maximum: 1).description == "number (0.0...1.0)")
        #expect(ParameterType.boolean.description == "boolean")
        #expect(ParameterType.array(of: .array(of: .number)).description == "array of array of number")
        #expect(ParameterType.object.description == "object")
        #expect(ParameterType.object([.required("a", .string), .optional("b", .boolean)]).description == "object {a: string, b?: boolean}")
        #expect(ParameterType.value(Marker.self).description == "value of type Marker")
        #expect(Parameter.optional("limit", .integer, default: 20).description == "limit?: integer = 20")
        #expect(Parameter.required("token", .string).description == "token: string")
    }

    @Test("Two types are equal when they accept the same values: bounds and value types count")
    func typeEquality() {
        #expect(ParameterType.integer == .integer(minimum: nil, maximum: nil))
        #expect(ParameterType.integer != .integer(minimum: 0))
        #expect(ParameterType.value(Marker.self) == .value(Marker.self))
        #expect(ParameterType.value(Marker.self) != .value(Int.self))
        #expect(ParameterType.object != .object([]))
    }
}

@Suite("Contracts: missing, absent and default values")
struct ContractDefaultTests {
    static let list: [Parameter] = [
        .required("token", .string, "A session token"),
        .optional("limit", .integer(minimum: 1, maximum: 100), default: 20, "How many"),
        .optional("query", .string),
    ]

    @Test("A missing required parameter is refused, naming it and its type; nothing runs")
    func missingRequired() throws {
        let world = try ContractWorld(Self.list)
        let error = try #require(world.failure(["limit": 5]))
        #expect(error.description == #"Shapes/take: missing required parameter "token" (expected string)"#)
        #expect(error.code == .invalidParameter)
        #expect(error.parameter == "token")
        #expect(world.runs.value == 0)
        #expect(world.makes.value == 0)
    }

    @Test("A default fills an absent optional parameter, and the action reads it; an absent optional without default stays absent")
    func defaultsFilled() throws {
        let world = try ContractWorld(Self.list)
        let received = try world.received(["token": "t"])
        #expect(typed(received["limit"]) == "Int 20")
        #expect(!received.contains("query"))
        #expect(received.keys == ["limit", "token"])
    }

    @Test("A default written in another form that fits (verify accepts it) reaches the action converted, like a sent value")
    func defaultsConverted() throws {
        let world = try ContractWorld([
            .optional("n", .number, default: 1), .optional("tags", .array(of: .string), default: "a"), .optional("i", .integer, default: 2.0),
        ])
        #expect(world.mediator.verify().map(\.description) == [])
        let received = try world.received([:])
        #expect(typed(received["n"]) == "Double 1.0")
        #expect(typed(received["tags"]) == #"Array<String> ["a"]"#)
        #expect(typed(received["i"]) == "Int 2")
        // What the same values become when sent.
        let sent = try world.received(["n": 1, "tags": "a", "i": 2.0])
        #expect(typed(sent["n"]) == "Double 1.0")
        #expect(typed(sent["tags"]) == #"Array<String> ["a"]"#)
        #expect(typed(sent["i"]) == "Int 2")
    }

    @Test("A value that is sent wins over the default")
    func sentWinsOverDefault() throws {
        let world = try ContractWorld(Self.list)
        #expect(typed(try world.received(["token": "t", "limit": "7"])["limit"]) == "Int 7")
    }

    @Test("A nil value counts as absent: a default fills it, a required one is missing, an optional one is removed")
    func nilIsAbsent() throws {
        let world = try ContractWorld(Self.list)
        let received = try world.received(["token": "t", "limit": Int?.none, "query": String?.none])
        #expect(typed(received["limit"]) == "Int 20")
        #expect(received["query"] == nil)
        let error = try #require(world.failure(["token": String?.none]))
        #expect(error.description == #"Shapes/take: missing required parameter "token" (expected string)"#)
        #expect(world.runs.value == 1)
    }

    @Test("A nil value of an undeclared param is absent too: refusing undeclared params does not refuse it")
    func nilUndeclaredIsAbsent() throws {
        let world = try ContractWorld(Self.list, actionPolicy: .refused)
        #expect(world.failure(["token": "t", "extra": Int?.none]) == nil)
    }

    @Test("Problems are reported in declaration order, whatever the order of the params")
    func declarationOrder() throws {
        let world = try ContractWorld(
            [.required("a", .integer), .required("b", .integer), .required("c", .integer)], actionPolicy: .refused)
        #expect(world.failure(["c": "x", "b": "y"])?.description == #"Shapes/take: missing required parameter "a" (expected integer)"#)
        #expect(world.failure(["a": 1, "c": "x", "b": "y"])?.description == #"Shapes/take: invalid parameter "b": expected integer, got String "y""#)
        #expect(world.failure(["a": 1, "b": 2, "c": "x", "zz": 1])?.description == #"Shapes/take: invalid parameter "c": expected integer, got String "x""#)
        #expect(world.runs.value == 0)
    }

    @Test("An action declaring more than 64 parameters validates and fills defaults like a small one")
    func manyParameters() throws {
        for count in [63, 64, 65, 70] {
            var params: [Parameter] = (0..<count - 1).map { .optional("p\($0)", .integer, default: $0) }
            params.append(.required("last", .integer))
            let world = try ContractWorld(params)
            let received = try world.received(["last": "1"])
            #expect(received.count == count)
            #expect(typed(received["p\(count - 2)"]) == "Int \(count - 2)")
            #expect(typed(received["last"]) == "Int 1")
            #expect(world.failure([:])?.description == #"Shapes/take: missing required parameter "last" (expected integer)"#)
            #expect(world.failure(["last": 1, "p0": "x"])?.description == #"Shapes/take: invalid parameter "p0": expected integer, got String "x""#)
        }
    }

    @Test("An action without declared parameters gets its params exactly as sent")
    func undeclaredActionUnchecked() throws {
        let world = try ContractWorld { runs in
            [
                Action("raw") { _, params in
                    runs.increment()
                    return params
                }
            ]
        }
        let result = try world.mediator.callNow(target: "Shapes", action: "raw", params: ["n": "42", "x": Double.nan])
        let received = try #require(result as? Params)
        #expect(typed(received["n"]) == #"String "42""#)
        #expect(received.keys == ["n", "x"])
        #expect(try world.mediator.callNow(url: "app://Shapes/raw?anything=1") is Params)
    }

    @Test("An action declaring no parameters at all refuses every param from outside")
    func emptyDeclaration() throws {
        let world = try ContractWorld([])
        let error = try #require(mediatorError { () throws(MediatorError) in _ = try world.mediator.callNow(url: "app://Shapes/take?x=1") })
        #expect(error.description == #"Shapes/take: undeclared parameter "x": the action takes no parameters"#)
        #expect(world.runs.value == 0)
    }
}

@Suite("Contracts: nested objects")
struct ContractObjectTests {
    static let author: ParameterType = .object([
        .required("name", .string), .optional("age", .integer(minimum: 0)), .optional("role", .string, default: "viewer"),
    ])

    @Test("A field of the wrong type is refused with its dotted path")
    func wrongField() throws {
        let world = try ContractWorld([.required("author", Self.author)])
        let error = try #require(world.failure(["author": ["name": 42] as [String: any Sendable]]))
        #expect(error.description == #"Shapes/take: invalid parameter "author.name": expected string, got Int 42"#)
        #expect(error.parameter == "author.name")
        #expect(world.runs.value == 0)
    }

    @Test("A missing required field is refused with its dotted path")
    func missingField() throws {
        let world = try ContractWorld([.required("author", Self.author)])
        let error = try #require(world.failure(["author": [:] as [String: any Sendable]]))
        #expect(error.description == #"Shapes/take: missing required parameter "author.name" (expected string)"#)
        #expect(error.parameter == "author.name")
    }

    @Test("A field out of range is refused with its dotted path")
    func fieldOutOfRange() throws {
        let world = try ContractWorld([.required("author", Self.author)])
        let error = try #require(world.failure(["author": ["name": "ann", "age": -1] as [String: any Sendable]]))
        #expect(error.description == #"Shapes/take: invalid parameter "author.age": expected integer (0...), got Int -1 (out of range)"#)
    }

    @Test("Fields are coerced and their defaults filled, for a dictionary and for Params alike")
    func fieldsCoerced() throws {
        let world = try ContractWorld([.required("author", Self.author)])
        for sent in [["name": "ann", "age": "7"] as [String: any Sendable], Params(["name": "ann", "age": "7"])] as [any Sendable] {
            let received = try world.received(["author": sent])
            #expect(json(received["author"]) == .object(["name": .string("ann"), "age": .integer(7), "role": .string("viewer")]))
        }
    }

    @Test("Objects nest: the path names every level")
    func deepPath() throws {
        let world = try ContractWorld([.required("book", .object([.required("author", Self.author)]))])
        let author: [String: any Sendable] = ["name": true]
        let error = try #require(world.failure(["book": ["author": author] as [String: any Sendable]]))
        #expect(error.description == #"Shapes/take: invalid parameter "book.author.name": expected string, got Bool true"#)
    }

    @Test("Any object takes any dictionary or Params, as it is")
    func anyObject() throws {
        let world = try ContractWorld([.required("v", .object)])
        let received = try world.received(["v": ["a": 1, "b": ["x"]] as [String: any Sendable]])
        #expect(json(received["v"]) == .object(["a": .integer(1), "b": .array([.string("x")])]))
        #expect(try world.received(["v": Params(["a": 1])])["v"] is Params)
    }

    @Test("The elements of an array of objects with fields are checked like an object parameter")
    func arrayOfObjects() throws {
        let world = try ContractWorld([.required("authors", .array(of: Self.author))])
        let error = try #require(world.failure(["authors": [["name": "ann"], ["name": 7]] as [[String: any Sendable]]]))
        // The exact words for a field inside an element are the library's to choose; the param,
        // the field and what was wrong must all be there.
        #expect(error.code == .invalidParameter)
        #expect(error.description.hasPrefix(#"Shapes/take: invalid parameter "authors"#))
        #expect(error.description.contains("name"))
        #expect(error.description.hasSuffix("expected string, got Int 7"))
        #expect(world.runs.value == 0)
        let missing = try #require(world.failure(["authors": [["age": 1]] as [[String: any Sendable]]]))
        #expect(missing.code == .invalidParameter)
        #expect(missing.description.contains("authors") && missing.description.contains("name"))
        #expect(world.runs.value == 0)
    }
}

@Suite("Contracts: undeclared params, per mediator and per action")
struct ContractUndeclaredTests {
    static let list: [Parameter] = [.required("token", .string), .optional("limit", .integer(minimum: 1, maximum: 100), default: 20)]
    static let undeclaredX = #"Shapes/take: undeclared parameter "x": the action takes token, limit?"#

    func inProcess(_ world: ContractWorld) -> MediatorError? { world.failure(["token": "t", "x": "1"]) }
    func byURL(_ world: ContractWorld) -> MediatorError? {
        mediatorError { () throws(MediatorError) in _ = try world.mediator.callNow(url: "app://Shapes/take?token=t&x=1") }
    }

    /// The params the action received from a URL call, without the mediator's own `@` keys.
    func receivedByURL(_ world: ContractWorld, _ url: String, params: Params = [:]) throws -> [String: String] {
        let received = try #require(try world.mediator.callNow(url: url, params: params) as? Params)
        return received.values.filter { !$0.key.hasPrefix("@") }.mapValues { typed($0) }
    }

    @Test("By default a URL's undeclared params are dropped, the command line's refused, and in-process ones passed on")
    func droppedFromURLsByDefault() async throws {
        let world = try ContractWorld(Self.list, mediatorPolicy: nil)
        #expect(world.mediator.undeclaredParameters == .droppedFromURLs)
        let url = "app://Shapes/take?token=t&utm_source=mail&fbclid=IwAR0&ref=push"
        #expect(try receivedByURL(world, url) == ["token": #"String "t""#, "limit": "Int 20"])
        try world.mediator.validate(url: url)
        let fromCommandLine = await awaitedMediatorError { () async throws(MediatorError) in
            _ = try await world.mediator.callFromOutside(target: "Shapes", action: "take", params: ["token": "t", "x": "1"], shouldCacheTarget: false)
        }
        #expect(fromCommandLine?.description == Self.undeclaredX)
        let dryRun = mediatorError { () throws(MediatorError) in
            try world.mediator.validateFromOutside(target: "Shapes", action: "take", params: ["token": "t", "x": "1"])
        }
        #expect(dryRun?.description == Self.undeclaredX)
        let received = try world.received(["token": "t", "x": "1"])
        #expect(typed(received["x"]) == #"String "1""#)
        #expect(world.runs.value == 2)
    }

    @Test(
        "From a URL the action gets only what it declares: params given in-process with the URL and interceptors' additions are dropped too; observers see them"
    )
    func urlCallGetsOnlyDeclared() throws {
        let world = try ContractWorld(Self.list, mediatorPolicy: nil)
        let log = InterceptionLog()
        world.mediator.addInterceptor(
            Probe("adds", log) { request in
                request.params["session"] = "s1"
                return .proceed
            })
        let received = try receivedByURL(world, "app://Shapes/take?token=t&ref=push&from=url", params: ["from": "caller", "callback": "cb"])
        #expect(received == ["token": #"String "t""#, "limit": "Int 20"])
        // The observers see the call as it was asked, the dropped items included.
        let asked = try #require(log.records.last?.request.params)
        #expect(asked["ref"] as? String == "push")
        #expect(asked["from"] as? String == "caller")
        #expect(asked["callback"] as? String == "cb")
        // In-process, the same call passes them on.
        let inProcess = try world.received(["token": "t", "ref": "push"])
        #expect(inProcess["ref"] as? String == "push" && inProcess["session"] as? String == "s1")
    }

    @Test("An action's own droppedFromURLs drops under a mediator that refuses; its own refused refuses under the default")
    func actionPolicyDrops() throws {
        let dropping = try ContractWorld(Self.list, actionPolicy: .droppedFromURLs, mediatorPolicy: .refused)
        #expect(try receivedByURL(dropping, "app://Shapes/take?token=t&x=1") == ["token": #"String "t""#, "limit": "Int 20"])
        #expect(dropping.failure(["token": "t", "x": "1"]) == nil)
        let refusing = try ContractWorld(Self.list, actionPolicy: .refused, mediatorPolicy: nil)
        #expect(byURL(refusing)?.description == Self.undeclaredX)
        #expect(refusing.failure(["token": "t", "x": "1"])?.description == Self.undeclaredX)
    }

    @Test("A route's query items and its captures that the action does not declare are dropped by default")
    func droppedFromRoutes() throws {
        let world = try ContractWorld(Self.list, mediatorPolicy: nil)
        try world.mediator.route("/take/:token/:slug", to: "Shapes", action: "take")
        #expect(try receivedByURL(world, "app://take/t/a-title?utm_campaign=x&limit=5") == ["token": #"String "t""#, "limit": "Int 5"])
        try world.mediator.validate(url: "app://take/t/a-title?utm_campaign=x")
    }

    @Test("refusedFromOutside, on the mediator or on one action, refuses a URL's undeclared params")
    func strictOptionRefusesURLs() throws {
        let strictMediator = try ContractWorld(Self.list, mediatorPolicy: .refusedFromOutside)
        #expect(byURL(strictMediator)?.description == Self.undeclaredX)
        #expect(
            mediatorError { () throws(MediatorError) in try strictMediator.mediator.validate(url: "app://Shapes/take?token=t&x=1") }?.description
                == Self.undeclaredX)
        let strictAction = try ContractWorld(Self.list, actionPolicy: .refusedFromOutside, mediatorPolicy: nil)
        #expect(byURL(strictAction)?.description == Self.undeclaredX)
        #expect(strictMediator.runs.value == 0 && strictAction.runs.value == 0)
        #expect(try strictAction.received(["token": "t", "x": "1"])["x"] != nil)
    }

    @Test("A mediator that refuses undeclared params refuses them in-process too")
    func mediatorRefused() throws {
        let world = try ContractWorld(Self.list, mediatorPolicy: .refused)
        let error = try #require(inProcess(world))
        #expect(error.description == Self.undeclaredX)
        #expect(error.code == .invalidParameter)
        #expect(error.parameter == "x")
        #expect(byURL(world)?.description == Self.undeclaredX)
        #expect(world.runs.value == 0)
        #expect(world.makes.value == 0)
    }

    @Test("A mediator that ignores undeclared params passes them on from URLs too")
    func mediatorIgnored() throws {
        let world = try ContractWorld(Self.list, mediatorPolicy: .ignored)
        #expect(inProcess(world) == nil)
        #expect(byURL(world) == nil)
        #expect(world.runs.value == 2)
    }

    @Test(
        "An action's own policy wins over the mediator's",
        arguments: [
            (UndeclaredParameterPolicy.refused, UndeclaredParameterPolicy.ignored, true, true),
            (.ignored, .refused, false, false),
            (.refusedFromOutside, .refused, false, true),
            (.refusedFromOutside, .ignored, false, true),
            (.droppedFromURLs, .refused, false, false),
            (.refused, .droppedFromURLs, true, true),
        ])
    func actionPolicyWins(action: UndeclaredParameterPolicy, mediator: UndeclaredParameterPolicy, refusedInProcess: Bool, refusedByURL: Bool) throws {
        let world = try ContractWorld(Self.list, actionPolicy: action, mediatorPolicy: mediator)
        #expect((inProcess(world)?.description == Self.undeclaredX) == refusedInProcess)
        #expect((byURL(world)?.description == Self.undeclaredX) == refusedByURL)
        #expect(world.mediator.target(named: "Shapes")?.actions.first?.undeclaredParameters == action)
    }

    @Test("A listing shows the mediator's policy for an action without its own")
    func listedPolicy() throws {
        let world = try ContractWorld(Self.list, mediatorPolicy: .ignored)
        #expect(world.mediator.target(named: "Shapes")?.actions.first?.undeclaredParameters == .ignored)
        #expect(UndeclaredParameterPolicy.droppedFromURLs.description == "droppedFromURLs")
        #expect(UndeclaredParameterPolicy.refusedFromOutside.description == "refusedFromOutside")
        #expect(UndeclaredParameterPolicy.refused.description == "refused")
        #expect(UndeclaredParameterPolicy.ignored.description == "ignored")
    }

    @Test("A near miss of a declared name is suggested")
    func suggestion() throws {
        let world = try ContractWorld(Self.list, actionPolicy: .refused)
        let error = try #require(world.failure(["token": "t", "limt": 5]))
        #expect(error.description == #"Shapes/take: undeclared parameter "limt": the action takes token, limit?; did you mean "limit"?"#)
        #expect(error.suggestion == "limit")
        #expect(error.parameter == "limt")
    }

    @Test("A name already sent is not suggested again, and a far name gets no suggestion")
    func noSuggestion() throws {
        let world = try ContractWorld(Self.list, actionPolicy: .refused)
        #expect(
            world.failure(["token": "t", "limit": 5, "limt": 5])?.description == #"Shapes/take: undeclared parameter "limt": the action takes token, limit?"#)
        #expect(world.failure(["token": "t", "zebra": 5])?.suggestion == nil)
    }

    @Test("Of several undeclared params the first by name is reported; declared problems come first")
    func severalUndeclared() throws {
        let world = try ContractWorld(Self.list, actionPolicy: .refused)
        #expect(world.failure(["token": "t", "zeta": 1, "alpha": 1, "mid": 1])?.parameter == "alpha")
        #expect(world.failure(["limit": 500, "alpha": 1])?.parameter == "token")
        #expect(world.failure(["token": "t", "limit": 500, "alpha": 1])?.parameter == "limit")
    }
}

@Suite("Contracts: text from URLs")
struct ContractURLCoercionTests {
    static let everything: [Parameter] = [
        .required("s", .string), .required("i", .integer), .required("n", .number), .required("b", .boolean), .required("b1", .boolean),
        .optional("ai", .array(of: .integer)), .optional("as", .array(of: .string)), .optional("an", .array(of: .number)),
        .optional("ab", .array(of: .boolean)), .optional("d", .integer, default: 5),
    ]

    @Test("URL text is coerced to each declared type; a repeated key is an array; one value is a one-element array")
    func coercedFromText() throws {
        let world = try ContractWorld(Self.everything)
        let result = try world.mediator.callNow(url: "app://Shapes/take?s=7&i=-42&n=1.5&b=true&b1=0&ai=1&ai=2&as=x&an=2.5&an=3&ab=1")
        let received = try #require(result as? Params)
        #expect(typed(received["s"]) == #"String "7""#)
        #expect(typed(received["i"]) == "Int -42")
        #expect(typed(received["n"]) == "Double 1.5")
        #expect(typed(received["b"]) == "Bool true")
        #expect(typed(received["b1"]) == "Bool false")
        #expect(typed(received["ai"]) == "Array<Int> [1, 2]")
        #expect(typed(received["as"]) == #"Array<String> ["x"]"#)
        #expect(typed(received["an"]) == "Array<Double> [2.5, 3.0]")
        #expect(typed(received["ab"]) == "Array<Bool> [true]")
        #expect(typed(received["d"]) == "Int 5")
    }

    @Test("Percent-decoded text is coerced after decoding")
    func percentDecoded() throws {
        let world = try ContractWorld([.required("i", .integer), .required("s", .string)])
        let received = try #require(try world.mediator.callNow(url: "app://Shapes/take?i=%2D%34%32&s=a%26b") as? Params)
        #expect(typed(received["i"]) == "Int -42")
        #expect(typed(received["s"]) == #"String "a&b""#)
    }

    @Test("A key repeated for a scalar is refused, showing both values")
    func repeatedScalar() throws {
        let world = try ContractWorld([.required("i", .integer)])
        let error = try #require(mediatorError { () throws(MediatorError) in _ = try world.mediator.callNow(url: "app://Shapes/take?i=1&i=2") })
        #expect(error.description == #"Shapes/take: invalid parameter "i": expected integer, got Array<String> ["1", "2"]"#)
        #expect(world.runs.value == 0)
    }

    @Test("A key without a value is empty text: a string, but not a number")
    func emptyValue() throws {
        let world = try ContractWorld([.optional("s", .string), .optional("i", .integer)])
        let received = try #require(try world.mediator.callNow(url: "app://Shapes/take?s") as? Params)
        #expect(typed(received["s"]) == #"String """#)
        let error = try #require(mediatorError { () throws(MediatorError) in _ = try world.mediator.callNow(url: "app://Shapes/take?i=") })
        #expect(error.description == #"Shapes/take: invalid parameter "i": expected integer, got String """#)
    }

    @Test("A value(T) parameter cannot be sent by URL")
    func valueByURL() throws {
        let world = try ContractWorld([.optional("m", .value(Marker.self))])
        let error = try #require(mediatorError { () throws(MediatorError) in _ = try world.mediator.callNow(url: "app://Shapes/take?m=1") })
        #expect(error.description == #"Shapes/take: invalid parameter "m": expected value of type Marker, got String "1""#)
        #expect(world.runs.value == 0)
    }
}
