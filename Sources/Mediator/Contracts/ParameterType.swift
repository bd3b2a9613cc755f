/// The declared type of a parameter or of a result: what a caller must send, what validation
/// accepts and coerces, and what descriptions and JSON Schema show.
///
/// ```swift
/// Parameter.required("title", .string, "The note's title")
/// Parameter.optional("limit", .integer(minimum: 1, maximum: 100), default: 20)
/// Parameter.optional("tags", .array(of: .string))
/// Parameter.optional("onDone", .value(NoteCallback.self), "Called when saved (in-process only)")
/// ```
///
/// Text from URLs and command lines is coerced as ``Params`` coerces it (`"42"` to an integer,
/// `"true"` to a boolean, one value to a one-element array), and the coerced value is what the
/// action reads. See <doc:ContractsAndTypedKeys>.
public struct ParameterType: Sendable, Equatable, CustomStringConvertible {
    /// What the type is; internal cases may grow without breaking users.
    package indirect enum Kind: Sendable, Equatable {
        case string
        case integer(minimum: Int?, maximum: Int?)
        case number(minimum: Double?, maximum: Double?)
        case boolean
        case array(ParameterType)
        /// A JSON-like object (`[String: any Sendable]` or ``Params``); `nil` properties for any
        /// object, else its declared fields.
        case object([Parameter]?)
        /// Any `Sendable` value of one Swift type, for in-process calls (a callback, a view).
        case value(typeName: String, type: ObjectIdentifier)
    }

    package let kind: Kind
    /// For ``value(_:)``: whether a value is of the declared Swift type.
    let accepts: (@Sendable (Any) -> Bool)?

    init(_ kind: Kind, accepts: (@Sendable (Any) -> Bool)? = nil) {
        self.kind = kind
        self.accepts = accepts
    }

    /// Text (`String`); numbers are not turned into text.
    public static let string = ParameterType(.string)
    /// A whole number (`Int`): integers, integral `Double`s and decimal text such as `"-7"`.
    public static let integer = ParameterType(.integer(minimum: nil, maximum: nil))
    /// A number (`Double`): numbers and decimal text such as `"1.5"`; never NaN or infinite.
    public static let number = ParameterType(.number(minimum: nil, maximum: nil))
    /// `true` or `false` (`Bool`); as text, exactly `true`, `false`, `1` or `0`.
    public static let boolean = ParameterType(.boolean)
    /// Any object: a `[String: any Sendable]` dictionary or ``Params``.
    public static let object = ParameterType(.object(nil))

    /// A whole number within bounds (either may be left out).
    ///
    /// ```swift
    /// Parameter.optional("limit", .integer(minimum: 1, maximum: 100), default: 20)
    /// ```
    ///
    /// - Parameters:
    ///   - minimum: the smallest accepted value, if any.
    ///   - maximum: the largest accepted value, if any.
    /// - Returns: the integer type; a value out of bounds is ``MediatorError/Code/invalidParameter``.
    public static func integer(minimum: Int? = nil, maximum: Int? = nil) -> ParameterType {
        ParameterType(.integer(minimum: minimum, maximum: maximum))
    }

    /// A number within bounds (either may be left out).
    ///
    /// - Parameters:
    ///   - minimum: the smallest accepted value, if any.
    ///   - maximum: the largest accepted value, if any.
    /// - Returns: the number type; a value out of bounds is ``MediatorError/Code/invalidParameter``.
    public static func number(minimum: Double? = nil, maximum: Double? = nil) -> ParameterType {
        ParameterType(.number(minimum: minimum, maximum: maximum))
    }

    /// An array whose elements are all of `element`, read as `[String]`, `[Int]`, `[Double]`,
    /// `[Bool]` or `[any Sendable]`.
    ///
    /// - Parameter element: the type of every element.
    /// - Returns: the array type; a single value is accepted as a one-element array.
    public static func array(of element: ParameterType) -> ParameterType {
        ParameterType(.array(element))
    }

    /// An object with declared fields, as a result type or a nested input.
    ///
    /// ```swift
    /// let note: ParameterType = .object([.required("id", .integer), .required("title", .string)])
    /// ```
    ///
    /// - Parameter properties: the object's fields.
    /// - Returns: the object type.
    public static func object(_ properties: [Parameter]) -> ParameterType {
        ParameterType(.object(properties))
    }

    /// Any `Sendable` value of the Swift type `type`: callbacks, views, handles. Only in-process
    /// callers can send one (URLs and command lines send text).
    ///
    /// ```swift
    /// typealias NoteCallback = @Sendable (Int) -> Void
    /// Parameter.optional("onDone", .value(NoteCallback.self))
    /// ```
    ///
    /// - Parameter type: the Swift type the value must have.
    /// - Returns: the value type, shown by the type's name.
    public static func value<T: Sendable>(_ type: T.Type) -> ParameterType {
        ParameterType(.value(typeName: typeName(T.self), type: ObjectIdentifier(T.self)), accepts: { $0 is T })
    }

    /// Whether this type says more than a Swift type can: a bound on a number, or a default for
    /// a field, here or in an element or field at any depth.
    var saysMoreThanSwiftTypes: Bool {
        switch kind {
        case .integer(let minimum, let maximum): minimum != nil || maximum != nil
        case .number(let minimum, let maximum): minimum != nil || maximum != nil
        case .array(let element): element.saysMoreThanSwiftTypes
        case .object(let fields?): fields.contains(where: \.saysMoreThanSwiftTypes)
        case .string, .boolean, .object(nil), .value: false
        }
    }

    /// The type in words: `string`, `integer (1...100)`, `array of string`, `object`,
    /// `value of type (Int) -> ()`.
    public var description: String {
        switch kind {
        case .string: return "string"
        case .integer(let minimum, let maximum): return "integer" + Self.bounds(minimum, maximum)
        case .number(let minimum, let maximum): return "number" + Self.bounds(minimum, maximum)
        case .boolean: return "boolean"
        case .array(let element): return "array of \(element)"
        case .object(nil): return "object"
        case .object(let properties?):
            return "object {" + properties.map { "\($0.name)\($0.isRequired ? "" : "?"): \($0.type)" }.joined(separator: ", ") + "}"
        case .value(let name, _): return "value of type \(name)"
        }
    }

    /// Two types are equal when they accept the same values (a `value` type by its Swift type).
    ///
    /// - Parameters:
    ///   - lhs: one value.
    ///   - rhs: the other.
    public static func == (lhs: ParameterType, rhs: ParameterType) -> Bool {
        lhs.kind == rhs.kind
    }

    private static func bounds<T>(_ minimum: T?, _ maximum: T?) -> String {
        switch (minimum, maximum) {
        case (nil, nil): ""
        case (let minimum?, let maximum?): " (\(minimum)...\(maximum))"
        case (let minimum?, nil): " (\(minimum)...)"
        case (nil, let maximum?): " (...\(maximum))"
        }
    }
}

extension Parameter {
    /// Whether this parameter says more than a Swift type can: a default, or a bound at any depth
    /// (``ActionContract/passesTypedInputAsIs``).
    var saysMoreThanSwiftTypes: Bool { defaultValue != nil || type.saysMoreThanSwiftTypes }
}
