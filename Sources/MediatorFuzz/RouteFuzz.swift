import Mediator

/// Deep-link routes under fuzzing: the fuzz entry `routes` (`scripts/fuzz --target routes`, kept
/// corpus `Tests/FuzzCorpus/routes`). A fixed set of routes covers every pattern feature; inputs
/// are URLs matched against it, or a pattern (or a JSON route table) registered beside it and then
/// a URL. Each check stops the process (`fatalError`), which libFuzzer records as a crash.
///
/// The first byte of an input is a selector:
/// - bits 0-1, the mode: 0, the rest is a URL; 1, the rest is a second selector byte and a URL;
///   2, the rest is a pattern, a NUL byte and a URL; 3, the rest is a JSON route table, a NUL byte
///   and a URL.
/// - bits 2-4, the URL policy's options: `decodesPlusAsSpace`, `matchesHostIgnoringCase`,
///   `allowsEmptyAuthority`.
/// - bit 5: for a URL, an unmatched-URL handler that answers every URL it is asked about; for a
///   pattern or a table, register it with `replacing: true`.
/// - bit 6 (pattern): the route is for the scheme `myapp` only, instead of every scheme.
/// - bit 7 (pattern): priority 100 (above every fixture route) instead of -1.
///
/// The second selector byte (mode 1), bits 0-4: more of the URL policy's options,
/// `decodesPlusAsSpaceInPaths`, `readsDottedHostsAsServers`, `isolatedSchemes` holding
/// `myapp` (the scheme of the fixture's scheme-specific routes), `matchesRoutesIgnoringCase` and
/// `readsFragmentsAsRoutes`.
enum RouteFuzz {
    /// What every reachable fixture action answers: which action ran and with which params, so
    /// that the harness checks them against the URL after the call.
    struct Reached: Sendable {
        /// The target whose action ran (short name).
        let target: String
        /// The action that ran.
        let action: String
        /// The params it got.
        let params: Params
    }

    /// What the unmatched-URL handler answers: the URL it was asked about.
    struct Unmatched: Sendable {
        /// `UnmatchedURL.url`.
        let url: String
        /// `UnmatchedURL.scheme`.
        let scheme: String
    }

    /// The fixed routes: literals, untyped, `int`, `uuid`, `alpha` and `float` placeholders (`float`
    /// beside `int` at the same segment, which both take an integer), nested optional
    /// groups, trailing `*` (bare and inside a group), priorities above and below the default, a
    /// route for one scheme over one for every scheme with the same pattern, a route to a
    /// local-only action, to an action with declared params, to an unregistered target and to a
    /// missing action, the empty path, a literal that is not ASCII, and routes for one server
    /// (one of them for `https` only, with the pattern of a route for every server).
    static let fixtureRoutes: [URLRoute] = [
        URLRoute("/user/me", target: "Users", action: "me"),
        URLRoute("/user/:id<int>", target: "Users", action: "profile"),
        URLRoute("/user/:id<int>/posts/:post<int>", target: "Users", action: "post"),
        URLRoute("/user/:name<alpha>", target: "Users", action: "byName"),
        URLRoute("/user/:amount<float>", target: "Users", action: "byAmount"),
        URLRoute("/user/:uid<uuid>(/:tab)", target: "Users", action: "byUUID"),
        URLRoute("/user/:slug(/*)", target: "Users", action: "bySlug"),
        URLRoute("/search(/:query(/:page<int>))", target: "Search", action: "find"),
        URLRoute("/files/*", target: "Files", action: "open"),
        URLRoute("/files/:name<alpha>", target: "Files", action: "byName"),
        URLRoute("/promo/:code", target: "Promo", action: "any", priority: 10),
        URLRoute("/promo/summer", target: "Promo", action: "summer"),
        URLRoute("/settings(/:section<alpha>)", target: "Settings", action: "app", scheme: "myapp"),
        URLRoute("/settings/*", target: "Settings", action: "deep", scheme: "myapp", priority: -1),
        URLRoute("/settings(/:section<alpha>)", target: "Settings", action: "web"),
        URLRoute("/admin/:command", target: "Admin", action: "secret"),
        URLRoute("/calc/:n", target: "Calc", action: "square"),
        URLRoute("/ghost/:id", target: "Ghost", action: "haunt"),
        URLRoute("/broken(/:x)", target: "Users", action: "missing"),
        URLRoute("/", target: "Home", action: "index"),
        URLRoute("/deep/:a/:b<alpha>/:c<uuid>/:d<int>/*", target: "Deep", action: "walk"),
        URLRoute("/caf\u{E9}/a b/:item", target: "Cafe", action: "item"),
        URLRoute("/shop/:id<int>", target: "Shop", action: "item", host: "shop.example.com"),
        URLRoute("/user/me", target: "Shop", action: "home", scheme: "https", host: "Shop.Example.com"),
        URLRoute("/user/:name", target: "Shop", action: "user", host: "example.com"),
    ]

    /// The fixture's actions by target: each answers a ``Reached``, except `Admin/secret`
    /// (local-only) and `Users/nativeOpen` (`native...`), which stop the process if a URL ever
    /// reaches them, and `Calc/square`, which declares an integer `n`.
    static let fixtureTargets: [(name: String, actions: [String])] = [
        ("Users", ["me", "profile", "post", "byName", "byAmount", "byUUID", "bySlug"]),
        ("Search", ["find"]), ("Files", ["open", "byName"]), ("Promo", ["any", "summer"]), ("Settings", ["app", "deep", "web"]),
        ("Home", ["index"]), ("Deep", ["walk"]), ("Cafe", ["item"]), ("Fuzzed", ["hit"]), ("Shop", ["item", "home", "user"]),
    ]

