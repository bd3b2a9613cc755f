import Mediator

/// Exposes ``AccountsService`` to other modules through the mediator, as target `Accounts`.
///
/// Results are plain values other modules can decode without importing this one:
/// an account is `["id": Int, "username": String]`, a token is a `String`. `verifyToken` is async
/// (callers `await` it); the other actions are synchronous.
public final class Target_Accounts: MediatorTarget {
    public static let targetSummary: String? = "User accounts: sign up, log in, who am I, verify a token"

    public static let actions: [Action<Target_Accounts>] = [
        Action("signUp", summary: "Create an account (username, password)") { target, params in
            try plain(
                target.service.signUp(
                    username: params.value("username", as: String.self),
                    password: params.value("password", as: String.self)
                ))
        },
        Action("logIn", summary: "Get a session token (username, password)") { target, params in
            try target.service.logIn(
                username: params.value("username", as: String.self),
                password: params.value("password", as: String.self)
            )
        },
        Action("whoAmI", summary: "The account a token belongs to (token)") { target, params in
            try plain(target.service.whoAmI(token: params.value("token", as: String.self)))
        },
        // Async: callers await it (`try await mediator.call(...)`); the synchronous entry points
        // refuse it with `asyncAction`. Notes checks tokens for its async actions with it.
        Action("verifyToken", summary: "The account a token belongs to, checked asynchronously (token)") { target, params async throws in
            try await plain(target.service.verify(token: params.value("token", as: String.self)))
        },
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

    private static func plain(_ account: Account) -> [String: any Sendable] {
        ["id": account.id, "username": account.username]
    }
}
