/// A POSIX mutex and condition variable around a value: for state that a thread must wait on
/// (the creation of a cached target by another thread) without holding any lock while it waits or
/// while the awaited work runs.
///
/// `@unchecked Sendable`, as ``ReadWriteLock`` and for the same reason: the compiler cannot see
/// that `value` is touched only while `mutex` is held. This type guarantees it: `value` is private
/// and reachable only inside ``withLock(_:)`` and ``wait(until:)``, which hold the mutex for exactly
/// the closure's run (`pthread_cond_wait` releases and retakes it between runs). `Value` must be
/// `Sendable`, so nothing unsafe can be passed in or out.
final class ConditionLock<Value: Sendable>: @unchecked Sendable {
    private let mutex = SystemConditionMutex()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    deinit {
        mutex.destroy()
    }

    /// Runs `body` with exclusive access to the value, then wakes every thread in
    /// ``wait(until:)`` so that it looks again.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        mutex.lock()
        defer {
            mutex.wakeAll()
            mutex.unlock()
        }
        return try body(&value)
    }

    /// Runs `body` with exclusive access to the value until it returns a result; each time it
    /// returns `nil`, sleeps (holding nothing) until another thread's ``withLock(_:)`` has run.
    func wait<Result, Failure: Error>(until body: (inout Value) throws(Failure) -> Result?) throws(Failure) -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        while true {
            if let result = try body(&value) { return result }
            mutex.wait()
        }
    }
}
