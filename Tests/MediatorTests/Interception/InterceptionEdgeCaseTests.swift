import Mediator
import TestSupport
import Testing

// Calls that break what the issue and the API promise.

@Suite("Interception: edge cases")
struct InterceptionEdgeCaseTests {
    @Test("a global guard interceptor is asked about the destination an interceptor redirected the call to")
    func guardSeesInterceptorRedirect() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        // An app's guard: nobody reaches wipeAll without a token (runs first, priority 10).
        world.mediator.addInterceptor(
            Probe("Guard", log) { request in
                if request.action == "wipeAll" && request.params["token"] == nil { throw FixtureError(message: "no token") }
                return .proceed
            }, priority: 10)
        // A later interceptor (say, a feature flag) re-points Notes/echo.
        world.mediator.addInterceptor(
            Probe("Flag", log) { request in
                request.name == "Notes/echo" ? .redirect(target: "Profile", action: "wipeAll") : .proceed
            })
        let error = mediatorError { try world.mediator.callNow(target: "Notes", action: "echo") }
        #expect(error?.code == .rejected)
        #expect(world.ran("Profile/wipeAll") == 0)
    }

    @Test("a guard interceptor is asked about a degradation's fallback")
    func guardSeesDegradation() throws {
        let world = try InterceptionWorld()
        let log = InterceptionLog()
        world.mediator.addInterceptor(
            Probe("Guard", log) { request in
                if request.target == "Profile" && request.params["token"] == nil { throw FixtureError(message: "no token") }
                return .proceed
            })
        var table = RedirectTable()
        try table.degrade("Notes", to: "Profile/show")
        world.mediator.setRedirects(table)
        let error = mediatorError { try world.mediator.callNow(target: "Notes", action: "fail") }
        #expect(error?.code == .rejected)
        #expect(world.ran("Profile/show") == 0)
    }

    @Test("a redirect table's JSON error is one line, even for a repeated key holding a line break")
    func repeatedKeyErrorIsOneLine() {
        let json = #"{"redirects": {"A\nforged line": "B", "A\nforged line": "C"}}"#
        #expect {
            try RedirectTable(json: json)
        } throws: { error in
            let description = String(describing: error)
            return !description.contains("\n") && !description.contains("\r")
        }
    }
}
