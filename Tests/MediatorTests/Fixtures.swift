import Foundation
import Mediator
import Synchronization

/// A target that counts how many instances were made and answers a few actions.
final class Target_Counter: MediatorTarget {
    static let made = Atomic<Int>(0)

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
    let created = Atomic<Int>(0)
    init() {}
}

/// Runs `body` on `count` real threads that start together, and waits for all of them.
/// (Dispatch's `concurrentPerform` would use only as many threads as there are cores.)
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        let thread = Thread {
            start.wait()
            body(index)
            done.leave()
        }
        thread.start()
    }
    for _ in 0..<count { start.signal() }
    done.wait()
}
