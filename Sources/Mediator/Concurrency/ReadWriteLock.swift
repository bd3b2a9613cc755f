#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The package's one lock: a POSIX read-write lock around a value. Dispatches read the registry
/// under the shared lock, so calls on different threads do not wait for each other; registration,
/// caching and release take the exclusive lock.
///
/// Why not `Synchronization.Mutex`: on Linux its futex protocol is invisible to ThreadSanitizer,
/// which then reports every access it protects as a race (so the sanitizer run proves nothing),
/// and it makes every reader wait for every other reader. `pthread_rwlock_t` is understood by
/// ThreadSanitizer and admits concurrent readers.
///
/// `@unchecked Sendable` (one of two in the package, with ``ConditionLock``): the compiler cannot see that `value` is
/// touched only while `lock` is held. This type guarantees it: `value` is private and reachable
/// only through the two `with...Lock` methods, which hold the lock for exactly the closure's run;
/// values go in and out as `sending`, as with `Mutex`, so nothing non-`Sendable` escapes to
/// another thread.
package final class ReadWriteLock<Value>: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private var value: Value

    package init(_ value: sending Value) {
        self.value = value
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        #if canImport(Glibc)
        // glibc prefers readers by default: a steady stream of dispatches would starve registration.
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        #endif
        let status = pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
        precondition(status == 0, "pthread_rwlock_init failed (\(status))")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(&value)
    }

    /// Runs `body` with shared access to the value: other readers may run at the same time, so
    /// `body` must not change anything the value refers to.
    package func withReadLock<Result, Failure: Error>(
        _ body: (borrowing Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(value)
    }
}
