internal import MediatorAtomics

/// One machine word read and written atomically, without a lock: for a flag that every call reads
/// and that changes rarely (whether anything intercepts calls).
///
/// `@unchecked Sendable`, as ``ReadWriteLock``, for a reason the compiler cannot see: the word is
/// private, allocated once, and touched only through the C atomic load and store (acquire and
/// release), so concurrent reads and writes are not a data race.
final class AtomicWord: @unchecked Sendable {
    private let word: UnsafeMutablePointer<Int>

    /// A word holding `value`.
    init(_ value: Int = 0) {
        word = .allocate(capacity: 1)
        word.initialize(to: value)
    }

    deinit {
        word.deallocate()
    }

    /// The word, as last stored (acquire ordering).
    @inline(__always)
    func load() -> Int {
        mediator_atomic_load_acquire(word)
    }

    /// Stores `value` (release ordering).
    @inline(__always)
    func store(_ value: Int) {
        mediator_atomic_store_release(word, value)
    }
}
