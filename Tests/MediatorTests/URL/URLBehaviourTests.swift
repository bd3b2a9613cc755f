import Mediator
import TestSupport
import Testing

@Suite("URL calls: security, caching and results")
struct URLBehaviourTests {
    let mediator: Mediator

    init() throws {
        mediator = try urlTestMediator()
    }

    @Test("A native action never runs from a URL but runs from perform")
    func nativeRefused() throws {
        let ran = Counter()
        try mediator.register(
            target: "Guarded",
            actions: [
                Action("nativeWipe") { _, _ in
                    ran.increment()
                    return "wiped"
                }
            ])
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(url: "app://Guarded/nativeWipe") }
        #expect(error?.code == .forbidden)
        #expect(error?.target == "Guarded")
        #expect(error?.action == "nativeWipe")
        #expect(ran.value == 0)
        #expect(mediator.perform(target: "Guarded", action: "nativeWipe") as? String == "wiped")
        #expect(ran.value == 1)
    }

    @Test("A local-only action never runs from a URL but runs from perform")
    func localOnlyRefused() throws {
        let ran = Counter()
        try mediator.register(
            target: "Admin",
            actions: [
                Action("reset", localOnly: true) { _, _ in
                    ran.increment()
                    return "reset"
                }
            ])
        #expect((#expect(throws: MediatorError.self) { try mediator.callNow(url: "app://Admin/reset") })?.code == .forbidden)
        #expect(ran.value == 0)
        #expect(mediator.perform(target: "Admin", action: "reset") as? String == "reset")
    }

    @Test("A scheme allow-list refuses other schemes, case-insensitively")
    func schemeAllowList() {
        mediator.urlPolicy = URLPolicy(allowedSchemes: ["MyApp"])
        #expect(mediator.open("myapp://Other/ping") as? String == "pong")
        #expect(mediator.open("MYAPP://Other/ping") as? String == "pong")
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(url: "evil://Other/ping") }
        #expect(error?.code == .forbidden)
        #expect(error?.description.contains("scheme \"evil\" is not allowed (allowed: myapp)") == true)
    }

    @Test("A target allow-list refuses other targets, short or full names")
    func targetAllowList() {
        mediator.urlPolicy = URLPolicy(allowedTargets: ["Target_Other"])
        #expect(mediator.open("app://Other/ping") as? String == "pong")
        #expect(mediator.open("app://Target_Other/ping") as? String == "pong")
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(url: "app://Echo/echo") }
        #expect(error?.code == .forbidden)
        #expect(error?.description.contains("target \"Echo\" is not open to URL calls") == true)
        // The allow-list holds for unknown targets too: they never reach the fallback.
        mediator.setFallback { _, _, _ in "fallback" }
        #expect((#expect(throws: MediatorError.self) { try mediator.callNow(url: "app://Ghost/x") })?.code == .forbidden)
    }

    @Test("The length limit refuses long URLs before parsing; it is configurable")
    func lengthLimit() {
        let long = "app://Echo/echo?a=" + String(repeating: "x", count: URLPolicy.defaultMaximumLength)
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(url: long) }
        #expect(error?.code == .invalidURL)
        #expect(error?.description.contains("over the limit of 65536") == true)
        #expect((error?.description.count ?? .max) < 300)
        // A URL that is not even well-formed past the limit gets the length error, not a parse error.
        #expect(
            (#expect(throws: MediatorError.self) { try mediator.callNow(url: String(repeating: "%", count: 70_000)) })?.description.contains("over the limit")
                == true)
        mediator.urlPolicy = URLPolicy(maximumLength: 20)
        #expect(mediator.open("app://Other/ping") as? String == "pong")
        #expect(mediator.open("app://Other/ping?a=12") == nil)
    }

    @Test("The query item limit is 1,024 by default and configurable; empty items do not count")
    func itemLimit() throws {
        let items = (0..<1_024).map { "k\($0)=v" }.joined(separator: "&")
        #expect(echoed(try mediator.callNow(url: "app://Echo/echo?" + items))?.count == 1_024)
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(url: "app://Echo/echo?" + items + "&one=more") }
        #expect(error?.code == .invalidURL)
        #expect(error?.description.contains("more than 1024 query items") == true)
        mediator.urlPolicy = URLPolicy(maximumQueryItems: 2)
        #expect(echoed(try mediator.callNow(url: "app://Echo/echo?a=1&&&b=2&"))?.count == 2)
        #expect(mediator.open("app://Echo/echo?a=1&b=2&c=3") == nil)
    }

    @Test("URL values are strings that actions read as numbers and booleans")
    func coercion() throws {
        try mediator.register(
            target: "Calc",
            actions: [
                Action("add") { _, params in try params.value("a", as: Int.self) + params.value("b", as: Int.self) },
                Action("all") { _, params in try params.value("n", as: [Int].self).reduce(0, +) },
            ])
        #expect(mediator.open("app://Calc/add?a=40&b=2") as? Int == 42)
        #expect(mediator.open("app://Calc/all?n=1&n=2&n=3") as? Int == 6)
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(url: "app://Calc/add?a=4x&b=2") }
        #expect(error?.code == .invalidParameter)
        #expect(error?.description == "Calc/add: invalid parameter \"a\": expected Int, got String \"4x\"")
    }

    @Test("A URL call never creates a cached target, but uses one that exists")
    func noCachingByURL() throws {
        let made = Counter()
        try mediator.register(
            target: "Cachable",
            make: { _ -> Box in
                made.increment()
                return Box()
            },
            actions: [
                Action("id") { box, _ in ObjectIdentifier(box) }
            ])
        _ = mediator.open("app://Cachable/id")
        _ = mediator.open("app://Cachable/id")
        #expect(!mediator.hasCachedInstance(ofTarget: "Cachable"))
        #expect(made.value == 2)
        let cached = mediator.perform(target: "Cachable", action: "id", shouldCacheTarget: true) as? ObjectIdentifier
        #expect(mediator.open("app://Cachable/id") as? ObjectIdentifier == cached)
        #expect(made.value == 3)
    }

    @Test("A target registered as always cached is cached by URL calls too")
    func alwaysCached() throws {
        let made = Counter()
        try mediator.register(
            target: "Sticky", alwaysCached: true,
            make: { _ -> Box in
                made.increment()
                return Box()
            },
            actions: [
                Action("id") { box, _ in ObjectIdentifier(box) }
            ])
        let first = mediator.open("app://Sticky/id") as? ObjectIdentifier
        #expect(mediator.hasCachedInstance(ofTarget: "Sticky"))
        #expect(mediator.open("app://Sticky/id") as? ObjectIdentifier == first)
        #expect(mediator.perform(target: "Sticky", action: "id") as? ObjectIdentifier == first)
        #expect(made.value == 1)
    }

    @Test("URL calls go through the fallbacks like perform")
    func fallbacks() {
        mediator.setFallback { target, action, params in "\(target)/\(action) \(params.keys)" }
        #expect(mediator.open("app://Ghost/boo?x=1") as? String == "Ghost/boo [\"x\"]")
    }

    @Test("The completion gets [\"result\": value], [:] for nothing, [\"error\": error] on failure, and is not called when forbidden")
    func completion() throws {
        try mediator.register(target: "Void", actions: [Action("nothing") { _, _ in nil }])
        let received = ReadWriteLock<[[String: any Sendable]]>([])
        let record: @Sendable ([String: any Sendable]) -> Void = { dictionary in received.withLock { $0.append(dictionary) } }

        #expect(mediator.open("app://Other/ping", completion: record) as? String == "pong")
        #expect(mediator.open("app://Void/nothing", completion: record) == nil)
        #expect(mediator.open("app://Ghost/x", completion: record) == nil)
        #expect(mediator.open("not a url", completion: record) == nil)
        #expect(mediator.open("app://Echo/nativeEcho", completion: record) == nil)

        let calls = received.withLock { $0 }
        #expect(calls.count == 4)
        #expect(calls[0]["result"] as? String == "pong")
        #expect(calls[1].isEmpty)
        #expect((calls[2]["error"] as? MediatorError)?.code == .targetNotFound)
        #expect((calls[3]["error"] as? MediatorError)?.code == .invalidURL)
    }
}
