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
        try mediator.register(target: "Geo", actions: [
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
        #expect(try mediator.call(target: "Geo", action: "point", as: Point.self) == Point(x: 1, y: 2.5, label: "p"))
    }

    @Test("Nested arrays and dictionaries decode, with text coerced as params are")
    func decodesNested() throws {
        let shape = try mediator.call(target: "Geo", action: "shape", params: ["small": 5], as: Shape.self)
        #expect(shape == Shape(name: "tri", points: [Point(x: 0, y: 0, label: nil), Point(x: 3, y: 4.5, label: "text coerced")], tags: ["single"], small: 5))
    }

    @Test("A result that does not fit names the path and the value")
    func mismatchNamesPath() {
        let error = #expect(throws: MediatorError.self) {
            try mediator.call(target: "Geo", action: "shape", params: ["small": 300], as: Shape.self)
        }
        #expect(error?.code == .resultTypeMismatch)
        #expect(error?.target == "Geo")
        #expect(error?.action == "shape")
        #expect(error?.description.contains("at \"small\": expected Int8, got Int 300") == true)
    }

    @Test("A plain result of the wrong type is a resultTypeMismatch; nil fits only an Optional")
    func plainMismatch() throws {
        #expect(try mediator.call(target: "Geo", action: "number", as: Int.self) == 7)
        let wrong = #expect(throws: MediatorError.self) { try mediator.call(target: "Geo", action: "number", as: String.self) }
        #expect(wrong?.code == .resultTypeMismatch)
        let none = #expect(throws: MediatorError.self) { try mediator.call(target: "Geo", action: "nothing", as: Point.self) }
        #expect(none?.description.contains("got nothing") == true)
        #expect(try mediator.call(target: "Geo", action: "nothing", as: Int?.self) == nil)
    }
}
