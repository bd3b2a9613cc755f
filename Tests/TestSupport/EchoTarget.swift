import Mediator

extension Mediator {
    /// Registers the `Echo` target, whose one action `echo` answers with the params it was called
    /// with: the smallest target a test can call, by name or by URL, to see what arrived.
    ///
    /// ```swift
    /// let mediator = Mediator()
    /// try mediator.registerEcho()
    /// let echoed = try mediator.callNow(url: "app://Echo/echo?a=1") as? Params
    /// ```
    ///
    /// - Throws: as `register(target:actions:)`, when `Echo` is already registered.
    public func registerEcho() throws(MediatorError) {
        try register(target: "Echo", actions: [Action("echo") { _, params in params }])
    }
}
