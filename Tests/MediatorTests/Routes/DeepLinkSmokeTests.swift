import Mediator
import Testing

@Suite("Deep links: first calls")
struct DeepLinkSmokeTests {
    @Test("A route with a path parameter calls its action with the parameter, the pattern, the URL and the scheme")
    func routedCall() throws {
        let mediator = try urlTestMediator()
        try mediator.route("/user/:id/profile", to: "Echo", action: "echo")
        let result = try mediator.callNow(url: "myapp://user/42/profile?tab=posts")
        #expect(
            echoed(result)
                == [
                    "id": .one("42"), "tab": .one("posts"), "@route": .one("/user/:id/profile"), "@url": .one("myapp://user/42/profile?tab=posts"),
                    "@scheme": .one("myapp"),
                ])
        #expect(mediator.canOpen("myapp://user/42/profile"))
        #expect(!mediator.canOpen("myapp://user/42/other"))
        #expect(mediator.open("myapp://Other/ping") as? String == "pong")
    }
}
