import TestSupport
import Testing

@testable import Mediator

// verify(): one test per kind of problem, every problem at once and sorted, sentences naming the
// target and action, and nothing for a correct registry. The messages are written by hand.

/// A registry with one well-declared target, `Notes`, plus whatever `extra` targets a test adds.
struct VerifyWorld {
    let mediator = Mediator()
    let makes = Counter()
    let runs = Counter()

    static let list: [Parameter] = [.required("token", .string), .optional("limit", .integer(minimum: 1, maximum: 100), default: 20)]
    static let note: ParameterType = .object([.required("id", .integer), .required("title", .string), .optional("body", .string)])

    init(bad: [Action<ContractBox>] = []) throws {
        let makes = makes
        let runs = runs
        func counted(_ name: String, params: [Parameter]? = nil, result: ParameterType? = nil) -> Action<ContractBox> {
            Action(name, params: params, result: result) { _, _ in
                runs.increment()
                return nil
            }
        }
        let make: @Sendable (Mediator) -> ContractBox = { _ in
            makes.increment()
            return ContractBox()
        }
        try mediator.register(
            target: "Notes", make: make,
            actions: [
                counted("list", params: Self.list, result: .array(of: Self.note)),
                counted("count", params: [.required("token", .string)], result: .integer),
                counted("ratio", result: .number),
                counted("raw"),
            ])
        if !bad.isEmpty { try mediator.register(target: "Bad", make: make, actions: bad) }
    }

    static func action(_ name: String, _ params: [Parameter]? = nil, result: ParameterType? = nil) -> Action<ContractBox> {
        Action(name, params: params, result: result) { _, _ in nil }
    }

    var descriptions: [String] { mediator.verify().map(\.description) }
}

@Suite("verify(): each kind of problem")
struct ContractVerifyTests {
    @Test("A correct registry, with requirements that fit, has no problems; verify runs nothing")
    func correctRegistry() throws {
        let world = try VerifyWorld()
        world.mediator.require(
            [
                .action(target: "Notes", action: "list"),
                .action(target: "Target_Notes", action: "Action_list", params: [.required("token", .string)], result: .array(of: .object)),
                .action(target: "Notes", action: "list", params: [.required("token", .string), .required("limit", .integer)]),
                .action(
                    target: "Notes", action: "list", params: [.required("token", .string)],
                    result: .array(of: .object([.required("id", .integer), .optional("body", .string)]))),
                .action(target: "Notes", action: "count", params: [.required("token", .string)], result: .number),
                .action(target: "Notes", action: "ratio", result: .number),
                .action(target: "Notes", action: "raw"),
            ], by: "Feed")
        #expect(world.mediator.verify().map(\.description) == [])
        #expect(world.makes.value == 0)
        #expect(world.runs.value == 0)
    }

    @Test("A required target that is missing: missingTarget, with the closest name")
    func missingTarget() throws {
        let world = try VerifyWorld()
        world.mediator.require([.action(target: "Note", action: "list")], by: "Feed")
        let problems = world.mediator.verify()
        #expect(
            problems.map(\.description) == [#"Note/list: Feed requires it, but no target "Note" is registered (did you mean "Notes"?); register Target_Note"#])
        #expect(problems.map(\.code) == [.targetNotFound])
        #expect(problems.first?.target == "Note")
        #expect(problems.first?.action == "list")
    }

    @Test("A required action that is missing: missingAction, with the closest name; full names are shown short")
    func missingAction() throws {
        let world = try VerifyWorld()
        world.mediator.require([.action(target: "Target_Notes", action: "Action_lst")], by: "Feed")
        let problems = world.mediator.verify()
        #expect(problems.map(\.description) == [#"Notes/lst: Feed requires it, but target "Notes" has no action "lst" (did you mean "list"?); add the action"#])
        #expect(problems.map(\.code) == [.actionNotFound])
    }

    @Test("Params sent that do not fit the declaration: invalidParameter, one problem per param")
    func paramsMismatch() throws {
        let world = try VerifyWorld()
        world.mediator.require([.action(target: "Notes", action: "list", params: [.required("limit", .string), .optional("color", .string)])], by: "Feed")
        let problems = world.mediator.verify()
        #expect(
            problems.map(\.description) == [
                #"Notes/list: Feed does not send "token" (string), which the action requires; send it"#,
                #"Notes/list: Feed sends "color", which the action does not declare; remove it or declare it"#,
                #"Notes/list: Feed sends "limit" as string, but the action declares integer (1...100); make them agree"#,
            ])
        #expect(problems.allSatisfy { $0.code == .invalidParameter })
    }

