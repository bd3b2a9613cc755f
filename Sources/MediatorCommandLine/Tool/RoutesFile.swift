import Mediator

/// `--routes FILE`: deep-link routes added to the mediator for one run, read from a JSON route
/// table (what `Mediator.addRoutes(json:)` reads).
///
/// The file is read as every file an option names is (``OptionFile``): a symbolic link is
/// followed, but what it names must be a regular file of at most 8 MiB of UTF-8 text. The table
/// is added all or none, before anything runs, next to the routes the program registered itself
/// (a route matching exactly the URLs of one already there is refused, never replaced). Every
/// problem is one line, `--routes "PATH": REASON`, exit 65, code `duplicateRoute` for such a
/// route and `invalidRoute` for anything else; the library's reason names the entry at fault
/// (`route 3: "action" is missing`, `route 2 of 4: route "/a/(": ...`).
enum RoutesFile {
    /// Adds the routes in the file at `path` to `mediator`, and returns their keys, for
    /// `Mediator.removeRoutes(_:)` at the end of the run (which then removes those routes and no
    /// other, however the routes changed meanwhile).
    static func add(_ path: String, to mediator: Mediator) throws(CommandError) -> [RouteKey] {
        let text = try OptionFile.read(path, option: "--routes", code: .invalidRoute)
        do {
            return try mediator.addedRoutes(json: text)
        } catch {
            // An invalid name, or an action named native... (which no URL may reach), is a route
            // that cannot be used like any other: one code for a bad table, whatever the entry's fault.
            let code: MediatorError.Code = error.code == .duplicateRoute ? .duplicateRoute : .invalidRoute
            throw .call(MediatorError(code, reason: "--routes \(quoted(path)): \(error.description)"))
        }
    }
}

/// What `routes` prints: the mediator's routes in the order URLs are matched against them.
struct RouteListing {
    let routes: [URLRoute]

    /// `{"routes":[{"action":...,"host":null,"pattern":...,"priority":0,"scheme":null,"target":...},
    /// ...]}`: every field, the scheme `null` when the route is for every scheme, the host `null`
    /// when the route has none.
    var json: JSONValue {
        .object([
            "routes": .array(
                routes.map { route in
                    .object([
                        "pattern": .string(route.pattern),
                        "target": .string(route.target),
                        "action": .string(route.action),
                        "scheme": route.scheme.map(JSONValue.string) ?? .null,
                        "host": route.host.map(JSONValue.string) ?? .null,
                        "priority": .int(route.priority),
                    ])
                })
        ])
    }

    /// One route per line, as `URLRoute.description` writes it: `[scheme] pattern ->
    /// Target/action (priority n)` (`[scheme://host]` or `[//host]` for a route with a host), the
    /// scheme, host and priority only when set, text from the
    /// table escaped (and a pattern over 200 characters cut); `(no routes registered)` for none.
    var text: String {
        routes.isEmpty ? "(no routes registered)" : routes.map(\.description).joined(separator: "\n")
    }
}
