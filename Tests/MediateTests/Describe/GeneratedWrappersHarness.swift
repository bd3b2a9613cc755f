import Mediator

// The checks of the generated-wrappers program: each call through a generated wrapper is compared
// with the same call by name (`mediator.call(target:action:params:)`, decoded into the same type),
// each on a fresh mediator of its own, so that calls that change state (create, delete) compare
// like with like. Compiled into this test module (so it is type-checked and formatted with the
// tests) and copied into the program of the temporary package.

/// The outcome of every comparison: the test looks for ``summary``.
struct WrapperVerdict {
    /// Makes a fresh mediator with every target registered on the same starting state.
    let makeMediator: () throws(MediatorError) -> Mediator
    private(set) var checks = 0
    private(set) var disagreements: [String] = []

    init(makeMediator: @escaping () throws(MediatorError) -> Mediator) {
        self.makeMediator = makeMediator
    }

    /// `verdict: all N checks agree`, or how many did not.
    var summary: String {
        disagreements.isEmpty ? "verdict: all \(checks) checks agree" : "verdict: \(disagreements.count) of \(checks) checks disagree"
    }

    // MARK: Synchronous

    /// A wrapper with a `Decodable` result against the call by name decoded into the same type.
    mutating func agree<T: Decodable & Equatable>(
        _ label: String, target: String, action: String, params: Params, _ wrapper: (Mediator) throws -> T
    ) {
        compare(label, run(wrapper), run { mediator in try mediator.callNow(target: target, action: action, params: params, as: T.self) }, same: ==)
    }

    /// A wrapper with a result that is cast, not decoded (`any Sendable`, an object without fields).
    mutating func agreeCast<T>(_ label: String, target: String, action: String, params: Params, _ wrapper: (Mediator) throws -> T) {
        compare(label, run(wrapper), run { mediator in try mediator.callNow(target: target, action: action, params: params, as: T.self) }, same: nil)
    }

    /// A wrapper of an action without a declared result.
    mutating func agreeUntyped(
        _ label: String, target: String, action: String, params: Params, _ wrapper: (Mediator) throws -> (any Sendable)?
    ) {
        compare(label, run(wrapper), run { mediator in try mediator.callNow(target: target, action: action, params: params) }, same: nil)
    }

    // MARK: Async

    /// ``agree(_:target:action:params:_:)`` for an async wrapper against the awaited call by name.
    mutating func agreeAsync<T: Decodable & Equatable>(
        _ label: String, target: String, action: String, params: Params, _ wrapper: (Mediator) async throws -> T
    ) async {
        let direct = await awaiting { mediator in try await mediator.call(target: target, action: action, params: params, as: T.self) }
        compare(label, await awaiting(wrapper), direct, same: ==)
    }

    /// ``agreeCast(_:target:action:params:_:)`` for an async wrapper.
    mutating func agreeCastAsync<T>(
        _ label: String, target: String, action: String, params: Params, _ wrapper: (Mediator) async throws -> T
    ) async {
        let direct = await awaiting { mediator in try await mediator.call(target: target, action: action, params: params, as: T.self) }
        compare(label, await awaiting(wrapper), direct, same: nil)
    }

    /// ``agreeUntyped(_:target:action:params:_:)`` for an async wrapper.
    mutating func agreeUntypedAsync(
        _ label: String, target: String, action: String, params: Params, _ wrapper: (Mediator) async throws -> (any Sendable)?
    ) async {
        let direct = await awaiting { mediator in try await mediator.call(target: target, action: action, params: params) }
        compare(label, await awaiting(wrapper), direct, same: nil)
    }

    /// A check of one fact about a wrapper's result.
    mutating func expect(_ label: String, _ condition: Bool) {
        checks += 1
        if !condition { disagreements.append("\(label): expectation failed") }
    }

    // MARK: Comparing

    private func run<T>(_ body: (Mediator) throws -> T) -> Result<T, any Error> {
        Result { try body(makeMediator()) }
    }

    private func awaiting<T>(_ body: (Mediator) async throws -> T) async -> Result<T, any Error> {
        do {
            return .success(try await body(makeMediator()))
        } catch {
            return .failure(error)
        }
    }

    /// Equal results (by `same` when given, else by their canonical text, in which session
    /// tokens, random by design, compare by form), or errors with the same code and message.
    private mutating func compare<T>(_ label: String, _ wrapper: Result<T, any Error>, _ direct: Result<T, any Error>, same: ((T, T) -> Bool)?) {
        checks += 1
        let agreed: Bool
        switch (wrapper, direct) {
        case (.success(let wrapped), .success(let called)):
            agreed = same?(wrapped, called) == true || canonicalText(wrapped) == canonicalText(called)
        case (.failure(let wrapped), .failure(let called)):
            agreed = errorText(wrapped) == errorText(called)
        default:
            agreed = false
        }
        if !agreed { disagreements.append("\(label): wrapper \(outcomeText(wrapper)), by name \(outcomeText(direct))") }
    }

    private func outcomeText<T>(_ outcome: Result<T, any Error>) -> String {
        switch outcome {
        case .success(let value): "returned \(canonicalText(value))"
        case .failure(let error): "threw \(errorText(error))"
        }
    }

    private func errorText(_ error: any Error) -> String {
        (error as? MediatorError).map { "\($0.code): \($0)" } ?? "\(type(of: error)): \(error)"
    }
}

/// `value` as text that does not depend on dictionary order: keys sorted, structs with their
/// fields in order, types named; a session token (32 lowercase hex digits) shows as
/// `<session token>`, since logging in twice gives two random tokens.
func canonicalText(_ value: Any?) -> String {
    guard let value else { return "nil" }
    if let text = value as? String {
        let isToken = text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        return isToken ? "<session token>" : "\"\(text)\""
    }
    if let params = value as? Params { return canonicalText(params.values) }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
        return mirror.children.first.map { canonicalText($0.value) } ?? "nil"
    case .dictionary:
        let entries = mirror.children.map { entry -> String in
            let pair = Mirror(reflecting: entry.value).children.map(\.value)
            return canonicalText(pair.first) + ": " + canonicalText(pair.last)
        }
        return "[" + entries.sorted().joined(separator: ", ") + "]"
    case .set:
        return "Set[" + mirror.children.map { canonicalText($0.value) }.sorted().joined(separator: ", ") + "]"
    case .collection, .tuple:
        return "[" + mirror.children.map { canonicalText($0.value) }.joined(separator: ", ") + "]"
    case .struct, .class:
        let fields = mirror.children.map { "\($0.label ?? "_"): \(canonicalText($0.value))" }
        return "\(type(of: value))(" + fields.joined(separator: ", ") + ")"
    default:
        return "\(type(of: value))(\(value))"
    }
}
