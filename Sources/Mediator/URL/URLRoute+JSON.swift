// MARK: - Route tables in JSON

extension URLRoute {
    /// The most routes a JSON route table may hold.
    static let maximumTableEntries = 100_000

    /// The routes of a JSON route table (see ``Mediator/addRoutes(json:replacing:)``), or an
    /// `invalidRoute` error naming the entry at fault and what is wrong with it.
    static func table(json: String) throws(MediatorError) -> [URLRoute] {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: json)
        } catch {
            throw invalidTable("the route table is not valid JSON: \(error)")
        }
        guard case .array(let entries) = document else {
            throw invalidTable("the route table must be a JSON array of {\"pattern\", \"target\", \"action\"} objects")
        }
        guard entries.count <= maximumTableEntries else {
            throw invalidTable("the route table has \(entries.count) entries, over the limit of \(maximumTableEntries)")
        }
        var routes: [URLRoute] = []
        routes.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            routes.append(try route(entry, number: index + 1))
        }
        return routes
    }

    /// The members an entry may have.
    private static let members = ["action", "host", "pattern", "priority", "scheme", "target"]

    /// Entry `number` (counted from 1) as a route.
    private static func route(_ entry: JSONValue, number: Int) throws(MediatorError) -> URLRoute {
        guard case .object(let object) = entry else { throw invalidTable("route \(number): an entry must be an object") }
        for key in object.keys.sorted() where !members.contains(key) {
            throw invalidTable("route \(number): unknown member \"\(oneLine(key, limit: 60))\" (an entry has \(members.joined(separator: ", ")))")
        }
        func string(_ key: String) throws(MediatorError) -> String? {
            switch object[key] {
            case nil, .null?: return nil
            case .string(let value)?: return value
            default: throw invalidTable("route \(number): \"\(key)\" must be a string")
            }
        }
        guard let pattern = try string("pattern") else { throw invalidTable("route \(number): \"pattern\" is missing") }
        guard let target = try string("target") else { throw invalidTable("route \(number): \"target\" is missing") }
        guard let action = try string("action") else { throw invalidTable("route \(number): \"action\" is missing") }
        let scheme = try string("scheme")
        let host = try string("host")
        var priority = 0
        switch object["priority"] {
        case nil: break
        case .int(let value)?: priority = value
        default: throw invalidTable("route \(number): \"priority\" must be an integer")
        }
        return URLRoute(pattern, target: target, action: action, scheme: scheme, host: host, priority: priority)
    }

    private static func invalidTable(_ reason: String) -> MediatorError {
        MediatorError(.invalidRoute, reason: reason)
    }
}
