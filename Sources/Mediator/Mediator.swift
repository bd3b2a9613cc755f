/// Calls actions of targets by name, so modules can use each other without importing each other.
///
/// A target (`Notes`, or `Target_Notes`) is registered with a factory and a table of actions
/// (`create`, or `Action_create`); callers name both and pass ``Params``:
///
/// ```swift
/// let mediator = Mediator()
/// try mediator.register(target: "Greeter", actions: [
///     Action("hello") { _, params in "Hello, \(try params.value("name", as: String.self))!" },
/// ])
/// mediator.perform(target: "Greeter", action: "hello", params: ["name": "Ada"])  // "Hello, Ada!"
/// try mediator.callNow(target: "Greeter", action: "helo")  // throws: did you mean "hello"?
/// ```
///
/// ## Thread safety
/// A mediator is `Sendable`: register, call and release from any thread at any time. Its state is
/// behind one lock that is never held while a factory, an action, `notFound` or a fallback runs,
/// so actions may call the mediator again (nested dispatch). Creating a cached target is atomic:
/// however many threads ask at once, its factory runs once.
///
/// Use ``shared`` for the program's mediator and your own instances where isolation matters (tests).
public final class Mediator: Sendable {
    /// A global fallback: gets the target and action strings as the caller gave them and the
    /// original params; returns an answer, or `nil` to let the call fail.
    public typealias Fallback = @Sendable (_ target: String, _ action: String, _ params: Params) throws -> (any Sendable)?
    /// An async global fallback (see ``setFallback(_:)-(AsyncFallback)``): as ``Fallback``, and may `await`.
    public typealias AsyncFallback = @Sendable (_ target: String, _ action: String, _ params: Params) async throws -> (any Sendable)?

    /// The program's mediator. The only global state this package keeps.
    public static let shared = Mediator()

    let state = ReadWriteLock(Registry())
    /// Held while the route tries are built after a change (outside ``state``'s lock, so that
    /// calls go on), so that one thread builds them and the others wait for its result.
    let routeBuild = ReadWriteLock(())

    /// 1 while the registry holds interceptors, observers or redirects, else 0: set with them under
    /// the lock, read without it by resolved handles, whose calls otherwise take no lock.
    let intercepting = AtomicWord()

    /// How deep mediator calls may nest (counting calls through any mediator, on one thread or
    /// across suspension within a task)
    /// before a call fails with ``MediatorError/Code/callDepthExceeded`` instead of running.
    ///
    /// This turns runaway recursion (an action that calls itself through the mediator without
    /// end) into an error the outermost caller receives, rather than a stack overflow that kills
    /// the process. The default, 32, is far deeper than any sane chain of modules and fits the
    /// smallest stacks apps run on (512 KiB, a background thread on iOS): in a debug build 32
    /// levels take at most about 350 KiB of stack, whatever the path (tested on every path in a
    /// 512 KiB thread). A call that a redirect moves or that degrades runs its later stop one
    /// level deeper, on top of the first's frames, unless it is already at the limit. Raise it
    /// only for threads with larger stacks.
    public let maximumCallDepth: Int

    /// The default ``maximumCallDepth``: 32.
    public static let defaultMaximumCallDepth = 32

    /// What happens to params that an action with declared parameters did not declare, unless
    /// the action says otherwise (``Action/undeclaredParameters(_:)``). The default,
    /// ``UndeclaredParameterPolicy/droppedFromURLs``, drops them from URL calls (a link's
    /// `utm_source` does not fail the call), refuses them from command-line calls and passes them
    /// on from in-process calls; ``UndeclaredParameterPolicy/refusedFromOutside`` refuses them from
    /// URLs too.
    public let undeclaredParameters: UndeclaredParameterPolicy

    /// A mediator with no targets and no fallback.
    ///
    /// ```swift
    /// let strict = Mediator(undeclaredParameters: .refused)
    /// ```
    ///
    /// - Parameters:
    ///   - maximumCallDepth: see ``maximumCallDepth``; at least 1.
    ///   - undeclaredParameters: see ``undeclaredParameters``.
    public init(maximumCallDepth: Int = Mediator.defaultMaximumCallDepth, undeclaredParameters: UndeclaredParameterPolicy = .droppedFromURLs) {
        self.maximumCallDepth = max(1, maximumCallDepth)
        self.undeclaredParameters = undeclaredParameters
    }
}
