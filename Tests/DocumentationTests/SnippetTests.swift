import Foundation
import Testing

/// Every Swift block of the README and of every DocC article type-checks against the package as
/// built, read from the documents themselves (no copy of a snippet lives in the tests).
@Suite("Documentation: every Swift block of the README, the DocC articles and the libraries' comments compiles")
struct SnippetTests {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The README, every article of every documentation catalog, and the Swift sources of the
    /// modules that have a catalog (whose `///` comments DocC shows), found by listing the folders
    /// (a new file is checked without being added here), with the catalog's module.
    static let documents: [(path: String, catalogModule: String?)] = {
        var documents: [(String, String?)] = [("README.md", nil)]
        let sources = root.appendingPathComponent("Sources")
        let modules = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        for module in modules.sorted() {
            let catalog = "Sources/\(module)/\(module).docc"
            guard FileManager.default.fileExists(atPath: root.appendingPathComponent(catalog).path),
                let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent("Sources/\(module)").path)
            else { continue }
            let files = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".md") || $0.hasSuffix(".swift") }.sorted()
            documents += files.map { ("Sources/\(module)/\($0)", module) }
        }
        return documents
    }()

    static func checker() throws -> SnippetChecker {
        guard let build = SnippetChecker.currentBuildDirectory() else {
            throw CheckerError(message: "no Modules/Mediator.swiftmodule above the test executable: cannot find the build to check against")
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("mediator-snippets-\(UUID().uuidString)")
        return SnippetChecker(buildDirectory: build, workDirectory: work)
    }

    @Test("The documents are found: the README and the articles of the four libraries' catalogs")
    func documentsAreFound() {
        let paths = Self.documents.map(\.path)
        #expect(paths.contains("README.md"))
        #expect(paths.contains("Sources/Mediator/Mediator.docc/GettingStarted.md"))
        #expect(paths.contains("Sources/MediatorTesting/MediatorStubs.swift"))
        #expect(Set(Self.documents.compactMap(\.catalogModule)) == ["Mediator", "MediatorCommandLine", "MediatorTesting", "MediatorDiagnostics"])
    }

    @Test("Each document's Swift blocks type-check", arguments: documents.map(\.path))
    func blocksTypeCheck(document: String) async throws {
        let catalogModule = Self.documents.first { $0.path == document }?.catalogModule
        let contents = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
        let text = document.hasSuffix(".swift") ? Snippet.documentationComments(ofSource: contents) : contents
        let checker = try Self.checker()
        defer { try? FileManager.default.removeItem(at: checker.workDirectory) }
        for failure in try await checker.check(document: document, text: text, catalogModule: catalogModule) {
            Issue.record(Comment(rawValue: failure.description))
        }
    }

    @Test("The README links every DocC article (a catalog with no article but its root: the root)")
    func readmeLinksEveryArticle() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let articles = Self.documents.filter { $0.path.contains(".docc/") }.map(\.path)
        let catalogs = Set(articles.map { $0.components(separatedBy: ".docc/")[0] + ".docc" })
        for catalog in catalogs.sorted() {
            let inCatalog = articles.filter { $0.hasPrefix(catalog + "/") }
            let module = URL(fileURLWithPath: catalog).deletingPathExtension().lastPathComponent
            let rootPage = "\(catalog)/\(module).md"
            let expected = inCatalog.count == 1 ? inCatalog : inCatalog.filter { $0 != rootPage }
            for article in expected {
                let linked = readme.contains("](\(article))")
                #expect(linked, "README.md does not link \(article)")
            }
        }
    }

    // MARK: - The checker itself

    @Test("A block that does not type-check is reported with its document and line")
    func brokenBlockIsReported() async throws {
        let text = """
            # A document

            ```swift
            let count: Int = mediator
            ```

            ```swift
            let fine = 1
            ```
            """
        let checker = try Self.checker()
        defer { try? FileManager.default.removeItem(at: checker.workDirectory) }
        let failures = try await checker.check(document: "Broken.md", text: text, catalogModule: nil)
        #expect(failures.map(\.snippet.description) == ["Broken.md:3"])
        #expect(failures.first?.output.contains("cannot convert value of type 'Mediator'") == true)
    }

    @Test("A document's modules are compiled in order, and its program imports them; a manifest is checked against PackageDescription")
    func modulesAndManifests() async throws {
        let text = """
            ```swift
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(name: "App", targets: [.executableTarget(name: "App")])
            ```

            ```swift
            // Sources/Greeting/Greeting.swift
            public let greeting = "hello"
            ```

            ```swift
            // Sources/App/main.swift
            import Greeting
            let count: Int = greeting
            ```

            ```swift
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(name: "App", targets: [.executableTarget(name: 1)])
            ```
            """
        let checker = try Self.checker()
        defer { try? FileManager.default.removeItem(at: checker.workDirectory) }
        let failures = try await checker.check(document: "Modules.md", text: text, catalogModule: nil)
        #expect(failures.map(\.snippet.description) == ["Modules.md:12", "Modules.md:18"])
        #expect(failures.first?.output.contains("cannot convert value of type 'String' to specified type 'Int'") == true)
    }

    @Test("Blocks are read with their fence's indentation removed, and only swift blocks are read")
    func extraction() {
        let text = """
            - A list item:

              ```swift
              let a = 1
                let b = 2
              ```

            ```sh
            swift test
            ```

            ```swift
            // Sources/Notes/Target_Notes.swift
            import Mediator
            ```
            """
        let snippets = Snippet.blocks(in: text, document: "List.md")
        #expect(snippets.map(\.line) == [3, 12])
        #expect(snippets.first?.code == "let a = 1\n  let b = 2")
        #expect(snippets.last?.kind == .moduleFile(module: "Notes", file: "Target_Notes.swift"))
        #expect(snippets.last?.imports == ["Mediator"])
    }

    @Test("Blocks in documentation comments are read from the /// lines, at their own line numbers")
    func documentationComments() {
        let source = """
            /// Says hello.
            ///
            /// ```swift
            /// let greeting = hello()
            /// ```
            // ```swift (an ordinary comment is not documentation)
            func hello() -> String {
                ///```swift
                ///let a = 1
                ///```
                "hello"
            }
            """
        let snippets = Snippet.blocks(in: Snippet.documentationComments(ofSource: source), document: "Hello.swift")
        #expect(snippets.map(\.line) == [3, 8])
        #expect(snippets.map(\.code) == ["let greeting = hello()", "let a = 1"])
    }

    @Test("Fences are read as CommonMark reads them: any case, tildes, longer fences, block quotes, info after the language")
    func fenceForms() {
        let text = """
            ```Swift
            let a = 1
            ```

            ~~~swift
            let b = 2
            ~~~

            ````swift
            let c = 3
            ```
            let d = 4
            ````

            > Tip: In a quote:
            >
            > ```swift
            > let e = 5
            > ```

            ```swift, nocopy
            let f = 6
            ```

            ```swiftly
            not swift
            ```
            """
        let snippets = Snippet.blocks(in: text, document: "Fences.md")
        #expect(snippets.map(\.code) == ["let a = 1", "let b = 2", "let c = 3\n```\nlet d = 4", "let e = 5", "let f = 6"])
        #expect(snippets.map(\.line) == [1, 5, 9, 17, 21])
    }

    @Test("Blocks in /** */ comments are read too")
    func blockComments() {
        let source = """
            /**
             Says hello.

             ```swift
             let greeting = hello()
             ```
             */
            func hello() -> String { "hello" }
            /**```swift
            let x = 1
            ```*/
            """
        let snippets = Snippet.blocks(in: Snippet.documentationComments(ofSource: source), document: "Hello.swift")
        #expect(snippets.map(\.line) == [4, 9])
        #expect(snippets.map(\.code) == ["let greeting = hello()", "let x = 1"])
    }

    @Test("A document that writes its own modules gets no stand-ins; a file shown twice and a module named like the package's are refused")
    func documentModulesRules() async throws {
        let text = """
            ```swift
            // Sources/Notes/Notes.swift
            public let notes = 1
            ```

            ```swift
            let service = NotesService()
            ```

            ```swift
            // Sources/Notes/Notes.swift
            public let notes = 2
            ```

            ```swift
            // Sources/Mediator/Extra.swift
            public func extra() {}
            ```
            """
        let checker = try Self.checker()
        defer { try? FileManager.default.removeItem(at: checker.workDirectory) }
        let failures = try await checker.check(document: "Own.md", text: text, catalogModule: nil)
        #expect(failures.map(\.snippet.line) == [10, 15, 6])
        #expect(failures.map { $0.output.contains("is shown a second time") } == [true, false, false])
        #expect(failures.map { $0.output.contains("a module the package already has") } == [false, true, false])
        #expect(failures.last?.output.contains("cannot find 'NotesService' in scope") == true)
    }
}
