import Mediator
import TestSupport

// Fixtures shared by the contract suites (Contract*Tests): a target built from closures whose
// factory and actions count their runs, and whose actions return the params they received, so a
// test sees exactly what validation handed the action.

/// The instance of the contract fixtures' target.
final class ContractBox: Sendable {
    init() {}
}

/// A value of a Swift type of the tests' own, for `.value(T)` parameters.
struct Marker: Sendable, Equatable {
    let id: Int
}

/// A mediator with one target, `Shapes`, made by a counting factory (never cached unless asked);
/// every action counts its runs and returns the ``Params`` it received.
struct ContractWorld {
    let mediator: Mediator
    /// Runs of any action body.
    let runs = Counter()
    /// Runs of the target's factory.
    let makes = Counter()

    /// A world whose target `Shapes` has the actions `actions` builds from the run counter; its
    /// mediator's policy is `policy` (`nil`: the mediator's default).
    init(policy: UndeclaredParameterPolicy? = .refusedFromOutside, actions: (Counter) -> [Action<ContractBox>]) throws {
        mediator = policy.map { Mediator(undeclaredParameters: $0) } ?? Mediator()
        let makes = makes
        try mediator.register(
            target: "Shapes",
            make: { _ in
                makes.increment()
                return ContractBox()
            }, actions: actions(runs))
    }

    /// A world whose target `Shapes` has one action, `take`, declaring `params`.
    init(
        _ params: [Parameter], actionPolicy: UndeclaredParameterPolicy? = nil, mediatorPolicy: UndeclaredParameterPolicy? = .refusedFromOutside
    ) throws {
        try self.init(policy: mediatorPolicy) { runs in
            let action = Action<ContractBox>("take", params: params) { _, params in
                runs.increment()
                return params
            }
            return [actionPolicy.map { action.undeclaredParameters($0) } ?? action]
        }
    }

    /// The params the action `take` received from an in-process synchronous call.
    func received(_ params: Params) throws(MediatorError) -> Params {
        let result = try mediator.callNow(target: "Shapes", action: "take", params: params)
        guard let received = result as? Params else {
            throw MediatorError(.resultTypeMismatch, reason: "the fixture returned \(String(describing: result))")
        }
        return received
    }

    /// The error of an in-process synchronous call to `take`, or `nil` when it succeeded.
    func failure(_ params: Params) -> MediatorError? {
        mediatorError { () throws(MediatorError) in _ = try mediator.callNow(target: "Shapes", action: "take", params: params) }
    }
}

/// A value with its dynamic type, as the tests write expectations by hand: `Int 42`,
/// `Array<String> ["a"]`, `String "7"`.
func typed(_ value: (any Sendable)?) -> String {
    guard let value else { return "nil" }
    if let text = value as? String { return "String \"\(text)\"" }
    return "\(type(of: value)) \(value)"
}

/// A plain value as JSON, or `nil` when it is absent or has no JSON form.
func json(_ value: (any Sendable)?) -> JSONDocument? {
    value.flatMap { JSONDocument(plain: $0) }
}
