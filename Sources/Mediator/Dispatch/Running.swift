// MARK: - Running user code now or awaiting it

/// The result of a step of the synchronous pipeline: done, or it must await (nothing of it ran).
enum Immediate<Value> {
    case done(Value)
    case mustAwait(AwaitReason)
}

extension ActionRun {
    /// Whether the synchronous pipeline can run it: a synchronous body, or a main-actor one on
    /// the main thread.
    @inline(__always)
    var canRunNow: Bool {
        switch self {
        case .sync: true
        case .async: false
        case .mainActor: isOnMainActor()
        }
    }

    var awaitReason: AwaitReason {
        if case .mainActor = self { return .mainActorAction }
        return .asyncAction
    }

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

extension NotFoundHandler {
    var canRunNow: Bool {
        switch self {
        case .sync: true
        case .async: false
        case .mainActor: isOnMainActor()
        }
    }

    var awaitReason: AwaitReason {
        if case .mainActor = self { return .mainActorNotFound }
        return .asyncNotFound
    }

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

extension Factory {
    var canRunNow: Bool {
        switch self {
        case .sync: true
        case .async: false
        case .mainActor: isOnMainActor()
        }
    }

    var awaitReason: AwaitReason {
        if case .mainActor = self { return .mainActorFactory }
        return .asyncFactory
    }

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
