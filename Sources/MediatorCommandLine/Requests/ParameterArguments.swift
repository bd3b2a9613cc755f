import Mediator

/// Turns `key=value`, `key:=json` and `--params-json` arguments into ``Params``.
///
/// `key=value` passes text, exactly what a URL query would pass; `key:=json` passes a typed JSON
/// value. A key given more than once collects its values, in order, into an array (of strings
/// when every value is a string), as a repeated URL query key does.
struct ParameterArguments {
    private var collected: [String: [any Sendable]] = [:]

    /// Adds one `key=value` or `key:=json` argument. In the key, a backslash makes the next
    /// character literal, so keys may hold `=` and `:` (`a\=b=1` is key `a=b`, value `1`).
    ///
    /// The argument is read scalar by scalar, in place: a value as long as a batch line allows
    /// (16 MiB) is copied once, not expanded into an array of `Character`s (16 bytes each).
    mutating func add(argument: String) throws(CommandError) {
        let scalars = argument.unicodeScalars
        var keyScalars = String.UnicodeScalarView()
        var separator: (valueStart: String.Index, isJSON: Bool)?
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            if scalar == "\\", next < scalars.endIndex {
                keyScalars.append(scalars[next])
                index = scalars.index(after: next)
            } else if scalar == "=" {
                separator = (next, false)
                break
            } else if scalar == ":", next < scalars.endIndex, scalars[next] == "=" {
                separator = (scalars.index(after: next), true)
                break
            } else {
                keyScalars.append(scalar)
                index = next
            }
        }
        guard let separator else {
            throw .usage("expected key=value or key:=json, got \(quoted(argument))")
        }
        let key = String(keyScalars)
        guard !key.isEmpty else { throw .usage("empty key in \(quoted(argument))") }
        let text = String(scalars[separator.valueStart...])
        guard separator.isJSON else {
            add(key: key, value: text)
            return
        }
        do {
            add(key: key, value: try JSONValue(parsing: text).parameterValue)
        } catch {
            throw .usage("invalid JSON after \"\(key):=\" in \(quoted(argument)): \(error)")
        }
    }

    /// Adds every member of a JSON object (the value of `--params-json`).
    mutating func add(jsonObject text: String) throws(CommandError) {
        let parsed: JSONValue
        do {
            parsed = try JSONValue(parsing: text)
        } catch {
            throw .usage("invalid JSON for --params-json: \(error)")
        }
        guard case .object(let members) = parsed else { throw .usage("--params-json needs a JSON object, got \(quoted(text))") }
        for key in members.keys.sorted() {
            add(key: key, value: members[key]!.parameterValue)
        }
    }

    private mutating func add(key: String, value: any Sendable) {
        collected[key, default: []].append(value)
    }

    /// One value per key; a repeated key's values as `[String]` when all are text, else `[any Sendable]`.
    var params: Params {
        Params(
            collected.mapValues { values -> any Sendable in
                if values.count == 1 { return values[0] }
                if let strings = values as? [String] { return strings }
                return values
            })
    }
}

/// An argument as error messages quote it, cut when long.
func quoted(_ text: String) -> String {
    let shown = text.count > 80 ? String(text.prefix(80)) + "…" : text
    return "\"" + shown + "\""
}
