import Mediator
import TestSupport
import Testing

/// A screen-like target: main-actor state, declared without `@preconcurrency` or `assumeIsolated`.
final class Target_Screen: MainActorTarget {
    static let actions: [Action<Target_Screen>] = [
        Action("title") { screen, _ in
            screen.shown += 1
            return screen.title
        },
        Action("rename") { screen, params async throws in
            await Task.yield()
            screen.title = try params.value("title", as: String.self)
            return screen.title
        },
    ]
    var title = "Home"
    var shown = 0
    init() {}
}

@Suite("Main-actor targets: the short path", hangLimit)
struct MainActorSmokeTests {
    @MainActor
    @Test("On the main actor, the synchronous call answers at once; an async one hops and comes back")
    func onMainActor() async throws {
        let mediator = Mediator()
        try mediator.register(Target_Screen.self) { _ in Target_Screen() }
        #expect(try synchronously { try mediator.callNow(target: "Screen", action: "title", shouldCacheTarget: true) } as? String == "Home")
        #expect(try await mediator.call(target: "Screen", action: "rename", params: ["title": "Inbox"]) as? String == "Inbox")
    }

    @Test("From a detached task the async call runs it on the main actor; the synchronous one throws asyncAction")
    func offMainActor() async throws {
        let mediator = Mediator()
        try mediator.register(Target_Screen.self) { _ in Target_Screen() }
        let title = try await Task.detached { try await mediator.call(target: "Screen", action: "title", shouldCacheTarget: true) }.value
        #expect(title as? String == "Home")
        let code = ReadWriteLock<MediatorError.Code?>(nil)
        onThreads(1) { _ in
            do {
                _ = try mediator.callNow(target: "Screen", action: "title")
            } catch {
                code.withLock { $0 = (error as? MediatorError)?.code }
            }
        }
        #expect(code.withReadLock { $0 } == .asyncAction)
    }
}
