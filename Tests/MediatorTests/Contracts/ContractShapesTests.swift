import Mediator
import MediatorDiagnostics
import TestSupport
import Testing

// Keyed actions of main-actor targets, and the schema read from input types whose conformances
// use every kind of container.

struct Rename: Codable, Sendable, Equatable {
    var title: String
}

struct Renamed: Codable, Sendable, Equatable {
    var title: String
    var onMainQueue: Bool
}

extension ActionKey where Input == Rename, Output == Renamed {
    static var screenRename: Self { Self(target: "KeyedScreen", action: "rename") }
    static var screenRenameLater: Self { Self(target: "KeyedScreen", action: "renameLater") }
}

final class Target_KeyedScreen: MainActorTarget {
    static let actions: [Action<Target_KeyedScreen>] = [
        Action(.screenRename) { screen, input in
            screen.title = input.title
            return Renamed(title: screen.title, onMainQueue: runsOnMainQueue())
        },
        Action(.screenRenameLater) { screen, input async throws in
            screen.title = input.title.uppercased()
            return Renamed(title: screen.title, onMainQueue: runsOnMainQueue())
        },
    ]
    var title = ""
}

/// An input whose own `init(from:)` uses nested keyed and unkeyed containers and a super decoder.
struct Layered: Codable, Sendable {
    var name: String
    var size: Float
    var counts: [String: Int]
    var inner: String
    var list: [Int]
    var base: String

    enum Keys: String, CodingKey { case name, size, counts, box, list, base }
    enum BoxKeys: String, CodingKey { case inner }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        name = try container.decode(String.self, forKey: .name)
        size = try container.decode(Float.self, forKey: .size)
        counts = try container.decode([String: Int].self, forKey: .counts)
        inner = try container.nestedContainer(keyedBy: BoxKeys.self, forKey: .box).decode(String.self, forKey: .inner)
        var items = try container.nestedUnkeyedContainer(forKey: .list)
        list = items.isAtEnd ? [] : [try items.decode(Int.self)]
        base = try String(from: container.superDecoder(forKey: .base))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(name, forKey: .name)
        try container.encode(size, forKey: .size)
        try container.encode(counts, forKey: .counts)
        var box = container.nestedContainer(keyedBy: BoxKeys.self, forKey: .box)
        try box.encode(inner, forKey: .inner)
        try container.encode(list, forKey: .list)
        try container.encode(base, forKey: .base)
    }
}

/// An input that its declared params accept but decoding may refuse (a colour it does not know).
struct Paint: Codable, Sendable {
    enum Colour: String, Codable, Sendable, CaseIterable { case red, green }
    var colour: Colour
}

extension ActionKey where Input == Paint, Output == String {
    static var paint: Self { Self(target: "Painter", action: "paint") }
}

final class Target_Painter: MediatorTarget {
    static let actions: [Action<Target_Painter>] = [Action(.paint) { _, input in input.colour.rawValue }]
}

extension ActionKey where Input == Layered, Output == String {
    static var layered: Self { Self(target: "Shapes", action: "layered") }
}

@Suite("Contracts: main-actor keyed actions and input shapes")
struct ContractShapesTests {
    @Test("On the main actor, a main-actor target's keyed action runs at once through its key, and its async one awaited")
    @MainActor
    func keyedOnTheMainActor() async throws {
        let mediator = Mediator()
        try mediator.register(Target_KeyedScreen.self) { _ in Target_KeyedScreen() }
        let renamed = try synchronously { () throws(MediatorError) -> Renamed in
            try mediator.callNow(.screenRename, Rename(title: "Home"), shouldCacheTarget: true)
        }
        #expect(renamed == Renamed(title: "Home", onMainQueue: true))
        #expect(try await mediator.call(.screenRenameLater, Rename(title: "away"), shouldCacheTarget: true) == Renamed(title: "AWAY", onMainQueue: true))
    }

