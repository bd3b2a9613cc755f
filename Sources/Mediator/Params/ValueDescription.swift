// Helpers shared by params, the result decoder, error messages and the command-line layer: how a
// value is recognised as "nothing" and how it is shown in a message.

/// Whether `value` is an `Optional` holding nothing (possibly nested). Shared by params, the
/// result decoder and the command-line layer.
package func isNil(_ value: Any) -> Bool {
    (value as? any OptionalValue)?.isNone ?? false
}

/// Lets `isNil` look inside an `Optional` boxed in an existential.
protocol OptionalValue {
    var isNone: Bool { get }
}

extension Optional: OptionalValue {
    var isNone: Bool {
        switch self {
        case .none: true
        case .some(let wrapped): (wrapped as? any OptionalValue)?.isNone ?? false
        }
    }
}

/// A short, readable name for a type (`Int`, `Array<String>`, `Note`): in error messages, and as
/// the default name of a target type. The text `String(describing:)` gives for a type, without its
/// search for a description conformance (a metatype has none), whose first run scans every
/// conformance record loaded: ~1.3 million instructions at start-up for the first target type.
func typeName(_ type: Any.Type) -> String {
    _typeName(type, qualified: false)
}

/// A value as an error message shows it: strings quoted, cut to `limit` Unicode scalars, and every
/// control or format character escaped (see ``oneLine(_:limit:)``): the value may come from
/// outside, and the message may end up on a terminal or in a log.
func describe(_ value: Any, limit: Int) -> String {
    oneLine(value is String ? "\"\(value)\"" : String(describing: value), limit: limit)
}
