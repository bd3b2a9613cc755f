import Mediator
import TestSupport
import Testing

@Suite("Registration")
struct RegistrationTests {
    @Test("Registering a target name twice is an error naming the duplicate")
    func duplicateTarget() throws {
        let mediator = Mediator()
        try mediator.register(target: "Notes", actions: [Action("a") { _, _ in 1 }])
        let error = #expect(throws: MediatorError.self) {
            try mediator.register(target: "Target_Notes", actions: [Action("b") { _, _ in 2 }])
        }
        #expect(error?.code == .duplicateTarget)
        #expect(error?.target == "Notes")
        #expect(error?.description.contains("\"Notes\" is already registered") == true)
        // The first registration is untouched.
        #expect(mediator.perform(target: "Notes", action: "a") as? Int == 1)
        #expect(!mediator.canPerform(target: "Notes", action: "b"))
    }

    @Test("An action name twice in one target is an error naming it, and nothing is registered")
    func duplicateAction() {
        let mediator = Mediator()
        let error = #expect(throws: MediatorError.self) {
            try mediator.register(
                target: "Notes",
                actions: [
                    Action("create") { _, _ in 1 }, Action("Action_create") { _, _ in 2 },
                ])
        }
        #expect(error?.code == .duplicateAction)
        #expect(error?.target == "Notes")
        #expect(error?.action == "create")
        #expect(mediator.targets.isEmpty)
    }

    // MARK: - Parameters declared twice

    @Test("A parameter declared twice is refused (duplicateParameter), naming target, action and parameter, and nothing is registered")
    func duplicateParameter() {
        let mediator = Mediator()
        let error = #expect(throws: MediatorError.self) {
            try mediator.register(target: "Notes", actions: [Action("ok") { _, _ in nil }, Action("create", params: declaredTwice) { _, _ in nil }])
        }
        #expect(error?.code == .duplicateParameter)
        #expect(error?.target == "Notes")
        #expect(error?.action == "create")
        #expect(error?.parameter == "a")
        #expect(error?.description == #"Notes/create: parameter "a" is declared twice; keep one"#)
        #expect(mediator.targets.isEmpty)
    }

    @Test("Every way of registering refuses a parameter declared twice: target types, main-actor targets, async factories, typed keys, addActions")
    @MainActor
    func duplicateParameterEverywhere() throws {
        let mediator = Mediator()
        let refusals = [
            #expect(throws: MediatorError.self) { try mediator.register(Target_DeclaresTwice.self) { _ in Target_DeclaresTwice() } },
            #expect(throws: MediatorError.self) { try mediator.register(Target_ScreenDeclaresTwice.self) { _ in Target_ScreenDeclaresTwice() } },
            #expect(throws: MediatorError.self) {
                try mediator.register(target: "Feed", make: { _ async in Box() }, actions: [Action<Box>("load", params: declaredTwice) { _, _ in nil }])
            },
            #expect(throws: MediatorError.self) {
                try mediator.register(target: "Keyed", make: { _ in Box() }, actions: [Action<Box>(.declaresTwice) { _, input in input.a }])
            },
        ]
        #expect(
            refusals.map { $0?.description } == [
                #"DeclaresTwice/take: parameter "a" is declared twice; keep one"#,
                #"ScreenDeclaresTwice/take: parameter "a" is declared twice; keep one"#,
                #"Feed/load: parameter "a" is declared twice; keep one"#,
                #"Keyed/take: parameter "a" is declared twice; keep one"#,
            ])
        #expect(refusals.allSatisfy { $0?.code == .duplicateParameter })
        #expect(mediator.targets.isEmpty)

        try mediator.register(target: "Existing", actions: [Action("keep") { _, _ in 1 }])
        let added = #expect(throws: MediatorError.self) {
            try mediator.addActions([Action<Mediator>("take", params: declaredTwice) { _, _ in nil }], toTarget: "Existing")
        }
        #expect(added?.description == #"Existing/take: parameter "a" is declared twice; keep one"#)
        #expect(mediator.target(named: "Existing")?.actions.map(\.name) == ["keep"])
    }

    @Test("A field declared twice in a declared object is refused the same way, in the params or in the result")
    func duplicateField() {
        let mediator = Mediator()
        let twice: ParameterType = .object([.required("a", .string), .optional("a", .integer)])
        let inParams = #expect(throws: MediatorError.self) {
            try mediator.register(target: "Notes", actions: [Action("create", params: [.optional("o", twice)]) { _, _ in nil }])
        }
        #expect(inParams?.code == .duplicateParameter)
        #expect(inParams?.parameter == "o")
        #expect(inParams?.description == #"Notes/create: field "a" of parameter "o" is declared twice; keep one"#)
        let inElements = #expect(throws: MediatorError.self) {
            try mediator.register(
                target: "Notes", actions: [Action("create", params: [.optional("o", .array(of: .object([.optional("p", twice)])))]) { _, _ in nil }])
        }
        #expect(inElements?.description == #"Notes/create: field "a" of field "p" of the elements of parameter "o" is declared twice; keep one"#)
        let inResult = #expect(throws: MediatorError.self) {
            try mediator.register(target: "Notes", actions: [Action("get", result: twice) { _, _ in nil }])
        }
        #expect(inResult?.code == .duplicateParameter)
        #expect(inResult?.parameter == nil)
        #expect(inResult?.description == #"Notes/get: field "a" of the result is declared twice; keep one"#)
        #expect(mediator.targets.isEmpty)
    }

    @Test("Parameter names are compared byte for byte: a look-alike or another normalisation is another name")
    func parameterNamesComparedByBytes() throws {
        let mediator = Mediator()
        try mediator.register(
            target: "Notes",
            actions: [
                Action("kelvin", params: [.optional("K", .string), .optional("\u{212A}", .string)]) { _, _ in nil },
                Action("accent", params: [.optional("caf\u{E9}", .string), .optional("cafe\u{301}", .string)]) { _, _ in nil },
                Action("fields", result: .object([.optional("K", .string), .optional("\u{212A}", .string)])) { _, _ in nil },
            ])
        #expect(mediator.target(named: "Notes")?.actions.count == 3)
    }

    @Test("replacingExisting swaps a target and drops its cached instance")
    func replace() throws {
        let mediator = Mediator()
        let first = Box()
        let second = Box()
        try mediator.register(target: "Swap", make: { _ in first }, actions: [Action("which") { box, _ in box === first ? "first" : "second" }])
        #expect(mediator.perform(target: "Swap", action: "which", shouldCacheTarget: true) as? String == "first")
        try mediator.register(
            target: "Swap", replacingExisting: true, make: { _ in second },
            actions: [
                Action("which") { box, _ in box === second ? "second" : "stale" }
            ])
        #expect(!mediator.hasCachedInstance(ofTarget: "Swap"))
        #expect(mediator.perform(target: "Swap", action: "which", shouldCacheTarget: true) as? String == "second")
    }

    @Test("Invalid names are refused with the reason", arguments: ["", "Not es", "a/b", "x?y", "ünï"])
    func invalidNames(name: String) {
        let mediator = Mediator()
        let targetError = #expect(throws: MediatorError.self) {
            try mediator.register(target: name, actions: [Action("ok") { _, _ in nil }])
        }
        #expect(targetError?.code == .invalidName)
        let actionError = #expect(throws: MediatorError.self) {
            try mediator.register(target: "Fine", actions: [Action(name) { _, _ in nil }])
        }
        #expect(actionError?.code == .invalidName)
        #expect(mediator.targets.isEmpty)
    }

    @Test("Actions can be added to a registered target; duplicates and other instance types are refused")
    func addActions() throws {
        let mediator = Mediator()
        try mediator.register(Target_Counter.self) { _ in Target_Counter() }
        try mediator.addActions([Action<Target_Counter>("triple") { _, params in try params.value("n", as: Int.self) * 3 }], toTarget: "Target_Counter")
        #expect(mediator.perform(target: "Counter", action: "triple", params: ["n": 2]) as? Int == 6)

        let duplicate = #expect(throws: MediatorError.self) {
            try mediator.addActions([Action<Target_Counter>("double") { _, _ in 0 }], toTarget: "Counter")
        }
        #expect(duplicate?.code == .duplicateAction)
        let mismatch = #expect(throws: MediatorError.self) {
            try mediator.addActions([Action<Box>("other") { _, _ in 0 }], toTarget: "Counter")
        }
        #expect(mismatch?.code == .targetTypeMismatch)
        let missing = #expect(throws: MediatorError.self) {
            try mediator.addActions([Action<Box>("other") { _, _ in 0 }], toTarget: "Nobody")
        }
        #expect(missing?.code == .targetNotFound)
        #expect(mediator.target(named: "Counter")?.actions.map(\.name) == ["double", "fail", "identity", "nothing", "triple"])
    }

    @Test("Unregistering removes the target")
    func unregister() throws {
        let mediator = Mediator()
        try mediator.register(target: "Temp", actions: [Action("x") { _, _ in 1 }])
        #expect(mediator.unregister(target: "Target_Temp"))
        #expect(!mediator.unregister(target: "Temp"))
        #expect(mediator.perform(target: "Temp", action: "x") == nil)
    }

    @Test("Registration while 4 threads dispatch: every registration lands and no call fails")
    func registrationDuringDispatch() throws {
        let mediator = Mediator()
        try mediator.register(target: "Steady", actions: [Action("ping") { _, params in try params.value("n", as: Int.self) }])
        let failures = Counter()
        let calls = Counter()
        let registering = ReadWriteLock(true)
        onThreads(5) { index in
            if index == 0 {
                for number in 0..<300 {
                    do {
                        try mediator.register(target: "Dynamic\(number)", actions: [Action("value") { _, _ in number }])
                    } catch {
                        failures.increment()
                    }
                }
                registering.withLock { $0 = false }
            } else {
                var n = 0
                while registering.withReadLock({ $0 }) || n < 1_000 {
                    if mediator.perform(target: "Steady", action: "ping", params: ["n": n]) as? Int != n {
                        failures.increment()
                    }
                    // Also call targets that may or may not be registered yet: never a crash.
                    _ = mediator.perform(target: "Dynamic\(n % 300)", action: "value")
                    n += 1
                }
                calls.increment(by: n)
            }
        }
        #expect(failures.value == 0)
        #expect(calls.value >= 4_000)
        for number in 0..<300 {
            #expect(mediator.perform(target: "Dynamic\(number)", action: "value") as? Int == number)
        }
    }
}

// MARK: - Fixtures: a parameter declared twice

/// Params declaring "a" twice: a JSON Schema of them would repeat the property and its required name.
private let declaredTwice: [Parameter] = [.required("a", .string), .optional("a", .integer)]

final class Target_DeclaresTwice: MediatorTarget {
    static let actions: [Action<Target_DeclaresTwice>] = [Action("take", params: declaredTwice) { _, _ in nil }]
}

final class Target_ScreenDeclaresTwice: MainActorTarget {
    static let actions: [Action<Target_ScreenDeclaresTwice>] = [Action("take", params: declaredTwice) { _, _ in nil }]
}

/// An input type whose own declaration names "a" twice.
struct DeclaresTwiceInput: Codable, Sendable, DeclaresParameters {
    var a: String
    static let parameters: [Parameter] = [.required("a", .string), .optional("a", .string)]
}

extension ActionKey where Input == DeclaresTwiceInput, Output == String {
    static var declaresTwice: Self { Self(target: "Keyed", action: "take") }
}
