import Foundation

/// Runs `body` on `count` real threads that start together, and waits for all of them.
/// (Dispatch's `concurrentPerform` would use only as many threads as there are cores.)
public func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        let thread = Thread {
            start.wait()
            body(index)
            done.leave()
        }
        thread.start()
    }
    for _ in 0..<count { start.signal() }
    done.wait()
}
