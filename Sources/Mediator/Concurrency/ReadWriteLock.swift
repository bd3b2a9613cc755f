/// The package's one lock: a POSIX read-write lock around a value. Dispatches read the registry
/// under the shared lock, so calls on different threads do not wait for each other; registration,
/// caching and release take the exclusive lock.
///
/// Why not `Synchronization.Mutex`: on Linux its futex protocol is invisible to ThreadSanitizer,
/// which then reports every access it protects as a race (so the sanitizer run proves nothing),
/// and it makes every reader wait for every other reader. `pthread_rwlock_t` is understood by
/// ThreadSanitizer and admits concurrent readers.
///
/// `@unchecked Sendable` (one of two in the library, with ``ConditionLock``; the examples have `Locked`): the compiler cannot see that `value` is
/// touched only while `lock` is held. This type guarantees it: `value` is private and reachable
/// only through the two `with...Lock` methods, which hold the lock for exactly the closure's run;
/// values go in and out as `sending`, as with `Mutex`, so nothing non-`Sendable` escapes to
/// another thread.
package final class ReadWriteLock<Value>: @unchecked Sendable {
    private let lock = SystemReadWriteLock()
    /// The value, out of line: a reader borrows it in place through the pointer, where reading a
    /// stored property would copy the whole value (and retain everything it holds) on every call.
    private let value: UnsafeMutablePointer<Value>

    package init(_ value: sending Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        lock.destroy()
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock.lockExclusive()
        defer { lock.unlock() }
        return try body(&value.pointee)
    }

    /// Runs `body` with shared access to the value: other readers may run at the same time, so
    /// `body` must not change anything the value refers to.
    package func withReadLock<Result, Failure: Error>(
        _ body: (borrowing Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock.lockShared()
        defer { lock.unlock() }
        return try body(value.pointee)
    }

    /// Like ``withReadLock(_:)``, but `body` reads the value through a pointer valid only during
    /// the call: for the dispatch path, where passing the value itself made the compiler copy it
    /// (retaining everything it holds) on every call.
    @inline(__always)
    package func withReadLockInPlace<Result>(_ body: (UnsafePointer<Value>) -> Result) -> Result {
        lock.lockShared()
        defer { lock.unlock() }
        return body(value)
    }
}
