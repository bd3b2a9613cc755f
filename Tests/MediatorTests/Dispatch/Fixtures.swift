import Foundation
import Mediator
import TestSupport

/// A target that counts how many instances were made and answers a few actions.
final class Target_Counter: MediatorTarget {
    static let made = Counter()

    static let actions: [Action<Target_Counter>] = [
        Action("identity") { target, _ in ObjectIdentifier(target) },
        Action("double") { _, params in try params.value("n", as: Int.self) * 2 },
        Action("nothing") { _, _ in nil },
        Action("fail") { _, params in throw FixtureError(message: try params.value("message", as: String.self)) },
    ]

    init() {}
}

/// An error an action throws in tests.
struct FixtureError: Error, CustomStringConvertible, Equatable, CodedError {
    let message: String
    var code: String { "fixture" }
    var description: String { "fixture error: \(message)" }
}

/// A plain target class for closure registrations.
final class Box: Sendable {
    let created = Counter()
    init() {}
}
