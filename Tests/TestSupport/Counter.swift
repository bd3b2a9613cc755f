import Mediator

/// A count that closures on several threads share: calls served, instances made, failures seen.
/// Built on the package's own `ReadWriteLock` (which works from iOS 15 and macOS 12, where
/// `Synchronization.Atomic` needs iOS 18 and macOS 15), so ThreadSanitizer sees every access.
public final class Counter: Sendable {
    private let count: ReadWriteLock<Int>

    /// A counter starting at `initialValue`.
    public init(_ initialValue: Int = 0) {
        count = ReadWriteLock(initialValue)
    }

    /// Adds `amount` (one by default) and returns the new count.
    @discardableResult
    public func increment(by amount: Int = 1) -> Int {
        count.withLock { count in
            count += amount
            return count
        }
    }

    /// The count now.
    public var value: Int { count.withReadLock { $0 } }

    /// Sets the count to `newValue`.
    public func set(_ newValue: Int) {
        count.withLock { $0 = newValue }
    }
}
