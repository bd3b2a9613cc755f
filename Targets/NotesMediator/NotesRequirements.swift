import Mediator

/// What this module needs the `Notes` target to provide: every action its keys and wrappers call.
/// A program that wires the modules records it and checks it at start-up.
///
/// ```swift
/// mediator.require(NotesRequirements.all, by: "ExampleNotesMediator")
/// precondition(mediator.verify().isEmpty)
/// ```
public enum NotesRequirements {
    /// Every requirement: ``keys`` and ``byName``.
    public static let all: [Requirement] = keys + byName

    /// The keys this module declares: `notesCreate`, `notesGet`, `notesList`, `notesUpdate` and
    /// `notesExport`. The provider must register those actions with the keys' types.
    public static let keys: [Requirement] = [
        .action(.notesCreate), .action(.notesGet), .action(.notesList), .action(.notesUpdate), .action(.notesExport),
    ]

    /// What the name-based wrappers call, with the params they send: `Notes/create` (the classic
    /// wrapper ``Mediator/notesCreate(token:title:body:tags:)``, which reads a note) and
    /// `Notes/delete` (which has no key). `verify()` compares them with the declared params.
    public static let byName: [Requirement] = [
        .action(
            target: "Notes", action: "create",
            params: [.required("token", .string), .required("title", .string), .required("body", .string), .required("tags", .array(of: .string))],
            result: noteType),
        .action(target: "Notes", action: "delete", params: [.required("token", .string), .required("id", .integer)]),
    ]

    /// A note as the classic wrapper reads it (``Note``'s fields).
    static let noteType = ParameterType.object([
        .required("id", .integer), .required("title", .string), .required("body", .string), .required("tags", .array(of: .string)),
        .required("owner", .string),
    ])
}
