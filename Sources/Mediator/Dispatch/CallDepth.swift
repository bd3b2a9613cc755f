/// How many mediator calls are running nested on the calling thread, through any mediator.
///
/// Kept in a POSIX thread-specific slot as a plain integer (no allocation, three C calls per
/// dispatch) because a stack overflow cannot be caught: an action that calls itself through the
/// mediator without end must be stopped by counting before the stack runs out.
enum CallDepth {
    /// The thread-specific slot, created once per process (never deleted; a process has room for
    /// hundreds of them).
    private static let key = ThreadSpecificWord(purpose: "the mediator's call depth")

    /// Counts one more call on the calling thread, unless `limit` calls are already nested.
    /// - Returns: the depth to hand to ``restore(_:)`` when the call ends, or `nil` (nothing
    ///   counted) when the call must not run.
    @inline(__always)
    static func enter(limit: Int) -> Int? {
        let depth = key.get()
        guard depth < limit else { return nil }
        key.set(depth + 1)
        return depth
    }

    /// Ends a call counted by ``enter(limit:)``.
    @inline(__always)
    static func restore(_ depth: Int) {
        key.set(depth)
    }
}
