/// What the mediator does around calls, as one immutable value the registry holds: the chains of
/// interceptors (built here once per change, never per call), the observers and the redirect
/// table. The registry holds `nil` when there is none of them, so plain dispatch pays one check.
final class Interception: Sendable {
    /// An interceptor as added, with what orders it.
    /// A class, so that a chain's entries are shared by reference: a call reads them without
    /// copying an interceptor, an observer and a scope each.
    final class Entry: Sendable {
        let interceptor: any Interceptor
        let scope: InterceptorScope
        let priority: Int
        let id: UInt64
        /// The interceptor as an observer, when it is one: told of the end of the calls it
        /// intercepted. Found when the interceptor is added, so a call does not cast.
        let observer: (any CallObserver)?

        init(interceptor: any Interceptor, scope: InterceptorScope, priority: Int, id: UInt64) {
            self.interceptor = interceptor
            self.scope = scope
            self.priority = priority
            self.id = id
            observer = interceptor as? any CallObserver
        }

        /// Tells the interceptor of a finished call it intercepted, when it observes.
        @inline(__always)
        func tell(_ record: CallRecord) { observer?.callDidFinish(record) }
    }

    /// An observer as added. A class, as ``Entry`` is: a call tells it of its end without copying
    /// the observer out of the list (a copy of an existential is a generic copy).
    final class Observer: Sendable {
        let id: UInt64
        let observer: any CallObserver

        init(id: UInt64, observer: any CallObserver) {
            self.id = id
            self.observer = observer
        }

        /// Tells the observer of a finished call.
        @inline(__always)
        func tell(_ record: CallRecord) { observer.callDidFinish(record) }
    }

    /// A target's chains: for each action some entry names, and for the target's other actions.
    struct TargetChains: Sendable {
        var byAction: [String: [Entry]]
        var others: [Entry]
    }

    let entries: [Entry]
    let observers: [Observer]
    /// Whether a call may need a record: there are observers, or an interceptor that observes.
    let records: Bool
    let redirects: RedirectTable
    /// The chain of every call when no entry is scoped, and of the targets no entry names.
    let global: [Entry]
    /// The chains of the targets some entry names (empty when every entry is global).
    let scoped: [String: TargetChains]

    /// Builds the chains: each is the entries in scope, by priority (higher first), then in the
    /// order they were added.
    init(entries: [Entry], observers: [Observer], redirects: RedirectTable) {
        let ordered = entries.sorted { $0.priority != $1.priority ? $0.priority > $1.priority : $0.id < $1.id }
        self.entries = ordered
        self.observers = observers
        records = !observers.isEmpty || ordered.contains { $0.observer != nil }
        self.redirects = redirects
        global = ordered.filter { $0.scope.kind == .all }
        var scoped: [String: TargetChains] = [:]
        var named: [String: Set<String>] = [:]
        for entry in ordered {
            switch entry.scope.kind {
            case .all: break
            case .targets(let targets): for target in targets { named[target, default: []].formUnion([]) }
            case .actions(let target, let actions): named[target, default: []].formUnion(actions)
            }
        }
        for (target, actions) in named {
            var chains = TargetChains(byAction: [:], others: ordered.filter { $0.scope.contains(target: target, action: "*") })
            for action in actions {
                chains.byAction[action] = ordered.filter { $0.scope.contains(target: target, action: action) }
            }
            scoped[target] = chains
        }
        self.scoped = scoped
    }

    /// The chain of a call to `target`/`action`. Scopes are matched byte for byte: `String`'s
    /// equality would give a look-alike (`"\u{212A}iosk"`, KELVIN SIGN) the chain of `Kiosk`.
    @inline(__always)
    func chain(target: String, action: String) -> [Entry] {
        if scoped.isEmpty { return global }
        guard let chains = scoped.value(forExactKey: target) else { return global }
        return chains.byAction.value(forExactKey: action) ?? chains.others
    }

    /// Whether calls need the intercepted path at all.
    var isEmpty: Bool { entries.isEmpty && observers.isEmpty && redirects.isEmpty }

    /// What a change starts from: the current interception's parts, or none.
    struct Parts {
        var entries: [Entry] = []
        var observers: [Observer] = []
        var redirects = RedirectTable()
    }

    var parts: Parts { Parts(entries: entries, observers: observers, redirects: redirects) }

    /// The interception built from `parts`, or `nil` when they hold nothing.
    static func built(from parts: Parts) -> Interception? {
        let built = Interception(entries: parts.entries, observers: parts.observers, redirects: parts.redirects)
        return built.isEmpty ? nil : built
    }
}
