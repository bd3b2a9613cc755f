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
                Action("fail", summary: "Throws an error carrying its message param") { _, params in
                    throw EchoFailure(message: try params.value("message", as: String.self, default: "failure requested"))
                },
                Action("nativeEcho", summary: "Like echo; local-only by its name") { _, params in params },
            ])
    }
}