    /// The errors a URL call may end in.
    static let urlFailures: Set<MediatorError.Code> = [
        .invalidURL, .forbidden, .routeNotFound, .targetNotFound, .actionNotFound, .invalidParameter,
    ]

    /// The errors adding a route (or a route table) may end in.
    static let routeFailures: Set<MediatorError.Code> = [.invalidRoute, .duplicateRoute, .invalidName, .forbidden]

    /// What in-process params carry under every key, `@`-keys included (the mediator must
    /// overwrite those in a routed call).
    static let marker = "in-process"

    /// The in-process params of `call(url:params:)`: an ordinary key and every reserved one.
    static let extra: Params = Params(Dictionary(uniqueKeysWithValues: (["ctx"] + URLRoute.reservedKeys.sorted()).map { ($0, marker as any Sendable) }))

    /// The fixtures made so far, by index (see ``fixture(_:)``).
    private static let fixtures = ReadWriteLock<[Int: Mediator]>([:])

    /// The mediator for one combination of the policy's options (bits 0-2 of `index`), the handler
    /// (bit 3) and the second selector byte's options (bits 4-8), made the first time an input
    /// needs it: a replay or a run uses a few of the 512.
    static func fixture(_ index: Int) -> Mediator {
        if let made = fixtures.withReadLock({ $0[index] }) { return made }
        let fresh = makeFixture(options: UInt8(index & 7), more: UInt8(index >> 4), answersUnmatched: index & 8 != 0)
        // A fixture another thread made meanwhile is kept; `fresh` is then released after the lock.
        return fixtures.withLock { made in
            if let kept = made[index] { return kept }
            made[index] = fresh
            return fresh
        }
    }

    /// Runs one input (see the type's comment for its layout).
    static func run(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        let input = Array(bytes.dropFirst())
        let options = (selector >> 2) & 7
        let bit5 = selector & 0x20 != 0
        switch selector & 3 {
        case 0, 1:
            let more = selector & 3 == 1 ? (input.first ?? 0) & 31 : 0
            let url = selector & 3 == 1 ? Array(input.dropFirst()) : input
            let mediator = fixture(Int(options) + (bit5 ? 8 : 0) + Int(more) * 16)
            check(url: String(decoding: url, as: UTF8.self), on: mediator, answersUnmatched: bit5, fixtureOnly: true)
        case 2:
            let (pattern, url) = split(input)
            fuzzPattern(
                pattern, url: url, options: options, scheme: selector & 0x40 != 0 ? "myapp" : nil, priority: selector & 0x80 != 0 ? 100 : -1,
                replacing: bit5)
        default:
            let (json, url) = split(input)
            fuzzTable(json, url: url, options: options, replacing: bit5)
        }
    }

    /// The text before the first NUL byte and the text after it (empty when there is none).
    static func split(_ bytes: [UInt8]) -> (String, String) {
        guard let nul = bytes.firstIndex(of: 0) else { return (String(decoding: bytes, as: UTF8.self), "") }
        return (String(decoding: bytes[..<nul], as: UTF8.self), String(decoding: bytes[(nul + 1)...], as: UTF8.self))
    }

    // MARK: - The fixture

    /// A mediator with the fixture's targets and routes, the policy options `options` (bits 0-2)
    /// and `more` (the second selector byte's bits 0-2) and, when `answersUnmatched`, a handler
    /// that answers every URL it is asked about.
    static func makeFixture(options: UInt8, more: UInt8 = 0, answersUnmatched: Bool) -> Mediator {
        let mediator = Mediator()
        do {
            for (name, actions) in fixtureTargets {
                try mediator.register(target: name, actions: actions.map { recording(target: name, action: $0) })
            }
            try mediator.register(
                target: "Admin", actions: [Action("secret", localOnly: true) { _, _ in fatalError("a URL reached the local-only action Admin/secret") }])
            try mediator.addActions(
                [Action<Mediator>("nativeOpen") { _, _ in fatalError("a URL reached the native action Users/nativeOpen") }], toTarget: "Users")
            try mediator.register(
                target: "Calc",
                actions: [
                    Action("square", params: [.required("n", .integer)]) { _, params in Reached(target: "Calc", action: "square", params: params) }
                ])
            try mediator.addRoutes(fixtureRoutes)
        } catch {
            fatalError("route fuzz fixture: \(error)")
        }
        var policy = mediator.urlPolicy
        policy.decodesPlusAsSpace = options & 1 != 0
        policy.matchesHostIgnoringCase = options & 2 != 0
        policy.allowsEmptyAuthority = options & 4 != 0
        policy.decodesPlusAsSpaceInPaths = more & 1 != 0
        policy.readsDottedHostsAsServers = more & 2 != 0
        policy.isolatedSchemes = more & 4 != 0 ? ["myapp"] : []
        policy.matchesRoutesIgnoringCase = more & 8 != 0
        policy.readsFragmentsAsRoutes = more & 16 != 0
        mediator.urlPolicy = policy
        if answersUnmatched {
            mediator.unmatchedURLHandler = { unmatched in .answer(Unmatched(url: unmatched.url, scheme: unmatched.scheme)) }
        }
        return mediator
    }

