/// Why a route could not be registered: its pattern is malformed, or it duplicates a route that is
/// already there. The `description` is one line naming the pattern and the problem, e.g.
/// `route "/user/:id<double>": unknown placeholder type "double" (known: int, uuid, alpha, float)`.
struct RouteError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with the pattern.
    enum Problem: Equatable, Sendable {
        /// A `(` without its `)`.
        case unbalancedOpeningParenthesis
        /// A `)` without its `(`.
        case unbalancedClosingParenthesis
        /// `()`: an optional group with nothing in it.
        case emptyGroup
        /// More than ``RoutePattern/maximumGroups`` optional groups.
        case tooManyGroups(count: Int)
        /// More than ``RoutePattern/maximumVariants`` variants after expansion.
        case tooManyVariants(count: Int)
        /// More than ``RoutePattern/maximumSegments`` segments in a variant.
        case tooManySegments(count: Int)
        /// More than ``RoutePattern/maximumLength`` bytes.
        case tooLong(bytes: Int)
        /// `//` in a variant (shown after expansion, which is where it may appear).
        case emptySegment(variant: String)
        /// `*` before the last segment.
        case wildcardNotLast
        /// `*` together with other text in one segment (`a*`).
        case wildcardMixedWithText(segment: String)
        /// Two placeholders in one segment (`:a-:b`).
        case twoPlaceholders(segment: String)
        /// `<` or `>` in the text around a placeholder (`:id<int><uuid>`).
        case angleBracketInText(segment: String)
        /// `:` or `:<int>` without a name.
        case emptyPlaceholderName(segment: String)
        /// A name starting with a digit.
        case invalidPlaceholderName(name: String)
        /// `<` without a type name and a closing `>`.
        case unterminatedType(segment: String)
        /// A type other than those of ``RoutePlaceholderType``.
        case unknownType(type: String)
        /// The same parameter name twice in one variant.
        case duplicateParameter(name: String)
        /// A route that matches exactly the URLs of the route `existing` (its pattern as written).
        case duplicateRoute(existing: String)
    }

    /// The pattern as registered.
    let pattern: String
    /// What is wrong with it.
    let problem: Problem

    /// `route "<pattern>": <problem>`, on one line.
    var description: String {
        "route \"\(oneLine(pattern, limit: 200))\": " + problemText
    }

    /// The problem in words; texts from the pattern are escaped for terminals.
    private var problemText: String {
        switch problem {
        case .unbalancedOpeningParenthesis: return "unbalanced \"(\": no matching \")\""
        case .unbalancedClosingParenthesis: return "unbalanced \")\": no matching \"(\""
        case .emptyGroup: return "empty optional group \"()\""
        case .tooManyGroups(let count): return "\(count) optional groups (at most \(RoutePattern.maximumGroups))"
        case .tooManyVariants(let count): return "expands into \(count) variants (at most \(RoutePattern.maximumVariants))"
        case .tooManySegments(let count): return "\(count) segments (at most \(RoutePattern.maximumSegments))"
        case .tooLong(let bytes): return "\(bytes) bytes long (at most \(RoutePattern.maximumLength))"
        case .emptySegment(let variant): return "empty segment in \"\(oneLine(variant, limit: 200))\""
        case .wildcardNotLast: return "\"*\" must be the last segment"
        case .wildcardMixedWithText(let segment):
            return "segment \"\(oneLine(segment, limit: 100))\" mixes \"*\" with other text (\"*\" must be a whole segment)"
        case .angleBracketInText(let segment):
            return "segment \"\(oneLine(segment, limit: 100))\" has \"<\" or \">\" in its text (a type follows the name: \":id<int>\")"
        case .twoPlaceholders(let segment):
            return "segment \"\(oneLine(segment, limit: 100))\" has two placeholders (at most one per segment)"
        case .emptyPlaceholderName(let segment): return "empty placeholder name in segment \"\(oneLine(segment, limit: 100))\""
        case .invalidPlaceholderName(let name): return "placeholder name \"\(name)\" must start with an ASCII letter or \"_\""
        case .unterminatedType(let segment):
            return "segment \"\(oneLine(segment, limit: 100))\" has \"<\" without a type and a closing \">\""
        case .unknownType(let type):
            let known = RoutePlaceholderType.allCases.map(\.rawValue).joined(separator: ", ")
            return "unknown placeholder type \"\(oneLine(type, limit: 100))\" (known: \(known))"
        case .duplicateParameter(let name): return "parameter \"\(name)\" appears twice in one variant"
        case .duplicateRoute(let existing):
            return "matches exactly the URLs of route \"\(oneLine(existing, limit: 200))\" (register with replacing: true to replace it)"
        }
    }
}
