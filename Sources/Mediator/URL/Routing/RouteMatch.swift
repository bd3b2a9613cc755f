/// The route a path matched, and what its placeholders captured.
struct RouteMatch<Payload: Sendable>: Sendable {
    /// The matched route's payload.
    let payload: Payload
    /// The matched route's pattern as registered (`/user(/:id)`), not the variant that matched.
    let pattern: String
    /// The matched route's priority.
    let priority: Int
    /// Each placeholder's segment, by parameter name. Always the segment's text, even for
    /// `<int>` or `<uuid>`: the type only decides whether the route matches; converting the value
    /// is the action's own coercion's job, as for any other parameter.
    let parameters: [String: String]
    /// The segments the trailing `*` matched (possibly none), or `nil` when the route has none.
    let rest: [String]?

    /// The captures as params: each placeholder's `String` by name, and the wildcard's segments as
    /// a `[String]` under the key `"*"` (a name no placeholder can have).
    var params: [String: any Sendable] {
        var params: [String: any Sendable] = [:]
        for (name, value) in parameters { params[name] = value }
        if let rest { params["*"] = rest }
        return params
    }
}