    @Test("Off the main actor, a main-actor keyed action is awaited (one hop), by key and by name")
    func keyedOffTheMainActor() async throws {
        let mediator = Mediator()
        try mediator.register(Target_KeyedScreen.self) { _ in Target_KeyedScreen() }
        #expect(try await mediator.call(.screenRename, Rename(title: "a")) == Renamed(title: "a", onMainQueue: true))
        let plain = try await mediator.call(target: "KeyedScreen", action: "rename", params: ["title": "b"])
        let fields = try #require(plain as? [String: any Sendable])
        #expect(fields["title"] as? String == "b")
        #expect(fields["onMainQueue"] as? Bool == true)
        #expect(
            try await mediator.call(target: "KeyedScreen", action: "renameLater", params: ["title": "c"], as: Renamed.self)
                == Renamed(title: "C", onMainQueue: true))
    }

    @Test("An input's nested containers, super decoder, Float and dictionary fields are read as parameters")
    func layeredInput() throws {
        let mediator = Mediator()
        try mediator.register(target: "Shapes", actions: [Action<Mediator>(.layered) { _, input in "\(input.name) \(input.inner) \(input.base)" }])
        let action = try #require(mediator.target(named: "Shapes")?.actions.first)
        #expect(
            action.parameters == [
                .required("name", .string), .required("size", .number), .required("counts", .object), .required("box", .object),
                .required("list", .array(of: .integer)), .required("base", .string),
            ])
        #expect(action.result == .string)
        let input = Layered.sample
        #expect(try mediator.callNow(.layered, input) == "n i b")
        // By name: the params the input encodes to are what a caller by name sends.
        let byName = try mediator.callNow(
            target: "Shapes", action: "layered",
            params: [
                "name": "n", "size": 1.5, "counts": ["a": 1] as [String: any Sendable], "box": ["inner": "i"] as [String: any Sendable], "list": [1],
                "base": "b",
            ])
        #expect(byName as? String == "n i b")
    }

    @Test("Through a handle, a keyed action's input is decoded before the instance is made, as for a call by name")
    func handleDecodesFirst() throws {
        let made = Counter()
        let mediator = Mediator()
        try mediator.register(Target_Painter.self) { _ in
            made.increment()
            return Target_Painter()
        }
        let handle = try mediator.handle(target: "Painter", action: "paint")
        let error = #expect(throws: MediatorError.self) { try handle.callNow(["colour": "purple"]) }
        #expect(error?.code == .invalidParameter)
        #expect(error?.parameter == "colour")
        #expect(made.value == 0, "the factory ran for a call whose input could not be decoded")
        #expect(try handle.callNow(["colour": "green"]) as? String == "green")
        #expect(made.value == 1)
    }

    @Test("The description's JSON escapes what could drive or reorder a terminal: controls, bidi and invisible format characters")
    func descriptionEscapesForTerminals() throws {
        let mediator = Mediator()
        try mediator.register(target: "Escapes", summary: "a\u{202E}b\u{200B}c\u{1B}[2Jd\u{2028}e", actions: [])
        let json = RegistryDescription(targets: mediator.targets).json
        #expect(json.contains(#""summary": "a\u202eb\u200bc\u001b[2Jd\u2028e""#))
        #expect(!json.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x200B || $0.value == 0x1B })
    }

    @Test("Listed actions compare equal exactly when everything they show is equal")
    func actionInfoEquality() throws {
        func info(_ action: Action<Mediator>) throws -> ActionInfo {
            let mediator = Mediator()
            try mediator.register(target: "Same", actions: [action])
            return try #require(mediator.target(named: "Same")?.actions.first)
        }
        let declared = try info(Action("go", summary: "Go", params: [.required("n", .integer)], result: .string) { _, _ in nil })
        #expect(declared == (try info(Action("go", summary: "Go", params: [.required("n", .integer)], result: .string) { _, _ in "other body" })))
        #expect(declared != (try info(Action("go", summary: "Go", params: [.required("n", .number)], result: .string) { _, _ in nil })))
        #expect(declared != (try info(Action("go", summary: "Go", params: [.required("n", .integer)], result: .integer) { _, _ in nil })))
        #expect(
            declared
                != (try info(Action("go", summary: "Go", params: [.required("n", .integer)], result: .string) { _, _ in nil }.undeclaredParameters(.refused))))
        #expect(declared != (try info(Action("go", summary: "Go", params: [.required("n", .integer)], result: .string) { _, _ async in nil })))
        #expect(declared.isAsync == false)
        #expect(declared.keyTypes == nil)
    }
}

extension Layered {
    static let sample = Layered(name: "n", size: 1.5, counts: ["a": 1], inner: "i", list: [1], base: "b")

    init(name: String, size: Float, counts: [String: Int], inner: String, list: [Int], base: String) {
        self.name = name
        self.size = size
        self.counts = counts
        self.inner = inner
        self.list = list
        self.base = base
    }
}
