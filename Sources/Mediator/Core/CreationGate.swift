#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
    private struct Graph: Sendable {
        /// The thread creating through each gate (by the gate's identity).
        var owners: [ObjectIdentifier: UInt] = [:]
        /// The gate each thread is waiting for, with that gate's target name.
        var waiting: [UInt: (gate: ObjectIdentifier, target: String)] = [:]
    }

    private static let graph = ConditionLock(Graph())

    /// Makes the calling thread the creator through `gate`, waiting while another thread is.
    ///
    /// - Throws: ``MediatorError/Code/cyclicTargetCreation`` naming the cycle, when waiting would
    ///   never end: the gate's creator is this thread, or waits (through a chain of creators) for
    ///   a gate this thread holds. Nothing is recorded then.
    static func enter(_ gate: CreationGate) throws(MediatorError) {
        let me = currentThreadID()
        let id = ObjectIdentifier(gate)
        _ = try graph.wait { graph throws(MediatorError) -> Bool? in
            guard let owner = graph.owners[id] else {
                graph.waiting[me] = nil
                graph.owners[id] = me
                return true
            }
            if let cycle = cycle(from: owner, asking: gate.target, in: graph, me: me) {
                graph.waiting[me] = nil
                throw cycleError(cycle)
            }
            graph.waiting[me] = (id, gate.target)
            return nil
        }
    }

    /// Ends the calling thread's creation through `gate` and wakes the threads waiting for it.
    static func leave(_ gate: CreationGate) {
        graph.withLock { graph in
            graph.owners[ObjectIdentifier(gate)] = nil
        }
    }

    /// The targets of the cycle this thread would close by waiting for a gate held by `owner`, or
    /// `nil` when there is none. Follows creator -> the gate it waits for -> that gate's creator.
    private static func cycle(from owner: UInt, asking target: String, in graph: Graph, me: UInt) -> [String]? {
        var chain = [target]
        var thread = owner
        // Each step visits another waiting thread, so the walk ends within their number.
        for _ in 0...graph.waiting.count {
            if thread == me { return chain }
            guard let next = graph.waiting[thread], let nextOwner = graph.owners[next.gate] else { return nil }
            chain.append(next.target)
            thread = nextOwner
        }
        return nil
    }

    private static func cycleError(_ chain: [String]) -> MediatorError {
        guard chain.count > 1 else {
            return MediatorError(
                .cyclicTargetCreation, target: chain[0],
                reason: "the factory of \"\(chain[0])\" asked for its own cached instance while creating it"
            )
        }
        // The thread closing the cycle is creating the last target and asks for the first.
        let names = ([chain[chain.count - 1]] + chain).map { "\"\($0)\"" }.joined(separator: " -> ")
        return MediatorError(
            .cyclicTargetCreation, target: chain[chain.count - 1],
            reason: "the factories of cached targets need each other across threads (\(names)): each waits for the next to be created"
        )
    }
}

/// An identifier of the calling thread, unique among live threads.
func currentThreadID() -> UInt {
    #if canImport(Glibc)
    UInt(pthread_self())
    #else
    UInt(bitPattern: pthread_self())
    #endif
}
