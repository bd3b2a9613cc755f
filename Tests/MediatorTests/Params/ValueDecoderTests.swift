import Mediator
import Testing

/// A type that decodes itself through every kind of container the decoder offers.
struct Journey: Decodable, Equatable {
    var name: String
    var origin: (city: String, zip: Int)
    var stops: [[Int]]
    var legs: [(from: String, to: String)]
    var note: String?
    var parent: String
    var first: Int

    enum Keys: String, CodingKey { case name, origin, stops, legs, note, base }
    enum PlaceKeys: String, CodingKey { case city, zip }
    enum LegKeys: String, CodingKey { case from, to }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        name = try container.decode(String.self, forKey: .name)
        let origin = try container.nestedContainer(keyedBy: PlaceKeys.self, forKey: .origin)
        self.origin = (try origin.decode(String.self, forKey: .city), try origin.decode(Int.self, forKey: .zip))
        var stopsContainer = try container.nestedUnkeyedContainer(forKey: .stops)
        var stops: [[Int]] = []
        while !stopsContainer.isAtEnd {
            var inner = try stopsContainer.nestedUnkeyedContainer()
            var row: [Int] = []
            while !inner.isAtEnd { row.append(try inner.decode(Int.self)) }
            stops.append(row)
        }
        self.stops = stops
        var legsContainer = try container.nestedUnkeyedContainer(forKey: .legs)
        var legs: [(String, String)] = []
        while !legsContainer.isAtEnd {
            let leg = try legsContainer.nestedContainer(keyedBy: LegKeys.self)
            legs.append((try leg.decode(String.self, forKey: .from), try leg.decode(String.self, forKey: .to)))
        }
        self.legs = legs
        note = try container.decodeNil(forKey: .note) ? nil : try container.decode(String.self, forKey: .note)
        parent = try String(from: try container.superDecoder(forKey: .base))
        var whole = try container.superDecoder().unkeyedContainerIfArray(key: .stops)
        first = try whole?.decode(Int.self) ?? -1
    }

    static func == (lhs: Journey, rhs: Journey) -> Bool {
        lhs.name == rhs.name && lhs.origin == rhs.origin && lhs.stops == rhs.stops
            && lhs.legs.map { [$0.from, $0.to] } == rhs.legs.map { [$0.from, $0.to] } && lhs.note == rhs.note
            && lhs.parent == rhs.parent && lhs.first == rhs.first
    }
}

extension Decoder {
    /// The first row of `key`'s array of arrays, read through the keyed container this decoder
    /// offers (exercises `superDecoder()`).
    func unkeyedContainerIfArray(key: Journey.Keys) throws -> (any UnkeyedDecodingContainer)? {
        let container = try self.container(keyedBy: Journey.Keys.self)
        var rows = try container.nestedUnkeyedContainer(forKey: key)
        return rows.isAtEnd ? nil : try rows.nestedUnkeyedContainer()
    }
}

/// Reads an array element by element with `decodeNil`, `superDecoder` and a single-value container.
struct Readings: Decodable, Equatable {
    var values: [Int?]

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var values: [Int?] = []
        while !container.isAtEnd {
            if try container.decodeNil() {
                values.append(nil)
            } else {
                let single = try container.superDecoder().singleValueContainer()
                values.append(single.decodeNil() ? nil : try single.decode(Int.self))
            }
        }
        self.values = values
    }

    init(values: [Int?]) { self.values = values }
}

@Suite("The result decoder's containers")
struct ValueDecoderTests {
    func mediator(returning value: any Sendable) throws -> Mediator {
        let mediator = Mediator()
        try mediator.register(target: "Source", actions: [Action("get") { _, _ in value }])
        return mediator
    }

    @Test("Nested keyed and unkeyed containers, decodeNil, superDecoder: every container kind reads plain values")
    func nestedContainers() throws {
        let value: [String: any Sendable] = [
            "name": "trip", "origin": ["city": "Oslo", "zip": "150"] as [String: any Sendable],
            "stops": [[1, 2], [3]] as [[Int]], "legs": [["from": "a", "to": "b"], ["from": "b", "to": "c"]] as [[String: String]],
            "base": "root",
        ]
        let journey = try mediator(returning: value).callNow(target: "Source", action: "get", as: Journey.self)
        #expect(journey.name == "trip" && journey.origin == ("Oslo", 150) && journey.stops == [[1, 2], [3]])
        #expect(journey.legs.map { "\($0.from)\($0.to)" } == ["ab", "bc"])
        #expect(journey.note == nil && journey.parent == "root" && journey.first == 1)
    }

    @Test("An unkeyed container reads nils, single values and text; past its end is an error naming the index")
    func unkeyedReadings() throws {
        let readings = try mediator(returning: [1, nil, "3"] as [(any Sendable)?]).callNow(target: "Source", action: "get", as: Readings.self)
        #expect(readings == Readings(values: [1, nil, 3]))
        let short = #expect(throws: MediatorError.self) {
            try mediator(returning: [1] as [Int]).call(target: "Source", action: "get", as: [Int].self, count: 2)
        }
        #expect(short?.code == .resultTypeMismatch)
    }

    @Test(
        "A nested value of the wrong kind is a mismatch naming its path",
        arguments: [
            (["name": "t", "origin": "not an object", "stops": [] as [Int], "legs": [] as [Int], "base": "b"] as [String: any Sendable], "origin"),
            (
                ["name": "t", "origin": ["city": "x", "zip": 1] as [String: any Sendable], "stops": [["x"]] as [[String]], "legs": [] as [Int], "base": "b"],
                "stops"
            ),
            (["name": "t", "origin": ["city": "x"] as [String: any Sendable], "stops": [] as [Int], "legs": [] as [Int], "base": "b"], "zip"),
            (["name": "t", "origin": ["city": "x", "zip": 1] as [String: any Sendable], "stops": [] as [Int], "legs": [1] as [Int], "base": "b"], "legs"),
        ] as [([String: any Sendable], String)])
    func nestedMismatch(value: [String: any Sendable], path: String) throws {
        let error = #expect(throws: MediatorError.self) {
            try mediator(returning: value).callNow(target: "Source", action: "get", as: Journey.self)
        }
        #expect(error?.code == .resultTypeMismatch)
        #expect(error?.reason.contains(path) == true, "\(String(describing: error))")
    }
}

extension Mediator {
    /// Decodes a fixed number of elements, to read past the end of a short array.
    func call(target: String, action: String, as _: [Int].Type, count: Int) throws(MediatorError) -> [Int] {
        try callNow(target: target, action: action, as: FixedCount.self).values
    }
}

/// Reads exactly two integers, whatever the array holds.
struct FixedCount: Decodable {
    var values: [Int]
    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        values = [try container.decode(Int.self), try container.decode(Int.self)]
    }
}
