import Foundation

/// One fenced ```` ```swift ```` block of a Markdown document, as the reader sees it.
///
/// What a block is decides how it is checked (the rules are in CONTRIBUTING.md):
/// - a package manifest: its first line is `// swift-tools-version: X.Y`;
/// - a file of a module the document writes: its first line names the file,
///   `// Sources/<Module>/<File>.swift` (`main.swift` makes an executable);
/// - otherwise a piece of a program, checked as a `main.swift` of its own.
struct Snippet: Sendable, CustomStringConvertible {
    /// What a block is, read from its first line.
    enum Kind: Equatable, Sendable {
        /// A `Package.swift`, for this tools version.
        case manifest(toolsVersion: String)
        /// A file of the module `module`, named `file`.
        case moduleFile(module: String, file: String)
        /// Code that reads as a program of its own.
        case program
    }

    /// The document's path from the package root (`README.md`,
    /// `Sources/Mediator/Mediator.docc/AsyncCalls.md`).
    let document: String
    /// The line of the opening fence, counting from 1.
    let line: Int
    /// The block's text, without the fences and without the indentation of the fence.
    let code: String

    var description: String { "\(document):\(line)" }

    var kind: Kind {
        let first = code.prefix { $0 != "\n" }.trimmingCharacters(in: .whitespaces)
        if first.hasPrefix("// swift-tools-version") {
            let version = first.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
            return .manifest(toolsVersion: version)
        }
        let prefix = "// Sources/"
        if first.hasPrefix(prefix) {
            let parts = first.dropFirst(prefix.count).split(separator: "/")
            if parts.count == 2, parts[1].hasSuffix(".swift"), !parts[1].contains(" ") {
                return .moduleFile(module: String(parts[0]), file: String(parts[1]))
            }
        }
        return .program
    }

    /// The module names a block imports (`import X`, `@testable import X`, `import struct X.Y`).
    var imports: [String] {
        code.split(separator: "\n").compactMap { line in
            var words = line.split(separator: " ").map(String.init)
            while let first = words.first, first.hasPrefix("@") || first == "public" || first == "internal" {
                words.removeFirst()
            }
            guard words.count >= 2, words[0] == "import" else { return nil }
            let path = words.count >= 3 && ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"].contains(words[1]) ? words[2] : words[1]
            return String(path.split(separator: ".")[0])
        }
    }

    /// The documentation comments of a Swift source file as Markdown: each `///` line without its
    /// `///` (and one space), the lines of a `/** ... */` comment without a leading `*` (and one
    /// space), every other line empty, so a line keeps its number.
    static func documentationComments(ofSource source: String) -> String {
        var inBlockComment = false
        return source.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var text = line.drop { $0 == " " || $0 == "\t" }
            if !inBlockComment {
                if text.hasPrefix("///") {
                    let comment = text.dropFirst(3)
                    return String(comment.hasPrefix(" ") ? comment.dropFirst() : comment)
                }
                guard text.hasPrefix("/**"), !text.hasPrefix("/**/") else { return "" }
                text = text.dropFirst(3)
                inBlockComment = true
            } else if text.hasPrefix("*"), !text.hasPrefix("*/") {
                text = text.dropFirst()
            }
            if let close = text.range(of: "*/") {
                text = text[..<close.lowerBound]
                inBlockComment = false
            }
            return String(text.hasPrefix(" ") ? text.dropFirst() : text)
        }.joined(separator: "\n")
    }

    /// Every Swift block of `text`, in order, read as CommonMark reads a fenced code block: a fence
    /// of three or more backticks or tildes, closed by a line of at least as many of the same
    /// character (or the end of the document), inside block quotes and list items too. A block is
    /// Swift when the first word of its info string is `swift`, in any case (```` ```Swift ````,
    /// ```` ```swift, nocopy ````). The block's lines lose the fence's quote markers and indentation.
    static func blocks(in text: String, document: String) -> [Snippet] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { expandingTabs(String($0)) }
        var snippets: [Snippet] = []
        var index = 0
        while index < lines.count {
            guard let opener = Fence(opening: lines[index]) else {
                index += 1
                continue
            }
            var end = index + 1
            while end < lines.count, !opener.isClosed(by: lines[end]) {
                end += 1
            }
            if opener.language.lowercased() == "swift" {
                let body = lines[(index + 1)..<min(end, lines.count)].map(opener.content(of:))
                snippets.append(Snippet(document: document, line: index + 1, code: body.joined(separator: "\n")))
            }
            index = end + 1
        }
        return snippets
    }

    /// `line` with each tab replaced by the spaces to the next multiple of four, as CommonMark
    /// counts indentation.
    private static func expandingTabs(_ line: String) -> String {
        guard line.contains("\t") else { return line }
        var expanded = ""
        var column = 0
        for character in line {
            if character == "\t" {
                let spaces = 4 - column % 4
                expanded += String(repeating: " ", count: spaces)
                column += spaces
            } else {
                expanded.append(character)
                column += 1
            }
        }
        return expanded
    }

    /// An opening code fence: its block-quote depth, indentation, character and length, and the
    /// first word of its info string.
    private struct Fence {
        let quoteDepth: Int
        let indentation: Int
        let character: Character
        let length: Int
        let language: String

        init?(opening line: String) {
            let (depth, rest) = Self.unquoted(Substring(line), upTo: .max)
            let indentation = rest.prefix { $0 == " " }.count
            let fence = rest.dropFirst(indentation)
            guard let character = fence.first, character == "`" || character == "~" else { return nil }
            let length = fence.prefix { $0 == character }.count
            guard length >= 3 else { return nil }
            let info = fence.dropFirst(length).trimmingCharacters(in: .whitespaces)
            // A backtick fence's info string holds no backtick (else the line is inline code).
            if character == "`" && info.contains("`") { return nil }
            self.quoteDepth = depth
            self.indentation = indentation
            self.character = character
            self.length = length
            self.language = String(info.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "+" })
        }

        /// Whether `line` closes the block: the same quote depth, then only this fence's character,
        /// at least as many, and spaces.
        func isClosed(by line: String) -> Bool {
            let (depth, rest) = Self.unquoted(Substring(line), upTo: quoteDepth)
            guard depth == quoteDepth else { return quoteDepth > 0 }  // the quote ended: so did the block
            let fence = rest.drop { $0 == " " }.trimmingCharacters(in: .whitespaces)
            return fence.count >= length && fence.allSatisfy { $0 == character }
        }

        /// A line of the block as the reader sees it: without the quote markers, and without up to
        /// the fence's indentation.
        func content(of line: String) -> String {
            let rest = Self.unquoted(Substring(line), upTo: quoteDepth).rest
            return String(rest.dropFirst(min(indentation, rest.prefix { $0 == " " }.count)))
        }

        /// `line` without up to `limit` block-quote markers (`>` after up to three spaces, and one
        /// space after it), and how many it had.
        static func unquoted(_ line: Substring, upTo limit: Int) -> (depth: Int, rest: Substring) {
            var rest = line
            var depth = 0
            while depth < limit {
                let spaces = rest.prefix { $0 == " " }.count
                guard spaces <= 3, rest.dropFirst(spaces).first == ">" else { break }
                rest = rest.dropFirst(spaces + 1)
                if rest.first == " " { rest = rest.dropFirst() }
                depth += 1
            }
            return (depth, rest)
        }
    }
}
