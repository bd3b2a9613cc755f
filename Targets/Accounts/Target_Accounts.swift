import ExampleAccountsMediator
import Mediator

/// Exposes ``AccountsService`` to other modules through the mediator, as target `Accounts`.
///
/// Every action is registered against a typed key of `ExampleAccountsMediator` (which declares its
/// params, with descriptions, and its result): callers with the key get an `AccountsUser` or a
/// token `String` as is; callers by name, URL or command line send params, checked against the
/// declaration, and get plain values other modules can decode without importing this one: an
/// account is `["id": Int, "username": String]`, a token is a `String`. `verifyToken` is async
/// (callers `await` it); the other actions are synchronous.
public final class Target_Accounts: MediatorTarget {
    public static let targetSummary: String? = "User accounts: sign up, log in, who am I, verify a token"

    public static let actions: [Action<Target_Accounts>] = [
        Action(.accountsSignUp, summary: "Create an account") { target, input in
            try target.service.signUp(username: input.username, password: input.password).published
        },
        Action(.accountsLogIn, summary: "Get a session token") { target, input in
            try target.service.logIn(username: input.username, password: input.password)
        },
        Action(.accountsWhoAmI, summary: "The account a token belongs to") { target, input in
            try target.service.whoAmI(token: input.token).published
        }
        .effects([.readOnly, .idempotent]),
        // Async: callers await it (`try await mediator.call(...)`); the synchronous entry points
        // refuse it with `asyncAction`. Notes checks tokens for its async actions with it.
        Action(.accountsVerifyToken, summary: "The account a token belongs to, checked asynchronously") { target, input async throws in
            try await target.service.verify(token: input.token).published
        }
        .effects([.readOnly, .idempotent]),
    ]

    /// What this module needs other modules to provide: nothing (it calls no other target). Listed
    /// so that a program can record every provider's requirements alike.
    public static let requirements: [Requirement] = []

    /// The deep links to this target's actions, the same as the `Accounts` entry of
    /// `Targets/routes.json` (the table `mediate --routes` loads; a test keeps the two equal):
    /// `app://me?token=...` is `whoAmI`, the account the token belongs to. For the `app` scheme
    /// only: a web link (`https://...`) never reaches it. Sign-up and log-in take a password,
    /// which has no place in a link, so they have no route.
    ///
    /// ```swift
    /// try mediator.addRoutes(Target_Accounts.routes)
    /// ```
    public static let routes: [URLRoute] = [
        URLRoute("/me", target: "Accounts", action: "whoAmI", scheme: "app")
    ]

    let service: AccountsService

    /// A target serving `service`.
    public init(service: AccountsService) {
        self.service = service
    }

    /// Registers the `Accounts` target in `mediator`. Every instance the mediator makes (one per
    /// call unless cached) serves the same `service`, so state lives as long as the service.
    public static func register(in mediator: Mediator, service: AccountsService = AccountsService()) throws(MediatorError) {
        try mediator.register(Target_Accounts.self) { _ in Target_Accounts(service: service) }
    }
}

extension Account {
    /// The account as callers see it (`ExampleAccountsMediator`'s type, the output of the keys).
    var published: AccountsUser { AccountsUser(id: id, username: username) }
}
