// Everything the library asks of the C library (POSIX threads for its locks, its call-depth count
// and its cycle detection) and of Dispatch (whether the main actor's queue is the current one). Swift makes an `import` visible only in the file that writes it, so the
// choice of C library, and what differs between them, is made here once, behind small internal
// wrappers; no other file of the module imports a C library.
import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif os(Windows)
#error("Mediator needs POSIX threads (pthread read-write locks, mutexes, condition variables, thread-specific keys); Windows is not supported yet")
#else
#error("Mediator needs POSIX threads from Darwin, Glibc, Musl or Android; this platform's C library is none of them")
#endif

// MARK: - Read-write lock

/// A POSIX read-write lock in memory of its own (a pthread lock must not move once initialized).
/// Its owner calls ``destroy()`` once, from its `deinit`.
struct SystemReadWriteLock {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
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

    func destroy() {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    @inline(__always) func lockExclusive() { pthread_rwlock_wrlock(lock) }
    @inline(__always) func lockShared() { pthread_rwlock_rdlock(lock) }
    @inline(__always) func unlock() { pthread_rwlock_unlock(lock) }
}

// MARK: - Mutex and condition variable

/// A POSIX mutex and a condition variable waited on with it, in memory of their own. Their owner
/// calls ``destroy()`` once, from its `deinit`.
struct SystemConditionMutex {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        let status = pthread_mutex_init(mutex, nil) | pthread_cond_init(condition, nil)
        precondition(status == 0, "pthread_mutex_init or pthread_cond_init failed (\(status))")
    }

    func destroy() {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Releases the mutex (held by the caller) while sleeping until ``wakeAll()``, then retakes it.
    func wait() { pthread_cond_wait(condition, mutex) }
    /// Wakes every thread in ``wait()``.
    func wakeAll() { pthread_cond_broadcast(condition) }
}

// MARK: - Thread identity

/// An identifier of the calling thread, unique among live threads.
func currentThreadID() -> UInt {
    // `pthread_t` is an integer in glibc and Bionic and a pointer in Darwin and musl.
    #if canImport(Glibc)
    UInt(pthread_self())
    #else
    UInt(bitPattern: pthread_self())
    #endif
}

// MARK: - Main actor

/// Whether the calling code runs on the main actor: main-actor actions run synchronously only
/// there; anywhere else a synchronous call must not wait for the main actor (it may be the very
/// thread the main actor needs).
///
/// The main actor is not always the main thread (the test runner on Linux drains the main queue
/// on another thread), so the thread is not what is checked but the queue: the main actor runs
/// its work on the main dispatch queue, which is marked once with a queue-specific value that
/// only code running on it can read. (The runtime's own check is reachable only through
/// functions that trap when it fails.)
@inline(__always)
func isOnMainActor() -> Bool {
    mainQueueMarked && DispatchQueue.getSpecific(key: mainQueueKey) != nil
}

private let mainQueueKey = DispatchSpecificKey<Bool>()
private let mainQueueMarked: Bool = {
    DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    return true
}()

/// Whether two buffers hold the same bytes: one `memcmp`, where a byte-by-byte loop takes
/// seconds over 64 MiB in a debug build (`package`: the command line and `mediate` compare
/// whole lines and files with it).
package func sameBytes(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
    guard lhs.count == rhs.count else { return false }
    guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
    return memcmp(left, right, lhs.count) == 0
}

// MARK: - Clocks

/// A monotonic time in nanoseconds, for the elapsed time of a call (`ContinuousClock` needs
/// macOS 13 / iOS 16).
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
}

/// The wall-clock time in seconds since 1970-01-01 UTC, for the time a call started.
func wallClockSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// `seconds` since 1970 as UTC calendar fields (for log lines without Foundation).
package func utcFields(_ seconds: Double) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
    var whole = time_t(seconds.rounded(.down))
    var fields = tm()
    gmtime_r(&whole, &fields)
    let millisecond = min(999, max(0, Int((seconds - seconds.rounded(.down)) * 1000)))
    return (
        Int(fields.tm_year) + 1900, Int(fields.tm_mon) + 1, Int(fields.tm_mday), Int(fields.tm_hour), Int(fields.tm_min), Int(fields.tm_sec),
        millisecond
    )
}

/// Runs `body` over the UTF-8 bytes of `text`, in place when the string is native (a bridged one
/// is copied first). Shared by the URL parser and the command-line layer's batch lines.
@inlinable
package func withUTF8Bytes<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
    return Array(text.utf8).withUnsafeBufferPointer(body)
}
