import Mediator
import Testing

// One way for every test to get at the error a call failed with, so a test reads as the call and
// what it expects of the failure:
//
//     #expect(mediatorError { try mediator.callNow(target: "Notes", action: "nope") }?.code == .actionNotFound)

/// The ``MediatorError`` that `body` throws, or `nil` when it returns.
///
/// `body` may throw typed (`() throws(MediatorError) in ...`, taken as it is, with no conversion)
/// or untyped, and may return a value, which is ignored. Every entry point throws only
/// `MediatorError`, so anything else is a bug: it is recorded as a test issue and the helper
/// returns `nil`.
///
/// ```swift
/// let error = try #require(mediatorError { try mediator.callNow(url: "app://Notes/wipeAll") })
/// #expect(error.code == .forbidden)
/// ```
public func mediatorError<Value, Failure: Error>(_ body: () throws(Failure) -> Value) -> MediatorError? {
    do {
        _ = try body()
        return nil
    } catch {
        return capture(error)
    }
}

/// The ``MediatorError`` that the async `body` throws, or `nil` when it returns; as
/// ``mediatorError(_:)``, which it is named apart from so that a synchronous body in an async test
/// still runs the synchronous entry points.
///
/// ```swift
/// let error = await awaitedMediatorError { try await mediator.call(target: "Notes", action: "slow") }
/// #expect(error?.code == .rejected)
/// ```
public func awaitedMediatorError<Value, Failure: Error>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws(Failure) -> Value
) async -> MediatorError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return capture(error)
    }
}

/// `error` as a ``MediatorError``, or `nil` after recording an issue when it is something else.
private func capture(_ error: some Error) -> MediatorError? {
    if let error = error as? MediatorError { return error }
    Issue.record("not a MediatorError: \(error)")
    return nil
}
