import Mediator

/// What this module needs the `Accounts` target to provide: every action its keys and wrappers
/// call. A program that wires the modules records it and checks it at start-up.
///
/// ```swift
/// mediator.require(AccountsRequirements.all, by: "ExampleAccountsMediator")
/// precondition(mediator.verify().isEmpty)
/// ```
public enum AccountsRequirements {
    /// The keys `accountsSignUp`, `accountsLogIn`, `accountsWhoAmI` and `accountsVerifyToken`.
    public static let all: [Requirement] = [
        .action(.accountsSignUp), .action(.accountsLogIn), .action(.accountsWhoAmI), .action(.accountsVerifyToken),
    ]
}
