internal import MediatorAtomics

/// One machine word read and written atomically, without a lock: for a flag that every call reads
/// and that changes rarely (whether anything intercepts calls), or that one thread raises once
/// for another (an agent's tool call that is over).
///
/// `@unchecked Sendable`, as ``ReadWriteLock``, for a reason the compiler cannot see: the word is
/// private, allocated once, and touched only through the C atomic load and store (acquire and
/// release), so concurrent reads and writes are not a data race.
package final class AtomicWord: @unchecked Sendable {
    private let word: UnsafeMutablePointer<Int>

    /// A word holding `value`.
    package init(_ value: Int = 0) {
        word = .allocate(capacity: 1)
        word.initialize(to: value)
    }

    deinit {
        word.deallocate()
    }

    /// The word, as last stored (acquire ordering).
    @inline(__always)
    package func load() -> Int {
        mediator_atomic_load_acquire(word)
    }

    /// Stores `value` (release ordering).
    @inline(__always)
    package func store(_ value: Int) {
        mediator_atomic_store_release(word, value)
    }
}
