import Mediator

/// A call made for a test together with the record an observer got of it: where it ended up
/// after redirects and a degradation, what interceptors left of its params.
///
/// The library has no call that returns its own record (a diagnostic that runs the call would
/// repeat its side effects); a test makes the call and reads the record as any observer would.
@dynamicMemberLookup
public struct TracedCall: Sendable {
    /// What the call returned or threw.
    public let result: Result<(any Sendable)?, MediatorError>
    /// The observer's record of the call; `nil` when the call was refused before it was
    /// dispatched (nested deeper than the mediator allows), which no observer is told of.
    public let record: CallRecord?

    /// Whether the call succeeded.
    public var succeeded: Bool {
        if case .success = result { return true }
        return false
    }

    /// The error the call failed with.
    public var error: MediatorError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// The record's fields (`name`, `redirectedFrom`, `request`, ...); `nil` when no observer
    /// saw the call.
    public subscript<Value>(dynamicMember field: KeyPath<CallRecord, Value>) -> Value? {
        record?[keyPath: field]
    }
}

extension Mediator {
    /// Calls `target`/`action` on the calling thread (as `callNow`) with an observer installed
    /// for the call, and returns what it gave with the record of it.
    public func tracedCallNow(target: String, action: String, params: Params = [:], shouldCacheTarget: Bool = false) -> TracedCall {
        let sink = RecordSink()
        let id = addObserver(TraceObserver())
        defer { removeInterception(id) }
        let result = RecordSink.$current.withValue(sink) {
            Result { () throws(MediatorError) in try callNow(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget) }
        }
        return TracedCall(result: result, record: sink.outermost)
    }

    /// Calls `target`/`action`, awaiting it (as `call`), with an observer installed for the call,
    /// and returns what it gave with the record of it.
    public func tracedCall(target: String, action: String, params: Params = [:], shouldCacheTarget: Bool = false) async -> TracedCall {
        let sink = RecordSink()
        let id = addObserver(TraceObserver())
        defer { removeInterception(id) }
        let result = await RecordSink.$current.withValue(sink) {
            do throws(MediatorError) {
                return Result<(any Sendable)?, MediatorError>.success(
                    try await call(target: target, action: action, params: params, shouldCacheTarget: shouldCacheTarget))
            } catch {
                return .failure(error)
            }
        }
        return TracedCall(result: result, record: sink.outermost)
    }
}

/// The records of the calls one traced call made (itself and the calls nested in it).
final class RecordSink: Sendable {
    /// The sink of the traced call running in this task or thread.
    @TaskLocal static var current: RecordSink?

    private let records = ReadWriteLock<[CallRecord]>([])

    func append(_ record: CallRecord) { records.withLock { $0.append(record) } }

    /// The traced call's own record: the least deep (nested calls end before the call that made them).
    var outermost: CallRecord? {
        records.withReadLock { records in
            let least = records.map(\.request.depth).min()
            return records.last { $0.request.depth == least }
        }
    }
}

/// Hands each record to the sink of the traced call it belongs to.
struct TraceObserver: CallObserver {
    func callDidFinish(_ record: CallRecord) { RecordSink.current?.append(record) }
}