    /// An action that answers who it is and what it got.
    static func recording(target: String, action: String) -> Action<Mediator> {
        Action(action) { _, params in Reached(target: target, action: action, params: params) }
    }

    // MARK: - Patterns and tables

    /// Registers `pattern` beside the fixture's routes (to `Fuzzed/hit`), then checks `url`.
    /// A refused pattern fails with a route error on one line; an accepted one is listed once, is
    /// refused a second time as `duplicateRoute`, is reached by a URL built from it when it has
    /// the highest priority, and can be removed exactly once.
    static func fuzzPattern(_ pattern: String, url: String, options: UInt8, scheme: String?, priority: Int, replacing: Bool) {
        let mediator = makeFixture(options: options, answersUnmatched: false)
        let before = mediator.routes.count
        do {
            try mediator.route(pattern, to: "Fuzzed", action: "hit", scheme: scheme, priority: priority, replacing: replacing)
        } catch {
            checkOneLine(error, "route \(pattern.debugDescription)")
            if error.code != .invalidRoute && error.code != .duplicateRoute {
                fatalError("route \(pattern.debugDescription) refused with \(error.code): \(error)")
            }
            if mediator.routes.count != before { fatalError("a refused route changed the routes: \(pattern.debugDescription)") }
            check(url: url, on: mediator, answersUnmatched: false, fixtureOnly: true)
            return
        }
        let after = mediator.routes.count
        if !(after == before + 1 || (replacing && after == before)) {
            fatalError("\(before) routes became \(after) after adding \(pattern.debugDescription) (replacing: \(replacing))")
        }
        let listed = mediator.routes.filter { sameBytes($0.pattern, pattern) && $0.scheme == scheme && $0.host == nil }
        if listed.count != 1 || listed[0].target != "Fuzzed" || listed[0].action != "hit" || listed[0].priority != priority {
            fatalError("route \(pattern.debugDescription) is listed as \(listed)")
        }
        do {
            try mediator.route(pattern, to: "Fuzzed", action: "hit", scheme: scheme, priority: priority)
            fatalError("route \(pattern.debugDescription) was accepted twice")
        } catch {
            if error.code != .duplicateRoute { fatalError("route \(pattern.debugDescription) added twice failed with \(error.code): \(error)") }
        }
        // Above every fixture route: a URL built from it must reach it.
        if priority >= 100 {
            for withGroups in [false, true] {
                guard let (built, captures) = builtURL(matching: pattern, scheme: scheme ?? "fuzz", withGroups: withGroups) else { continue }
                checkBuilt(built, captures: captures, pattern: pattern, on: mediator)
            }
        }
        check(url: url, on: mediator, answersUnmatched: false, fixtureOnly: false)
        if !mediator.removeRoute(pattern, scheme: scheme) { fatalError("route \(pattern.debugDescription) could not be removed") }
        if mediator.routes.count != after - 1 { fatalError("removing route \(pattern.debugDescription) left \(mediator.routes.count) of \(after)") }
        if mediator.removeRoute(pattern, scheme: scheme) { fatalError("route \(pattern.debugDescription) was removed twice") }
    }

    /// Adds a JSON route table beside the fixture's routes, then checks `url`: a refused table
    /// fails with a route error on one line and adds nothing; an accepted one adds every entry.
    static func fuzzTable(_ json: String, url: String, options: UInt8, replacing: Bool) {
        let mediator = makeFixture(options: options, answersUnmatched: false)
        let before = mediator.routes.count
        do {
            try mediator.addRoutes(json: json, replacing: replacing)
            var entries = 0
            if case .array(let items)? = try? JSONValue(parsing: json) { entries = items.count }
            let after = mediator.routes.count
            if after > before + entries || (!replacing && after != before + entries) {
                fatalError("a table of \(entries) routes took \(before) routes to \(after): \(json.debugDescription)")
            }
        } catch {
            checkOneLine(error, "route table \(json.debugDescription)")
            if !routeFailures.contains(error.code) { fatalError("route table \(json.debugDescription) refused with \(error.code): \(error)") }
            if mediator.routes.count != before { fatalError("a refused table changed the routes: \(json.debugDescription)") }
        }
        check(url: url, on: mediator, answersUnmatched: false, fixtureOnly: false)
    }

