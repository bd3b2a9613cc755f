/// The route a path matched, and what its placeholders captured.
struct RouteMatch<Payload: Sendable>: Sendable {
    /// The matched route's payload.
    let payload: Payload
    /// The matched route's pattern as registered (`/user(/:id)`), not the variant that matched.
    let pattern: String
    /// The matched route's priority.
    let priority: Int
    /// Each placeholder's name and segment, in the pattern's order (names are distinct within a
    /// variant). Always the segment's text, even for `<int>` or `<uuid>`: the type only decides
    /// whether the route matches; converting the value is the action's own coercion's job, as for
    /// any other parameter. A list rather than a dictionary: the caller merges it into the call's
    /// params anyway, and building a dictionary of two entries cost a sixth of a match.
    let captures: [(name: String, value: String)]
    /// The segments the trailing `*` matched (possibly none), or `nil` when the route has none.
    let rest: [String]?

    /// The captures by name.
    var parameters: [String: String] {
        Dictionary(captures, uniquingKeysWith: { _, last in last })
    }

    /// The captures as params: each placeholder's `String` by name, and the wildcard's segments as
    /// a `[String]` under the key `"*"` (a name no placeholder can have).
    var params: [String: any Sendable] {
        var params: [String: any Sendable] = [:]
        for (name, value) in captures { params[name] = value }
        if let rest { params["*"] = rest }
        return params
    }
}
