// The one file of this module that needs the C library, so the platform decision is made here:
// `pthread_mutex_t` is in Darwin on Apple platforms, Glibc or Musl on Linux, Android on Android.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif os(Windows)
#error("ExampleModuleSupport's Locked needs POSIX threads (pthread_mutex_t); Windows is not supported yet")
#else
#error("ExampleModuleSupport's Locked needs POSIX threads (pthread_mutex_t) from Darwin, Glibc, Musl or Android")
#endif

/// A value behind a mutex: the lock a provider module keeps its mutable state in, from iOS 15,
/// macOS 12 and every Linux, without Foundation.
///
/// `Synchronization.Mutex` has the same shape but needs iOS 18 / macOS 15, and
/// `OSAllocatedUnfairLock` needs iOS 16 / macOS 13 and exists only on Apple platforms. Copy this
/// file into an app that supports older systems; where `Mutex` is available, `Locked` can be
/// replaced by it without changing a call site.
///
/// ```swift
/// public final class CounterService: Sendable {
///     private let count = Locked(0)
///
///     public func next() -> Int {
///         count.withLock { count in
///             count += 1
///             return count
///         }
///     }
/// }
/// ```
///
/// Never call back into code you do not control (a mediator call, a callback) inside
/// ``withLock(_:)``: the mutex is not recursive, so a call that comes back to the same `Locked`
/// would wait for itself forever.
///
/// `@unchecked Sendable`: the compiler cannot see that `value` is touched only while `mutex` is
/// held. This type guarantees it: `value` is private and reachable only through ``withLock(_:)``,
/// which holds the mutex for exactly the closure's run; the value goes in and out as `sending`
/// (as with `Mutex`), so nothing that is not `Sendable` escapes to another thread.
public final class Locked<Value>: @unchecked Sendable {
    /// The mutex lives in memory of its own: a pthread mutex must not move once initialized.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock holding `initialValue`.
    public init(_ initialValue: sending Value) {
        value = initialValue
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed (\(status))")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value and returns what it returns. Other threads
    /// calling `withLock` wait until `body` has returned (or thrown).
    ///
    /// ```swift
    /// let names = Locked<[String]>([])
    /// names.withLock { $0.append("ada") }
    /// let count = names.withLock { $0.count }
    /// ```
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
