/// The conversions ``Params`` applies when the stored value is not already of the type asked for.
/// Internal: the rules are documented on ``Params`` and are the same for every caller.
protocol TextConvertible {
    /// `raw` converted to `Self`, or `nil` when the conversion would be ambiguous or lossy.
    static func convert(from raw: Any) -> Self?
}

extension String: TextConvertible {
    static func convert(from raw: Any) -> String? {
        // A substring is text; numbers are deliberately not turned into text.
        (raw as? Substring).map(String.init)
    }
}

extension Int: TextConvertible {
    static func convert(from raw: Any) -> Int? {
        switch raw {
        case let text as String: return parse(text)
        case let text as Substring: return parse(String(text))
        case let number as Double: return number.isFinite ? Int(exactly: number) : nil
        default: return nil
        }
    }

    private static func parse(_ text: String) -> Int? {
        // `Int.init(_: String)` already rejects spaces, "4x" and out-of-range text; it accepts a
        // leading "+" or "-", which is unambiguous.
        Int(text)
    }
}

extension Double: TextConvertible {
    static func convert(from raw: Any) -> Double? {
        switch raw {
        case let text as String: return parse(text)
        case let text as Substring: return parse(String(text))
        case let number as Int: return Double(exactly: number)
        default: return nil
        }
    }

    private static func parse(_ text: String) -> Double? {
        parseDecimal(text, as: Double.self)
    }
}

/// Decimal text as a floating-point number, by one rule for every floating-point type:
/// - decimal only: `init(_: String)` also takes "nan", "inf" and hexadecimal, which no person
///   typing a number into a URL means;
/// - an integer (optional sign and digits) must fit 64 bits and convert exactly, as an `Int` value
///   would: "16777217" is not a `Float`, "9007199254740993" not a `Double`;
/// - other text is read as the nearest value, as decimal fractions always are, and refused when
///   out of range (infinite) or when non-zero text reads as zero (underflow).
func parseDecimal<F: BinaryFloatingPoint & LosslessStringConvertible>(_ text: String, as _: F.Type) -> F? {
    var integer = true
    var nonZeroDigit = false
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "1")...UInt8(ascii: "9"): nonZeroDigit = true
        case UInt8(ascii: "0"), UInt8(ascii: "-"), UInt8(ascii: "+"): break
        case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): integer = false
        default: return nil
        }
    }
    if integer {
        if let value = Int64(text) { return F(exactly: value) }
        if let value = UInt64(text) { return F(exactly: value) }
        return nil
    }
    guard let value = F(text), value.isFinite, value != 0 || !nonZeroDigit else { return nil }
    return value
}

extension Bool: TextConvertible {
    static func convert(from raw: Any) -> Bool? {
        let text: String
        switch raw {
        case let string as String: text = string
        case let substring as Substring: text = String(substring)
        default: return nil
        }
        switch text {
        case "true", "1": return true
        case "false", "0": return false
        default: return nil
        }
    }
}

extension Array: TextConvertible where Element: TextConvertible {
    static func convert(from raw: Any) -> [Element]? {
        if let elements = raw as? [Any] {
            var result: [Element] = []
            result.reserveCapacity(elements.count)
            for element in elements {
                if let exact = element as? Element {
                    result.append(exact)
                } else if let converted = Element.convert(from: element) {
                    result.append(converted)
                } else {
                    return nil
                }
            }
            return result
        }
        // A single value where a list is expected: a URL query or command line that gave the
        // key once.
        if let single = raw as? Element { return [single] }
        return Element.convert(from: raw).map { [$0] }
    }
}
