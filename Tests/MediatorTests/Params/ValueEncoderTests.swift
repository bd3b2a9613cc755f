import Testing

@testable import Mediator

@Suite("The plain-value encoder")
struct ValueEncoderTests {
    struct Address: Codable, Equatable {
        var city: String
        var zip: Int
    }

    struct Person: Codable, Equatable {
        var name: String
        var age: Int
        var height: Double
        var active: Bool
        var address: Address
        var nicknames: [String]
    }

    static let ada = Person(name: "Ada", age: 36, height: 1.65, active: true, address: Address(city: "London", zip: 1), nicknames: ["A", "L"])

    /// `value` encoded to plain values and decoded back.
    func roundTrip<T: Codable>(_ value: T) throws -> T {
        try ValueDecoder.decode(T.self, from: try ValueEncoder.encode(value))
    }

    /// The failure encoding `value` gives, or `nil` when it encodes.
    func failure(encoding value: some Encodable) -> EncodingFailure? {
        do {
            _ = try ValueEncoder.encode(value)
            return nil
        } catch {
            return error
        }
    }

    /// The dynamic type of a plain value, to tell `[any Sendable]` from `[String]` and `Int` from `Int8`.
    func typeOf(_ value: (any Sendable)?) -> Any.Type? {
        value.map { type(of: $0) }
    }

    @Test("A struct encodes as one dictionary of String, Int, Double, Bool, nested dictionaries and arrays")
    func plainShape() throws {
        let plain = try #require(try ValueEncoder.encode(Self.ada) as? [String: any Sendable])
        #expect(plain.count == 6)
        #expect(plain["name"] as? String == "Ada")
        #expect(plain["age"] as? Int == 36)
        #expect(plain["height"] as? Double == 1.65)
        #expect(plain["active"] as? Bool == true)
        let address = try #require(plain["address"] as? [String: any Sendable])
        #expect(address["city"] as? String == "London" && address["zip"] as? Int == 1)
        #expect(typeOf(plain["nicknames"]) == [any Sendable].self)
        #expect((plain["nicknames"] as? [any Sendable])?.compactMap { $0 as? String } == ["A", "L"])
        #expect(try roundTrip(Self.ada) == Self.ada)
    }

    struct Book: Codable, Equatable {
        var title: String
        var year: Int
    }

    struct Library: Codable, Equatable {
        var shelves: [[Book]]
        var index: [String: Book]
        var counts: [String: Int]
        var byYear: [Int: String]
        var empty: [Int]
        var none: [String: Int]
    }

    @Test("Nested structs, arrays of arrays and dictionaries round-trip")
    func nestedRoundTrip() throws {
        let dune = Book(title: "Dune", year: 1965)
        let emma = Book(title: "Emma", year: 1815)
        let library = Library(
            shelves: [[dune, emma], [], [emma]], index: ["d": dune, "e": emma], counts: ["x": 1, "y": -2], byYear: [1965: "Dune"], empty: [],
            none: [:])
        #expect(try roundTrip(library) == library)
        let plain = try #require(try ValueEncoder.encode(library) as? [String: any Sendable])
        let index = try #require(plain["index"] as? [String: any Sendable])
        #expect((index["d"] as? [String: any Sendable])?["title"] as? String == "Dune")
        let shelves = try #require(plain["shelves"] as? [any Sendable])
        #expect(shelves.count == 3 && (shelves[1] as? [any Sendable])?.isEmpty == true)
        #expect((plain["none"] as? [String: any Sendable])?.isEmpty == true)
    }

    struct Draft: Codable, Equatable {
        var title: String
        var subtitle: String?
        var pages: Int?
        var tags: [String]?
        var scores: [Int?]
    }

    @Test("An absent optional leaves its key out, a present one keeps its value, a nil array element stays a nil element")
    func optionals() throws {
        let draft = Draft(title: "t", subtitle: nil, pages: 3, tags: nil, scores: [1, nil, 3])
        let plain = try #require(try ValueEncoder.encode(draft) as? [String: any Sendable])
        #expect(plain.keys.sorted() == ["pages", "scores", "title"])
        let scores = try #require(plain["scores"] as? [any Sendable])
        #expect(scores.count == 3 && scores[0] as? Int == 1 && isNil(scores[1]) && scores[2] as? Int == 3)
        #expect(try roundTrip(draft) == draft)
        let full = Draft(title: "t", subtitle: "s", pages: nil, tags: ["a"], scores: [])
        #expect(try roundTrip(full) == full)
    }

