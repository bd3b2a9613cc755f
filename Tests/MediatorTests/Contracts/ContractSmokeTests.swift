import Mediator
import MediatorDiagnostics
import Testing

private struct CreateNote: Codable, Sendable, Equatable {
    var title: String
    var tags: [String]?
}

private struct Note: Codable, Sendable, Equatable {
    var id: Int
    var title: String
}

extension ActionKey where Input == CreateNote, Output == Note {
    fileprivate static var create: Self { Self(target: "Smoke", action: "create") }
}

private final class Target_Smoke: MediatorTarget {
    static let actions: [Action<Target_Smoke>] = [
        Action("list", params: [.required("token", .string), .optional("limit", .integer(minimum: 1, maximum: 100), default: 20)]) { _, params in
            try params.value("limit", as: Int.self)
        },
        Action(.create) { _, input in Note(id: 7, title: input.title) },
    ]
}

@Suite("Contracts smoke")
struct ContractSmokeTests {
    @Test("a declared action validates, coerces and fills defaults")
    func validation() throws {
        let mediator = Mediator()
        try mediator.register(Target_Smoke.self) { _ in Target_Smoke() }
        #expect(try mediator.callNow(target: "Smoke", action: "list", params: ["token": "t"]) as? Int == 20)
        #expect(try mediator.callNow(url: "app://Smoke/list?token=t&limit=5") as? Int == 5)
        #expect(throws: MediatorError.self) { try mediator.callNow(target: "Smoke", action: "list", params: ["token": "t", "limit": 500]) }
        #expect(try mediator.callNow(url: "app://Smoke/list?token=t&limit=5&x=1") as? Int == 5)
        #expect(try mediator.callNow(target: "Smoke", action: "list", params: ["token": "t", "limit": 5, "x": 1]) as? Int == 5)
        do {
            _ = try mediator.callNow(target: "Smoke", action: "list", params: ["limit": "abc"])
        } catch {
            #expect(error.description == #"Smoke/list: missing required parameter "token" (expected string)"#)
        }
        do {
            _ = try mediator.callNow(target: "Smoke", action: "list", params: ["token": "t", "limit": "abc"])
        } catch {
            #expect(error.description == #"Smoke/list: invalid parameter "limit": expected integer (1...100), got String "abc""#)
        }
    }

    @Test("a typed key passes values as they are and by name encodes them")
    func keys() throws {
        let mediator = Mediator()
        try mediator.register(Target_Smoke.self) { _ in Target_Smoke() }
        #expect(try mediator.callNow(.create, CreateNote(title: "hi")) == Note(id: 7, title: "hi"))
        let plain = try mediator.callNow(target: "Smoke", action: "create", params: ["title": "hey"])
        let dictionary = try #require(plain as? [String: any Sendable])
        #expect(dictionary["id"] as? Int == 7)
        #expect(try mediator.callNow(target: "Smoke", action: "create", params: ["title": "yo"], as: Note.self) == Note(id: 7, title: "yo"))
        print(RegistryDescription(targets: mediator.targets).json)
        mediator.require(
            [.action(.create), .action(target: "Smoke", action: "lists"), .action(target: "Smoke", action: "list", params: [.required("token", .integer)])],
            by: "Tests")
        for problem in mediator.verify() { print(problem) }
        #expect(mediator.verify().count == 2)
    }
}

@Test("a typed key awaited")
func awaitedKey() async throws {
    let mediator = Mediator()
    try mediator.register(Target_Smoke.self) { _ in Target_Smoke() }
    #expect(try await mediator.call(.create, CreateNote(title: "hi")) == Note(id: 7, title: "hi"))
}
