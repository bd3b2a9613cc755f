/// A typed name for one action: its target, its action, the type it takes and the type it returns.
/// Declared once, in a typed extension module that depends only on `Mediator`; providers register
/// against it and callers call through it, and the compiler checks both sides.
///
/// ```swift
/// // NotesMediator (depends on Mediator only)
/// public struct CreateNote: Codable, Sendable { public var token: String; public var title: String }
/// public struct Note: Codable, Sendable { public var id: Int; public var title: String }
///
/// extension ActionKey where Input == CreateNote, Output == Note {
///     public static var notesCreate: Self { Self(target: "Notes", action: "create") }
/// }
///
/// // Notes (the provider)
/// Action<Target_Notes>(.notesCreate) { notes, request in try notes.create(request) }
///
/// // any caller
/// let note = try mediator.callNow(.notesCreate, CreateNote(token: token, title: "hi"))
/// ```
///
/// When caller and provider both use the key, the input and output values are passed as they
/// are, with no dictionary in between. The action stays reachable by name, by URL and from the
/// command line: its params are decoded into `Input` and its result encoded to plain values
/// (dictionaries, arrays, strings, numbers, booleans). Its declared parameters come from `Input`
/// (see ``DeclaresParameters``).
public struct ActionKey<Input: Codable & Sendable, Output: Codable & Sendable>: Sendable, CustomStringConvertible {
    /// The target's name, short (`Notes`) or full (`Target_Notes`).
    public let target: String
    /// The action's name, short (`create`) or full (`Action_create`).
    public let action: String

    /// A key for `target`/`action` taking `Input` and returning `Output`.
    ///
    /// - Parameters:
    ///   - target: the target's name, short or full.
    ///   - action: the action's name, short or full.
    public init(target: String, action: String) {
        self.target = target
        self.action = action
    }

    /// `Notes/create (CreateNote -> Note)`.
    public var description: String {
        "\(target)/\(action) (\(typeName(Input.self)) -> \(typeName(Output.self)))"
    }
}

/// An input type that declares its parameters itself, with descriptions, bounds and defaults,
/// instead of having them read from its `Decodable` conformance.
///
/// ```swift
/// public struct ListNotes: Codable, Sendable, DeclaresParameters {
///     public var token: String
///     public var limit: Int?
///     public static let parameters: [Parameter] = [
///         .required("token", .string, "A session token"),
///         .optional("limit", .integer(minimum: 1, maximum: 100), "How many notes"),
///     ]
/// }
/// ```
///
/// Without it, the parameters of a keyed action are read from the input type's `Decodable`
/// conformance: each key it decodes is a parameter, required when decoded with `decode` and
/// optional with `decodeIfPresent` (what synthesized conformances do for optional properties);
/// `String` is a string, integer types an integer, `Double` and `Float` a number, `Bool` a
/// boolean, arrays of these an array, any other `Decodable` an object with its own fields.
/// ``Mediator/verify()`` reports declared parameters that disagree with the conformance.
public protocol DeclaresParameters {
    /// The parameters, in the order descriptions show them.
    static var parameters: [Parameter] { get }
}

// MARK: - The provider's side

/// The typed body of an action registered against an ``ActionKey``, with its types erased.
struct KeyedImplementation: Sendable {
    /// The key's target name as declared (checked by `verify`).
    let keyTarget: String
    let inputType: ObjectIdentifier
    let outputType: ObjectIdentifier
    let inputTypeName: String
    let outputTypeName: String
    /// Whether the input type declares its parameters itself (``DeclaresParameters``).
    let inputDeclaresParameters: Bool
    /// The parameters as the input type's conformance decodes them, for `verify` to compare.
    let decodedParameters: @Sendable () -> SchemaReader.Reading
    /// Checked params decoded into the input type (by-name, URL and command-line callers), before
    /// the instance is made.
    let decode: @Sendable (Params) throws(MediatorError) -> any Sendable
    /// An output encoded to plain values, for the same callers.
    let encode: @Sendable (any Sendable) throws(MediatorError) -> (any Sendable)?
    let run: TypedRun
    /// The synchronous body with its types intact (a ``TypedBody`` of the key's input and
    /// output): the hot path of a typed call. `nil` for async and main-actor bodies, and when the
    /// input must be checked first (``ActionContract/passesTypedInputAsIs``).
    var direct: (any AnyObject & Sendable)?

    /// The synchronous body, when the caller's types are exactly the key's.
    @inline(__always)
    func direct<Input, Output>(_: Input.Type, _: Output.Type) -> TypedBody<Input, Output>? {
        guard let direct, inputType == ObjectIdentifier(Input.self), outputType == ObjectIdentifier(Output.self) else { return nil }
        // Safe: `direct` is always a `TypedBody` of the registered key's input and output types,
        // and those were just found identical to `Input` and `Output`.
        return unsafeDowncast(direct, to: TypedBody<Input, Output>.self)
    }
}

/// A keyed action's synchronous body, its target type erased and its input and output types
/// kept, so a typed call passes and returns them without existential boxes or casts.
final class TypedBody<Input, Output>: Sendable {
    let body: @Sendable (any TargetInstance, Input) throws -> Output

    init(_ body: @escaping @Sendable (any TargetInstance, Input) throws -> Output) {
        self.body = body
    }
}

/// A typed body: the input and output as existentials of the key's types.
enum TypedRun: Sendable {
    case sync(@Sendable (any TargetInstance, any Sendable) throws -> any Sendable)
    case async(@Sendable (any TargetInstance, any Sendable) async throws -> any Sendable)
    case mainActor(@MainActor @Sendable (any TargetInstance, any Sendable) throws -> any Sendable)

    /// The body with its input bound, as an ordinary action body (the steps that are not the hot
    /// path run it like any other action).
    func bound(to input: any Sendable) -> ActionRun {
        switch self {
        case .sync(let body): .sync { instance, _ in try body(instance, input) }
        case .async(let body): .async { instance, _ in try await body(instance, input) }
        case .mainActor(let body): .mainActor { @MainActor instance, _ in try body(instance, input) }
        }
    }

    /// The body with its input bound and its output encoded by `encode` (for callers by name).
    func bound(to input: any Sendable, encoding encode: @escaping @Sendable (any Sendable) throws(MediatorError) -> (any Sendable)?) -> ActionRun {
        switch self {
        case .sync(let body): .sync { instance, _ in try encode(try body(instance, input)) }
        case .async(let body): .async { instance, _ in try encode(try await body(instance, input)) }
        case .mainActor(let body): .mainActor { @MainActor instance, _ in try encode(try body(instance, input)) }
        }
    }
}
