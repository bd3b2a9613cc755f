// Error messages and what `mediate` prints may hold text from outside (names and values from URLs,
// the command line, batch lines, results), and they end up on terminals and in logs. A terminal interprets some characters instead of showing them:
// C0 and C1 controls start escape sequences (ESC "[", or the single byte CSI, U+009B), bidi
// overrides and isolates reorder what follows them (U+202E shows "txt.exe" as "exe.txt"), and
// invisible format characters make two different names look the same ("ada" and "ada" + U+200B).
// The library's error messages and every path to the terminal escape the same set, defined once
// here (`package`: shared with the command-line layer and the fuzz harness).

extension Unicode.Scalar {
    /// Whether this scalar is escaped in error messages and wherever `mediate` prints text: the general categories
    /// Control (C0, DEL, C1), Format (bidi marks U+061C, U+200E, U+200F; embeddings and overrides
    /// U+202A to U+202E; isolates U+2066 to U+2069; zero-width characters; soft hyphen; BOM; tag
    /// characters) and the line and paragraph separators U+2028 and U+2029.
    package var isEscapedForTerminals: Bool {
        // Printable ASCII is by far the most common: no table lookup for it.
        if value >= 0x20 && value < 0x7F { return false }
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }
}

/// `text` made safe to print as one line of a terminal or log: every scalar in
/// ``Unicode/Scalar/isEscapedForTerminals`` is written as `\n`, `\r`, `\t` or `\u{XX}`, and a
/// message longer than `limit` scalars is cut with "…".
package func oneLine(_ text: String, limit: Int = 2_000) -> String {
    var line = ""
    var count = 0
    for scalar in text.unicodeScalars {
        if count == limit {
            line += "…"
            break
        }
        count += 1
        switch scalar {
        case "\n": line += "\\n"
        case "\r": line += "\\r"
        case "\t": line += "\\t"
        case _ where scalar.isEscapedForTerminals:
            line += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        default: line.unicodeScalars.append(scalar)
        }
    }
    return line
}

/// `character` as a message names it: quoted and escaped as ``oneLine(_:limit:)`` escapes text,
/// then, unless it is one printable ASCII character, its Unicode scalars: `"ï" (U+00EF)`,
/// `"ï" (U+0069 U+0308)`. A whole `Character`, so a letter comes with its combining marks and an
/// emoji sequence whole, never one byte or one scalar of it; the scalars tell look-alikes apart
/// (KELVIN SIGN shows as "K") and name invisible ones. At most 8 scalars are listed.
func describe(character: Character) -> String {
    let text = describe(String(character), limit: 12)
    let scalars = character.unicodeScalars
    if scalars.count == 1, let scalar = scalars.first, scalar.value >= 0x20 && scalar.value < 0x7F { return text }
    var codes = scalars.prefix(8).map { scalar in
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
    if scalars.count > 8 { codes.append("…") }
    return text + " (" + codes.joined(separator: " ") + ")"
}

/// `text` as a JSON string literal, appended to `output`: quotes and backslashes escaped, and every
/// scalar in ``Unicode/Scalar/isEscapedForTerminals`` (controls, bidi and invisible format
/// characters, line separators) as a `\uXXXX` escape: the same value, and printed JSON cannot
/// drive or reorder the terminal that shows it. Shared by the registry description and the
/// command-line layer's JSON.
package func writeJSONString(_ text: String, to output: inout String) {
    output += "\""
    // Printable ASCII without quotes or backslashes (the usual text) needs no escape: appended whole.
    if withUTF8Bytes(of: text, isPlainJSONText) {
        output += text
        output += "\""
        return
    }
    for scalar in text.unicodeScalars {
        if let escape = backslashEscape(scalar) {
            output += escape
        } else if scalar.isEscapedForTerminals {
            if scalar.value > 0xFFFF {
                // JSON escapes only 16-bit units: a surrogate pair.
                let offset = scalar.value - 0x10000
                writeJSONEscape(0xD800 + (offset >> 10), to: &output)
                writeJSONEscape(0xDC00 + (offset & 0x3FF), to: &output)
            } else {
                writeJSONEscape(scalar.value, to: &output)
            }
        } else {
            output.unicodeScalars.append(scalar)
        }
    }
    output += "\""
}

/// The two-character escape JSON and Swift string literals both spell for a quote, a backslash,
/// a line feed, a carriage return or a tab; `nil` for any other scalar.
package func backslashEscape(_ scalar: Unicode.Scalar) -> String? {
    switch scalar {
    case "\"": "\\\""
    case "\\": "\\\\"
    case "\n": "\\n"
    case "\r": "\\r"
    case "\t": "\\t"
    default: nil
    }
}

/// Whether `bytes` go into a JSON string literal as they are: printable ASCII without quotes or
/// backslashes (the usual text; nothing in it is escaped by ``writeJSONString(_:to:)``).
package func isPlainJSONText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
}

private func writeJSONEscape(_ unit: UInt32, to output: inout String) {
    let hex = String(unit, radix: 16)
    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
}
