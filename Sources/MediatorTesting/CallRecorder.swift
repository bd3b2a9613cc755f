import Mediator

/// Records every call a mediator finishes, for a test to assert on: where it was asked to go and
/// where it ended, its params, its outcome, its origin and how deeply it was nested.
///
/// ```swift
/// let mediator = Mediator()
/// let recorder = CallRecorder()
/// mediator.addObserver(recorder)
///
/// _ = try mediator.callNow(target: "Notes", action: "create", params: ["token": token, "title": "hi"])
///
/// #expect(recorder.names == ["Accounts/whoAmI", "Notes/create"])
/// let check = try #require(recorder.records(target: "Accounts").first)
/// #expect(check.request.params["token"] as? String == token)
/// #expect(check.request.depth == 2)   // made by Notes/create while it ran
/// ```
///
/// Each record is a `CallRecord` (from `Mediator`): `request` is the call as it was asked (names,
/// params before any interceptor changed them, `origin`, `depth`), `target`/`action` where it
/// ended, `redirectedFrom` the pairs it passed through, `result` its value or error.
///
/// Records come in the order calls *finished*: a nested call before the call that made it. Add one
/// recorder to each test's own `Mediator()`; nothing is shared between mediators, so tests run in
/// parallel. Safe to read while calls run on other threads.
public final class CallRecorder: CallObserver {
    /// The records so far, behind the package's lock: calls may finish on any thread.
    private let storage = ReadWriteLock<[CallRecord]>([])

    /// A recorder with no records.
    public init() {}

    /// Keeps `record` (the mediator calls it when a call has finished).
    ///
    /// - Parameter record: the finished call.
    public func callDidFinish(_ record: CallRecord) {
        storage.withLock { $0.append(record) }
    }

    /// A snapshot of every call recorded so far, in the order they finished.
    ///
    /// ```swift
    /// let failed = recorder.records.filter { !$0.succeeded }
    /// #expect(failed.isEmpty, "\(failed)")
    /// ```
    public var records: [CallRecord] {
        storage.withReadLock { $0 }
    }

    /// `Target/action` where each recorded call ended, in the order they finished.
    ///
    /// ```swift
    /// #expect(recorder.names == ["Accounts/whoAmI", "Notes/create"])
    /// ```
    public var names: [String] {
        records.map(\.name)
    }

    /// The recorded calls that ended at `target` (short or full name), and at `action` when one is
    /// given.
    ///
    /// ```swift
    /// let checks = recorder.records(target: "Accounts", action: "whoAmI")
    /// #expect(checks.count == 1)
    /// ```
    ///
    /// - Parameters:
    ///   - target: the target's name, short (`Accounts`) or full (`Target_Accounts`).
    ///   - action: the action's name, short or full; `nil` for every action of the target.
    /// - Returns: the matching records, in the order they finished.
    public func records(target: String, action: String? = nil) -> [CallRecord] {
        let wanted = CallName(target: target, action: action)
        return records.filter { wanted.matches(target: $0.target, action: $0.action) }
    }

    /// Forgets every record (between two phases of a test).
    public func removeAll() {
        let forgotten = storage.withLock { records in
            let old = records
            records = []
            return old
        }
        // Released here, after the lock: a param's value may be an object with a `deinit`.
        _ = forgotten
    }
}
