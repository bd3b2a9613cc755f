import TestSupport
import Testing

@testable import Mediator

/// A decodable result type of the tests' own, as a typed extension module declares one.
private struct Page: Decodable, Sendable, Equatable {
    let number: Int
    let title: String
}

/// What a completion saw: whether it ran on the main actor, and what it was given.
private struct Delivery<T: Sendable>: Sendable {
    let onMainActor: Bool
    let result: Result<T, MediatorError>
}

/// Main-actor state a completion updates, as a view controller's label: the completion compiles
/// only if the compiler checks it as main-actor code.
@MainActor
private final class Screen {
    var title = ""
    var onMainActor: [Bool] = []
}

@Suite("Completion forms: typed results, and the actor the completion runs on", hangLimit)
struct CompletionDeliveryTests {
    /// A mediator whose `Feed` target answers with plain values, from an async action that runs
    /// off the main actor and says whether it did.
    func feed() throws -> Mediator {
        let mediator = Mediator()
        try mediator.register(
            target: "Feed",
            actions: [
                Action("page") { (_: Mediator, params: Params) async throws -> (any Sendable)? in
                    let number = try params.value("n", as: Int.self)
                    return ["number": number, "title": "Page \(number)"] as [String: any Sendable]
                },
                Action("count") { (_: Mediator, _: Params) async throws -> (any Sendable)? in 3 },
                Action("nothing") { (_: Mediator, _: Params) async throws -> (any Sendable)? in nil },
                Action("whereAmI") { (_: Mediator, _: Params) async throws -> (any Sendable)? in isOnMainActor() },
            ])
        return mediator
    }

    /// Starts `perform(..., as:)` from the calling context and waits for its one completion.
    fileprivate func delivered<T: Sendable>(
        _ mediator: Mediator, _ action: String, params: Params = [:], as type: T.Type, isolation: isolated (any Actor)? = #isolation
    ) async -> Delivery<T> {
        await withCheckedContinuation { (continuation: CheckedContinuation<Delivery<T>, Never>) in
            mediator.perform(target: "Feed", action: action, params: params, as: T.self, isolation: isolation) { result in
                continuation.resume(returning: Delivery(onMainActor: isOnMainActor(), result: result))
            }
        }
    }

    @Test("A call started on the main actor completes on the main actor, while its async action runs off it")
    @MainActor
    func mainActorCallerCompletesOnMainActor() async throws {
        let mediator = try feed()
        let untyped = await withCheckedContinuation { (continuation: CheckedContinuation<Delivery<(any Sendable)?>, Never>) in
            mediator.perform(target: "Feed", action: "whereAmI", as: (any Sendable)?.self) { result in
                continuation.resume(returning: Delivery(onMainActor: isOnMainActor(), result: result))
            }
        }
        #expect(untyped.onMainActor)
        #expect(try untyped.result.get() as? Bool == false)
        let typed = await delivered(mediator, "whereAmI", as: Bool.self)
        #expect(typed.onMainActor)
        #expect(try typed.result.get() == false)
        // open(_:completion:) for an action that must be awaited: the same.
        let opened = await withCheckedContinuation { (continuation: CheckedContinuation<(Bool, (any Sendable)?), Never>) in
            mediator.open("app://Feed/whereAmI") { outcome in continuation.resume(returning: (isOnMainActor(), outcome["result"])) }
        }
        #expect(opened.0)
        #expect(opened.1 as? Bool == false)
    }

    @Test("A main-actor caller's completion is main-actor code: it updates main-actor state, and a call it starts completes on the main actor too")
    @MainActor
    func mainActorCompletionIsMainActorCode() async throws {
        let mediator = try feed()
        let screen = Screen()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            mediator.perform(target: "Feed", action: "page", params: ["n": 1], as: Page.self) { result in
                screen.title = (try? result.get().title) ?? "failed"
                screen.onMainActor.append(isOnMainActor())
                // A call started from the completion: still main-actor code.
                mediator.perform(target: "Feed", action: "count", as: Int.self) { count in
                    screen.title += " of \((try? count.get()) ?? 0)"
                    screen.onMainActor.append(isOnMainActor())
                    continuation.resume()
                }
            }
        }
        #expect(screen.title == "Page 1 of 3")
        #expect(screen.onMainActor == [true, true])
    }

    @Test("isolation: nil completes a main-actor caller's call on the shared pool")
    @MainActor
    func explicitNilIsolation() async throws {
        let mediator = try feed()
        let onMainActor = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            mediator.perform(target: "Feed", action: "count", as: (any Sendable)?.self, isolation: nil) { _ in continuation.resume(returning: isOnMainActor()) }
        }
        #expect(!onMainActor)
    }

    @Test("A call started outside any actor completes outside the main actor")
    func nonisolatedCallerCompletesOffMainActor() async throws {
        let mediator = try feed()
        let delivery = await delivered(mediator, "count", as: Int.self)
        #expect(!delivery.onMainActor)
        #expect(try delivery.result.get() == 3)
    }

    @Test("as: T.self gives the result as it is when it is a T, decoded from plain values when T is Decodable")
    func typedResults() async throws {
        let mediator = try feed()
        #expect(try await delivered(mediator, "count", as: Int.self).result.get() == 3)
        #expect(try await delivered(mediator, "page", params: ["n": 2], as: Page.self).result.get() == Page(number: 2, title: "Page 2"))
        #expect(try await delivered(mediator, "count", as: Int?.self).result.get() == 3)
        // No result: nil as an Optional, a mismatch for anything else.
        let none: Int?? = try? await delivered(mediator, "nothing", as: Int?.self).result.get()
        #expect(none == .some(nil))
        if case .failure(let error) = await delivered(mediator, "nothing", as: Int.self).result {
            #expect(error.code == .resultTypeMismatch)
        } else {
            Issue.record("nil was read as an Int")
        }
    }

    @Test("A result that cannot be read as T is resultTypeMismatch; the call's own failure comes as it is")
    func typedFailures() async throws {
        let mediator = try feed()
        let mismatch = await delivered(mediator, "count", as: Page.self)
        #expect(throws: MediatorError.self) { try mismatch.result.get() }
        if case .failure(let error) = mismatch.result {
            #expect(error.code == .resultTypeMismatch)
            #expect(error.target == "Feed" && error.action == "count")
        }
        let missing = await delivered(mediator, "page", as: Page.self)
        if case .failure(let error) = missing.result {
            #expect(error.code == .invalidParameter)
        } else {
            Issue.record("a call without its required param succeeded: \(missing.result)")
        }
        let unknown = await delivered(mediator, "nope", as: Int.self)
        if case .failure(let error) = unknown.result {
            #expect(error.code == .actionNotFound)
        } else {
            Issue.record("a call to a missing action succeeded: \(unknown.result)")
        }
    }
}
