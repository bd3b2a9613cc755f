import Mediator

/// Thrown by `Echo/fail`.
struct EchoFailure: Error, CustomStringConvertible, CodedError {
    let message: String
    var code: String { "echoFailure" }
    var description: String { message }
}

/// The diagnostic target of `mediate`: shows exactly what a call receives.
enum Echo {
    static func register(in mediator: Mediator) throws(MediatorError) {
        try mediator.register(
            target: "Echo", summary: "Diagnostics: shows exactly what a call receives",
            actions: [
                Action("echo", summary: "Returns its params as received") { _, params in params },
                Action(
                    "checkedEcho", summary: "Like echo, for declared params: returns them validated, text coerced, defaults filled in",
                    params: [
                        .required("text", .string, "Any text"),
                        .optional("count", .integer(minimum: 1, maximum: 10), default: 1, "A whole number from 1 to 10"),
                        .optional("loud", .boolean, "Whether to shout"),
                        .optional("tags", .array(of: .string), "Labels; give the key again for more"),
                    ],
                    result: .object
                ) { _, params in params },
                Action("fail", summary: "Throws an error carrying its message param") { _, params in
                    throw EchoFailure(message: try params.value("message", as: String.self, default: "failure requested"))
                },
                Action("nativeEcho", summary: "Like echo; local-only by its name") { _, params in params },
                Action("delayedEcho", summary: "Async: waits ms milliseconds (cancellable), then returns its other params") {
                    _, params async throws in
                    try await Task.sleep(nanoseconds: try delay(params))
                    var rest = params
                    rest["ms"] = nil
                    return rest
                },
            ])
    }

    /// `delayedEcho`'s `ms` in nanoseconds: required, a whole number from 0 up.
    private static func delay(_ params: Params) throws(MediatorError) -> UInt64 {
        let milliseconds = try params.value("ms", as: Int.self)
        let (nanoseconds, overflow) = UInt64(clamping: milliseconds).multipliedReportingOverflow(by: 1_000_000)
        guard milliseconds >= 0, !overflow else {
            throw MediatorError(
                .invalidParameter, parameter: "ms", reason: "ms must be a number of milliseconds from 0 to \(UInt64.max / 1_000_000), not \(milliseconds)")
        }
        return nanoseconds
    }
}