    @Test("A result read as another type: resultTypeMismatch, down to a nested field")
    func resultMismatch() throws {
        let world = try VerifyWorld()
        world.mediator.require(
            [
                .action(target: "Notes", action: "count", result: .string),
                .action(target: "Notes", action: "ratio", result: .integer),
                .action(target: "Notes", action: "list", result: .array(of: .object([.required("title", .integer)]))),
            ], by: "Feed")
        #expect(
            world.descriptions == [
                #"Notes/count: Feed reads the result as string, but the action declares integer; make them agree"#,
                #"Notes/list: Feed reads field "title" as integer, but the action declares string; make them agree"#,
                #"Notes/ratio: Feed reads the result as integer, but the action declares number; make them agree"#,
            ])
        #expect(world.mediator.verify().allSatisfy { $0.code == .resultTypeMismatch })
    }

    @Test("A result field read as required that the action may leave out: resultTypeMismatch")
    func optionalResultField() throws {
        let world = try VerifyWorld()
        world.mediator.require([.action(target: "Notes", action: "list", result: .array(of: .object([.required("body", .string)])))], by: "Feed")
        #expect(
            world.descriptions == [
                #"Notes/list: Feed reads field "body" of the elements of the result as required, but the action's result may leave it out; make it optional"#
            ])
    }

    @Test("Typed params or a result required of an action that declares none: undeclaredContract")
    func undeclared() throws {
        let world = try VerifyWorld()
        world.mediator.require(
            [.action(target: "Notes", action: "raw", params: [.required("x", .string)]), .action(target: "Notes", action: "raw", result: .string)],
            by: "Feed")
        let problems = world.mediator.verify()
        #expect(
            problems.map(\.description) == [
                #"Notes/raw: Feed reads its result as string, but the action declares no result; declare it"#,
                #"Notes/raw: Feed requires it with typed params, but the action declares none; declare its params"#,
            ])
        #expect(problems.map(\.code) == [.undeclaredContract, .undeclaredContract])
    }

    @Test("A default of the wrong type or out of range: invalidParameter, with the reason")
    func wrongDefault() throws {
        let world = try VerifyWorld(bad: [
            VerifyWorld.action("wrongDefault", [.optional("n", .integer, default: "x")]),
            VerifyWorld.action("outOfRange", [.optional("n", .integer(minimum: 1, maximum: 10), default: 50)]),
            VerifyWorld.action("nanDefault", [.optional("x", .number, default: Double.nan)]),
        ])
        #expect(
            world.descriptions == [
                #"Bad/nanDefault: the default of parameter "x" does not fit its type (expected number, got Double nan); fix the default or the type"#,
                #"Bad/outOfRange: the default of parameter "n" does not fit its type (expected integer (1...10), got Int 50 (out of range)); fix the default or the type"#,
                #"Bad/wrongDefault: the default of parameter "n" does not fit its type (expected integer, got String "x"); fix the default or the type"#,
            ])
        #expect(world.mediator.verify().allSatisfy { $0.code == .invalidParameter })
    }

    @Test("A default that only text coercion would accept is still a default of the right kind")
    func coercibleDefault() throws {
        let world = try VerifyWorld(bad: [VerifyWorld.action("fine", [.optional("n", .number, default: 1), .optional("t", .array(of: .string), default: "a")])])
        #expect(world.mediator.verify().map(\.description) == [])
    }

    @Test("A required parameter with a default: contradictoryParameters")
    func requiredWithDefault() throws {
        // The public API cannot build one (`.required` takes no default); a declaration built
        // another way can.
        let odd = Parameter(name: "n", type: .integer, isRequired: true, defaultValue: 5, summary: nil)
        let world = try VerifyWorld(bad: [VerifyWorld.action("requiredDefault", [odd])])
        let problems = world.mediator.verify()
        #expect(problems.map(\.description) == [#"Bad/requiredDefault: parameter "n" is required and has a default; make it optional or drop the default"#])
        #expect(problems.map(\.code) == [.invalidParameter])
    }

    @Test("Bounds the wrong way round: contradictoryParameters, for params, elements, fields and results")
    func bounds() throws {
        let world = try VerifyWorld(bad: [
            VerifyWorld.action("integer", [.optional("n", .integer(minimum: 10, maximum: 1))]),
            VerifyWorld.action("number", [.optional("x", .number(minimum: 2, maximum: 1))]),
            VerifyWorld.action("elements", [.optional("ids", .array(of: .integer(minimum: 5, maximum: 0)))]),
            VerifyWorld.action("field", [.optional("o", .object([.required("n", .integer(minimum: 3, maximum: 2))]))]),
            VerifyWorld.action("result", result: .integer(minimum: 3, maximum: 1)),
            VerifyWorld.action("equal", [.optional("n", .integer(minimum: 3, maximum: 3))]),
        ])
        #expect(
            world.descriptions == [
                #"Bad/elements: the elements of parameter "ids" has a minimum (5) above its maximum (0); swap them"#,
                #"Bad/field: field "n" of parameter "o" has a minimum (3) above its maximum (2); swap them"#,
                #"Bad/integer: parameter "n" has a minimum (10) above its maximum (1); swap them"#,
                #"Bad/number: parameter "x" has a minimum (2.0) above its maximum (1.0); swap them"#,
                #"Bad/result: the result has a minimum (3) above its maximum (1); swap them"#,
            ])
    }

    @Test("A NaN bound is reported, one-sided or not")
    func nonFiniteBounds() throws {
        let world = try VerifyWorld(bad: [
            VerifyWorld.action("nanBoth", [.optional("x", .number(minimum: .nan, maximum: 1))]),
            VerifyWorld.action("nanMinimum", [.optional("x", .number(minimum: .nan))]),
        ])
        let problems = world.mediator.verify()
        #expect(problems.map(\.action) == ["nanBoth", "nanMinimum"])
        #expect(problems.allSatisfy { $0.code == .invalidParameter && $0.reason.contains(#"parameter "x""#) })
    }

    @Test("A parameter name that cannot travel in URLs or command lines: invalidName")
    func invalidParameterName() throws {
        let world = try VerifyWorld(bad: [
            VerifyWorld.action("space", [.optional("a b", .string)]),
            VerifyWorld.action("empty", [.optional("", .string)]),
            VerifyWorld.action("long", [.optional(String(repeating: "x", count: 101), .string)]),
            VerifyWorld.action("fine", [.optional("a-b.c_9", .string), .optional(String(repeating: "x", count: 100), .string)]),
        ])
        let problems = world.mediator.verify()
        #expect(problems.map(\.action) == ["empty", "long", "space"])
        #expect(problems.first?.description == #"Bad/empty: parameter name "" is empty; use letters, digits, "_", "-" or ".""#)
        #expect(problems.last?.description == #"Bad/space: parameter name "a b" contains " "; use letters, digits, "_", "-" or ".""#)
        // The long name is shown cut short; the reason is whole.
        let long = try #require(problems.dropFirst().first?.description)
        #expect(long.hasPrefix(#"Bad/long: parameter name "xxxxxxxxxx"#))
        #expect(long.hasSuffix(#" is longer than 100 bytes; use letters, digits, "_", "-" or ".""#))
        #expect(long.count < 200)
        #expect(problems.allSatisfy { $0.code == .invalidName })
    }

    @Test(
        "A parameter name's offending character is named whole, with its Unicode scalars unless it is printable ASCII",
        arguments: [
            ("na\u{EF}ve", "\"\u{EF}\" (U+00EF)"),
            ("nai\u{308}ve", "\"i\u{308}\" (U+0069 U+0308)"),
            ("\u{212A}elvin", "\"\u{212A}\" (U+212A)"),
            ("family\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", #""👨\u{200D}👩\u{200D}👧" (U+1F468 U+200D U+1F469 U+200D U+1F467)"#),
            ("zero\u{200B}width", #""\u{200B}" (U+200B)"#),
            ("line\r\nbreak", #""\r\n" (U+000D U+000A)"#),
            ("a b", #"" ""#),
        ])
    func offendingCharacter(name: String, named: String) throws {
        let world = try VerifyWorld(bad: [VerifyWorld.action("take", [.optional(name, .string)])])
        let description = try #require(world.mediator.verify().first?.description)
        let expected = "Bad/take: parameter name \(describe(name, limit: 60)) contains \(named); use letters, digits, \"_\", \"-\" or \".\""
        // Compared by bytes: `==` would take "\u{EF}" and "i\u{308}" for the same text.
        #expect(description.utf8.elementsEqual(expected.utf8), "\(description)")
    }

    @Test("A character of many scalars is named with the first few: the message stays short")
    func longCharacter() throws {
        let name = "e" + String(repeating: "\u{301}", count: 49)
        let world = try VerifyWorld(bad: [VerifyWorld.action("take", [.optional(name, .string)])])
        let description = try #require(world.mediator.verify().first?.description)
        #expect(description.hasSuffix(#" (U+0065 U+0301 U+0301 U+0301 U+0301 U+0301 U+0301 U+0301 …); use letters, digits, "_", "-" or ".""#), "\(description)")
        #expect(description.unicodeScalars.count < 200)
    }

    @Test("A requirement naming a target or action that breaks the naming rules: invalidName")
    func invalidRequirementName() throws {
        let world = try VerifyWorld()
        world.mediator.require([.action(target: "No tes", action: "list"), .action(target: "Notes", action: "a/b")], by: "Feed")
        let problems = world.mediator.verify()
        #expect(
            problems.map(\.description) == [
                #"No tes/list: Feed requires a target with an invalid name: names use only ASCII letters, digits, "_", "-" and "." (compared byte for byte); fix the requirement"#,
                #"Notes/a/b: Feed requires an action with an invalid name: names use only ASCII letters, digits, "_", "-" and "." (compared byte for byte); fix the requirement"#,
            ])
        #expect(problems.allSatisfy { $0.code == .invalidName })
    }

    @Test("Every problem is returned at once, sorted by target, action and message, each a sentence that names its target and action")
    func allAtOnce() throws {
        let world = try VerifyWorld(bad: [
            VerifyWorld.action("dup", [.optional("a", .string, default: 1)]),
            VerifyWorld.action("zzz", [.optional("n", .integer(minimum: 2, maximum: 1)), .optional("a b", .string)]),
        ])
        world.mediator.require(
            [
                .action(target: "Zoo", action: "x"), .action(target: "Notes", action: "count", result: .string), .action(target: "Notes", action: "lst"),
                .action(target: "Apes", action: "x"),
            ], by: "Feed")
        world.mediator.require([.action(target: "Notes", action: "raw", params: [])], by: "Alpha")
        let problems = world.mediator.verify()
        #expect(
            problems.map(\.description) == [
                #"Apes/x: Feed requires it, but no target "Apes" is registered; register Target_Apes"#,
                #"Bad/dup: the default of parameter "a" does not fit its type (expected string, got Int 1); fix the default or the type"#,
                #"Bad/zzz: parameter "n" has a minimum (2) above its maximum (1); swap them"#,
                #"Bad/zzz: parameter name "a b" contains " "; use letters, digits, "_", "-" or ".""#,
                #"Notes/count: Feed reads the result as string, but the action declares integer; make them agree"#,
                #"Notes/lst: Feed requires it, but target "Notes" has no action "lst" (did you mean "list"?); add the action"#,
                #"Notes/raw: Alpha requires it with typed params, but the action declares none; declare its params"#,
                #"Zoo/x: Feed requires it, but no target "Zoo" is registered; register Target_Zoo"#,
            ])
        for problem in problems {
            let target = try #require(problem.target)
            let action = try #require(problem.action)
            #expect(problem.description.hasPrefix("\(target)/\(action): "))
            #expect(!problem.description.contains("\n"))
        }
    }

    @Test("Requirements of several modules are all checked, each naming its module")
    func severalModules() throws {
        let world = try VerifyWorld()
        world.mediator.require([.action(target: "Notes", action: "lst")], by: "Feed")
        world.mediator.require([.action(target: "Notes", action: "lst")], by: "Inbox")
        #expect(
            world.descriptions == [
                #"Notes/lst: Feed requires it, but target "Notes" has no action "lst" (did you mean "list"?); add the action"#,
                #"Notes/lst: Inbox requires it, but target "Notes" has no action "lst" (did you mean "list"?); add the action"#,
            ])
    }

    @Test("A problem's description is one line even when names carry control characters")
    func oneLine() {
        #expect(MediatorError(.targetNotFound, target: "A\nB", action: "x", reason: "m").description == #"A\nB/x: m"#)
        #expect(MediatorError(.targetNotFound, reason: "m").description == "m")
    }
}
