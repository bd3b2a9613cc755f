import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Serializes the creation of one cached target instance, so that exactly one is ever made, while
/// the registry lock stays free for every other call.
///
/// Threads asking for the same cached target while its factory runs wait here; a factory that asks
/// for its own target on the same thread is refused (``MediatorError/Code/cyclicTargetCreation``)
/// instead of deadlocking, which is why the owner is recorded.
final class CreationGate: Sendable {
    /// Held while the factory runs. It guards a count of the factory runs through this gate (a
    /// failed run leaves the gate in place for the next caller) rather than nothing: a lock over
    /// `Void` drew false ThreadSanitizer reports on its zero-sized value.
    let attempts = ReadWriteLock<Int>(0)
    /// The thread running the factory, or 0.
    let owner = Atomic<UInt>(0)

    /// Whether the calling thread is the one creating through this gate.
    var isOwnedByCurrentThread: Bool {
        owner.load(ordering: .acquiring) == currentThreadID()
    }
}

/// An identifier of the calling thread, unique among live threads.
func currentThreadID() -> UInt {
    #if canImport(Glibc)
    UInt(pthread_self())
    #else
    UInt(bitPattern: pthread_self())
    #endif
}
