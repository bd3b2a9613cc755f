/// Where a call came from: code in this process, a command line, a URL, or an AI agent.
///
/// Interceptors and observers read it to tell a remote call from a local one:
///
/// ```swift
/// struct MarkLinks: Interceptor {
///     func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
///         if request.origin.isRemote { request.params["source"] = "link" }
///         return .proceed
///     }
/// }
/// ```
public enum CallOrigin: Sendable, Equatable, CustomStringConvertible {
    /// A call made by code in this process: `perform`, `call`, a handle, a typed key, a completion form.
    case inProcess
    /// A call read from a command line (`MediatorCommandLine`: `mediate perform`, a batch line).
    case commandLine
    /// A call made by URL (`call(url:params:)`, `open(_:params:isolation:completion:)`); the URL as the caller gave it.
    case url(String)
    /// A call made by an AI agent through the Model Context Protocol bridge (`MediatorCommandLine`'s
    /// `MCPServer`, `mediate mcp`); the client's name as it introduced itself, which nothing
    /// checks. Remote: every rule of a URL call applies.
    case agent(String)

    /// Whether URL rules apply to the call (local-only actions and allow-lists): for a URL and
    /// for an agent.
    public var isRemote: Bool {
        switch self {
        case .url, .agent: true
        case .inProcess, .commandLine: false
        }
    }

    /// `in-process`, `command line`, `url` or `agent`, as log lines show it.
    public var description: String {
        switch self {
        case .inProcess: "in-process"
        case .commandLine: "command line"
        case .url: "url"
        case .agent: "agent"
        }
    }
}

/// A call as interceptors see it: the names as asked and as resolved, the params, where it came
/// from and how deeply it is nested.
///
/// An interceptor may change ``params`` before the call goes on:
///
/// ```swift
/// func intercept(_ request: inout CallRequest) throws -> InterceptorDecision {
///     // Credentials go with in-process calls only: a link acts for whoever sent it.
///     if request.origin == .inProcess { request.params["token"] = session.token }
///     return .proceed
/// }
/// ```
public struct CallRequest: Sendable {
    /// The parts of a call no interceptor may change: an interceptor that assigns a whole request
    /// (one it kept from an earlier call, say) changes its params only, and the call goes on with
    /// its own names as asked, origin and depth, as later interceptors and the record show them.
    struct Fixed: Sendable {
        let askedTarget: String
        let askedAction: String
        let origin: CallOrigin
        let depth: Int

        /// Whether this is, bit for bit, what the pipeline built for the call (`false` when in
        /// doubt: a string of the same bytes in another storage puts the same values back).
        @inline(__always)
        func isUnchanged(askedTarget: String, askedAction: String, origin: CallOrigin, depth: Int) -> Bool {
            guard self.depth == depth, sameBits(self.askedTarget, askedTarget), sameBits(self.askedAction, askedAction) else { return false }
            switch (self.origin, origin) {
            case (.inProcess, .inProcess), (.commandLine, .commandLine): return true
            case (.url(let url), .url(let otherURL)): return sameBits(url, otherURL)
            case (.agent(let client), .agent(let otherClient)): return sameBits(client, otherClient)
            default: return false
            }
        }
    }

    /// What this request says of the call that no interceptor may change.
    var fixed: Fixed

    /// The target's name as the caller wrote it (`Target_Notes` or `Notes`).
    public var askedTarget: String { fixed.askedTarget }
    /// The action's name as the caller wrote it (`Action_create`, `Action_create:` or `create`).
    public var askedAction: String { fixed.askedAction }
    /// The target the call goes to: its canonical (short) name, after redirects. A name that is
    /// not valid is kept as it was written (the call then fails with `targetNotFound`).
    public internal(set) var target: String
    /// The action the call goes to: its canonical (short) name, after redirects.
    public internal(set) var action: String
    /// The call's params. An interceptor may change them; the action's declared params are checked
    /// after the interceptors, so a change is checked too. A typed key's input is shown here as
    /// plain values.
    public var params: Params
    /// Where the call came from.
    public var origin: CallOrigin { fixed.origin }
    /// How deeply the call is nested: 1 for a call no other mediator call made, 2 for a call an
    /// action (or an interceptor) made while running, and so on (see ``Mediator/maximumCallDepth``).
    /// It is the depth the call entered with, at every stop; a call that a redirect moves or that
    /// degrades runs its later stops one level deeper unless it is at the limit, so the calls its
    /// action makes there have a depth one more (while the call runs synchronously; once it
    /// awaits, the task's depth goes on).
    public var depth: Int { fixed.depth }
    /// The `Target/action` pairs the call was redirected from, oldest first; empty when it was not
    /// redirected.
    public internal(set) var redirectedFrom: [String]

    init(askedTarget: String, askedAction: String, target: String, action: String, params: Params, origin: CallOrigin, depth: Int) {
        self.fixed = Fixed(askedTarget: askedTarget, askedAction: askedAction, origin: origin, depth: depth)
        self.target = target
        self.action = action
        self.params = params
        self.redirectedFrom = []
    }

    /// `Target/action`, as messages and logs show the call.
    public var name: String { "\(target)/\(action)" }

    /// Puts back what an interceptor replaced along with a whole request, at the call's first stop:
    /// its names as asked, origin and depth, and no route. A function of its own: inlined, it made
    /// the first stop's code larger and the usual call slower.
    @inline(never)
    mutating func keepFixed(askedTarget: String, askedAction: String, origin: CallOrigin, depth: Int) {
        guard !fixed.isUnchanged(askedTarget: askedTarget, askedAction: askedAction, origin: origin, depth: depth) || !redirectedFrom.isEmpty else {
            return
        }
        fixed = Fixed(askedTarget: askedTarget, askedAction: askedAction, origin: origin, depth: depth)
        redirectedFrom = []
    }

    /// Moves `request` out, leaving an empty request in its place: the end of a call hands its
    /// request to the record this way instead of copying each of its names and params (Swift
    /// cannot move one field out of a value it only borrows).
    static func taken(from request: inout CallRequest) -> CallRequest {
        var taken = CallRequest(askedTarget: "", askedAction: "", target: "", action: "", params: Params(distinctPairs: []), origin: .inProcess, depth: 0)
        swap(&taken, &request)
        return taken
    }

    /// This call as it was asked, as a record shows it: the names of its first stop and the params
    /// before any interceptor changed them, with the call's asked names, origin and depth.
    func asAsked(target: String, action: String, params: Params) -> CallRequest {
        CallRequest(askedTarget: askedTarget, askedAction: askedAction, target: target, action: action, params: params, origin: origin, depth: depth)
    }
}

/// Whether two strings are the same value bit for bit (the same storage, or the same small string
/// held in place): then they hold the same bytes. Two storages of the same bytes are not the same
/// value here. A few instructions, where comparing the bytes walks them.
@inline(__always)
func sameBits(_ lhs: String, _ rhs: String) -> Bool {
    // Read as two words where a string is two words (64-bit platforms), without a copy of it.
    guard MemoryLayout<String>.size == MemoryLayout<(UInt64, UInt64)>.size else { return lhs.utf8.elementsEqual(rhs.utf8) }
    let left = unsafeBitCast(lhs, to: (UInt64, UInt64).self)
    let right = unsafeBitCast(rhs, to: (UInt64, UInt64).self)
    return left.0 == right.0 && left.1 == right.1
}
