import Mediator
import TestSupport
import Testing

@Suite("Async actions through every entry point", hangLimit)
struct AsyncDispatchTests {
    func feedMediator() throws -> Mediator {
        let mediator = Mediator()
        try mediator.register(Target_Feed.self) { _ in Target_Feed() }
        return mediator
    }

    @Test("An async action answers the async call, with short and full names")
    func asyncCall() async throws {
        let mediator = try feedMediator()
        #expect(try await mediator.call(target: "Feed", action: "load", params: ["page": 2]) as? String == "page 2 of feed")
        #expect(try await mediator.call(target: "Target_Feed", action: "Action_load:", params: ["page": 3]) as? String == "page 3 of feed")
    }

    @Test("The async call returns the result; try? makes a failure nil")
    func asyncPerform() async throws {
        let mediator = try feedMediator()
        #expect((try? await mediator.call(target: "Feed", action: "load", params: ["page": 1])) as? String == "page 1 of feed")
        #expect((try? await mediator.call(target: "Feed", action: "load", params: ["page": "x"])) == nil)
        #expect((try? await mediator.call(target: "Feed", action: "nope")) == nil)
    }

    @Test("A synchronous action answers the async entry points too")
    func syncActionThroughAsync() async throws {
        let mediator = try feedMediator()
        #expect(try await mediator.call(target: "Feed", action: "syncTitle") as? String == "feed")
        #expect(try await mediator.call(url: "app://Feed/syncTitle") as? String == "feed")
    }

    @Test("The typed async call casts, and decodes plain values into the caller's type")
    func typed() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Pages",
            actions: [
                Action("page") { _, params async throws in ["page": try params.value("n", as: Int.self), "title": "T"] as [String: any Sendable] },
                Action("count") { _, _ async in 7 },
            ])
        #expect(try await mediator.call(target: "Pages", action: "count", as: Int.self) == 7)
        #expect(try await mediator.call(target: "Pages", action: "page", params: ["n": 4], as: FeedPage.self) == FeedPage(page: 4, title: "T"))
        let error = await #expect(throws: MediatorError.self) { try await mediator.call(target: "Pages", action: "count", as: String.self) }
        #expect(error?.code == .resultTypeMismatch)
    }

    @Test("An async action's error is wrapped with the target and action names, as a synchronous one's")
    func errorsWrapped() async throws {
        let mediator = try feedMediator()
        let error = await #expect(throws: MediatorError.self) {
            try await mediator.call(target: "Target_Feed", action: "fail", params: ["message": "boom"])
        }
        #expect(error?.code == .actionFailed)
        #expect(error?.target == "Feed")
        #expect(error?.action == "fail")
        #expect(error?.underlying as? FixtureError == FixtureError(message: "boom"))
        #expect(error?.actionErrorCode == "fixture")
        let parameter = await #expect(throws: MediatorError.self) { try await mediator.call(target: "Feed", action: "load", params: ["page": "two"]) }
        #expect(parameter?.code == .invalidParameter)
        #expect(parameter?.target == "Feed")
        #expect(parameter?.parameter == "page")
    }

    @Test("Missing names give the same errors as the synchronous call")
    func missing() async throws {
        let mediator = try feedMediator()
        let action = await #expect(throws: MediatorError.self) { try await mediator.call(target: "Feed", action: "lod") }
        #expect(action?.code == .actionNotFound)
        #expect(action?.suggestion == "load")
        let target = await #expect(throws: MediatorError.self) { try await mediator.call(target: "Fed", action: "load") }
        #expect(target?.code == .targetNotFound)
    }

    @Test("A synchronous call to an async action throws asyncAction and does not run it; perform returns nil")
    func syncEntryPointsDoNotBlock() throws {
        let mediator = Mediator()
        let ran = Counter()
        try mediator.register(
            target: "Slow",
            actions: [
                Action("load") { _, _ async in
                    ran.increment()
                    return 1
                }
            ])
        #expect(throws: MediatorError.self) { try mediator.callNow(target: "Slow", action: "load") }
        do {
            try mediator.callNow(target: "Slow", action: "load")
        } catch {
            #expect(error.code == .asyncAction)
            #expect(error.target == "Slow")
            #expect(error.action == "load")
            #expect(error.description.contains("await"))
        }
        #expect(mediator.perform(target: "Slow", action: "load") == nil)
        #expect(mediator.open("app://Slow/load") == nil)
        #expect(throws: MediatorError.self) { try mediator.callNow(url: "app://Slow/load") }
        #expect(ran.value == 0)
    }

    @Test("URL calls run async actions through the async forms, with every URL rule")
    func urls() async throws {
        let mediator = try feedMediator()
        try mediator.register(
            target: "Vault",
            actions: [
                Action("wipe", localOnly: true) { _, _ async in "wiped" },
                Action("nativeWipe") { _, _ async in "wiped" },
            ])
        #expect(try await mediator.call(url: "app://Feed/load?page=5") as? String == "page 5 of feed")
        #expect((try? await mediator.call(url: "app://Feed/load?page=6")) as? String == "page 6 of feed")
        for url in ["app://Vault/wipe", "app://Vault/nativeWipe"] {
            let error = await #expect(throws: MediatorError.self) { try await mediator.call(url: url) }
            #expect(error?.code == .forbidden)
            #expect((try? await mediator.call(url: url)) == nil)
        }
        // The local-only action still answers in-process callers.
        #expect(try await mediator.call(target: "Vault", action: "wipe") as? String == "wiped")
    }

    @Test("A handle awaits an async action; its synchronous call throws asyncAction")
    func handles() async throws {
        let mediator = try feedMediator()
        let load = try mediator.handle(target: "Feed", action: "load", shouldCacheTarget: true)
        #expect(try await load.call(["page": 9]) as? String == "page 9 of feed")
        #expect((try? await load.call(["page": 8])) as? String == "page 8 of feed")
        let error = #expect(throws: MediatorError.self) { try load.callNow(["page": 1]) }
        #expect(error?.code == .asyncAction)
        #expect(synchronously { try? load.callNow(["page": 1]) } == nil)
        let title = try mediator.handle(target: "Feed", action: "syncTitle")
        #expect(try await title.call([:]) as? String == "feed")
    }

    @Test("A cached instance made by the async path serves later synchronous calls")
    func cachedAcrossPaths() async throws {
        let mediator = Mediator()
        let made = Counter()
        try mediator.register(
            target: "Store",
            make: { _ async -> Box in
                await Task.yield()
                made.increment()
                return Box()
            }, actions: [Action("id") { box, _ in ObjectIdentifier(box) }])
        // A synchronous call cannot create it (the factory is async) and says so.
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Store", action: "id", shouldCacheTarget: true) }
        #expect(error?.code == .asyncAction)
        #expect(made.value == 0)
        let first = try await mediator.call(target: "Store", action: "id", shouldCacheTarget: true) as? ObjectIdentifier
        let second = try synchronously { try mediator.callNow(target: "Store", action: "id") } as? ObjectIdentifier
        #expect(first != nil && first == second)
        #expect(made.value == 1)
    }
}
