/// `mediate`'s state file: `state.json` in the data directory, guarded by `state.lock`.
///
/// Every request runs inside ``transaction(_:)``: take an exclusive `flock` on the lock file,
/// read the state, run, and (only if the state changed) replace `state.json` atomically (see
/// ``DataDirectory/replaceStateFile(with:)``). So concurrent processes lose no update, and a crash
/// at any moment leaves either the old or the new file, never a torn one. A file that does not
/// parse is reported and left exactly as it is. What the directory and its files must be is
/// described at ``DataDirectory``; anything else is refused with one line naming it.
struct DataStore: Sendable {
    let directory: String
    var statePath: String {
        let directory = DataDirectory.normalized(directory)
        return (directory == "/" ? "" : directory) + "/" + DataDirectory.stateName
    }

    /// Runs `body` holding the lock, with the current file text (`nil` when there is none yet);
    /// `body` returns the new text to write, or `nil` to leave the file alone. The lock is the
    /// file's `flock`, held across `body`'s suspensions: a lock of the open file, not of a thread.
    ///
    /// Transactions of one process run one at a time (`mcp` makes calls concurrently): a second
    /// waits for the first without blocking a thread, where `flock` would block one of the
    /// concurrency pool's.
    func transaction(_ body: (String?) async throws -> String?) async throws {
        await TransactionTurns.shared.take()
        do {
            try await lockedTransaction(body)
        } catch {
            await TransactionTurns.shared.giveBack()
            throw error
        }
        await TransactionTurns.shared.giveBack()
    }

    /// The transaction, this process's turn taken: under the file's lock.
    private func lockedTransaction(_ body: (String?) async throws -> String?) async throws {
        let directory = try DataDirectory.open(directory)
        defer { directory.close() }
        let lock = try directory.openLockFile()
        defer { closeDescriptor(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw DataStoreError.system("cannot lock", directory.path(of: DataDirectory.lockName)) }
        }
        defer { _ = flock(lock, LOCK_UN) }
        if let replacement = try await body(try directory.readStateFile()) {
            try directory.replaceStateFile(with: replacement)
        }
    }
}

/// Whose turn it is to run a transaction in this process: one at a time, the others waiting in
/// the order they came.
actor TransactionTurns {
    static let shared = TransactionTurns()

    private var isTaken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Waits for the turn.
    func take() async {
        guard isTaken else {
            isTaken = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives the turn to the next waiting, if any.
    func giveBack() {
        if waiting.isEmpty {
            isTaken = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
