/// One creation of a cached target instance, so that exactly one is ever made while the registry
/// lock stays free for every other call. Threads asking for the same cached target while its
/// factory runs wait for the gate (see ``CreationCoordinator``); its identity is what the slot and
/// the coordinator compare.
final class CreationGate: Sendable {
    /// The target's short name, for the error that names a cycle.
    let target: String

    init(target: String) {
        self.target = target
    }
}

/// Who is creating which cached target, and who waits for whom: one process-wide wait-for graph,
/// so that factories that need each other fail with ``MediatorError/Code/cyclicTargetCreation``
/// instead of deadlocking, whether the cycle is on one thread (A's factory asks for A) or spread
/// over several (A's factory waits for B's while B's waits for A's, on two threads).
///
/// Process-wide rather than per mediator, so a cycle through factories of different mediators is
/// found too. No lock is held while a factory runs: a creator holds only its entry in the graph,
/// and waiters sleep on a condition variable.
enum CreationCoordinator {
    /// A creation in progress: the gate's identity and its target's name, and for a creation by
    /// a task, its serial number: a gate outlives a failed creation (the next caller creates
    /// through it), and a task started inside a factory inherits the record of the creation,
    /// so only the serial tells the creation still running from one that is over.
    struct Creation: Sendable {
        let gate: ObjectIdentifier
        let target: String
        var serial: UInt64 = 0
    }

    /// A task waiting for a gate to be free.
    private struct Waiter: Sendable {
        let token: ObjectIdentifier
        /// The innermost gate the waiting task holds, the source of its edge in `edges`.
        let from: ObjectIdentifier?
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Graph: Sendable {
        /// The thread creating through each gate held by a synchronous creator.
        var owners: [ObjectIdentifier: UInt] = [:]
        /// The creations each thread holds, outermost first: a factory may create other cached
        /// targets inside it.
        var held: [UInt: [Creation]] = [:]
        /// The creation each thread is waiting for.
        var waiting: [UInt: Creation] = [:]
        /// Gates held by tasks running an async factory (which may resume on any thread).
        var taskOwned: [ObjectIdentifier: Creation] = [:]
        /// "Waits for" edges between gates, for tasks: code inside the creation through the first
        /// gate (its factory, or a creation nested in it) waits for the second. One entry per
        /// wait, so an edge can be there more than once.
        var edges: [ObjectIdentifier: [ObjectIdentifier]] = [:]
        /// Tasks suspended until a gate is free.
        var waiters: [ObjectIdentifier: [Waiter]] = [:]
        /// The target of each gate being created, for the message that names a cycle.
        var names: [ObjectIdentifier: String] = [:]
        /// The serial of the last creation by a task.
        var lastSerial: UInt64 = 0

        /// The cycle a task closes by asking for `gate` while it holds (in `held`, the records it
        /// inherited) that gate's running creation: the targets from that creation inward, first
        /// and last the same; `nil` when the creation through `gate` in `held` is over or absent.
        func cycle(through held: [Creation], asking gate: ObjectIdentifier) -> [String]? {
            guard let owned = taskOwned[gate], let start = held.firstIndex(where: { $0.gate == gate && $0.serial == owned.serial }) else { return nil }
            let names = held[start...].map(\.target)
            return names + [names[0]]
        }

        /// The innermost of `held` that is still running.
        func innermostRunning(of held: [Creation]) -> ObjectIdentifier? {
            held.last { taskOwned[$0.gate]?.serial == $0.serial }?.gate
        }

        func isOwned(_ gate: ObjectIdentifier) -> Bool { owners[gate] != nil || taskOwned[gate] != nil }

        mutating func removeEdge(from source: ObjectIdentifier?, to target: ObjectIdentifier) {
            guard let source, let index = edges[source]?.firstIndex(of: target) else { return }
            edges[source]?.remove(at: index)
            if edges[source]?.isEmpty == true { edges[source] = nil }
        }
    }

    private static let graph = ConditionLock(Graph())

    /// The gates the current task holds while an async factory runs, outermost first (tasks it
    /// creates inherit them: a child task that waits for one of them waits for its own parent).
    @TaskLocal private static var heldByTask: [Creation] = []

