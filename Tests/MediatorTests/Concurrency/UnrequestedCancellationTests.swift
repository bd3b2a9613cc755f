import Mediator
import Testing

/// `MediatorError.Code.cancelled` says "the calling task was cancelled and the action stopped with
/// `CancellationError`". An action can end in `CancellationError` although nobody cancelled its
/// caller: it awaited work that someone else cancelled.
@Suite(
    "A CancellationError that the caller did not ask for",
    .bug(id: "unrequested-cancellation", "a CancellationError nobody asked for was reported as cancelled"))
struct UnrequestedCancellationTests {
    @Test("An action ending in another task's CancellationError, its caller not cancelled, is not reported as the caller's cancellation")
    func otherTasksCancellation() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Relay",
            actions: [
                Action("forward") { _, _ async throws -> (any Sendable)? in
                    // Work the action depends on, cancelled by someone else (a shutdown, a newer request).
                    let upstream = Task<Int, any Error> {
                        try await Task.sleep(nanoseconds: 600_000_000_000)
                        return 1
                    }
                    upstream.cancel()
                    return try await upstream.value
                }
            ])
        try #require(!Task.isCancelled)
        let error = try #require(await #expect(throws: MediatorError.self) { try await mediator.call(target: "Relay", action: "forward") })
        #expect(!Task.isCancelled)
        #expect(error.code != .cancelled, "\(error)")
        #expect(!error.description.contains("the calling task was cancelled"), "\(error)")
    }
}
