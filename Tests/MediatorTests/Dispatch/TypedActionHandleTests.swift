import Mediator
import TestSupport
import Testing

// Typed handles: a key resolved once. The fast path (a body keyed by the same types on a held
// instance), and every way off it: an action registered by name, an async body, a fresh instance
// per call, interceptors added after resolving, errors, runaway recursion.

// MARK: - Fixtures

struct HandleSum: Codable, Sendable, Equatable {
    var a: Int
    var b: Int
}

struct HandleTotal: Codable, Sendable, Equatable {
    var total: Int
    /// Which instance answered (the factory numbers them from 1).
    var instance: Int
}

extension ActionKey where Input == HandleSum, Output == HandleTotal {
    /// Keyed by the provider (`Target_HandleKeyed`).
    static var handleKeyedAdd: Self { Self(target: "HandleKeyed", action: "add") }
    /// An async keyed body.
    static var handleKeyedLater: Self { Self(target: "HandleKeyed", action: "later") }
    /// A keyed body that throws when `a` is negative.
    static var handleKeyedCheck: Self { Self(target: "HandleKeyed", action: "check") }
    /// A keyed body that calls the handle in its `recursion` box again, `a` times.
    static var handleKeyedRecurse: Self { Self(target: "HandleKeyed", action: "recurse") }
    /// Registered by name (`Target_HandlePlain`): the input is encoded, the result decoded.
    static var handlePlainAdd: Self { Self(target: "HandlePlain", action: "add") }
}

/// Where a recursing body finds the handle to call (set once the handle exists).
final class HandleBox: Sendable {
    let handle = ReadWriteLock<ActionHandle<HandleSum, HandleTotal>?>(nil)
}

final class Target_HandleKeyed: MediatorTarget {
    static let actions: [Action<Target_HandleKeyed>] = [
        Action(.handleKeyedAdd) { target, input in HandleTotal(total: input.a + input.b, instance: target.number) },
        Action(.handleKeyedLater) { target, input async in HandleTotal(total: input.a * input.b, instance: target.number) },
        Action(.handleKeyedCheck) { target, input in
            guard input.a >= 0 else { throw HandleFailure(message: "negative a") }
            return HandleTotal(total: input.a, instance: target.number)
        },
        Action(.handleKeyedRecurse) { target, input in
            guard input.a > 0, let handle = target.box.handle.withReadLock({ $0 }) else { return HandleTotal(total: 0, instance: target.number) }
            return try handle.callNow(HandleSum(a: input.a - 1, b: input.b))
        },
    ]
    let number: Int
    let box: HandleBox

    init(number: Int, box: HandleBox = HandleBox()) {
        self.number = number
        self.box = box
    }
}

final class Target_HandlePlain: MediatorTarget {
    static let actions: [Action<Target_HandlePlain>] = [
        Action("add") { target, params in
            ["total": try params.value("a", as: Int.self) + params.value("b", as: Int.self), "instance": target.number] as [String: any Sendable]
        }
    ]
    let number: Int
    init(number: Int) { self.number = number }
}

struct HandleFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Counts what passes through it, and answers `answer` instead of the action when one is set.
struct HandleInterceptor: Interceptor {
    let seen: Counter
    let answer: HandleTotal?

    func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
        seen.increment()
        return answer.map { .answer($0) } ?? .proceed
    }
}

/// A mediator with both targets, their factories numbering the instances they make.
private func makeMediator(box: HandleBox = HandleBox(), maximumCallDepth: Int = Mediator.defaultMaximumCallDepth) throws -> (Mediator, Counter) {
    let made = Counter()
    let mediator = Mediator(maximumCallDepth: maximumCallDepth)
    try mediator.register(Target_HandleKeyed.self) { _ in Target_HandleKeyed(number: made.increment(), box: box) }
    try mediator.register(Target_HandlePlain.self) { _ in Target_HandlePlain(number: made.increment()) }
    return (mediator, made)
}

/// The synchronous call (in async code the async overload would win).
private func callNow<Input, Output>(_ handle: ActionHandle<Input, Output>, _ input: Input) throws(MediatorError) -> Output {
    try handle.callNow(input)
}

// MARK: - Tests

@Suite("Typed action handles")
struct TypedActionHandleTests {
    @Test("A caching typed handle runs the keyed body on one instance, made once, with the same answer as a call by key")
    func fastPath() throws {
        let (mediator, made) = try makeMediator()
        let add = try mediator.handle(.handleKeyedAdd, shouldCacheTarget: true)
        #expect(add.target == "HandleKeyed")
        #expect(made.value == 1)
        #expect(try callNow(add, HandleSum(a: 2, b: 3)) == HandleTotal(total: 5, instance: 1))
        #expect(try callNow(add, HandleSum(a: -7, b: 3)) == HandleTotal(total: -4, instance: 1))
        #expect(try mediator.callNow(.handleKeyedAdd, HandleSum(a: 2, b: 3), shouldCacheTarget: true) == HandleTotal(total: 5, instance: 1))
        #expect(made.value == 1)
    }