    /// Makes the calling thread the creator through `gate`, waiting while another thread is.
    ///
    /// - Returns: `false` (nothing recorded) when the gate is held by an async creator: a
    ///   synchronous caller must not wait for one, it may be the very thread that creator needs.
    /// - Throws: ``MediatorError/Code/cyclicTargetCreation`` naming the cycle, when waiting would
    ///   never end: the gate's creator is this thread, or waits (through a chain of creators) for
    ///   a gate this thread holds, or is the task this code runs in. Nothing is recorded then.
    static func enter(_ gate: CreationGate) throws(MediatorError) -> Bool {
        let me = currentThreadID()
        let creation = Creation(gate: ObjectIdentifier(gate), target: gate.target)
        let inTask = heldByTask
        return try graph.wait { graph throws(MediatorError) -> Bool? in
            if graph.taskOwned[creation.gate] != nil {
                graph.waiting[me] = nil
                if let cycle = graph.cycle(through: inTask, asking: creation.gate) { throw cycleError(cycle, asked: creation.target) }
                return false
            }
            guard let owner = graph.owners[creation.gate] else {
                graph.waiting[me] = nil
                graph.owners[creation.gate] = me
                graph.names[creation.gate] = creation.target
                graph.held[me, default: []].append(creation)
                return true
            }
            if let cycle = cycle(from: owner, asking: creation, in: graph, me: me) {
                graph.waiting[me] = nil
                throw cycleError(cycle, asked: creation.target)
            }
            graph.waiting[me] = creation
            return nil
        }
    }

    /// The error for a synchronous call that asks for a cached instance which this very task is
    /// creating with an async factory (it would otherwise be told to await, and an await would
    /// never end); `nil` when the gate is not held by this task.
    static func cycleIfHeldByThisTask(_ gate: CreationGate) -> MediatorError? {
        let inTask = heldByTask
        guard !inTask.isEmpty, let cycle = graph.withLock({ $0.cycle(through: inTask, asking: ObjectIdentifier(gate)) }) else { return nil }
        return cycleError(cycle, asked: gate.target)
    }

    /// Makes the calling code the creator through `gate` if it is free, without waiting: as the
    /// calling thread when the factory is synchronous (it runs at once, on this thread), as the
    /// calling task when it is async.
    ///
    /// - Returns: whether the gate was taken; when not, wait with ``waitUntilFree(_:)`` and try again.
    /// - Throws: ``MediatorError/Code/cyclicTargetCreation`` when the gate is held by this task.
    static func tryEnter(_ gate: CreationGate, asTask: Bool) throws(MediatorError) -> Bool {
        let creation = Creation(gate: ObjectIdentifier(gate), target: gate.target)
        let inTask = heldByTask
        let me = currentThreadID()
        return try graph.withLock { graph throws(MediatorError) in
            if let cycle = graph.cycle(through: inTask, asking: creation.gate) { throw cycleError(cycle, asked: creation.target) }
            guard !graph.isOwned(creation.gate) else { return false }
            graph.names[creation.gate] = creation.target
            if asTask {
                graph.lastSerial += 1
                var owned = creation
                owned.serial = graph.lastSerial
                graph.taskOwned[creation.gate] = owned
                // The creation that contains this one waits for it.
                if let outer = graph.innermostRunning(of: inTask) { graph.edges[outer, default: []].append(creation.gate) }
            } else {
                graph.owners[creation.gate] = me
                graph.held[me, default: []].append(creation)
            }
            return true
        }
    }

