// MARK: - Checking and coercing one value

/// What validation made of one value.
enum Coercion {
    /// Already of the declared type (and in range): kept as is.
    case accepted
    /// Converted to the declared type (text to a number, one value to an array, ...).
    case converted(any Sendable)
    /// Not acceptable; the words say what was expected and what was given.
    case refused(String)
}

extension ParameterType {
    /// The one Swift type whose values this type accepts as they are, with nothing more to check;
    /// `nil` when values need more (bounds, finiteness, conversion).
    var exactType: ObjectIdentifier? {
        switch kind {
        case .string: ObjectIdentifier(String.self)
        case .integer(nil, nil): ObjectIdentifier(Int.self)
        case .boolean: ObjectIdentifier(Bool.self)
        case .array(let element):
            switch element.kind {
            case .string: ObjectIdentifier([String].self)
            case .integer(nil, nil): ObjectIdentifier([Int].self)
            case .boolean: ObjectIdentifier([Bool].self)
            default: nil
            }
        case .object(nil): ObjectIdentifier([String: any Sendable].self)
        case .value(_, let type): type
        default: nil
        }
    }

    /// `raw` checked against this type, by the rules of ``Params`` (text to numbers and booleans,
    /// exact conversions between numbers, one value to a one-element array).
    func coerce(_ raw: Any) -> Coercion {
        switch kind {
        case .string:
            if raw is String { return .accepted }
            if let text = raw as? Substring { return .converted(String(text)) }
        case .integer(let minimum, let maximum):
            if let integer = raw as? Int { return inBounds(integer, minimum, maximum, raw) ? .accepted : outOfRange(raw) }
            if let integer = Int.convert(from: raw) ?? Self.exactInteger(raw) {
                return inBounds(integer, minimum, maximum, raw) ? .converted(integer) : outOfRange(raw)
            }
        case .number(let minimum, let maximum):
            if let number = raw as? Double, number.isFinite {
                return inBounds(number, minimum, maximum, raw) ? .accepted : outOfRange(raw)
            }
            if let number = Double.convert(from: raw) ?? Self.exactNumber(raw), number.isFinite {
                return inBounds(number, minimum, maximum, raw) ? .converted(number) : outOfRange(raw)
            }
        case .boolean:
            if raw is Bool { return .accepted }
            if let value = Bool.convert(from: raw) { return .converted(value) }
        case .array(let element):
            return coerceArray(raw, element: element)
        case .object:
            if raw is [String: any Sendable] || raw is Params { return .accepted }
        case .value:
            if accepts?(raw) == true { return .accepted }
        }
        return refused(raw)
    }

    private func inBounds<T: Comparable>(_ value: T, _ minimum: T?, _ maximum: T?, _ raw: Any) -> Bool {
        if let minimum, value < minimum { return false }
        if let maximum, value > maximum { return false }
        return true
    }

    private func refused(_ raw: Any) -> Coercion {
        .refused("expected \(self), got \(found(raw))")
    }

    private func outOfRange(_ raw: Any) -> Coercion {
        .refused("expected \(self), got \(found(raw)) (out of range)")
    }

    /// An integer of another width, or a floating-point number without a fraction, as an `Int`.
    private static func exactInteger(_ raw: Any) -> Int? {
        if let integer = raw as? any BinaryInteger { return Int(exactly: integer) }
        if let number = raw as? any BinaryFloatingPoint { return Int(exactly: number) }
        return nil
    }

    /// Another floating-point or integer type as a `Double`, when no precision is lost.
    private static func exactNumber(_ raw: Any) -> Double? {
        if let number = raw as? any BinaryFloatingPoint { return Double(exactly: number) }
        if let integer = raw as? any BinaryInteger { return Double(exactly: integer) }
        return nil
    }

    /// An array whose every element fits `element`. Arrays of strings, integers, numbers and
    /// booleans are stored as `[String]`, `[Int]`, `[Double]` or `[Bool]`, with text converted, and
    /// a single value becomes a one-element array (a URL or command line that gave the key once);
    /// arrays of other types are checked and kept as they are.
    private func coerceArray(_ raw: Any, element: ParameterType) -> Coercion {
        let scalar: Bool
        switch element.kind {
        case .string: if raw is [String] { return .accepted } else { scalar = true }
        case .integer(nil, nil): if raw is [Int] { return .accepted } else { scalar = true }
        case .boolean: if raw is [Bool] { return .accepted } else { scalar = true }
        case .integer, .number: scalar = true
        case .array, .object, .value: scalar = false
        }
        guard let elements = raw as? [Any] else {
            guard scalar else { return refused(raw) }
            switch element.coerce(raw) {
            case .accepted, .converted: return element.scalars([raw]).map { .converted($0) } ?? refused(raw)
            case .refused: return refused(raw)
            }
        }
        var converted = false
        for (index, item) in elements.enumerated() {
            switch element.coerce(item) {
            case .accepted: break
            case .converted: converted = true
            case .refused(let why): return .refused("element \(index): \(why)")
            }
        }
        guard scalar else { return .accepted }
        return element.scalars(elements).map { .converted($0) } ?? (converted ? refused(raw) : .accepted)
    }

    /// Checked scalar elements, converted, as the array type an action reads.
    private func scalars(_ elements: [Any]) -> (any Sendable)? {
        func all<T: Sendable>(_: T.Type) -> [T]? {
            var result: [T] = []
            result.reserveCapacity(elements.count)
            for element in elements {
                switch coerce(element) {
                case .accepted:
                    guard let value = element as? T else { return nil }
                    result.append(value)
                case .converted(let value):
                    guard let value = value as? T else { return nil }
                    result.append(value)
                case .refused: return nil
                }
            }
            return result
        }
        switch kind {
        case .string: return all(String.self)
        case .integer: return all(Int.self)
        case .number: return all(Double.self)
        case .boolean: return all(Bool.self)
        default: return nil
        }
    }
}
