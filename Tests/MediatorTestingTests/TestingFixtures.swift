import Mediator

/// The input of the `Greeter/greet` key: a name, and punctuation that defaults to `!`.
struct Greet: Codable, Sendable, Equatable, DeclaresParameters {
    var name: String
    var punctuation: String

    init(name: String, punctuation: String = "!") {
        self.name = name
        self.punctuation = punctuation
    }

    static let parameters: [Parameter] = [
        .required("name", .string, "Who to greet"),
        .optional("punctuation", .string, default: "!", "What ends the greeting"),
    ]
}

/// The output of the `Greeter/greet` key.
struct Greeting: Codable, Sendable, Equatable {
    var text: String
    var length: Int
}

extension ActionKey where Input == Greet, Output == Greeting {
    /// `Greeter/greet`: no test registers a `Greeter` target; stubs answer it.
    static var greeterGreet: Self { Self(target: "Greeter", action: "greet") }
}

/// A failure with a code, as a provider's domain error has one.
struct StubbedFailure: CodedError, Equatable, CustomStringConvertible {
    var code: String
    var description: String { "stubbed failure \(code)" }
}

/// Registers `Echo/echo` (returns its params' values) and `Outer/run` (calls `Echo/echo` with
/// `word`, and returns what it got), stateless targets for tests that need real ones.
func registerEchoAndOuter(in mediator: Mediator) throws {
    try mediator.register(
        target: "Echo",
        actions: [
            Action("echo") { _, params in params.values }
        ])
    try mediator.register(
        target: "Outer",
        actions: [
            Action("run") { mediator, params in
                try mediator.callNow(target: "Echo", action: "echo", params: ["word": params.value("word", as: String.self)])
            }
        ])
}
