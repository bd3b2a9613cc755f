import Mediator
import TestSupport
import Testing

/// A main-actor target with its own notFound, made by an async factory.
final class Target_Panel: MainActorTarget {
    static let actions: [Action<Target_Panel>] = [Action("name") { panel, _ in panel.name }]
    var name = "panel"
    init() {}
    func notFound(action: String, params: Params) throws -> (any Sendable)? {
        action == "legacyName" ? name : nil
    }
}

@Suite("Async paths: the less common forms", hangLimit)
struct AsyncCoverageTests {
    @MainActor
    @Test("A main-actor target's missing action: the default notFound from the main actor, its own notFound from anywhere")
    func mainActorNotFound() async throws {
        let mediator = Mediator()
        try mediator.register(Target_Screen.self) { _ in Target_Screen() }
        let missing = #expect(throws: MediatorError.self) { try synchronously { try mediator.callNow(target: "Screen", action: "nope") } }
        #expect(missing?.code == .actionNotFound)
        try mediator.register(Target_Panel.self) { _ async in Target_Panel() }
        #expect(try await mediator.call(target: "Panel", action: "legacyName") as? String == "panel")
        let detached = try await Task.detached { try await mediator.call(target: "Panel", action: "legacyName") }.value
        #expect(detached as? String == "panel")
        // Cached now: the synchronous call on the main actor answers at once, through its notFound too.
        _ = try await mediator.call(target: "Panel", action: "name", shouldCacheTarget: true)
        #expect(try synchronously { try mediator.callNow(target: "Panel", action: "legacyName") } as? String == "panel")
    }

    @Test("Off the main actor, a synchronous call needing a main-actor factory or notFound throws asyncAction")
    func mainActorFromThread() async throws {
        let mediator = Mediator()
        try mediator.register(Target_Panel.self) { _ in Target_Panel() }
        _ = try await mediator.call(target: "Panel", action: "name", shouldCacheTarget: true)
        let codes = ReadWriteLock<[MediatorError.Code?]>([])
        onThreads(1) { _ in
            for action in ["name", "legacyName"] {
                do {
                    _ = try mediator.callNow(target: "Panel", action: action)
                } catch {
                    codes.withLock { $0.append((error as? MediatorError)?.code) }
                }
            }
        }
        #expect(codes.withReadLock { $0 } == [.asyncAction, .asyncAction])
    }

    @Test("A closure target with an async factory and an async notFound")
    func asyncAsyncClosureTarget() async throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Both", make: { _ async -> Box in Box() }, actions: [Action("ok") { _, _ in "ok" }],
            notFound: { _, action, _ async in "late \(action)" })
        #expect(try await mediator.call(target: "Both", action: "ok") as? String == "ok")
        #expect(try await mediator.call(target: "Both", action: "gone") as? String == "late gone")
    }

    @Test("The typed async call reports a result of the wrong type")
    func typedMismatch() async throws {
        let mediator = Mediator()
        try mediator.register(target: "Numbers", actions: [Action("one") { _, _ async in 1 }])
        let error = await #expect(throws: MediatorError.self) { try await mediator.call(target: "Numbers", action: "one", as: Box.self) }
        #expect(error?.code == .resultTypeMismatch)
        #expect(error?.reason.contains("expected a result of type Box, got Int 1") == true)
    }

    @Test("A synchronous factory with an async action: concurrent async callers share one cached instance")
    func syncFactoryAsyncWaiters() async throws {
        let mediator = Mediator()
        let made = Counter()
        try mediator.register(
            target: "Shared",
            make: { _ -> Box in
                made.increment()
                return Box()
            },
            actions: [
                Action("id") { box, _ async in
                    await Task.yield()
                    return ObjectIdentifier(box)
                }
            ])
        let ids = try await withThrowingTaskGroup(of: ObjectIdentifier?.self) { group in
            for _ in 0..<100 {
                group.addTask { try await mediator.call(target: "Shared", action: "id", shouldCacheTarget: true) as? ObjectIdentifier }
            }
            var ids: Set<ObjectIdentifier?> = []
            for try await id in group { ids.insert(id) }
            return ids
        }
        #expect(ids.count == 1)
        #expect(made.value == 1)
    }

    @Test("Two tasks whose async factories each await the other's target: both fail with cyclicTargetCreation")
    func crossTaskCycle() async throws {
        let mediator = Mediator()
        let insideA = Latch()
        let insideB = Latch()
        let go = Latch()
        for (name, other, inside) in [("A", "B", insideA), ("B", "A", insideB)] {
            try mediator.register(
                target: name, alwaysCached: true,
                make: { mediator async throws -> Box in
                    inside.open()
                    await go.wait()
                    _ = try await mediator.call(target: other, action: "id")
                    return Box()
                }, actions: [Action("id") { box, _ in ObjectIdentifier(box) }])
        }
        let first = Task { try await mediator.call(target: "A", action: "id") }
        let second = Task { try await mediator.call(target: "B", action: "id") }
        // Both factories are inside their creations before either asks for the other.
        await insideA.wait()
        await insideB.wait()
        go.open()
        for task in [first, second] {
            let result = await task.result
            guard case .failure(let error as MediatorError) = result else {
                Issue.record("expected cyclicTargetCreation, got \(result)")
                continue
            }
            #expect(error.code == .cyclicTargetCreation)
        }
    }
}
