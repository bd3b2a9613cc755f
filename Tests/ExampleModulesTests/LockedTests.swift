import ExampleModuleSupport
import TestSupport
import Testing

/// The lock the example providers keep their state in (and app teams copy): it must serialize
/// every change and pass a failure through without losing what the closure did before it threw.
@Suite("ExampleModuleSupport's Locked: the example providers' lock")
struct LockedTests {
    struct Refused: Error, Equatable {}

    @Test("Increments from 8 threads at once are all counted")
    func serializesChanges() {
        let count = Locked(0)
        onThreads(8) { _ in
            for _ in 0..<10_000 { count.withLock { $0 += 1 } }
        }
        #expect(count.withLock { $0 } == 80_000)
    }

    @Test("A typed error thrown inside withLock reaches the caller, and the lock is free again")
    func rethrowsTypedErrors() {
        let names = Locked<[String]>([])
        #expect(throws: Refused()) {
            try names.withLock { names throws(Refused) in
                names.append("ada")
                throw Refused()
            }
        }
        // The change made before the throw stays; a second withLock does not wait forever.
        #expect(names.withLock { $0 } == ["ada"])
    }
}
