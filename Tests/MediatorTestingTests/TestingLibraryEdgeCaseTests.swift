import Mediator
import MediatorTesting
import Testing

// Holes in the testing library.

@Suite("Testing library: edge cases")
struct TestingLibraryEdgeCaseTests {
    @Test("strict stubs fail a degradation's fallback that is not stubbed")
    func strictStubsSeeDegradation() throws {
        let mediator = Mediator()
        try mediator.register(target: "Shop", actions: [Action("buy") { _, _ in throw StubbedFailure(code: "broken") }])
        try mediator.register(target: "Web", actions: [Action("open") { _, _ in "real web page" }])
        var table = RedirectTable()
        try table.degrade("Shop", to: "Web/open")
        mediator.setRedirects(table)
        let stubs = MediatorStubs(strict: true, passingThrough: ["Shop"])
        stubs.install(in: mediator)
        // Web is neither stubbed nor passed through: strict mode must fail the call naming it.
        #expect(throws: MediatorError.self) { try mediator.callNow(target: "Shop", action: "buy") }
    }

    @Test("strict stubs fail an unstubbed destination another interceptor redirects to")
    func strictStubsSeeRedirectAfterPassThrough() throws {
        let mediator = Mediator()
        try mediator.register(target: "Shop", actions: [Action("buy") { _, _ in "bought" }])
        try mediator.register(target: "Web", actions: [Action("open") { _, _ in "real web page" }])
        let stubs = MediatorStubs(strict: true, passingThrough: ["Shop"])
        stubs.install(in: mediator)
        // A second stubs-like interceptor with the same lowest priority, added after: it runs after the stubs.
        mediator.addInterceptor(Redirecting(), priority: .min)
        #expect(throws: MediatorError.self) { try mediator.callNow(target: "Shop", action: "buy") }
    }
}

struct Redirecting: Interceptor {
    func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
        request.name == "Shop/buy" ? .redirect(target: "Web", action: "open") : .proceed
    }
}
