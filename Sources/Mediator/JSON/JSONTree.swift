/// A JSON value to write, keys kept in the order given.
package indirect enum JSONTree {
    case object([(String, JSONTree)])
    case array([JSONTree])
    case string(String)
    case integer(Int)
    case number(Double)
    case boolean(Bool)

    /// A plain value (string, number, boolean, array or string-keyed dictionary of these) as JSON;
    /// `nil` for anything else (a callback, a non-finite number).
    package init?(plain value: Any) {
        switch value {
        case let text as String: self = .string(text)
        case let flag as Bool: self = .boolean(flag)
        case let integer as Int: self = .integer(integer)
        case let number as Double:
            guard number.isFinite else { return nil }
            self = .number(number)
        case let array as [Any]:
            var items: [JSONTree] = []
            for item in array {
                guard let tree = JSONTree(plain: item) else { return nil }
                items.append(tree)
            }
            self = .array(items)
        case let dictionary as [String: Any]:
            var fields: [(String, JSONTree)] = []
            for key in dictionary.keys.sorted() {
                guard let tree = JSONTree(plain: dictionary[key]!) else { return nil }
                fields.append((key, tree))
            }
            self = .object(fields)
        default: return nil
        }
    }

    package func write(to text: inout String, indent: String) {
        switch self {
        case .object(let fields):
            guard !fields.isEmpty else {
                text += "{}"
                return
            }
            text += "{\n"
            for (index, (key, value)) in fields.enumerated() {
                text += indent + "  "
                writeJSONString(key, to: &text)
                text += ": "
                value.write(to: &text, indent: indent + "  ")
                text += index == fields.count - 1 ? "\n" : ",\n"
            }
            text += indent + "}"
        case .array(let items):
            guard !items.isEmpty else {
                text += "[]"
                return
            }
            text += "[\n"
            for (index, item) in items.enumerated() {
                text += indent + "  "
                item.write(to: &text, indent: indent + "  ")
                text += index == items.count - 1 ? "\n" : ",\n"
            }
            text += indent + "]"
        case .string(let value): writeJSONString(value, to: &text)
        case .integer(let value): text += String(value)
        case .number(let value):
            // Integral values keep a fraction so the reader sees a number, not an integer. A
            // number that is not finite has no JSON form: `null` (never written by this file's
            // callers, which leave such values out).
            if !value.isFinite {
                text += "null"
            } else {
                text += value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) + ".0" : String(value)
            }
        case .boolean(let value): text += value ? "true" : "false"
        }
    }

    /// The value on one line, object keys sorted as `init(plain:)` sorts them: the same text for
    /// equal values, whatever order a dictionary keeps its keys in.
    package var compact: String {
        switch self {
        case .object(let fields):
            return "{"
                + fields.map { key, value in
                    var text = ""
                    writeJSONString(key, to: &text)
                    return text + ":" + value.compact
                }.joined(separator: ",") + "}"
        case .array(let items): return "[" + items.map(\.compact).joined(separator: ",") + "]"
        default:
            var text = ""
            write(to: &text, indent: "")
            return text
        }
    }
}
