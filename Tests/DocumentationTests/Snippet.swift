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
    /// `///` (and one space), every other line empty, so a line keeps its number.
    static func documentationComments(ofSource source: String) -> String {
        source.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("///") else { return "" }
            let comment = trimmed.dropFirst(3)
            return comment.hasPrefix(" ") ? comment.dropFirst() : comment
        }.joined(separator: "\n")
    }

    /// Every ```` ```swift ```` block of `text`, in order. A fence may be indented (inside a list);
    /// the block's lines lose that indentation.
    static func blocks(in text: String, document: String) -> [Snippet] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var snippets: [Snippet] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let indentation = line.prefix { $0 == " " }.count
            let fence = line.dropFirst(indentation)
            guard fence.hasPrefix("```") else {
                index += 1
                continue
            }
            let language = fence.dropFirst(3).trimmingCharacters(in: .whitespaces)
            var end = index + 1
            while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" {
                end += 1
            }
            if language == "swift" {
                let body = lines[(index + 1)..<min(end, lines.count)].map { $0.dropFirst(min(indentation, $0.prefix { $0 == " " }.count)) }
                snippets.append(Snippet(document: document, line: index + 1, code: body.joined(separator: "\n")))
            }
            index = end + 1
        }
        return snippets
    }
}
