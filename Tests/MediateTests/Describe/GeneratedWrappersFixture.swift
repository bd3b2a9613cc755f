import Mediator

// The targets the generated-wrappers test generates wrappers for besides the example modules.
// Between them they declare every parameter type, every result shape, async actions, names that
// are Swift keywords or not identifiers, names that collide, a name `Mediator` already has, and
// an action without declared parameters. Each action answers from what it was sent, so a wrapper
// that sends a wrong key or value gives a different answer from the call by name.
//
// Compiled twice: into this test module (to generate the wrappers) and into the program of the
// temporary package (to run them), which copies this file.

/// A Swift type only in-process callers can send (for a `value` parameter and result).
struct SpecimenHandle: Sendable, Equatable {
    let name: String
}

/// A target declaring every kind of parameter and result (see the file's comment).
final class Target_Specimen: MediatorTarget {
    static let targetSummary: String? = "Declares every kind of parameter and result"

    static let actions: [Action<Target_Specimen>] = [
        Action(
            "everything", summary: "Every parameter type, echoed back",
            params: [
                .required("text", .string, "Some text"),
                .required("count", .integer(minimum: 0, maximum: 1_000), "A count"),
                .required("ratio", .number, "A ratio"),
                .required("flag", .boolean, "A flag"),
                .required("names", .array(of: .string), "Some names"),
                .optional("scores", .array(of: .integer)),
                .optional("weights", .array(of: .number(minimum: 0, maximum: 1)), "Weights from 0 to 1"),
                .optional("switches", .array(of: .boolean)),
                .optional("grid", .array(of: .array(of: .integer)), "Rows of integers"),
                .optional("options", .object, "Any object"),
                .optional("point", .object(pointFields), "A point"),
                .optional("handle", .value(SpecimenHandle.self), "A handle (in-process only)"),
                .optional("limit", .integer(minimum: 1, maximum: 100), default: 20, "At most this many"),
            ],
            result: .object([
                .required("text", .string, "The text"),
                .required("count", .integer),
                .required("ratio", .number),
                .required("flag", .boolean),
                .required("names", .array(of: .string)),
                .optional("scores", .array(of: .integer)),
                .optional("weights", .array(of: .number)),
                .optional("switches", .array(of: .boolean)),
                .optional("grid", .array(of: .array(of: .integer))),
                .optional("optionKeys", .array(of: .string), "The keys of `options`, sorted"),
                .optional("point", .object(pointFields)),
                .optional("handleName", .string),
                .required("limit", .integer),
                .required("received", .array(of: .object([.required("key", .string), .required("type", .string)])), "What arrived"),
                .optional("options", .object, "Not decodable: left out of the struct"),
            ])
        ) { _, params in
            var result: [String: any Sendable] = [
                "text": try params.value("text", as: String.self),
                "count": try params.value("count", as: Int.self),
                "ratio": try params.value("ratio", as: Double.self),
                "flag": try params.value("flag", as: Bool.self),
                "names": try params.value("names", as: [String].self),
                "limit": try params.value("limit", as: Int.self),
                "received": params.keys.map { key in ["key": key, "type": "\(type(of: params[key] ?? "nil" as any Sendable))"] },
            ]
            result["scores"] = try params.valueIfPresent("scores", as: [Int].self)
            result["weights"] = try params.valueIfPresent("weights", as: [Double].self)
            result["switches"] = try params.valueIfPresent("switches", as: [Bool].self)
            result["grid"] = try params.valueIfPresent("grid", as: [[Int]].self)
            result["optionKeys"] = try params.valueIfPresent("options", as: [String: any Sendable].self).map { $0.keys.sorted() }
            result["point"] = params["point"]
            result["handleName"] = try params.valueIfPresent("handle", as: SpecimenHandle.self)?.name
            return result
        },
        Action(
            "keywords", summary: "Names that are keywords, not identifiers, or taken twice",
            params: [
                .required("default", .integer, "A keyword"),
                .required("in", .string, "Another keyword"),
                .optional("self", .boolean, "The hardest keyword"),
                .optional("first-name", .string, "Not an identifier"),
                .optional("firstName", .string, "The same identifier once made one"),
                .optional("2fa", .string, "Starts with a digit"),
                .optional("params", .string, "The name the generated code's local would take"),
                .optional("class", .string),
            ],
            result: .object([
                .required("default", .integer),
                .required("in", .string),
                .optional("self", .boolean),
                .optional("first-name", .string),
                .optional("firstName", .string),
                .optional("2fa", .string),
                .optional("Type", .string),
                .optional("string", .object([.required("value", .string)]), "A nested struct that cannot be called String"),
            ])
        ) { _, params in
            var result: [String: any Sendable] = ["default": try params.value("default", as: Int.self), "in": try params.value("in", as: String.self)]
            for key in ["self", "first-name", "firstName", "2fa"] { result[key] = params[key] }
            result["Type"] = try params.valueIfPresent("class", as: String.self)
            result["string"] = try params.valueIfPresent("params", as: String.self).map { ["value": $0] as [String: any Sendable] }
            return result
        },
        Action(
            "oddities", summary: "Names a string literal must escape,\nand a summary on two lines",
            params: [
                .required("naïve \"quoted\"\\\n", .string, "Quotes, a backslash, a line break and a letter outside ASCII"),
                .optional("--", .integer, "No letter or digit"),
                .optional("_", .boolean, "An underscore alone"),
            ],
            result: .object([.required("naïve", .string), .optional("--", .integer), .optional("_", .boolean)])
        ) { _, params in
            var result: [String: any Sendable] = ["naïve": try params.value("naïve \"quoted\"\\\n", as: String.self)]
            result["--"] = params["--"]
            result["_"] = params["_"]
            return result
        },
        Action("sum", summary: "The sum, awaited", params: [.required("numbers", .array(of: .integer))], result: .integer) { _, params async throws in
            await Task.yield()
            return try params.value("numbers", as: [Int].self).reduce(0, +)
        },
        Action(
            "stats", summary: "Count and mean, awaited", params: [.required("values", .array(of: .number))],
            result: .object([.required("count", .integer), .required("mean", .number), .optional("note", .string)])
        ) { _, params async throws in
            await Task.yield()
            let values = try params.value("values", as: [Double].self)
            var result: [String: any Sendable] = ["count": values.count, "mean": values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)]
            if values.isEmpty { result["note"] = "no values" }
            return result
        },
        Action("shout", summary: "The text in capitals", params: [.required("text", .string)], result: .string) { _, params in
            try params.value("text", as: String.self).uppercased()
        },
        Action("half", summary: "Half the value", params: [.required("value", .number)], result: .number) { _, params in
            try params.value("value", as: Double.self) / 2
        },
        Action("isEven", summary: "Whether the value is even", params: [.required("value", .integer)], result: .boolean) { _, params in
            try params.value("value", as: Int.self).isMultiple(of: 2)
        },
        Action("words", summary: "The words of the text", params: [.required("text", .string)], result: .array(of: .string)) { _, params in
            try params.value("text", as: String.self).split(separator: " ").map(String.init)
        },
        Action(
            "matrix", summary: "An identity matrix", params: [.required("size", .integer(minimum: 1, maximum: 4))],
            result: .array(of: .array(of: .number))
        ) { _, params in
            let size = try params.value("size", as: Int.self)
            return (0..<size).map { row in (0..<size).map { column in row == column ? 1.0 : 0.0 } }
        },
        Action(
            "points", summary: "Points on the diagonal", params: [.required("count", .integer(minimum: 0, maximum: 10))],
            result: .array(of: .object([.required("x", .integer), .required("y", .integer)]))
        ) { _, params in
            (0..<(try params.value("count", as: Int.self))).map { ["x": $0, "y": $0] as [String: any Sendable] }
        },
        Action("anything", summary: "An object of any shape", params: [.optional("key", .string)], result: .object) { _, params in
            ["key": try params.value("key", as: String.self, default: "none"), "size": params.count] as [String: any Sendable]
        },
        Action(
            "handle", summary: "A handle, which only Swift code can hold", params: [.required("name", .string)],
            result: .value(SpecimenHandle.self), localOnly: true
        ) { _, params in
            SpecimenHandle(name: try params.value("name", as: String.self))
        },
        Action("untyped", summary: "Declares parameters but no result", params: [.required("value", .string)]) { _, params in
            try params.value("value", as: String.self) + "!"
        },
        Action("legacy", summary: "Declares no parameters: takes anything") { _, params in
            params.keys.joined(separator: ",")
        },
        Action("nothing", params: [], result: .string) { _, params in
            "nothing (\(params.count))"
        },
        Action("get-by.id", summary: "Ten times the id", params: [.required("id", .integer)], result: .integer) { _, params in
            try params.value("id", as: Int.self) * 10
        },
        Action("getById", summary: "A hundred times the id", params: [.required("id", .integer)], result: .integer) { _, params in
            try params.value("id", as: Int.self) * 100
        },
    ]

    private static let pointFields: [Parameter] = [
        .required("x", .number), .required("y", .number), .optional("label", .string),
    ]

    /// Registers `Specimen`, and `Registry`, whose action `description` would give a method
    /// named as a member of `Mediator` (`registryDescription`).
    static func register(in mediator: Mediator) throws(MediatorError) {
        try mediator.register(Target_Specimen.self) { _ in Target_Specimen() }
        try mediator.register(
            target: "Registry", summary: "A name Mediator already has",
            actions: [Action("description", summary: "A fixed text", params: [], result: .string) { _, _ in "the registry" }])
    }
}
