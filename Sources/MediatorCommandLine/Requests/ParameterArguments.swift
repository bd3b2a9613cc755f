import Mediator

/// Turns `key=value`, `key:=json` and `--params-json` arguments into ``Params``.
///
/// `key=value` passes text, exactly what a URL query would pass; `key:=json` passes a typed JSON
/// value. A key given more than once collects its values, in order, into an array (of strings
/// when every value is a string), as a repeated URL query key does.
struct ParameterArguments {
    /// The values by key, a repeated key's collected as a URL query's are.
    private var collected = ParamsCollector()

    /// Adds one `key=value` or `key:=json` argument. In the key, a backslash makes the next
    /// character literal, so keys may hold `=` and `:` (`a\=b=1` is key `a=b`, value `1`).
    ///
    /// The argument is read byte by byte, in place (`\`, `=` and `:` are ASCII, and no byte of a
    /// multi-byte character is): a value as long as a batch line allows (16 MiB) is copied once.
    mutating func add(argument: String) throws(CommandError) {
        // The key (its escapes applied), the value's text, and whether it is JSON; nil without a
        // separator.
        let parts = withUTF8Bytes(of: argument) { bytes -> (key: String, value: String, isJSON: Bool)? in
            // The key's bytes once a backslash was met; until then the key is the argument's start.
            var escapedKey: [UInt8]?
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    if escapedKey == nil { escapedKey = Array(bytes[..<index]) }
                    escapedKey?.append(bytes[index + 1])
                    index += 2
                    continue
                }
                var separatorEnd: Int?
                if byte == UInt8(ascii: "=") {
                    separatorEnd = index + 1
                } else if byte == UInt8(ascii: ":"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "=") {
                    separatorEnd = index + 2
                }
                if let separatorEnd {
                    // Either way the key is cut at ASCII bytes: valid UTF-8.
                    let key = escapedKey.map { String(decoding: $0, as: UTF8.self) } ?? text(bytes, 0, index)
                    return (key, text(bytes, separatorEnd, bytes.count), separatorEnd == index + 2)
                }
                escapedKey?.append(byte)
                index += 1
            }
            return nil
        }
        guard let (key, value, isJSON) = parts else {
            throw .usage("expected key=value or key:=json, got \(quoted(argument))")
        }
        guard !key.isEmpty else { throw .usage("empty key in \(quoted(argument))") }
        guard isJSON else {
            collected.add(key: key, value: value)
            return
        }
        do {
            collected.add(key: key, value: try JSONValue(parsing: value).parameterValue)
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
            collected.add(key: key, value: members[key]!.parameterValue)
        }
    }

    /// One value per key; a repeated key's values as `[String]` when all are text, else `[any Sendable]`.
    var params: Params { collected.params }
}

/// An argument as error messages quote it, cut when long.
func quoted(_ text: String) -> String {
    let shown = text.count > 80 ? String(text.prefix(80)) + "…" : text
    return "\"" + shown + "\""
}
