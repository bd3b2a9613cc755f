/// Why a mediator call failed: which target and action were asked for, what went wrong, and
/// (where the mediator knows) what would have worked.
///
/// Every throwing entry point (`call`, typed params access, registration) throws this one type, so
/// a caller needs a single `catch`:
///
/// ```swift
/// do {
///     let note = try mediator.callNow(target: "Notes", action: "gte", params: ["id": 7])
/// } catch {
///     print(error)   // target "Notes" has no action "gte"; did you mean "get"? ...
///     if error.code == .actionNotFound { print(error.suggestion ?? "no suggestion") }
/// }
/// ```
///
/// The set of codes may grow; switch over ``code`` with a `default` branch.
public struct MediatorError: Error, CustomStringConvertible, Sendable {
    /// The kind of failure. A struct rather than an enum so that new kinds can be added without
    /// breaking exhaustive switches in client code.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable text (`"targetNotFound"`), as the command line's `--json` output shows it.
        public let rawValue: String
        /// A code from its text: one of the constants below, or a code of your own.
        ///
        /// ```swift
        /// extension MediatorError.Code {
        ///     static let unavailable = Self(rawValue: "unavailable")
        /// }
        /// ```
        ///
        /// - Parameter rawValue: the code's text.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's text, ``rawValue``.
        public var description: String { rawValue }

