import Mediator

/// A query value as a URL call delivers it: one string, or the strings of a repeated key.
enum QueryValue: Equatable, Sendable, CustomStringConvertible {
    case one(String)
    case many([String])

    init?(_ raw: any Sendable) {
        if let string = raw as? String { self = .one(string) } else if let strings = raw as? [String] { self = .many(strings) } else { return nil }
    }

    var description: String {
        switch self {
        case .one(let value): value.debugDescription
        case .many(let values): values.debugDescription
        }
    }
}

/// The params an `echo` result carries, comparable; `nil` if the result is not an echo.
func echoed(_ result: (any Sendable)?) -> [String: QueryValue]? {
    guard let values = result as? [String: any Sendable] else { return nil }
    var converted: [String: QueryValue] = [:]
    for (key, raw) in values {
        guard let value = QueryValue(raw) else { return nil }
        converted[key] = value
    }
    return converted
}

/// A mediator for URL tests: `Echo` returns its params; `nativeEcho` is local-only by name,
/// `secret` by declaration; `Other/ping` answers "pong".
func urlTestMediator() throws -> Mediator {
    let mediator = Mediator()
    try mediator.register(
        target: "Echo",
        actions: [
            Action("echo") { _, params in params.values },
            Action("nativeEcho") { _, params in params.values },
            Action("secret", localOnly: true) { _, _ in "secret" },
        ])
    try mediator.register(target: "Other", actions: [Action("ping") { _, _ in "pong" }])
    return mediator
}

/// The params a URL reached `Echo/echo` of ``urlTestMediator()`` with, or `nil` when it reached
/// something else.
func echoed(_ mediator: Mediator, _ url: String) -> [String: any Sendable]? {
    mediator.open(url) as? [String: any Sendable]
}