    @Test("A plain typed handle makes a fresh instance per call, as a plain handle does")
    func freshInstances() throws {
        let (mediator, made) = try makeMediator()
        let add = try mediator.handle(.handleKeyedAdd)
        #expect(made.value == 0)
        #expect(try callNow(add, HandleSum(a: 1, b: 1)) == HandleTotal(total: 2, instance: 1))
        #expect(try callNow(add, HandleSum(a: 1, b: 1)) == HandleTotal(total: 2, instance: 2))
    }

    @Test("An action registered by name gets the input encoded to params, and its result is decoded into the output")
    func byName() throws {
        let (mediator, _) = try makeMediator()
        let add = try mediator.handle(.handlePlainAdd, shouldCacheTarget: true)
        #expect(try callNow(add, HandleSum(a: 40, b: 2)) == HandleTotal(total: 42, instance: 1))
    }

    @Test("An async keyed body: the synchronous call says asyncAction, the async call awaits it")
    func asyncBody() async throws {
        let (mediator, _) = try makeMediator()
        let later = try mediator.handle(.handleKeyedLater, shouldCacheTarget: true)
        let error = #expect(throws: MediatorError.self) { try callNow(later, HandleSum(a: 6, b: 7)) }
        #expect(error?.code == .asyncAction)
        #expect(try await later.call(HandleSum(a: 6, b: 7)) == HandleTotal(total: 42, instance: 1))
    }

    @Test("The async call of a synchronous keyed body answers as the synchronous one does")
    func asyncCallOfSyncBody() async throws {
        let (mediator, _) = try makeMediator()
        let add = try mediator.handle(.handleKeyedAdd, shouldCacheTarget: true)
        #expect(try await add.call(HandleSum(a: 20, b: 22)) == HandleTotal(total: 42, instance: 1))
    }

    @Test("A body's error is actionFailed naming the target, the action and the reason")
    func failure() throws {
        let (mediator, _) = try makeMediator()
        let check = try mediator.handle(.handleKeyedCheck, shouldCacheTarget: true)
        let error = #expect(throws: MediatorError.self) { try callNow(check, HandleSum(a: -1, b: 0)) }
        #expect(error?.code == .actionFailed)
        #expect(error?.target == "HandleKeyed")
        #expect(error?.action == "check")
        #expect(error.map { "\($0)".contains("negative a") } == true)
    }

    @Test("Resolving a key whose action is missing throws, with a suggestion")
    func missing() throws {
        let (mediator, _) = try makeMediator()
        let typo = ActionKey<HandleSum, HandleTotal>(target: "HandleKeyd", action: "add")
        let error = #expect(throws: MediatorError.self) { try mediator.handle(typo) }
        #expect(error?.suggestion == "HandleKeyed")
    }

    @Test("An interceptor added after the handle was resolved sees its calls and can answer them")
    func interceptedLater() throws {
        let (mediator, _) = try makeMediator()
        let add = try mediator.handle(.handleKeyedAdd, shouldCacheTarget: true)
        let seen = Counter()
        let id = mediator.addInterceptor(HandleInterceptor(seen: seen, answer: nil))
        #expect(try callNow(add, HandleSum(a: 1, b: 2)) == HandleTotal(total: 3, instance: 1))
        #expect(seen.value == 1)
        mediator.removeInterception(id)
        mediator.addInterceptor(HandleInterceptor(seen: seen, answer: HandleTotal(total: -1, instance: -1)))
        #expect(try callNow(add, HandleSum(a: 1, b: 2)) == HandleTotal(total: -1, instance: -1))
        #expect(seen.value == 2)
    }

    @Test("Runaway recursion through a typed handle ends in callDepthExceeded, not a crash")
    func recursion() throws {
        let box = HandleBox()
        let (mediator, _) = try makeMediator(box: box, maximumCallDepth: 8)
        let recurse = try mediator.handle(.handleKeyedRecurse, shouldCacheTarget: true)
        box.handle.withLock { $0 = recurse }
        #expect(try callNow(recurse, HandleSum(a: 7, b: 0)) == HandleTotal(total: 0, instance: 1))
        let error = #expect(throws: MediatorError.self) { try callNow(recurse, HandleSum(a: 8, b: 0)) }
        #expect(error?.code == .callDepthExceeded)
    }

    @Test("A typed handle keeps answering from what it resolved after its target is replaced, as a handle does")
    func resolvedOnce() throws {
        let (mediator, _) = try makeMediator()
        let add = try mediator.handle(.handleKeyedAdd, shouldCacheTarget: true)
        try mediator.register(Target_HandleKeyed.self, replacingExisting: true) { _ in Target_HandleKeyed(number: 99) }
        #expect(try callNow(add, HandleSum(a: 1, b: 1)) == HandleTotal(total: 2, instance: 1))
        #expect(try mediator.callNow(.handleKeyedAdd, HandleSum(a: 1, b: 1), shouldCacheTarget: true) == HandleTotal(total: 2, instance: 99))
    }
}
