import Foundation
import Mediator
import MediatorDiagnostics
import Testing

// Contracts at their edges: one test per behaviour that once failed, each named after the
// behaviour that holds.

// MARK: - Fixtures

/// A class input with a subclass: the caller passes a subclass instance through the key.
private class EdgeShape: Codable, @unchecked Sendable {
    // @unchecked: immutable (one `let`), never mutated after init.
    let name: String
    init(name: String) { self.name = name }
}

private final class EdgeCircle: EdgeShape, @unchecked Sendable {}

extension ActionKey where Input == EdgeShape, Output == Bool {
    fileprivate static var edgeIsCircle: Self { Self(target: "EdgeShapes", action: "isCircle") }
}

/// A raw-value enum whose raw values do not include the placeholder 0.
private enum EdgeColor: Int, Codable, Sendable {
    case red = 1
    case blue = 2
}

private struct EdgePaint: Codable, Sendable {
    var color: EdgeColor
    var title: String
}

extension ActionKey where Input == EdgePaint, Output == String {
    fileprivate static var edgePaint: Self { Self(target: "EdgePaint", action: "paint") }
}

/// A recursive input (an optional reference to its own type), with fields after the recursion.
private final class EdgeNode: Codable, Sendable {
    let name: String
    let next: EdgeNode?
    let title: String
}

extension ActionKey where Input == EdgeNode, Output == String {
    fileprivate static var edgeNode: Self { Self(target: "EdgeNodes", action: "node") }
}

@Suite("Contracts: edge cases")
struct ContractEdgeCaseTests {
    // MARK: Typed keys

    @Test("a typed call passes a subclass input as is, awaited or not")
    func subclassInputPassedAsIs() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "EdgeShapes",
            actions: [Action<Mediator>(.edgeIsCircle) { _, shape in shape is EdgeCircle }])
        let circle: EdgeShape = EdgeCircle(name: "c")
        // The synchronous call takes the hot path and passes the instance as is.
        let synchronous: Bool = try { () throws(MediatorError) -> Bool in try mediator.callNow(.edgeIsCircle, circle) }()
        #expect(synchronous)
        // The awaited call must do the same (it compares the input's dynamic type with the key's).
        let awaited = try await mediator.call(.edgeIsCircle, circle)
        #expect(awaited, "the awaited typed call encoded and decoded the input instead of passing it as is")
    }

    @Test("a keyed action whose input has a raw-value enum field accepts a correct URL call")
    func rawValueEnumFieldDoesNotHideLaterFields() throws {
        let mediator = Mediator()
        try mediator.register(
            target: "EdgePaint",
            actions: [Action<Mediator>(.edgePaint) { _, paint in "\(paint.color.rawValue) \(paint.title)" }])
        let action = try #require(mediator.targets.first { $0.name == "EdgePaint" }?.actions.first)
        #expect(action.parameters?.map(\.name) == ["color", "title"])
        #expect(try mediator.callNow(url: "app://EdgePaint/paint?color=1&title=hi") as? String == "1 hi")
    }

    @Test("a keyed action whose input is a recursive type accepts a correct URL call")
    func recursiveInputDoesNotHideLaterFields() throws {
        let mediator = Mediator()
        try mediator.register(target: "EdgeNodes", actions: [Action<Mediator>(.edgeNode) { _, node in node.title }])
        let action = try #require(mediator.targets.first { $0.name == "EdgeNodes" }?.actions.first)
        #expect(action.parameters?.map(\.name) == ["name", "next", "title"])
        #expect(try mediator.callNow(url: "app://EdgeNodes/node?name=a&title=t") as? String == "t")
    }

    // MARK: Validation

    @Test("a default that verify accepts reaches the action as the declared type")
    func defaultIsCoerced() throws {
        let mediator = Mediator()
        try mediator.register(
            target: "EdgeDefaults",
            actions: [
                Action<Mediator>("list", params: [.optional("limit", .integer, default: Int32(20))]) { _, params in
                    try params.value("limit", as: Int.self)
                }
            ])
        #expect(mediator.verify().isEmpty)
        // Sent as an Int32, the value is converted to Int: the default must be too.
        #expect(try mediator.callNow(target: "EdgeDefaults", action: "list", params: ["limit": Int32(5)]) as? Int == 5)
        #expect(try mediator.callNow(target: "EdgeDefaults", action: "list") as? Int == 20)
    }

    @Test("the fields of objects inside a declared array are checked")
    func objectsInArraysAreChecked() throws {
        let mediator = Mediator()
        let ran = RanFlag()
        try mediator.register(
            target: "EdgeItems",
            actions: [
                Action<Mediator>("save", params: [.required("items", .array(of: .object([.required("id", .integer)])))]) { _, _ in
                    ran.set()
                    return nil
                }
            ])
        let error = #expect(throws: MediatorError.self) {
            try mediator.callNow(target: "EdgeItems", action: "save", params: ["items": [["id": "not a number"] as [String: any Sendable]]])
        }
        #expect(error?.code == .invalidParameter)
        #expect(!ran.value, "the action ran with an element whose declared field is not an integer")
    }

    // MARK: verify()

    @Test("verify reports a nested field's default that does not fit its type")
    func verifyChecksNestedDefaults() throws {
        let mediator = Mediator()
        try mediator.register(
            target: "EdgeNested",
            actions: [
                Action<Mediator>("set", params: [.required("size", .object([.optional("width", .integer, default: "wide")]))]) { _, _ in nil }
            ])
        #expect(!mediator.verify().isEmpty, "a default \"wide\" for an integer field passes verify")
    }

    // MARK: JSON description

    @Test("the registry description is valid JSON for a number range bounded by infinity")
    func descriptionWithInfiniteBoundIsJSON() throws {
        let mediator = Mediator()
        try mediator.register(
            target: "EdgeJSON",
            actions: [Action<Mediator>("scale", params: [.required("factor", .number(minimum: 0, maximum: .infinity))]) { _, _ in nil }])
        let json = RegistryDescription(targets: mediator.targets).json
        #expect((try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil, "not JSON:\n\(json)")
    }

    @Test(
        "a param whose name equals two declared spellings (precomposed and decomposed) is checked the same whatever order the params come in",
        .bug(id: "params order", "the quick check matched the later spelling when params came in another order"))
    func equivalentDeclaredNamesIgnoreParamsOrder() throws {
        let precomposed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let mediator = Mediator()
        try mediator.register(
            target: "EdgeSpellings",
            actions: [
                Action<Mediator>("a", params: [.required(precomposed, .string), .optional("x", .string), .optional(decomposed, .integer)]) { _, _ in
                    "ran"
                }
            ])
        // Params keep the order they are written in.
        #expect(try mediator.callNow(target: "EdgeSpellings", action: "a", params: [precomposed: "hello", "x": "y"]) as? String == "ran")
        #expect(try mediator.callNow(target: "EdgeSpellings", action: "a", params: ["x": "y", precomposed: "hello"]) as? String == "ran")
    }
}

/// Set by an action, read by the test after the call returned.
private final class RanFlag: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var ran = false
    func set() { lock.withLock { ran = true } }
    var value: Bool { lock.withLock { ran } }
}
