import Foundation
import Mediator
import MediatorDiagnostics
import Testing

// Failing tests from the hostile review of the contracts core (issue 13): one test per bug, each
// named after the behaviour that should hold.

// MARK: - Fixtures

/// A class input with a subclass: the caller passes a subclass instance through the key.
private class ReviewShape: Codable, @unchecked Sendable {
    // @unchecked: immutable (one `let`), never mutated after init.
    let name: String
    init(name: String) { self.name = name }
}

private final class ReviewCircle: ReviewShape, @unchecked Sendable {}

extension ActionKey where Input == ReviewShape, Output == Bool {
    fileprivate static var reviewIsCircle: Self { Self(target: "ReviewShapes", action: "isCircle") }
}

/// A raw-value enum whose raw values do not include the placeholder 0.
private enum ReviewColor: Int, Codable, Sendable {
    case red = 1
    case blue = 2
}

private struct ReviewPaint: Codable, Sendable {
    var color: ReviewColor
    var title: String
}

extension ActionKey where Input == ReviewPaint, Output == String {
    fileprivate static var reviewPaint: Self { Self(target: "ReviewPaint", action: "paint") }
}

/// A recursive input (an optional reference to its own type), with fields after the recursion.
private final class ReviewNode: Codable, Sendable {
    let name: String
    let next: ReviewNode?
    let title: String
}

extension ActionKey where Input == ReviewNode, Output == String {
    fileprivate static var reviewNode: Self { Self(target: "ReviewNodes", action: "node") }
}

@Suite("Review of contracts")
struct ReviewContractTests {
    // MARK: Typed keys

    @Test("a typed call passes a subclass input as is, awaited or not")
    func subclassInputPassedAsIs() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "ReviewShapes",
            actions: [Action<Mediator>(.reviewIsCircle) { _, shape in shape is ReviewCircle }])
        let circle: ReviewShape = ReviewCircle(name: "c")
        // The synchronous call takes the hot path and passes the instance as is.
        let synchronous: Bool = try { () throws(MediatorError) -> Bool in try mediator.callNow(.reviewIsCircle, circle) }()
        #expect(synchronous)
        // The awaited call must do the same (it compares the input's dynamic type with the key's).
        let awaited = try await mediator.call(.reviewIsCircle, circle)
        #expect(awaited, "the awaited typed call encoded and decoded the input instead of passing it as is")
    }

    @Test("a keyed action whose input has a raw-value enum field accepts a correct URL call")
    func rawValueEnumFieldDoesNotHideLaterFields() throws {
        let mediator = Mediator()
        try mediator.register(
            target: "ReviewPaint",
            actions: [Action<Mediator>(.reviewPaint) { _, paint in "\(paint.color.rawValue) \(paint.title)" }])
        let action = try #require(mediator.targets.first { $0.name == "ReviewPaint" }?.actions.first)
        #expect(action.parameters?.map(\.name) == ["color", "title"])
        #expect(try mediator.callNow(url: "app://ReviewPaint/paint?color=1&title=hi") as? String == "1 hi")
    }

    @Test("a keyed action whose input is a recursive type accepts a correct URL call")
    func recursiveInputDoesNotHideLaterFields() throws {
        let mediator = Mediator()
        try mediator.register(target: "ReviewNodes", actions: [Action<Mediator>(.reviewNode) { _, node in node.title }])
        let action = try #require(mediator.targets.first { $0.name == "ReviewNodes" }?.actions.first)
        #expect(action.parameters?.map(\.name) == ["name", "next", "title"])
        #expect(try mediator.callNow(url: "app://ReviewNodes/node?name=a&title=t") as? String == "t")
    }

    // MARK: Validation

    @Test("a default that verify accepts reaches the action as the declared type")
    func defaultIsCoerced() throws {
        let mediator = Mediator()
        try mediator.register(
            target: "ReviewDefaults",
            actions: [
                Action<Mediator>("list", params: [.optional("limit", .integer, default: Int32(20))]) { _, params in
                    try params.value("limit", as: Int.self)
                }
            ])
        #expect(mediator.verify().isEmpty)
        // Sent as an Int32, the value is converted to Int: the default must be too.
        #expect(try mediator.callNow(target: "ReviewDefaults", action: "list", params: ["limit": Int32(5)]) as? Int == 5)
        #expect(try mediator.callNow(target: "ReviewDefaults", action: "list") as? Int == 20)
    }

    @Test("the fields of objects inside a declared array are checked")
    func objectsInArraysAreChecked() throws {
        let mediator = Mediator()
        let ran = RanFlag()
        try mediator.register(
            target: "ReviewItems",
            actions: [
                Action<Mediator>("save", params: [.required("items", .array(of: .object([.required("id", .integer)])))]) { _, _ in
                    ran.set()
                    return nil
                }
            ])
        let error = #expect(throws: MediatorError.self) {
            try mediator.callNow(target: "ReviewItems", action: "save", params: ["items": [["id": "not a number"] as [String: any Sendable]]])
        }
        #expect(error?.code == .invalidParameter)
        #expect(!ran.value, "the action ran with an element whose declared field is not an integer")
    }

    // MARK: verify()

    @Test("verify reports a nested field's default that does not fit its type")
    func verifyChecksNestedDefaults() throws {
        let mediator = Mediator()
        try mediator.register(
            target: "ReviewNested",
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
            target: "ReviewJSON",
            actions: [Action<Mediator>("scale", params: [.required("factor", .number(minimum: 0, maximum: .infinity))]) { _, _ in nil }])
        let json = RegistryDescription(targets: mediator.targets).json
        #expect((try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil, "not JSON:\n\(json)")
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
