/// What an interceptor that stands in for an action (`MediatorTesting`'s stubs) throws so that the
/// call fails as the action would have, not as `rejected` by an interceptor: a test then sees the
/// code, names and `underlying` the real provider gives.
package enum StandInFailure: Error {
    /// The stand-in's body threw `error`: mapped as an action's error is (`actionFailed` with it
    /// as `underlying`; a `MediatorError` of its own, or `callDepthExceeded`, as an action's).
    case thrown(any Error)
    /// The call fails with `error` as it is: the call's params did not fit, in the words the
    /// action's own check would have used.
    case refused(MediatorError)
}