    /// Suspends the calling task until `gate` is free (or at once if it is), without blocking
    /// a thread.
    ///
    /// - Throws: ``MediatorError/Code/cyclicTargetCreation`` when the gate's creator waits,
    ///   through a chain of async creations, for a gate this task holds; `CancellationError`
    ///   when the task is cancelled while it waits.
    static func waitUntilFree(_ gate: CreationGate) async throws {
        let id = ObjectIdentifier(gate)
        let inTask = heldByTask
        let token = WaitToken()
        let tokenID = ObjectIdentifier(token)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready: Result<Void, any Error>? = graph.withLock { graph in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    guard graph.isOwned(id) else { return .success(()) }
                    let from = graph.innermostRunning(of: inTask)
                    if let from, let path = path(from: id, to: from, in: graph) {
                        return .failure(cycleError(path + [path[0]], asked: gate.target))
                    }
                    graph.waiters[id, default: []].append(Waiter(token: tokenID, from: from, continuation: continuation))
                    if let from { graph.edges[from, default: []].append(id) }
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let cancelled: Waiter? = graph.withLock { graph in
                guard var waiters = graph.waiters[id], let index = waiters.firstIndex(where: { $0.token == tokenID }) else { return nil }
                let waiter = waiters.remove(at: index)
                graph.waiters[id] = waiters.isEmpty ? nil : waiters
                graph.removeEdge(from: waiter.from, to: id)
                return waiter
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
        withExtendedLifetime(token) {}
    }

    /// Runs `body` (an async factory) with `gate` recorded as held by the calling task.
    static func holding<Result>(_ gate: CreationGate, _ body: () async throws -> Result) async throws -> Result {
        // Called by the creator right after `tryEnter(_:asTask: true)`: the record is its own.
        let id = ObjectIdentifier(gate)
        let creation = graph.withLock { $0.taskOwned[id] } ?? Creation(gate: id, target: gate.target)
        return try await $heldByTask.withValue(heldByTask + [creation], operation: body)
    }

    /// Ends the creation through `gate` (by a thread or a task) and wakes everyone waiting for it.
    static func leave(_ gate: CreationGate) {
        let me = currentThreadID()
        let id = ObjectIdentifier(gate)
        let inTask = heldByTask
        let woken: [Waiter] = graph.withLock { graph in
            if graph.owners.removeValue(forKey: id) != nil {
                graph.held[me]?.removeAll { $0.gate == id }
                if graph.held[me]?.isEmpty == true { graph.held[me] = nil }
            }
            if graph.taskOwned[id] != nil {
                // The nesting edge `tryEnter` added, from the creation this one runs inside.
                let outer = graph.innermostRunning(of: inTask)
                graph.taskOwned[id] = nil
                graph.removeEdge(from: outer, to: id)
            }
            graph.names[id] = nil
            let woken = graph.waiters.removeValue(forKey: id) ?? []
            for waiter in woken { graph.removeEdge(from: waiter.from, to: id) }
            return woken
        }
        // Resumed after the lock is dropped: each waiter goes on (and looks again) in its task.
        for waiter in woken { waiter.continuation.resume() }
    }

    /// The gates on a path of "waits for" edges from `start` to `end`, both included; `nil` when
    /// there is none. Each gate is visited once.
    private static func path(from start: ObjectIdentifier, to end: ObjectIdentifier, in graph: Graph) -> [String]? {
        var visited: Set<ObjectIdentifier> = [start]
        var stack: [(gate: ObjectIdentifier, path: [ObjectIdentifier])] = [(start, [start])]
        while let (gate, path) = stack.popLast() {
            if gate == end {
                return path.map { graph.names[$0] ?? "?" }
            }
            for next in graph.edges[gate] ?? [] where visited.insert(next).inserted {
                stack.append((next, path + [next]))
            }
        }
        return nil
    }

    /// The targets of the cycle this thread would close by waiting for `asked`, held by `owner`,
    /// first and last the same; `nil` when there is none. Follows each creator's held creations
    /// from the one asked for, then the creation it waits for, to that creation's creator.
    private static func cycle(from owner: UInt, asking asked: Creation, in graph: Graph, me: UInt) -> [String]? {
        /// What `thread` holds from `creation` inward (just `creation` if it is not found there).
        func heldPart(of thread: UInt, from creation: Creation) -> [String] {
            let stack = graph.held[thread] ?? []
            guard let start = stack.firstIndex(where: { $0.gate == creation.gate }) else { return [creation.target] }
            return stack[start...].map(\.target)
        }
        var chain: [String] = []
        var thread = owner
        var creation = asked
        // Each step visits another waiting thread, so the walk ends within their number.
        for _ in 0...graph.waiting.count {
            if thread == me {
                // This thread is creating the innermost of what it holds and asks for `asked`.
                let mine = heldPart(of: me, from: creation)
                return mine + chain + [mine[0]]
            }
            chain += heldPart(of: thread, from: creation)
            guard let next = graph.waiting[thread], let nextOwner = graph.owners[next.gate] else { return nil }
            thread = nextOwner
            creation = next
        }
        return nil
    }

    /// The error for `cycle` (its first and last names are the same target), for a call that
    /// asked for the cached instance of `asked`.
    private static func cycleError(_ cycle: [String], asked: String) -> MediatorError {
        guard cycle.count > 2 else {
            return MediatorError(
                .cyclicTargetCreation, target: asked,
                reason: "the factory of \"\(asked)\" asked for its own cached instance while creating it"
            )
        }
        let names = cycle.map { "\"\($0)\"" }.joined(separator: " -> ")
        return MediatorError(
            .cyclicTargetCreation, target: asked,
            reason: "the factories of cached targets need each other (\(names)): each waits for the next to be created"
        )
    }
}

/// The identity of one task's wait in ``CreationCoordinator/waitUntilFree(_:)``.
private final class WaitToken: Sendable {}
