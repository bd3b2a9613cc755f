/// Splits a pattern's bytes into text and parenthesised groups, and expands the groups. Works on
/// bytes so that a `(` inside a multi-byte character cannot be misread (UTF-8 never reuses ASCII
/// bytes inside other characters).
enum GroupParser {
    /// Text, or an optional group of further items.
    indirect enum Item {
        /// Bytes copied into every variant that reaches them.
        case text([UInt8])
        /// A part that each variant either includes or leaves out.
        case group([Item])
    }

    /// The items of `bytes`; throws on unbalanced or empty parentheses, and on more than
    /// ``RoutePattern/maximumGroups`` groups as soon as one more opens (so that the nesting, and
    /// the recursion over it here and when the items are freed, never goes deeper than that).
    static func parse(_ bytes: [UInt8], fail: (RouteError.Problem) -> RouteError) throws -> [Item] {
        // Most patterns have no groups: one run of text.
        if !bytes.contains(where: { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: ")") }) {
            return bytes.isEmpty ? [] : [.text(bytes)]
        }
        var stack: [[Item]] = [[]]
        var opened = 0
        var text: [UInt8] = []
        /// Ends the current run of text, adding it to the innermost open group.
        func flushText() {
            if !text.isEmpty { stack[stack.count - 1].append(.text(text)) }
            text = []
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "("):
                opened += 1
                if opened > RoutePattern.maximumGroups {
                    throw fail(.tooManyGroups(count: bytes.count(where: { $0 == UInt8(ascii: "(") })))
                }
                flushText()
                stack.append([])
            case UInt8(ascii: ")"):
                flushText()
                guard stack.count > 1 else { throw fail(.unbalancedClosingParenthesis) }
                let group = stack.removeLast()
                if group.isEmpty { throw fail(.emptyGroup) }
                stack[stack.count - 1].append(.group(group))
            default:
                text.append(byte)
            }
        }
        flushText()
        guard stack.count == 1 else { throw fail(.unbalancedOpeningParenthesis) }
        return stack[0]
    }

    /// How many groups, nested ones included.
    static func groupCount(_ items: [Item]) -> Int {
        items.reduce(0) { count, item in
            if case .group(let inner) = item { return count + 1 + groupCount(inner) }
            return count
        }
    }

    /// How many variants `items` expands into (before removing repeats). Called only after the
    /// group count is capped, so it stays below 2^8.
    static func variantCount(_ items: [Item]) -> Int {
        items.reduce(1) { count, item in
            if case .group(let inner) = item { return count * (1 + variantCount(inner)) }
            return count
        }
    }

    /// Every variant's bytes: for each group, first without it, then with each of its own
    /// variants; earlier groups vary fastest, so `(/:id)(/:tab)` gives `/:id` before `/:tab`.
    static func expand(_ items: [Item]) -> [[UInt8]] {
        var variants: [[UInt8]] = [[]]
        for item in items {
            switch item {
            case .text(let bytes):
                for index in variants.indices { variants[index] += bytes }
            case .group(let inner):
                let options = [[]] + expand(inner)
                variants = options.flatMap { option in variants.map { $0 + option } }
            }
        }
        return variants
    }
}
