import Mediator
import Testing

/// A provider module's own result types: `Encodable`, never seen by the caller.
enum ProviderSide {
    enum Status: String, Encodable, Sendable { case draft, published }

    enum Figure: Encodable, Sendable {
        case circle(radius: Double)
        case square(side: Int)
    }

    struct Attachment: Encodable, Sendable {
        let name: String
        let size: Int
    }

    struct Note: Encodable, Sendable {
        let title: String
        let status: Status
        let attachments: [Attachment]
        let figure: Figure
        let rating: Float
        let pinned: Bool
        let editor: String?
    }

    struct Reading: Encodable, Sendable {
        let values: [Double]
    }

    /// Encodes itself as an array of points, as a custom `encode(to:)` may.
    struct Route: Encodable, Sendable {
        let points: [(x: Int, y: Int)]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            for point in points { try container.encode(["x": point.x, "y": point.y]) }
        }
    }

    struct Trip: Encodable, Sendable {
        let name: String
        let route: Route
    }

    static let note = Note(
        title: "Groceries", status: .published, attachments: [Attachment(name: "list.txt", size: 12), Attachment(name: "photo.jpg", size: 300)],
        figure: .circle(radius: 1.5), rating: 4.5, pinned: true, editor: nil)
}

/// The caller's types of the same shapes: `Decodable`, declared without importing the provider.
enum CallerSide {
    enum Status: String, Decodable { case draft, published }

    enum Figure: Decodable, Equatable {
        case circle(radius: Double)
        case square(side: Int)
    }

    struct Attachment: Decodable, Equatable {
        let name: String
        let size: Int
    }

    struct Note: Decodable, Equatable {
        let title: String
        let status: Status
        let attachments: [Attachment]
        let figure: Figure
        let rating: Float
        let pinned: Bool
        let editor: String?
    }

    struct Point: Decodable, Equatable {
        let x: Int
        let y: Int
    }

    struct Trip: Decodable, Equatable {
        let name: String
        let route: [Point]
    }

    /// Reads only part of a note, with a size too narrow for one attachment.
    struct NarrowNote: Decodable {
        struct Attachment: Decodable { let size: Int8 }
        let title: String
        let attachments: [Attachment]
    }

    /// Expects a field the provider does not send.
    struct AuthoredNote: Decodable {
        let title: String
        let author: String
    }

    static let note = Note(
        title: "Groceries", status: .published, attachments: [Attachment(name: "list.txt", size: 12), Attachment(name: "photo.jpg", size: 300)],
        figure: .circle(radius: 1.5), rating: 4.5, pinned: true, editor: nil)
}

/// A result type both sides share (one module), returned by reference.
final class Ledger: Codable, Sendable {
    let entries: [Int]
    init(entries: [Int]) { self.entries = entries }
}

/// Holds a shared ledger: read through the decoder, whose leaves are returned as they are too.
struct LedgerHolder: Decodable {
    let ledger: Ledger
}

@Suite("Results across modules: a provider's Encodable type decoded into the caller's type")
struct EncodableResultTests {
    static let ledger = Ledger(entries: [1, 2])

    let mediator: Mediator

    init() throws {
        mediator = Mediator()
        try mediator.register(
            target: "Provider",
            actions: [
                Action("note") { _, _ in ProviderSide.note },
                Action("loadNote") { _, _ async throws in
                    await Task.yield()
                    return ProviderSide.note
                },
                Action("notes") { _, _ in [ProviderSide.note, ProviderSide.note] },
                Action("attachments") { _, _ in ProviderSide.note.attachments },
                Action("status") { _, _ in ProviderSide.Status.draft },
                Action("statuses") { _, _ in [ProviderSide.Status.draft, .published] },
                Action("figure") { _, _ in ProviderSide.Figure.square(side: 2) },
                Action("reading") { _, _ in ProviderSide.Reading(values: [1, .infinity]) },
                Action("route") { _, _ in ProviderSide.Route(points: [(1, 2), (3, 4)]) },
                Action("trip") { _, _ in ProviderSide.Trip(name: "t", route: ProviderSide.Route(points: [(5, 6)])) },
                Action("ids") { _, _ in Set([3, 1, 2]) },
                Action("ledger") { _, _ in Self.ledger },
                Action("ledgerHolder") { _, _ in ["ledger": Self.ledger] as [String: any Sendable] },
            ])
    }

