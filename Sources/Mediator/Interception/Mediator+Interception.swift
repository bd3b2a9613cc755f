// MARK: - Interceptors, observers, redirects

/// Identifies an interceptor or observer added to a mediator, to remove it.
public struct InterceptionID: Sendable, Hashable {
    let value: UInt64
}

extension Mediator {
    /// Adds an interceptor around the calls in `scope`.
    ///
    /// ```swift
    /// mediator.addInterceptor(TokenCheck(), scope: .target("Notes"), priority: 10)
    /// ```
    ///
    /// Interceptors run by `priority` (higher first), then in the order they were added; a call
    /// meets the global ones and those scoped to its target or its action, in that one order.
    /// Each call's chain is built here, when interceptors change, not when the call is made.
    ///
    /// - Parameters:
    ///   - interceptor: the interceptor.
    ///   - scope: the calls it applies to (every call by default).
    ///   - priority: its place in the chain; higher runs first (outermost). 0 by default.
    /// - Returns: an ID for ``removeInterception(_:)``.
    @discardableResult
    public func addInterceptor(_ interceptor: any Interceptor, scope: InterceptorScope = .all, priority: Int = 0) -> InterceptionID {
        changeInterception { registry, parts in
            registry.lastInterceptionID += 1
            let id = registry.lastInterceptionID
            parts.entries.append(Interception.Entry(interceptor: interceptor, scope: scope, priority: priority, id: id))
            return InterceptionID(value: id)
        }
    }

    /// Adds an observer, told of every call when it has finished (see ``CallObserver``).
    ///
    /// ```swift
    /// struct Printer: CallObserver {
    ///     func callDidFinish(_ record: CallRecord) { print(record) }
    /// }
    /// mediator.addObserver(Printer())
    /// ```
    ///
    /// - Parameter observer: the observer.
    /// - Returns: an ID for ``removeInterception(_:)``.
    @discardableResult
    public func addObserver(_ observer: any CallObserver) -> InterceptionID {
        changeInterception { registry, parts in
            registry.lastInterceptionID += 1
            let id = registry.lastInterceptionID
            parts.observers.append(Interception.Observer(id: id, observer: observer))
            return InterceptionID(value: id)
        }
    }

    /// Removes an interceptor or observer. Calls already past it are not affected.
    ///
    /// - Parameter id: what ``addInterceptor(_:scope:priority:)`` or ``addObserver(_:)`` returned.
    /// - Returns: whether it was there.
    @discardableResult
    public func removeInterception(_ id: InterceptionID) -> Bool {
        var removed: [Any] = []
        let found = changeInterception { _, parts in
            if let index = parts.entries.firstIndex(where: { $0.id == id.value }) {
                removed.append(parts.entries.remove(at: index))
                return true
            }
            if let index = parts.observers.firstIndex(where: { $0.id == id.value }) {
                removed.append(parts.observers.remove(at: index))
                return true
            }
            return false
        }
        // Released here, after the lock: a `deinit` is user code.
        removed.removeAll()
        return found
    }

    /// The redirect table calls follow (see ``RedirectTable``); empty by default.
    public var redirects: RedirectTable {
        state.withReadLock { $0.interception?.redirects ?? RedirectTable() }
    }

    /// Replaces the redirect table, at run time: calls that start after this follow the new one.
    ///
    /// ```swift
    /// try mediator.setRedirects(RedirectTable(json: remoteConfiguration))
    /// ```
    ///
    /// - Parameter table: the new table (``RedirectTable/init()`` to clear it).
    public func setRedirects(_ table: RedirectTable) {
        changeInterception { _, parts in parts.redirects = table }
    }

    /// Where a call to `target`/`action` would be sent by the redirect table (not by interceptors,
    /// which decide when the call is made): the destination's canonical names and the pairs on
    /// the way. When no action is registered where the redirects end, the target's degradation
    /// is followed too (its fallback then goes where its own redirects send it), as a call that
    /// no `notFound` or global fallback answers would be. Runs nothing.
    ///
    /// ```swift
    /// let route = try mediator.destination(target: "Legacy", action: "open")
    /// // route.target == "Modern", route.redirectedFrom == ["Legacy/open"]
    /// ```
    ///
    /// - Parameters:
    ///   - target: the target's short or full name.
    ///   - action: the action's short or full name.
    /// - Returns: where the call would go, and the pairs on the way (empty when it stays).
    /// - Throws: ``MediatorError/Code/redirectCycle`` or ``MediatorError/Code/tooManyRedirects``.
    public func destination(target: String, action: String) throws(MediatorError) -> (target: String, action: String, redirectedFrom: [String]) {
        let plan = plan(target: target, action: action, remote: false)
        switch plan.end {
        case .action(let target, let found): return (target, found.name, plan.route)
        case .missing(let target, let action): return (target, action, plan.route)
        case .refused(let error): throw error
        }
    }

    /// What intercepts calls, if anything: a resolved handle's calls then go through the
    /// intercepted pipeline, starting from the handle's own resolution.
    var currentInterception: Interception? {
        // Nothing intercepts calls, most of the time: then no lock is taken. A change made
        // meanwhile by another thread orders this call before it, as the lock would have.
        guard intercepting.load() != 0 else { return nil }
        // Read in place: a read of the registry as a value copied it, retaining all it holds.
        return state.withReadLockInPlace { $0.pointee.interception }
    }

    /// Applies a change to what `interception` is built from, rebuilds it, and releases the old
    /// one after the lock.
    @discardableResult
    func changeInterception<Value>(_ change: (inout Registry, inout Interception.Parts) -> Value) -> Value {
        var old: Interception?
        let result: Value = state.withLock { registry in
            var parts = registry.interception?.parts ?? Interception.Parts()
            let result = change(&registry, &parts)
            old = registry.interception
            registry.interception = Interception.built(from: parts)
            intercepting.store(registry.interception == nil ? 0 : 1)
            return result
        }
        _ = old
        old = nil
        return result
    }
}