        /// No target is registered under the name asked for, and no fallback answered.
        public static let targetNotFound = Code(rawValue: "targetNotFound")
        /// The target exists but has no such action, and neither its `notFound` nor a fallback answered.
        public static let actionNotFound = Code(rawValue: "actionNotFound")
        /// The action (or the target's factory, or a fallback) threw; see ``MediatorError/underlying``.
        public static let actionFailed = Code(rawValue: "actionFailed")
        /// A parameter is missing or cannot be read as the type the action asked for.
        public static let invalidParameter = Code(rawValue: "invalidParameter")
        /// The action's result cannot be converted to the type the caller asked for.
        public static let resultTypeMismatch = Code(rawValue: "resultTypeMismatch")
        /// A target name is already registered (registration was not asked to replace it).
        public static let duplicateTarget = Code(rawValue: "duplicateTarget")
        /// An action name appears twice in one target.
        public static let duplicateAction = Code(rawValue: "duplicateAction")
        /// An action declares a parameter name twice, or a declared object (in its params or its
        /// result) a field name twice. Refused at registration: a call's params hold one value per
        /// name, and the action's JSON Schema would repeat the property.
        public static let duplicateParameter = Code(rawValue: "duplicateParameter")
        /// A target or action name is empty or contains characters that cannot be addressed.
        public static let invalidName = Code(rawValue: "invalidName")
        /// Actions were added to a target whose instances are of another type.
        public static let targetTypeMismatch = Code(rawValue: "targetTypeMismatch")
        /// Creating a cached target needs, through its factory, the instance being created: on the
        /// same thread, or across threads (A's factory waits for B's while B's waits for A's).
        /// The error names the cycle.
        public static let cyclicTargetCreation = Code(rawValue: "cyclicTargetCreation")
        /// A URL is malformed, too long, has too many query items, or names no valid target/action.
        public static let invalidURL = Code(rawValue: "invalidURL")
        /// A remote (URL) call was refused: a `native...` or local-only action, or a scheme or
        /// target outside the mediator's ``URLPolicy``. Nothing ran.
        public static let forbidden = Code(rawValue: "forbidden")
        /// Calls were nested ``Mediator/maximumCallDepth`` deep (an action calling
        /// itself through the mediator without end, most likely); the call did not run.
        public static let callDepthExceeded = Code(rawValue: "callDepthExceeded")
        /// A synchronous entry point (`callNow`, a handle's `callNow`, `perform`, `open` without a
        /// completion) reached something it cannot run without waiting: an async action, factory, `notFound` or fallback, or
        /// main-actor code while the caller is off the main actor. Nothing of it ran; call with
        /// `await`, or with the completion form. Synchronous calls never block for it.
        public static let asyncAction = Code(rawValue: "asyncAction")
        /// The calling task was cancelled and the action (or a factory, or a fallback) stopped
        /// with `CancellationError` (in ``MediatorError/underlying``), or the call was cancelled
        /// while it waited for another call's creation of a cached target.
        public static let cancelled = Code(rawValue: "cancelled")
        /// An ``Interceptor`` rejected the call (threw); the reason names it, and its error is in
        /// ``MediatorError/underlying``.
        public static let rejected = Code(rawValue: "rejected")
        /// Redirects led back to a call already on the way (`A/x -> B/x -> A/x`); the reason names
        /// the chain. Also thrown when a redirect table with a cycle is set or loaded.
        public static let redirectCycle = Code(rawValue: "redirectCycle")
        /// A call was redirected more than ``RedirectTable/maximumHops`` times; the reason names the
        /// chain.
        public static let tooManyRedirects = Code(rawValue: "tooManyRedirects")
        /// A redirect table (set in code or read from JSON) is malformed; the reason names the
        /// entry.
        public static let invalidRedirect = Code(rawValue: "invalidRedirect")
        /// A URL route pattern is malformed (``Mediator/route(_:to:action:scheme:host:priority:replacing:)``
        /// or a route table); the reason names the pattern and what is wrong with it.
        public static let invalidRoute = Code(rawValue: "invalidRoute")
        /// A route matches exactly the URLs of a route already registered for the same scheme and host;
        /// the reason names both patterns. Register with `replacing: true` to replace it.
        public static let duplicateRoute = Code(rawValue: "duplicateRoute")
        /// A URL matched no route, is not of the form `scheme://Target/action`, and no
        /// ``Mediator/unmatchedURLHandler`` answered it; the reason quotes the URL's path.
        public static let routeNotFound = Code(rawValue: "routeNotFound")
        /// Reported by ``Mediator/verify()`` only: a requirement sends typed params or reads a
        /// typed result, and the action its calls reach declares none to compare them with (an
        /// action not yet given a contract, while a team adopts them).
        public static let undeclaredContract = Code(rawValue: "undeclaredContract")
    }

    /// The kind of failure.
    public let code: Code
    /// The target asked for: its short name when it was found (and for `callDepthExceeded`, which
    /// refuses a call before it is looked up), otherwise the text the caller gave.
    public internal(set) var target: String?
    /// The action asked for: its short name when it was found (and for `callDepthExceeded`),
    /// otherwise the text the caller gave.
    public internal(set) var action: String?
    /// The parameter at fault, for ``Code/invalidParameter`` and ``Code/duplicateParameter``.
    public var parameter: String? { details?.fields.parameter }
    /// Names that would have been accepted: the registered targets for ``Code/targetNotFound``,
    /// the target's actions for ``Code/actionNotFound``. Sorted; at most the first 20, so an error
    /// stays short however large the registry (``omittedNameCount`` says how many more exist).
    public var availableNames: [String] { details?.fields.availableNames ?? [] }
    /// How many accepted names exist beyond ``availableNames``.
    public var omittedNameCount: Int { details?.fields.omittedNameCount ?? 0 }
    /// The closest available name, when the one asked for looks like a typo of it.
    public var suggestion: String? { details?.fields.suggestion }
    /// The error thrown by the action, factory or fallback, for ``Code/actionFailed``.
    public var underlying: (any Error)? { details?.fields.underlying }
    /// What went wrong, in words, without the target and action prefix.
    public internal(set) var reason: String
    /// The mediator refused a URL call before anything ran (`open`'s completion is not called).
    var isURLRefusal: Bool {
        get { details?.fields.isURLRefusal ?? false }
        set { details = Details(details) { $0.isURLRefusal = newValue } }
    }
    /// The `Target/action` pairs the call was redirected from before it failed at ``target`` and
    /// ``action``, oldest first (the redirect table, interceptors' redirects and a degradation);
    /// empty when it failed where it was asked.
    public internal(set) var redirectedFrom: [String] {
        get { details?.fields.redirectedFrom ?? [] }
        set { details = Details(details) { $0.redirectedFrom = newValue } }
    }
    /// The fields most errors leave empty, out of line: an error, and every outcome of a call that
    /// may hold one, is copied as four fields and one reference instead of eleven fields.
    private var details: Details?

    /// What ``details`` holds.
    private final class Details: Sendable {
        let fields: Fields

        init(_ fields: Fields) { self.fields = fields }

        /// `details` (or none) with a field changed.
        convenience init(_ details: Details?, change: (inout Fields) -> Void) {
            var fields = details?.fields ?? Fields()
            change(&fields)
            self.init(fields)
        }
    }

    /// The out-of-line fields, each empty by default.
    private struct Fields: Sendable {
        var parameter: String?
        var availableNames: [String] = []
        var omittedNameCount = 0
        var suggestion: String?
        var underlying: (any Error)?
        var isURLRefusal = false
        var redirectedFrom: [String] = []
    }

    /// An error with a code, the names it concerns and a reason: for app code that fails a call
    /// itself, in a fallback, a `notFound` handler or a hand-written typed wrapper, the way the
    /// mediator does.
    ///
    /// ```swift
    /// mediator.setFallback { target, _, _ in
    ///     throw MediatorError(.forbidden, reason: "this build has no \(target)")
    /// }
    /// // try mediator.callNow(target: "Payments", action: "pay") throws:
    /// // Payments/pay: this build has no Payments   (code forbidden)
    /// ```
    ///
    /// Thrown from an action, a factory, a `notFound` handler or a fallback, an error that names
    /// no `target` keeps its code and gets the call's target and action names; one that names a
    /// target reports another call's failure, so it reaches the caller wrapped as
    /// ``Code/actionFailed`` (in ``underlying``).
    ///
    /// - Parameters:
    ///   - code: the kind of failure; one of the ``Code`` constants, or a code of your own.
    ///   - target: the target asked for, if any.
    ///   - action: the action asked for, if any.
    ///   - parameter: the parameter at fault, for ``Code/invalidParameter`` or ``Code/duplicateParameter``.
    ///   - availableNames: names that would have been accepted (the first 20 are enough).
    ///   - omittedNameCount: how many accepted names exist beyond `availableNames`.
    ///   - suggestion: the closest accepted name, when the one asked for looks like a typo of it.
    ///   - underlying: the error that caused this one, for ``Code/actionFailed``.
    ///   - reason: what went wrong, in words, without the target and action prefix.
    public init(
        _ code: Code,
        target: String? = nil,
        action: String? = nil,
        parameter: String? = nil,
        availableNames: [String] = [],
        omittedNameCount: Int = 0,
        suggestion: String? = nil,
        underlying: (any Error)? = nil,
        reason: String
    ) {
        self.code = code
        self.target = target
        self.action = action
        self.reason = reason
        if parameter != nil || !availableNames.isEmpty || omittedNameCount != 0 || suggestion != nil || underlying != nil {
            details = Details(
                Fields(parameter: parameter, availableNames: availableNames, omittedNameCount: omittedNameCount, suggestion: suggestion, underlying: underlying)
            )
        }
    }

    /// The provider's own code for an ``Code/actionFailed`` error (or an interceptor's
    /// ``Code/rejected`` one) whose underlying error adopts ``CodedError`` (looked up through nested
    /// mediator calls too); `nil` otherwise.
    ///
    /// This is how a caller in another module recognises a provider's failure without importing
    /// the provider's error type.
    public var actionErrorCode: String? {
        guard code == .actionFailed || code == .rejected, let underlying else { return nil }
        if let coded = underlying as? any CodedError { return coded.code }
        return (underlying as? MediatorError)?.actionErrorCode
    }

    /// One line a person can act on, e.g.
    /// `Notes/get: invalid parameter "id": expected Int, got String "4x"`.
    public var description: String {
        // Names come from callers (URLs, command lines) and may be of any length: cut them.
        let target = target.map(Self.shortened)
        let action = action.map(Self.shortened)
        var text = ""
        switch (target, action) {
        case (let target?, let action?): text = "\(target)/\(action): "
        case (let target?, nil): text = "\(target): "
        default: break
        }
        text += reason
        if let suggestion { text += "; did you mean \"\(suggestion)\"?" }
        if !availableNames.isEmpty {
            let label = code == .targetNotFound ? "registered targets" : "available actions"
            let more = omittedNameCount > 0 ? ", and \(omittedNameCount) more" : ""
            text += " (\(label): \(availableNames.joined(separator: ", "))\(more))"
        }
        if !redirectedFrom.isEmpty {
            text += " (redirected from \(redirectedFrom.map(Self.shortened).joined(separator: " -> ")))"
        }
        return text
    }

    /// A name as messages show it: cut to 100 Unicode scalars, control and format characters
    /// escaped. Names in errors may come from a URL or a command line.
    static func shortened(_ name: String) -> String {
        oneLine(name, limit: 100)
    }
}