    @Test("A provider's own struct decodes into the caller's struct of the same shape")
    func topLevelStruct() throws {
        #expect(try mediator.callNow(target: "Provider", action: "note", as: CallerSide.Note.self) == CallerSide.note)
    }

    @Test("The async form decodes a provider's struct too, from a sync action and from an async one")
    func asyncForm() async throws {
        #expect(try await mediator.call(target: "Provider", action: "note", as: CallerSide.Note.self) == CallerSide.note)
        #expect(try await mediator.call(target: "Provider", action: "loadNote", as: CallerSide.Note.self) == CallerSide.note)
    }

    @Test("Arrays of provider structs, at the top level and nested, decode into arrays of caller structs")
    func arrays() throws {
        #expect(try mediator.callNow(target: "Provider", action: "notes", as: [CallerSide.Note].self) == [CallerSide.note, CallerSide.note])
        #expect(try mediator.callNow(target: "Provider", action: "attachments", as: [CallerSide.Attachment].self) == CallerSide.note.attachments)
    }

    @Test("A provider's type that encodes as an array (a custom encode(to:), a Set) decodes into the caller's array")
    func unkeyedProviderTypes() throws {
        let points = [CallerSide.Point(x: 1, y: 2), CallerSide.Point(x: 3, y: 4)]
        #expect(try mediator.callNow(target: "Provider", action: "route", as: [CallerSide.Point].self) == points)
        let trip = try mediator.callNow(target: "Provider", action: "trip", as: CallerSide.Trip.self)
        #expect(trip == CallerSide.Trip(name: "t", route: [CallerSide.Point(x: 5, y: 6)]))
        #expect(try mediator.callNow(target: "Provider", action: "ids", as: [Int].self).sorted() == [1, 2, 3])
    }

    @Test("A provider's enums, with a raw value and with associated values, decode into the caller's enums and leaves")
    func enums() throws {
        #expect(try mediator.callNow(target: "Provider", action: "status", as: CallerSide.Status.self) == .draft)
        #expect(try mediator.callNow(target: "Provider", action: "status", as: String.self) == "draft")
        #expect(try mediator.callNow(target: "Provider", action: "statuses", as: [String].self) == ["draft", "published"])
        #expect(try mediator.callNow(target: "Provider", action: "figure", as: CallerSide.Figure.self) == .square(side: 2))
    }

    @Test("A shape that does not fit is a resultTypeMismatch naming the path that did not fit")
    func mismatchNamesPath() {
        let narrow = #expect(throws: MediatorError.self) {
            try mediator.callNow(target: "Provider", action: "note", as: CallerSide.NarrowNote.self)
        }
        #expect(narrow?.code == .resultTypeMismatch)
        #expect(narrow?.target == "Provider" && narrow?.action == "note")
        #expect(narrow?.reason.contains("(at \"attachments.[1].size\": expected Int8, got Int 300)") == true, "\(String(describing: narrow))")
        let missing = #expect(throws: MediatorError.self) {
            try mediator.callNow(target: "Provider", action: "note", as: CallerSide.AuthoredNote.self)
        }
        #expect(missing?.code == .resultTypeMismatch)
        #expect(missing?.reason.contains("(at \"author\": missing key \"author\" (expected String))") == true, "\(String(describing: missing))")
    }

    @Test("The async form names the path that did not fit too")
    func asyncMismatch() async {
        let error = await #expect(throws: MediatorError.self) {
            try await mediator.call(target: "Provider", action: "loadNote", as: CallerSide.NarrowNote.self)
        }
        #expect(error?.code == .resultTypeMismatch)
        #expect(error?.reason.contains("at \"attachments.[1].size\": expected Int8, got Int 300") == true, "\(String(describing: error))")
    }

    @Test("A provider's value that cannot be encoded (an infinity) is a resultTypeMismatch naming its path")
    func nonFinite() {
        let error = #expect(throws: MediatorError.self) {
            try mediator.callNow(target: "Provider", action: "reading", as: [String: [Double]].self)
        }
        #expect(error?.code == .resultTypeMismatch)
        #expect(error?.reason.contains("at \"values.[1]\": Reading could not be encoded: cannot encode inf") == true, "\(String(describing: error))")
    }

    @Test("A result that already is the caller's type is returned as it is, not re-encoded")
    func fastPath() throws {
        #expect(try mediator.callNow(target: "Provider", action: "ledger", as: Ledger.self) === Self.ledger)
        #expect(try mediator.callNow(target: "Provider", action: "ledgerHolder", as: LedgerHolder.self).ledger === Self.ledger)
    }
}