    /// Writes explicit nils into each kind of container.
    struct ExplicitNils: Encodable {
        enum Keys: String, CodingKey { case kept, dropped, overwritten, list }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode("here", forKey: .kept)
            try container.encodeNil(forKey: .dropped)
            try container.encode(1, forKey: .overwritten)
            try container.encodeNil(forKey: .overwritten)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(1)
            try list.encodeNil()
        }
    }

    @Test("An explicit encodeNil leaves a key absent, and stores a nil element in an unkeyed container")
    func explicitNils() throws {
        let plain = try #require(try ValueEncoder.encode(ExplicitNils()) as? [String: any Sendable])
        #expect(plain.keys.sorted() == ["kept", "list"])
        let list = try #require(plain["list"] as? [any Sendable])
        #expect(list.count == 2 && list[0] as? Int == 1 && isNil(list[1]))
    }

    struct Widths: Codable, Equatable {
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var uint: UInt
        var uint8: UInt8
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64
        var list: [UInt16]
    }

    @Test("Every integer width becomes Int when it fits, and round-trips")
    func integerWidths() throws {
        let widths = Widths(
            int8: .min, int16: .min, int32: .min, int64: .min, uint: UInt(Int.max), uint8: .max, uint16: .max, uint32: .max, uint64: UInt64(Int.max),
            list: [0, .max])
        let plain = try #require(try ValueEncoder.encode(widths) as? [String: any Sendable])
        for (key, value) in plain where key != "list" {
            #expect(typeOf(value) == Int.self, "\(key)")
        }
        #expect(plain["int8"] as? Int == -128 && plain["uint64"] as? Int == Int.max)
        let list = try #require(plain["list"] as? [any Sendable])
        #expect(list.count == 2 && list.allSatisfy { typeOf($0) == Int.self })
        #expect(try roundTrip(widths) == widths)
        #expect(typeOf(try ValueEncoder.encode(Int16(5))) == Int.self)
    }

    @Test("An unsigned value past Int.max keeps its own type, and round-trips")
    func pastIntMax() throws {
        var widths = Widths(int8: 0, int16: 0, int32: 0, int64: .max, uint: .max, uint8: 0, uint16: 0, uint32: 0, uint64: .max, list: [])
        let plain = try #require(try ValueEncoder.encode(widths) as? [String: any Sendable])
        #expect(plain["uint64"] as? UInt64 == .max && typeOf(plain["uint64"]) == UInt64.self)
        #expect(plain["uint"] as? UInt == .max && typeOf(plain["uint"]) == UInt.self)
        #expect(plain["int64"] as? Int == .max)
        #expect(try roundTrip(widths) == widths)
        widths.uint64 = UInt64(Int.max) + 1
        #expect(try roundTrip(widths) == widths)
        let list = try #require(try ValueEncoder.encode([UInt64.max]) as? [any Sendable])
        #expect(typeOf(list[0]) == UInt64.self)
    }

    struct Measures: Codable, Equatable {
        var ratio: Float
        var samples: [Float]
        var single: Double
    }

    @Test("Float becomes the Double of the same value and decodes back to the same Float")
    func floats() throws {
        let measures = Measures(ratio: 0.1, samples: [1.5, -0.3, .greatestFiniteMagnitude], single: 1e300)
        let plain = try #require(try ValueEncoder.encode(measures) as? [String: any Sendable])
        #expect(typeOf(plain["ratio"]) == Double.self && plain["ratio"] as? Double == Double(Float(0.1)))
        #expect(try roundTrip(measures) == measures)
    }

    @Test("Top-level leaves encode as themselves")
    func topLevelLeaves() throws {
        #expect(try ValueEncoder.encode("text") as? String == "text")
        #expect(try ValueEncoder.encode(42) as? Int == 42)
        #expect(try ValueEncoder.encode(2.5) as? Double == 2.5)
        #expect(try ValueEncoder.encode(Float(2.5)) as? Double == 2.5)
        #expect(try ValueEncoder.encode(false) as? Bool == false)
        #expect(try ValueEncoder.encode(Optional(7)) as? Int == 7)
    }

    struct Inner: Encodable {
        var value: Double
    }

    struct Readings: Encodable {
        var ratio: Float = 1
        var values: [Double] = []
        var inner: Inner?
        var nested: [[Float]] = []
    }

    @Test(
        "A non-finite number is refused with the path that holds it",
        arguments: [
            (Readings(values: [1, .nan]), "at \"values.[1]\": cannot encode nan"),
            (Readings(ratio: .infinity), "at \"ratio\": cannot encode inf"),
            (Readings(inner: Inner(value: -.infinity)), "at \"inner.value\": cannot encode -inf"),
            (Readings(nested: [[1], [2, 3, .signalingNaN]]), "at \"nested.[1].[2]\": cannot encode"),
        ])
    func nonFinite(readings: Readings, message: String) {
        let failure = failure(encoding: readings)
        #expect(failure?.description.hasPrefix(message) == true, "\(String(describing: failure))")
        #expect(failure?.description.contains("JSON has no infinity or NaN") == true)
    }

    @Test("A non-finite number at the top level is refused without a path")
    func nonFiniteTop() {
        #expect(failure(encoding: Double.nan)?.description.hasPrefix("cannot encode nan") == true)
        #expect(failure(encoding: [Float.infinity])?.description.hasPrefix("at \"[0]\": cannot encode inf") == true)
    }

    enum Mood: String, Codable { case calm, busy }
    enum Level: Int, Codable {
        case low = 1
        case high = 10
    }
    indirect enum Figure: Codable, Equatable {
        case circle(radius: Double)
        case rectangle(Double, Double)
        case dot
        case labelled(name: String, inner: Figure?)
    }

    struct Scene: Codable, Equatable {
        var mood: Mood
        var levels: [Level]
        var figures: [Figure]
    }

    @Test("Enums with raw values and with associated values round-trip")
    func enums() throws {
        let scene = Scene(
            mood: .busy, levels: [.high, .low],
            figures: [.circle(radius: 2), .rectangle(1, 3), .dot, .labelled(name: "l", inner: .dot), .labelled(name: "n", inner: nil)])
        #expect(try roundTrip(scene) == scene)
        #expect(try ValueEncoder.encode(Mood.calm) as? String == "calm")
        #expect(try ValueEncoder.encode(Level.high) as? Int == 10)
        let circle = try #require(try ValueEncoder.encode(Figure.circle(radius: 2)) as? [String: any Sendable])
        #expect((circle["circle"] as? [String: any Sendable])?["radius"] as? Double == 2)
    }

    /// Writes through every kind of container, into containers after handing them out.
    struct Itinerary: Codable, Equatable {
        var name: String
        var city: String
        var stops: [[Int]]
        var legs: [[String]]
        var base: String
        var version: Int
        var tail: String

        enum Keys: String, CodingKey {
            case name, origin, stops, legs, base
            case superclass = "super"
        }
        enum PlaceKeys: String, CodingKey { case city }
        enum LegKeys: String, CodingKey { case from, to }

        init(name: String, city: String, stops: [[Int]], legs: [[String]], base: String, version: Int, tail: String) {
            (self.name, self.city, self.stops, self.legs, self.base, self.version, self.tail) = (name, city, stops, legs, base, version, tail)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var origin = container.nestedContainer(keyedBy: PlaceKeys.self, forKey: .origin)
            var stopsContainer = container.nestedUnkeyedContainer(forKey: .stops)
            var legsContainer = container.nestedUnkeyedContainer(forKey: .legs)
            try container.encode(name, forKey: .name)
            try origin.encode(city, forKey: .city)
            for row in stops {
                var inner = stopsContainer.nestedUnkeyedContainer()
                for stop in row { try inner.encode(stop) }
            }
            for leg in legs {
                var legContainer = legsContainer.nestedContainer(keyedBy: LegKeys.self)
                try legContainer.encode(leg[0], forKey: .from)
                try legContainer.encode(leg[1], forKey: .to)
            }
            try base.encode(to: container.superEncoder(forKey: .base))
            try version.encode(to: container.superEncoder())
            try tail.encode(to: legsContainer.superEncoder())
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            name = try container.decode(String.self, forKey: .name)
            city = try container.nestedContainer(keyedBy: PlaceKeys.self, forKey: .origin).decode(String.self, forKey: .city)
            var stopsContainer = try container.nestedUnkeyedContainer(forKey: .stops)
            stops = []
            while !stopsContainer.isAtEnd {
                var inner = try stopsContainer.nestedUnkeyedContainer()
                var row: [Int] = []
                while !inner.isAtEnd { row.append(try inner.decode(Int.self)) }
                stops.append(row)
            }
            var legsContainer = try container.nestedUnkeyedContainer(forKey: .legs)
            legs = []
            // Every element but the last (the tail) is a leg.
            for _ in 0..<((legsContainer.count ?? 1) - 1) {
                let leg = try legsContainer.nestedContainer(keyedBy: LegKeys.self)
                legs.append([try leg.decode(String.self, forKey: .from), try leg.decode(String.self, forKey: .to)])
            }
            tail = try String(from: try legsContainer.superDecoder())
            base = try String(from: try container.superDecoder(forKey: .base))
            version = try Int(from: try container.superDecoder(forKey: .superclass))
        }
    }

    @Test("A custom encode(to:) with nested containers, written after they are handed out, and super encoders round-trips")
    func customContainers() throws {
        let itinerary = Itinerary(
            name: "trip", city: "Oslo", stops: [[1, 2], [], [3]], legs: [["a", "b"], ["b", "c"]], base: "root", version: 3, tail: "end")
        let plain = try #require(try ValueEncoder.encode(itinerary) as? [String: any Sendable])
        #expect(plain.keys.sorted() == ["base", "legs", "name", "origin", "stops", "super"])
        #expect((plain["origin"] as? [String: any Sendable])?["city"] as? String == "Oslo")
        #expect(plain["base"] as? String == "root" && plain["super"] as? Int == 3)
        let legs = try #require(plain["legs"] as? [any Sendable])
        #expect(legs.count == 3 && legs[2] as? String == "end")
        #expect(try roundTrip(itinerary) == itinerary)
    }

    class Base: Encodable {
        enum Keys: String, CodingKey { case id, name }
        var id = 1
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(id, forKey: .id)
        }
    }

    final class Derived: Base {
        var name = "derived"
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(name, forKey: .name)
            try super.encode(to: encoder)
        }
    }

    @Test("Two keyed containers asked of one encoder write into the same dictionary (a subclass and its superclass)")
    func sharedKeyedContainer() throws {
        let plain = try #require(try ValueEncoder.encode(Derived()) as? [String: any Sendable])
        #expect(plain["id"] as? Int == 1 && plain["name"] as? String == "derived")
    }

    /// Encodes nothing at all.
    struct Silent: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    struct Holder: Encodable {
        var silent = Silent()
        var number = 1
        var list = [Silent()]
    }

    @Test("A value that encodes nothing is nil at the top level, leaves its key out, and is a nil element in an array")
    func encodesNothing() throws {
        #expect(try ValueEncoder.encode(Int?.none) == nil)
        #expect(try ValueEncoder.encode(Silent()) == nil)
        let plain = try #require(try ValueEncoder.encode(Holder()) as? [String: any Sendable])
        #expect(plain.keys.sorted() == ["list", "number"])
        let list = try #require(plain["list"] as? [any Sendable])
        #expect(list.count == 1 && isNil(list[0]))
    }

    /// Misuses an encoder in one of the ways the `Encoder` protocol allows but no value can mean.
    struct Misuse: Encodable {
        enum Kind: CaseIterable { case singleTwice, keyedThenUnkeyed, unkeyedThenKeyed, singleThenKeyed, keyedThenSingle, nilThenSingle }
        enum Keys: String, CodingKey { case key }
        let kind: Kind

        func encode(to encoder: any Encoder) throws {
            switch kind {
            case .singleTwice:
                var container = encoder.singleValueContainer()
                try container.encode(1)
                try container.encode(2)
            case .keyedThenUnkeyed:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .key)
                var unkeyed = encoder.unkeyedContainer()
                try unkeyed.encode(2)
            case .unkeyedThenKeyed:
                var unkeyed = encoder.unkeyedContainer()
                try unkeyed.encode(2)
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .key)
            case .singleThenKeyed:
                var single = encoder.singleValueContainer()
                try single.encode("one")
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .key)
            case .keyedThenSingle:
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .key)
                var single = encoder.singleValueContainer()
                try single.encode("one")
            case .nilThenSingle:
                var single = encoder.singleValueContainer()
                try single.encodeNil()
                try single.encode("one")
            }
        }
    }

    struct MisuseHolder: Encodable {
        var wrapped: [String: Misuse]
    }

    @Test(
        "Encoding twice into a single-value container, or mixing container kinds at one level, is a failure naming the level",
        arguments: [
            (Misuse.Kind.singleTwice, "cannot encode a single value where a single value was already encoded"),
            (.keyedThenUnkeyed, "cannot use an unkeyed container where a keyed container was already encoded"),
            (.unkeyedThenKeyed, "cannot use a keyed container where an unkeyed container was already encoded"),
            (.singleThenKeyed, "cannot use a keyed container where a single value was already encoded"),
            (.keyedThenSingle, "cannot encode a single value where a keyed container was already encoded"),
            (.nilThenSingle, "cannot encode a single value where a single value was already encoded"),
        ])
    func misuse(kind: Misuse.Kind, message: String) {
        #expect(failure(encoding: Misuse(kind: kind))?.description == message)
        let nested = failure(encoding: MisuseHolder(wrapped: ["inner": Misuse(kind: kind)]))
        #expect(nested?.description == "at \"wrapped.inner\": " + message)
    }

    /// Refuses to encode, as a custom `encode(to:)` may.
    struct Refusing: Encodable {
        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(self, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "not today"))
        }
    }

    @Test("An error thrown by a custom encode(to:) becomes a failure at its path")
    func thrownError() {
        #expect(failure(encoding: ["a": [Refusing()]])?.description == "at \"a.[0]\": not today")
    }
}
