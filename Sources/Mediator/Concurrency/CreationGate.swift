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
    /// A creation in progress: the gate's identity and its target's name.
    private struct Creation: Sendable {
        let gate: ObjectIdentifier
        let target: String
    }

    private struct Graph: Sendable {
        /// The thread creating through each gate (by the gate's identity).
        var owners: [ObjectIdentifier: UInt] = [:]
        /// The creations each thread holds, outermost first: a factory may create other cached
        /// targets inside it.
        var held: [UInt: [Creation]] = [:]
        /// The creation each thread is waiting for.
        var waiting: [UInt: Creation] = [:]
    }

    private static let graph = ConditionLock(Graph())

    /// Makes the calling thread the creator through `gate`, waiting while another thread is.
    ///
    /// - Throws: ``MediatorError/Code/cyclicTargetCreation`` naming the cycle, when waiting would
    ///   never end: the gate's creator is this thread, or waits (through a chain of creators) for
    ///   a gate this thread holds. Nothing is recorded then.
    static func enter(_ gate: CreationGate) throws(MediatorError) {
        let me = currentThreadID()
        let creation = Creation(gate: ObjectIdentifier(gate), target: gate.target)
        _ = try graph.wait { graph throws(MediatorError) -> Bool? in
            guard let owner = graph.owners[creation.gate] else {
                graph.waiting[me] = nil
                graph.owners[creation.gate] = me
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

    /// Ends the calling thread's creation through `gate` and wakes the threads waiting for it.
    static func leave(_ gate: CreationGate) {
        let me = currentThreadID()
        let id = ObjectIdentifier(gate)
        graph.withLock { graph in
            graph.owners[id] = nil
            graph.held[me]?.removeAll { $0.gate == id }
            if graph.held[me]?.isEmpty == true { graph.held[me] = nil }
        }
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
