import Mediator
import Testing

/// The credential-adding interceptor the docs show, as written there.
private struct RequireToken: Interceptor {
    let session: Session
    func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
        // A link or a command line acts for whoever sent it: never with the user's token.
        guard request.origin == .inProcess else { return .proceed }
        guard let token = session.token else { return .redirect(target: "Login", action: "show") }
        request.params["token"] = token
        return .proceed
    }
}

private struct Session: Sendable {
    let token: String?
}

@Suite("Interceptors that add credentials")
struct CredentialInterceptorTests {
    /// A mediator with `Notes/delete`, which needs a token, behind the documented interceptor.
    private func world(token: String?) throws -> Mediator {
        let mediator = Mediator()
        try mediator.register(
            target: "Notes",
            actions: [
                Action("delete", params: [.required("token", .string), .required("id", .integer)]) { _, params in
                    "deleted \(try params.value("id", as: Int.self)) as \(try params.value("token", as: String.self))"
                }
            ])
        try mediator.register(target: "Login", actions: [Action("show") { _, _ in "login" }])
        mediator.addInterceptor(RequireToken(session: Session(token: token)), scope: .target("Notes"))
        return mediator
    }

    @Test(
        "The documented interceptor adds the token to in-process calls and never to links",
        .bug(id: "token-on-links", "the documented interceptor authorized links as the signed-in user"))
    func tokenStaysInProcess() async throws {
        let mediator = try world(token: "ada")
        #expect(try await mediator.call(target: "Notes", action: "delete", params: ["id": 42]) as? String == "deleted 42 as ada")
        let error = await #expect(throws: MediatorError.self) { try await mediator.call(url: "myapp://Notes/delete?id=42") }
        #expect(error?.code == .invalidParameter)
        #expect(error?.parameter == "token")
    }

    @Test("Signed out, an in-process call goes to the login screen")
    func signedOut() async throws {
        let mediator = try world(token: nil)
        #expect(try await mediator.call(target: "Notes", action: "delete", params: ["id": 42]) as? String == "login")
    }
}
