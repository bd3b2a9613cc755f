/// Watches calls without being able to change them (logging, metrics): a cheaper kind than an
/// ``Interceptor``, told once per call when it has finished.
///
/// ```swift
/// struct Printer: CallObserver {
///     func callDidFinish(_ record: CallRecord) { print(record) }
/// }
/// mediator.addObserver(Printer())
/// ```
///
/// Observers are told in the order they were added, on the thread that finished the call, with no
/// mediator lock held. Every call is reported, including URLs the URL rules refused or that were
/// malformed (named by what they ask for, or with empty names when they name nothing), calls an
/// interceptor rejected or answered, and calls made with `perform` that needed `await`.
///
/// An ``Interceptor`` that conforms to `CallObserver` too is told of the calls it intercepted, once
/// each, after its chain's later interceptors (see ``Mediator/addInterceptor(_:scope:priority:)``);
/// it is not told of other calls unless it is also added with ``Mediator/addObserver(_:)``.
public protocol CallObserver: Sendable {
    /// Called once for every finished call (for an interceptor: every call it intercepted).
    ///
    /// - Parameter record: the finished call.
    func callDidFinish(_ record: CallRecord)
}

/// A finished call: what was asked, where it ended up, its outcome and how long it took.
///
/// A record holds the request and the result, and little else: where a redirect or a
/// degradation moved the call is kept only for a call that moved, so an observer of calls that go
/// where they are asked costs little more than the call.
public struct CallRecord: Sendable, CustomStringConvertible {
    /// The call as it was asked, before any interceptor changed it.
    public let request: CallRequest
    /// Where a call that moved ended, and the pairs it left; `nil` for a call that ended where it
    /// was asked.
    let destination: Destination?
    /// The action's result, or the error the caller got.
    public let result: Result<(any Sendable)?, MediatorError>
    /// When the call started, in seconds since 1970-01-01 UTC.
    public let startTime: Double
    /// How long the call took, in nanoseconds (monotonic clock), interceptors included.
    public let durationNanoseconds: UInt64

    /// The target the call ended at (after redirects and degradation), canonical when valid.
    public var target: String { destination?.target ?? request.target }
    /// The action the call ended at.
    public var action: String { destination?.action ?? request.action }
    /// The `Target/action` pairs the call passed through before ``target``/``action``, oldest
    /// first (the redirects and a degradation); empty when it went where it was asked.
    public var redirectedFrom: [String] { destination?.route ?? [] }

    /// Where a moved call ended: a reference, so that a record of a call that did not move
    /// carries, copies and releases none of it.
    final class Destination: Sendable {
        let target: String
        let action: String
        let route: [String]

        /// Where a call that left the pairs of `route` ended.
        init(target: String, action: String, route: [String]) {
            self.target = target
            self.action = action
            self.route = route
        }
    }

    /// Whether the call answered (with a value or with nothing).
    public var succeeded: Bool {
        if case .success = result { return true }
        return false
    }

    /// The error the call failed with, if it failed.
    public var error: MediatorError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// `Target/action` where the call ended.
    public var name: String { "\(target)/\(action)" }

    /// One line: `Notes/create ok 12µs` or `Notes/get failed 3µs: Notes/get: ...`, with the
    /// redirects when there were any.
    public var description: String {
        var text = redirectedFrom.isEmpty ? name : (redirectedFrom + [name]).joined(separator: " -> ")
        text += succeeded ? " ok " : " failed "
        text += CallRecord.formatted(nanoseconds: durationNanoseconds)
        if let error { text += ": \(error)" }
        return text
    }

    /// A duration as a person reads it: `850ns`, `12.3µs`, `4.1ms`, `2.50s`.
    package static func formatted(nanoseconds: UInt64) -> String {
        func oneDecimal(_ value: Double) -> String {
            let tenths = Int((value * 10).rounded())
            return "\(tenths / 10).\(tenths % 10)"
        }
        // A unit holds what rounds to less than 1000 of it: 999,960ns reads 1.0ms, not 1000.0µs.
        switch nanoseconds {
        case ..<1_000: return "\(nanoseconds)ns"
        case ..<999_950: return oneDecimal(Double(nanoseconds) / 1e3) + "µs"
        case ..<999_950_000: return oneDecimal(Double(nanoseconds) / 1e6) + "ms"
        default:
            let hundredths = Int((Double(nanoseconds) / 1e7).rounded())
            return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)s"
        }
    }
}
