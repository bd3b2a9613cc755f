import Mediator
import TestSupport
import Testing

// The README's Concurrency examples, kept compiling and true (the types are namespaced to stay
// apart from the other suites' fixtures; their target names are what the README shows).
enum ReadmeConcurrency {
    actor FeedStore {
        static func open() async throws -> FeedStore { FeedStore() }
        func page(_ number: Int) -> [String: any Sendable] { ["page": number, "title": "Page \(number)"] }
    }

    struct FeedPage: Decodable, Equatable {
        let page: Int
        let title: String
    }

    final class Target_Feed: MediatorTarget {
        static let actions: [Action<Target_Feed>] = [
            Action("load") { feed, params async throws in
                try await feed.store.page(params.value("page", as: Int.self))
            }
        ]
        let store: FeedStore
        init(store: FeedStore) { self.store = store }
    }

    final class Target_Profile: MainActorTarget {
        static let actions: [Action<Target_Profile>] = [
            Action("title") { screen, _ in screen.title }  // runs on the main actor
        ]
        var title = "Profile"
    }
}

@Suite("README: Concurrency", hangLimit)
struct ReadmeConcurrencyTests {
    @Test("The async action example answers every form the README shows")
    func asyncForms() async throws {
        let mediator = Mediator()
        try mediator.register(ReadmeConcurrency.Target_Feed.self) { _ async throws in
            ReadmeConcurrency.Target_Feed(store: try await ReadmeConcurrency.FeedStore.open())
        }
        let page = try await mediator.call(target: "Feed", action: "load", params: ["page": 1])
        #expect((page as? [String: any Sendable])?["title"] as? String == "Page 1")
        let typed = try await mediator.call(target: "Feed", action: "load", params: ["page": 1], as: ReadmeConcurrency.FeedPage.self)
        #expect(typed == ReadmeConcurrency.FeedPage(page: 1, title: "Page 1"))
        let viaURL = try await mediator.call(url: "app://Feed/load?page=1")
        #expect((viaURL as? [String: any Sendable])?["page"] as? Int == 1)
        let load = try mediator.handle(target: "Feed", action: "load")
        let again = try await load.call(["page": 2])
        #expect((again as? [String: any Sendable])?["title"] as? String == "Page 2")
        // The synchronous call refuses, as the README says, with this message.
        let refused = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Feed", action: "load", params: ["page": 1]) }
        #expect(refused?.code == .asyncAction)
        #expect(refused?.reason.hasPrefix("not run: the action is async; call it with await from an async function, or with the completion form") == true)
    }

    @Test("The main-actor target example answers from any task")
    func mainActor() async throws {
        let mediator = Mediator()
        try mediator.register(ReadmeConcurrency.Target_Profile.self) { _ in ReadmeConcurrency.Target_Profile() }
        let title = try await Task.detached { try await mediator.call(target: "Profile", action: "title") }.value
        #expect(title as? String == "Profile")
    }

    @Test("The completion example gets the result once")
    func completion() async throws {
        let mediator = Mediator()
        try mediator.register(ReadmeConcurrency.Target_Feed.self) { _ async throws in
            ReadmeConcurrency.Target_Feed(store: try await ReadmeConcurrency.FeedStore.open())
        }
        let done = Latch()
        let titles = ReadWriteLock<[String]>([])
        let call = mediator.perform(target: "Feed", action: "load", params: ["page": 1], as: ReadmeConcurrency.FeedPage.self) { result in
            if case .success(let page) = result { titles.withLock { $0.append(page.title) } }
            done.open()
        }
        await done.wait()
        await call.value
        #expect(titles.withReadLock { $0 } == ["Page 1"])
    }
}
