import Mediator

/// `--log`: the lines of the calls that finished, kept until the tool writes them. A call
/// finishes on whatever thread ran it, but the tool's ``CommandLineTool/Writer`` is called from
/// the tool's own task only: each request's lines are written when it ends (before its result),
/// in the order the calls finished.
final class CallLog: Sendable {
    /// The most lines kept for one request; more are counted, not kept, so an action that makes
    /// millions of calls cannot exhaust memory.
    static let limit = 100_000

    private let pending = ReadWriteLock<(lines: [String], dropped: Int)>(([], 0))

    /// Keeps the line of a finished call (what ``CallLogger`` writes).
    func append(_ line: String) {
        pending.withLock { pending in
            if pending.lines.count < Self.limit {
                pending.lines.append(line)
            } else {
                pending.dropped += 1
            }
        }
    }

    /// The lines kept so far, and how many were dropped; the log is empty afterwards.
    func drain() -> (lines: [String], dropped: Int) {
        pending.withLock { pending in
            let drained = pending
            pending = ([], 0)
            return drained
        }
    }
}