    /// A URL that the variant of `pattern` with every optional group left out (or, `withGroups`,
    /// with every group included) matches, the wildcard matching nothing, every byte of every
    /// literal percent-encoded; and what each placeholder captures from it. `nil` for a variant of
    /// zero segments (a custom scheme needs a host) or one that cannot be read.
    static func builtURL(matching pattern: String, scheme: String, withGroups: Bool) -> (String, [String: String])? {
        var bytes: [UInt8] = []
        var depth = 0
        for byte in pattern.utf8 {
            if byte == UInt8(ascii: "(") {
                depth += 1
            } else if byte == UInt8(ascii: ")") {
                depth -= 1
            } else if depth == 0 || withGroups {
                bytes.append(byte)
            }
        }
        var body = bytes[...]
        if body.first == UInt8(ascii: "/") { body = body.dropFirst() }
        if body.count > 1, body.last == UInt8(ascii: "/") { body = body.dropLast() }
        var segments: [String] = []
        var captures: [String: String] = [:]
        for piece in body.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            let text = String(decoding: piece, as: UTF8.self)
            if text == "*" { break }
            if let found = placeholder(text) {
                let value = found.type.map(sample) ?? "v"
                captures[found.name] = value
                segments.append(percentEncoded(found.prefix) + value + percentEncoded(found.suffix))
            } else {
                segments.append(percentEncoded(text))
            }
        }
        if segments.isEmpty || segments.contains(where: \.isEmpty) { return nil }
        return (scheme + "://" + segments.joined(separator: "/"), captures)
    }

    /// A value of a placeholder type.
    static func sample(_ type: String) -> String {
        switch type {
        case "int": return "-7"
        case "uuid": return "123e4567-E89B-12d3-a456-426614174000"
        case "float": return "-2.5e3"
        default: return "abc"
        }
    }

    /// Every byte as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 { bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A URL built from the fuzzed pattern, which has the highest priority of all routes: it
    /// reaches `Fuzzed/hit` through that pattern, with the placeholders' values (for a pattern
    /// without optional groups).
    static func checkBuilt(_ url: String, captures: [String: String], pattern: String, on mediator: Mediator) {
        if !mediator.canOpen(url) { fatalError("\(url.debugDescription), built from route \(pattern.debugDescription), cannot be opened") }
        let reached: Reached
        do {
            guard let value = try mediator.callNow(url: url) as? Reached else { fatalError("\(url.debugDescription) answered something else") }
            reached = value
        } catch {
            fatalError("\(url.debugDescription), built from route \(pattern.debugDescription), failed: \(error)")
        }
        guard reached.target == "Fuzzed", let route = reached.params[URLRoute.patternKey] as? String, sameBytes(route, pattern) else {
            fatalError(
                "\(url.debugDescription), built from route \(pattern.debugDescription), reached \(reached.target)/\(reached.action) by \(reached.params)")
        }
        // With optional groups, another variant of the route may win the URL (`/:a(b<alpha>)`
        // makes `/:ab<alpha>`, typed, so better than `/:a` for `abc`): only the route is certain.
        let hasGroups = pattern.utf8.contains(UInt8(ascii: "("))
        for (name, value) in captures where !hasGroups && (reached.params[name] as? String) != value {
            fatalError("\(url.debugDescription) gave \(name) = \(String(describing: reached.params[name])), not \(value) (route \(pattern.debugDescription))")
        }
        if pattern.utf8.last == UInt8(ascii: "*"), let rest = reached.params[URLRoute.restKey], (rest as? [String]) != [] {
            fatalError("\(url.debugDescription) gave \(URLRoute.restKey) = \(rest), not [] (route \(pattern.debugDescription))")
        }
    }

    // MARK: - URL checks

    /// How a call ended.
    enum Outcome {
        /// A fixture action ran.
        case reached(Reached)
        /// The unmatched-URL handler answered.
        case unmatched(Unmatched)
        /// The call failed.
        case failed(MediatorError)
    }

    /// The outcome of `call`, which must answer a ``Reached`` or an ``Unmatched``.
    static func outcome(_ url: String, _ call: () throws(MediatorError) -> (any Sendable)?) -> Outcome {
        do {
            let value = try call()
            if let reached = value as? Reached { return .reached(reached) }
            if let unmatched = value as? Unmatched { return .unmatched(unmatched) }
            fatalError("\(url.debugDescription) answered \(String(describing: value))")
        } catch {
            return .failed(error)
        }
    }

    /// Opens `url` on `mediator` every way there is and checks what each gives: documented errors
    /// on one line; `canOpen` true exactly when an action is reached (or its declared params
    /// refuse the call); `open` and `call(url:)` agree; `call(url:params:)` reaches the same action
    /// with the in-process params over the URL's; every reached action is checked by ``check(_:url:routes:policy:fixtureOnly:withExtra:)``;
    /// the unmatched-URL handler only answers what nothing else does.
    static func check(url: String, on mediator: Mediator, answersUnmatched: Bool, fixtureOnly: Bool) {
        let routes = mediator.routes
        let policy = mediator.urlPolicy
        let canOpen = mediator.canOpen(url)
        let opened = mediator.open(url)
        let plain = outcome(url) { () throws(MediatorError) in try mediator.callNow(url: url) }
        let withParams = outcome(url) { () throws(MediatorError) in try mediator.callNow(url: url, params: extra) }
        let shown = url.debugDescription

        for (result, withExtra) in [(plain, false), (withParams, true)] {
            switch result {
            case .failed(let error):
                checkOneLine(error, shown)
                if !urlFailures.contains(error.code) { fatalError("unexpected \(error.code) for \(shown): \(error)") }
                // The handler is not asked about a path too long to split (it would see no path).
                if answersUnmatched && error.code == .routeNotFound && !containsBytes("\(error)", "a path of more than 64 segments") {
                    fatalError("routeNotFound for \(shown) although the handler answers every URL")
                }
            case .unmatched(let unmatched):
                if !answersUnmatched { fatalError("no handler, yet \(shown) was answered by one") }
                if !sameBytes(unmatched.url, url) { fatalError("the handler was asked about \(unmatched.url.debugDescription) for \(shown)") }
                if unmatched.scheme != expectedScheme(url) { fatalError("the handler got the scheme \(unmatched.scheme.debugDescription) for \(shown)") }
                if canOpen { fatalError("canOpen is true for \(shown), which only the handler answered") }
            case .reached(let reached):
                check(reached, url: url, routes: routes, policy: policy, fixtureOnly: fixtureOnly, withExtra: withExtra)
            }
        }

        switch plain {
        case .reached:
            if !canOpen { fatalError("canOpen is false for \(shown), which reached an action") }
        case .failed(let error) where error.code == .invalidParameter:
            if !canOpen { fatalError("canOpen is false for \(shown), which reached declared params (\(error))") }
        case .failed(let error):
            if canOpen { fatalError("canOpen is true for \(shown), whose call failed: \(error)") }
        case .unmatched:
            break
        }
        if (opened == nil) != (plain.failure != nil) { fatalError("open and call(url:) disagree on \(shown)") }
        if fixtureOnly { checkAgainstModel(url, plain, policy: policy) }

        switch (plain, withParams) {
        case (.reached(let first), .reached(let second)):
            if first.target != second.target || first.action != second.action
                || !sameBytes(first.params[URLRoute.patternKey] as? String ?? marker, second.params[URLRoute.patternKey] as? String ?? marker)
            {
                fatalError("call(url:) reached \(first.target)/\(first.action), with params \(second.target)/\(second.action): \(shown)")
            }
        case (.reached(let first), .failed(let error)):
            if first.target != "Calc" || error.code != .invalidParameter {
                fatalError("call(url:) reached \(first.target)/\(first.action), with params it failed: \(error) (\(shown))")
            }
        case (.failed(let first), .failed(let second)):
            if first.code != second.code { fatalError("call(url:) failed with \(first.code), with params with \(second.code): \(shown)") }
        case (.unmatched, .unmatched):
            break
        default:
            fatalError("call(url:) and call(url:params:) ended differently: \(plain) and \(withParams) for \(shown)")
        }
    }

    /// Checks an action a URL reached. Through a route (its pattern under `@route`): the action is
    /// the one the listed route of that pattern leads to for the URL's scheme (its own scheme's
    /// before every scheme's); `@url` is the URL as given, `@scheme` its scheme lowercased;
    /// `@rest` only for a pattern with `*`; every placeholder typed `int`, `uuid`, `alpha` or `float` that is
    /// outside optional groups captured a value of its type (unless in-process params override
    /// it); among the fixture's routes only,
    /// the lower-priority `/promo/summer` never wins. Through `scheme://Target/action`: no
    /// `@`-key but those the in-process params passed. With in-process params, their ordinary
    /// keys hold their values, except at `Calc/square`, which declares its params: a URL call's
    /// action gets only those (the default policy drops the others, in-process ones included).
    static func check(_ reached: Reached, url: String, routes: [URLRoute], policy: URLPolicy, fixtureOnly: Bool, withExtra: Bool) {
        let shown = url.debugDescription
        let params = reached.params
        let declaresParams = reached.target == "Calc"
        if withExtra && !declaresParams && (params["ctx"] as? String) != marker { fatalError("in-process param ctx lost for \(shown): \(params)") }
        if declaresParams && params.contains("ctx") { fatalError("the undeclared param ctx reached Calc/square for \(shown): \(params)") }
        let route = params[URLRoute.patternKey] as? String
        guard let route, !(withExtra && route == marker) else {
            for key in URLRoute.reservedKeys where params.contains(key) && !(withExtra && (params[key] as? String) == marker) {
                fatalError("\(key) = \(String(describing: params[key])) in a call that matched no route: \(shown)")
            }
            return
        }
        let scheme = expectedScheme(url)
        let candidates = routes.filter { sameBytes($0.pattern, route) }
        // The routes for the URL's server first, when the harness can tell it (else any of them
        // that leads where the call went).
        let found: URLRoute?
        switch modelServer(url, readsDotted: policy.readsDottedHostsAsServers) {
        case .some(let server):
            let tiers: [(scheme: String?, host: String?)] = (server.map { [(scheme, $0), (nil, $0)] } ?? []) + [(scheme, nil), (nil, nil)]
            found = tiers.lazy.compactMap { tier in candidates.first { $0.scheme == tier.scheme && $0.host == tier.host } }.first
        case .none:
            found = candidates.first { $0.target == reached.target && $0.action == reached.action }
        }
        guard let chosen = found else {
            fatalError("\(shown) reached \(reached.target)/\(reached.action) by \(route.debugDescription), which is not a route for \(scheme)")
        }
        if chosen.target != reached.target || chosen.action != reached.action {
            fatalError("\(shown) matched \(chosen) but reached \(reached.target)/\(reached.action)")
        }
        if !((params[URLRoute.urlKey] as? String).map { sameBytes($0, url) } ?? false) {
            fatalError("\(URLRoute.urlKey) is \(String(describing: params[URLRoute.urlKey])) for \(shown)")
        }
        if (params[URLRoute.schemeKey] as? String) != scheme {
            fatalError("\(URLRoute.schemeKey) is \(String(describing: params[URLRoute.schemeKey])), not \(scheme), for \(shown)")
        }
        // `@rest` is the mediator's: the segments a `*` matched, absent when no `*` matched (an
        // in-process `@rest` never survives).
        if let rest = params[URLRoute.restKey], !(rest is [String]) || !route.utf8.contains(UInt8(ascii: "*")) {
            fatalError("\(URLRoute.restKey) = \(rest) for \(shown) matched by \(route.debugDescription)")
        }
        for (name, type) in typedPlaceholders(route) where !(withExtra && extra.contains(name)) {
            guard let value = params[name] as? String, isValid(value, type: type) else {
                fatalError("\(shown) reached \(route.debugDescription) with \(name) = \(String(describing: params[name])), not of type \(type)")
            }
        }
        if fixtureOnly && route == "/promo/summer" { fatalError("\(shown) reached /promo/summer over /promo/:code, whose priority is higher") }
    }

    // MARK: - A reference matcher

    /// One segment of a pattern variant, as the model reads it.
    enum ModelSegment {
        /// Exactly these bytes.
        case literal([UInt8])
        /// A non-empty segment, of the type when one is given.
        case parameter(type: String?)
        /// The rest of the path.
        case wildcard

        /// Literal 0, typed 1 (`float` 2: an integer is of both `int` and `float`, and `int` wins),
        /// untyped 3, wildcard 4: the precedence between kinds.
        var rank: Int {
            switch self {
            case .literal: return 0
            case .parameter(let type): return type == nil ? 3 : type == "float" ? 2 : 1
            case .wildcard: return 4
            }
        }
    }

    /// The fixture's routes read by the model: each with its variants' segments.
    static let model: [(route: URLRoute, variants: [[ModelSegment]])] = fixtureRoutes.map { route in
        (route, modelVariants(Array(route.pattern.utf8)).map(modelSegments))
    }

    /// Every variant of a pattern's bytes: each optional group left out or included (nested ones
    /// only inside their parent). Written apart from the library's parser, as a check on it.
    static func modelVariants(_ bytes: [UInt8]) -> [[UInt8]] {
        guard let open = bytes.firstIndex(of: UInt8(ascii: "(")) else { return [bytes] }
        var depth = 0
        var close = open
        for index in open..<bytes.count {
            if bytes[index] == UInt8(ascii: "(") { depth += 1 }
            if bytes[index] == UInt8(ascii: ")") { depth -= 1 }
            if depth == 0 {
                close = index
                break
            }
        }
        let before = Array(bytes[..<open])
        let inner = modelVariants(Array(bytes[(open + 1)..<close]))
        let after = modelVariants(Array(bytes[(close + 1)...]))
        return ([[]] + inner).flatMap { middle in after.map { before + middle + $0 } }
    }

    /// A variant's segments: a leading `/` and one trailing `/` dropped, split on `/`.
    static func modelSegments(_ variant: [UInt8]) -> [ModelSegment] {
        var body = variant[...]
        if body.first == UInt8(ascii: "/") { body = body.dropFirst() }
        if body.count > 1, body.last == UInt8(ascii: "/") { body = body.dropLast() }
        if body.isEmpty { return [] }
        return body.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { piece in
            if Array(piece) == [UInt8(ascii: "*")] { return .wildcard }
            // The fixture's placeholders are whole segments.
            if let found = placeholder(String(decoding: piece, as: UTF8.self)), found.prefix.isEmpty, found.suffix.isEmpty {
                return .parameter(type: found.type)
            }
            return .literal(Array(piece))
        }
    }

    /// The server of a URL whose host routes may match, as the harness reads it: for `http` and
    /// `https`, an authority of letters, digits, `.` and `-` alone, lowercased; for a custom
    /// scheme, the same when `readsDotted` (``URLPolicy/readsDottedHostsAsServers``) and it holds a
    /// `.` or is `localhost`, else `.some(nil)` (the host is a segment); `nil` when it cannot tell
    /// (a user, a port, a percent sign or any other byte in the authority).
    static func modelServer(_ url: String, readsDotted: Bool) -> String?? {
        let scheme = expectedScheme(url)
        let isWeb = scheme == "http" || scheme == "https"
        guard isWeb || readsDotted else { return .some(nil) }
        let bytes = Array(url.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[(colon + 1)...].starts(with: Array("//".utf8)) else { return nil }
        let authority = bytes[(colon + 3)...].prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        guard authority.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 45 || $0 == 46 })
        else { return nil }
        let host = asciiLowercased(String(decoding: authority, as: UTF8.self))
        if isWeb { return host.isEmpty ? nil : .some(host) }
        return host.utf8.contains(UInt8(ascii: ".")) || host == "localhost" ? .some(host) : .some(nil)
    }

    /// The segments routes see in a URL with no percent sign or fragment: for a custom scheme
    /// with no capital letter in its host, the host, then the path split on `/` (one trailing `/`
    /// dropped); for a server ``modelServer(_:readsDotted:)`` can tell, the path alone,
    /// and the server; the query cut off. `nil` for any other URL (the model does not decode or
    /// fold case).
    static func modelPath(_ url: String, policy: URLPolicy) -> (scheme: String, server: String?, segments: [[UInt8]])? {
        let bytes = Array(url.utf8)
        guard !bytes.contains(UInt8(ascii: "%")), !bytes.contains(UInt8(ascii: "#")),
            let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, bytes[(colon + 1)...].starts(with: Array("//".utf8)),
            let first = bytes.first, (65...90).contains(first) || (97...122).contains(first),
            bytes[..<colon].allSatisfy({ (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 43 || $0 == 45 || $0 == 46 })
        else { return nil }
        let scheme = expectedScheme(url)
        var rest = bytes[(colon + 3)...]
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) { rest = rest[..<question] }
        // A `+` the policy may read as a space in the path: the model does not decode.
        if policy.decodesPlusAsSpaceInPaths && rest.contains(UInt8(ascii: "+")) { return nil }
        let server: String?
        switch modelServer(url, readsDotted: policy.readsDottedHostsAsServers) {
        case .some(let known): server = known
        case .none: return nil
        }
        if let server {
            var path = rest.drop { $0 != UInt8(ascii: "/") }
            if path.count <= 1 { return (scheme, server, []) }
            path = path.dropFirst()
            if path.last == UInt8(ascii: "/") { path = path.dropLast() }
            let segments = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { Array($0) }
            return segments.count <= 64 ? (scheme, server, segments) : nil
        }
        var segments = rest.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { Array($0) }
        guard let host = segments.first, !host.isEmpty, !host.contains(where: { (65...90).contains($0) }) else { return nil }
        if segments.count > 1, segments.last == [] { segments.removeLast() }
        return segments.count <= 64 ? (scheme, nil, segments) : nil
    }

    /// The ranks of the variant's segments if it matches `path`, else `nil`.
    /// `fold`: literals compared ignoring ASCII case (``URLPolicy/matchesRoutesIgnoringCase``).
    static func modelMatch(_ variant: [ModelSegment], _ path: [[UInt8]], fold: Bool) -> [Int]? {
        let folded = { (bytes: [UInt8]) in fold ? bytes.map { (65...90).contains($0) ? $0 + 32 : $0 } : bytes }
        for (index, segment) in variant.enumerated() {
            switch segment {
            case .wildcard: return variant.map(\.rank)
            case .literal(let bytes): if index >= path.count || folded(path[index]) != folded(bytes) { return nil }
            case .parameter(let type):
                guard index < path.count, !path[index].isEmpty else { return nil }
                if let type, !isValid(String(decoding: path[index], as: UTF8.self), type: type) { return nil }
            }
        }
        return variant.count == path.count ? variant.map(\.rank) : nil
    }

    /// The fixture route the model says `url` reaches: the routes for its server (the URL's own
    /// scheme's, then those for every scheme), then the URL's own scheme's routes, then those for
    /// every scheme; among them the highest priority; then the best kinds segment by segment (a
    /// shorter sequence first when one is the other's start); then registration order. Hosts
    /// are compared ignoring ASCII case.
    static func modelRoute(_ scheme: String, server: String?, _ path: [[UInt8]], isolated: Set<String>, fold: Bool) -> URLRoute? {
        // An isolated scheme with routes of its own never reaches the routes for every scheme.
        let ownRoutes = fixtureRoutes.contains { $0.scheme == scheme && $0.host == nil }
        let global: [(scheme: String?, host: String?)] = isolated.contains(scheme) && ownRoutes ? [] : [(nil, nil)]
        let tiers: [(scheme: String?, host: String?)] = (server.map { [(scheme, $0), (nil, $0)] } ?? []) + [(scheme, nil)] + global
        for tier in tiers {
            var best: (route: URLRoute, ranks: [Int])?
            for (route, variants) in model where route.scheme == tier.scheme && route.host.map(asciiLowercased) == tier.host {
                for ranks in variants.compactMap({ modelMatch($0, path, fold: fold) }) {
                    guard let current = best else {
                        best = (route, ranks)
                        continue
                    }
                    if route.priority > current.route.priority
                        || (route.priority == current.route.priority && ranks.lexicographicallyPrecedes(current.ranks))
                    {
                        best = (route, ranks)
                    }
                }
            }
            if let best { return best.route }
        }
        return nil
    }

    /// What a call of `url` on the fixture ended in, against the model: the route it reached is
    /// the model's; with no route reached, the model finds none, or the call failed as the model's
    /// route's destination makes it fail (an unregistered target or action, a local-only action,
    /// declared params refusing the call; or a query the URL rules refuse).
    static func checkAgainstModel(_ url: String, _ outcome: Outcome, policy: URLPolicy) {
        guard let (scheme, server, path) = modelPath(url, policy: policy) else { return }
        let expected = modelRoute(scheme, server: server, path, isolated: policy.isolatedSchemes, fold: policy.matchesRoutesIgnoringCase)
        let shown = url.debugDescription
        switch outcome {
        case .reached(let reached):
            let route = reached.params[URLRoute.patternKey] as? String
            if route != expected?.pattern {
                fatalError("\(shown) reached route \(route.debugDescription), the model says \(expected?.pattern.debugDescription ?? "none")")
            }
        case .unmatched:
            if let expected { fatalError("\(shown) went to the unmatched-URL handler; the model says route \(expected.pattern.debugDescription)") }
        case .failed(let error):
            guard let expected else { return }
            let codes: [String: MediatorError.Code] = [
                "Ghost": .targetNotFound, "Admin": .forbidden, "Calc": .invalidParameter,
            ]
            let code = expected.action == "missing" ? .actionNotFound : codes[expected.target]
            if error.code != .invalidURL && error.code != code {
                fatalError("\(shown) failed with \(error.code), but the model says route \(expected.pattern.debugDescription): \(error)")
            }
        }
    }

    // MARK: - Helpers

    /// The scheme of a URL that parsed, lowercased: the bytes before its first `:`.
    static func expectedScheme(_ url: String) -> String {
        asciiLowercased(String(decoding: url.utf8.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self))
    }

    /// `text` with ASCII capitals made small.
    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// Whether `text` holds `needle`'s UTF-8 bytes somewhere (byte for byte; `String.contains(_:)`
    /// with a string argument needs macOS 13 / iOS 16).
    static func containsBytes(_ text: String, _ needle: String) -> Bool {
        let bytes = Array(text.utf8)
        let wanted = Array(needle.utf8)
        guard wanted.count <= bytes.count else { return false }
        return (0...(bytes.count - wanted.count)).contains { bytes[$0..<$0 + wanted.count].elementsEqual(wanted) }
    }

    /// Whether two strings have the same UTF-8 bytes (not Unicode equivalence).
    static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8)
    }

    /// A segment's placeholder as the pattern grammar reads it, written here independently of the
    /// library: the text before the first `:`, the name (the longest run of ASCII letters, digits
    /// and `_` after it), the type between a `<` right after the name and the next `>`, and the
    /// text after; `nil` for a segment without `:` (or with a `<` that no `>` closes). Only
    /// patterns the library accepted are read so.
    static func placeholder(_ segment: String) -> (name: String, type: String?, prefix: String, suffix: String)? {
        let bytes = Array(segment.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let isNameByte = { (byte: UInt8) in (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 95 }
        var end = colon + 1
        while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
        let name = String(decoding: bytes[(colon + 1)..<end], as: UTF8.self)
        var type: String?
        if end < bytes.count, bytes[end] == UInt8(ascii: "<") {
            guard let close = bytes[end...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            type = String(decoding: bytes[(end + 1)..<close], as: UTF8.self)
            end = close + 1
        }
        return (name, type, String(decoding: bytes[..<colon], as: UTF8.self), String(decoding: bytes[end...], as: UTF8.self))
    }

    /// The typed placeholders of `pattern` (with text around them or not) in a segment of every variant:
    /// outside every optional group and touching none (the captured value cannot come from the
    /// query then: path params win over it).
    static func typedPlaceholders(_ pattern: String) -> [(name: String, type: String)] {
        var found: [(name: String, type: String)] = []
        var segment: [UInt8] = []
        var touched = false
        var depth = 0
        /// Records the segment just ended if it is a typed placeholder no group touches.
        func finish() {
            if !touched, depth == 0, let placed = placeholder(String(decoding: segment, as: UTF8.self)), let type = placed.type {
                found.append((placed.name, type))
            }
            segment = []
            touched = false
        }
        for byte in pattern.utf8 {
            switch byte {
            case UInt8(ascii: "("):
                depth += 1
                touched = true
            case UInt8(ascii: ")"):
                depth -= 1
                touched = true
            case UInt8(ascii: "/") where depth == 0: finish()
            default: segment.append(byte)
            }
        }
        finish()
        return found
    }

    /// Whether `value` is of the placeholder type `type`, checked here independently of the
    /// library: `int` an optional `-` and ASCII digits within `Int64`; `uuid` 8-4-4-4-12 hex
    /// digits; `alpha` one or more ASCII letters; `float` decimal digits with an optional `-`, one
    /// optional `.` between digits and an optional exponent, finite as a `Double`.
    static func isValid(_ value: String, type: String) -> Bool {
        let bytes = Array(value.utf8)
        let isHex = { (byte: UInt8) in (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte) }
        switch type {
        case "int": return bytes.first != UInt8(ascii: "+") && Int64(value) != nil
        case "uuid":
            return bytes.count == 36
                && bytes.indices.allSatisfy { [8, 13, 18, 23].contains($0) ? bytes[$0] == UInt8(ascii: "-") : isHex(bytes[$0]) }
        case "alpha": return !bytes.isEmpty && bytes.allSatisfy { (65...90).contains($0) || (97...122).contains($0) }
        case "float":
            let isDigit = { (byte: UInt8) in (48...57).contains(byte) }
            var index = bytes.first == UInt8(ascii: "-") ? 1 : 0
            func run() -> Bool {
                let start = index
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
                return index > start
            }
            guard run() else { return false }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard run() else { return false }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard run() else { return false }
            }
            return index == bytes.count && Double(value)?.isFinite == true
        default: return false
        }
    }

    /// The longest error text allowed, whatever the input's length: errors cut each text they
    /// quote to 100-200 scalars, each escaped in at most 10 bytes (`\u{10FFFF}`), and a
    /// `routeNotFound` quotes the URL, its path and why it is not `scheme://Target/action`.
    static let maximumErrorBytes = 10_000

    /// An error's text is one line without raw control or format characters, and bounded.
    static func checkOneLine(_ error: MediatorError, _ what: String) {
        let text = error.description
        if text.isEmpty { fatalError("an error without a description for \(what)") }
        if text.unicodeScalars.contains(where: \.isEscapedForTerminals) {
            fatalError("a raw control character in the error for \(what): \(text.debugDescription)")
        }
        if text.utf8.count > maximumErrorBytes { fatalError("an error of \(text.utf8.count) bytes for \(what)") }
    }
}

extension RouteFuzz.Outcome {
    /// The error, when the call failed.
    var failure: MediatorError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
