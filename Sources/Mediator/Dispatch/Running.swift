// MARK: - Running user code now or awaiting it

/// The result of a step of the synchronous pipeline: done, or it must await (nothing of it ran).
enum Immediate<Value> {
    case done(Value)
    case mustAwait(AwaitReason)
}

/// How a piece of user code runs: on the calling thread, awaited, or on the main actor.
enum CodeKind {
    case sync
    case async
    case mainActor
}

/// User code of one of the three kinds: an action's body, a `notFound` handler, a factory. The
/// rule for whether the synchronous pipeline can run it, and what it would wait for otherwise, is
/// stated here once for all three.
protocol UserCode {
    var kind: CodeKind { get }
    /// What a synchronous caller would wait for: the async form's reason, the main-actor form's.
    static var awaitReasons: (async: AwaitReason, mainActor: AwaitReason) { get }
}

extension UserCode {
    /// Whether the synchronous pipeline can run it: synchronous code, or main-actor code on the
    /// main thread.
    @inline(__always)
    var canRunNow: Bool {
        switch kind {
        case .sync: true
        case .async: false
        case .mainActor: isOnMainActor()
        }
    }

    /// What a synchronous caller would wait for (when ``canRunNow`` is false).
    var awaitReason: AwaitReason { kind == .mainActor ? Self.awaitReasons.mainActor : Self.awaitReasons.async }
}

extension ActionRun: UserCode {
    @inline(__always)
    var kind: CodeKind {
        switch self {
        case .sync: .sync
        case .async: .async
        case .mainActor: .mainActor
        }
    }

    static var awaitReasons: (async: AwaitReason, mainActor: AwaitReason) { (.asyncAction, .mainActorAction) }

    /// Runs it synchronously; only when ``canRunNow``.
    func runNow(on instance: any TargetInstance, params: Params) throws -> (any Sendable)? {
        switch self {
        case .sync(let body):
            return try body(instance, params)
        case .mainActor(let body):
            // `canRunNow` found this is the main thread, which is where the main actor runs.
            return try MainActor.assumeIsolated { try body(instance, params) }
        case .async:
            preconditionFailure("an async action cannot run synchronously")
        }
    }

    /// Runs it in the calling task: a synchronous body at once, an async one awaited, a
    /// main-actor one after a hop to the main actor.
    func runAwaiting(on instance: any TargetInstance, params: Params) async throws -> (any Sendable)? {
        switch self {
        case .sync(let body): try body(instance, params)
        case .async(let body): try await body(instance, params)
        case .mainActor(let body): try await MainActor.run { try body(instance, params) }
        }
    }
}

extension NotFoundHandler: UserCode {
    var kind: CodeKind {
        switch self {
        case .sync: .sync
        case .async: .async
        case .mainActor: .mainActor
        }
    }

    static var awaitReasons: (async: AwaitReason, mainActor: AwaitReason) { (.asyncNotFound, .mainActorNotFound) }

    /// Runs it synchronously; only when ``canRunNow``.
    func runNow(on instance: any TargetInstance, action: String, params: Params) throws -> (any Sendable)? {
        switch self {
        case .sync(let handler):
            return try handler(instance, action, params)
        case .mainActor(let handler):
            return try MainActor.assumeIsolated { try handler(instance, action, params) }
        case .async:
            preconditionFailure("an async notFound cannot run synchronously")
        }
    }

    func runAwaiting(on instance: any TargetInstance, action: String, params: Params) async throws -> (any Sendable)? {
        switch self {
        case .sync(let handler): try handler(instance, action, params)
        case .async(let handler): try await handler(instance, action, params)
        case .mainActor(let handler): try await MainActor.run { try handler(instance, action, params) }
        }
    }
}

extension Factory: UserCode {
    var kind: CodeKind {
        switch self {
        case .sync: .sync
        case .async: .async
        case .mainActor: .mainActor
        }
    }

    static var awaitReasons: (async: AwaitReason, mainActor: AwaitReason) { (.asyncFactory, .mainActorFactory) }

    /// Makes an instance synchronously; only when ``canRunNow``.
    func makeNow(_ mediator: Mediator) throws -> any TargetInstance {
        switch self {
        case .sync(let make):
            return try make(mediator)
        case .mainActor(let make):
            return try MainActor.assumeIsolated { try make(mediator) }
        case .async:
            preconditionFailure("an async factory cannot run synchronously")
        }
    }

    func makeAwaiting(_ mediator: Mediator) async throws -> any TargetInstance {
        switch self {
        case .sync(let make): try make(mediator)
        case .async(let make): try await make(mediator)
        case .mainActor(let make): try await MainActor.run { try make(mediator) }
        }
    }
}
