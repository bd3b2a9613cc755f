internal import MediatorAtomics

/// How many mediator calls are running nested around the calling code, through any mediator.
///
/// Synchronous calls count in a C thread-local word (`MediatorAtomics`: no allocation, a few
/// instructions per dispatch), because a stack overflow cannot be caught: an action that calls
/// itself through the mediator without end must be stopped by counting before the stack runs out.
/// A call that suspends may resume on another thread, so once a call awaits, its depth travels
/// with the task instead (``taskDepth``, a task-local value). The depth of the code running now is
/// the thread's count when a synchronous call is running on this thread, else the task's: sync
/// and async calls nested inside each other add up.
enum CallDepth {
    /// The depth of the calls an awaiting call runs inside: set (with `withValue`) around each
    /// part of a call that may suspend, inherited by the tasks it creates.
    @TaskLocal static var taskDepth = 0

    /// The depth of the code running now.
    @inline(__always)
    static var current: Int {
        let thread = mediator_thread_call_depth_get()
        // A synchronous call on this thread counted on top of the task's depth (see `enter`), so
        // the thread's count, when there is one, is the larger.
        return thread > 0 ? thread : taskDepth
    }

    /// Counts one more call on the calling thread, unless `limit` calls are already nested.
    /// - Returns: the thread's count to hand to ``restore(_:)`` when the call ends, or `nil`
    ///   (nothing counted) when the call must not run.
    @inline(__always)
    static func enter(limit: Int) -> Int? {
        let saved = mediator_thread_call_depth_get()
        let depth = saved > 0 ? saved : taskDepth
        guard depth < limit else { return nil }
        mediator_thread_call_depth_set(depth + 1)
        return saved
    }

    /// Ends a call counted by ``enter(limit:)``.
    @inline(__always)
    static func restore(_ saved: Int) {
        mediator_thread_call_depth_set(saved)
    }
}
