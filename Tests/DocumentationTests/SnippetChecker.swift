import Foundation
import TestSupport

/// Type-checks the Swift blocks of one Markdown document with the toolchain's `swiftc`, against the
/// modules of the build that runs the tests (the package's libraries, its examples and
/// `DocumentationContext`).
///
/// - A manifest is checked against the toolchain's `PackageDescription`, for its tools version.
/// - The files a document writes (`// Sources/<Module>/<File>.swift`) are compiled module by
///   module, in the order the document first shows them, so later modules and programs of the
///   same document can import earlier ones. A module with a `main.swift` is an executable.
/// - Any other block is the `main.swift` of a program that imports `Mediator`, the module of the
///   documentation catalog it is in, and `DocumentationContext` (the names blocks use without
///   declaring them, such as `mediator`); whatever the block declares itself hides those. A block
///   that imports an app module (below) goes without the stand-ins, and so do the blocks of a
///   document that writes library modules of its own (they mean those: they import them).
/// - A block that imports `Notes`, `NotesMediator`, `Accounts` or `AccountsMediator`, in a document
///   that does not write that module, gets the package's example of that shape (`ExampleNotes`, ...).
struct SnippetChecker: Sendable {
    /// A block that did not type-check, and the compiler's diagnostics.
    struct Failure: Sendable, CustomStringConvertible {
        let snippet: Snippet
        let output: String
        var description: String { "\(snippet): the block does not type-check:\n\(output)" }
    }

    /// The app module names the examples stand in for, and the example module standing in.
    static let exampleModules = [
        "Notes": "ExampleNotes", "NotesMediator": "ExampleNotesMediator", "Accounts": "ExampleAccounts",
        "AccountsMediator": "ExampleAccountsMediator",
    ]

    /// The directory with `Modules/` of the build under test.
    let buildDirectory: URL
    /// Where the checker writes its sources and modules.
    let workDirectory: URL

    /// The directory of the running build: the nearest folder above the test executable that holds
    /// `Modules/Mediator.swiftmodule`.
    static func currentBuildDirectory() -> URL? {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Modules/Mediator.swiftmodule").path) {
                return folder
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// Checks every Swift block of `text`; `catalogModule` is the module whose documentation
    /// catalog holds the document (nil for the README).
    func check(document: String, text: String, catalogModule: String?) async throws -> [Failure] {
        let snippets = Snippet.blocks(in: text, document: document)
        let folder = workDirectory.appendingPathComponent(document.replacingOccurrences(of: "/", with: "_"))
        let modulesFolder = folder.appendingPathComponent("modules")
        try FileManager.default.createDirectory(at: modulesFolder, withIntermediateDirectories: true)

        var failures: [Failure] = []
        var written: [(module: String, files: [(file: String, snippet: Snippet)])] = []
        for snippet in snippets {
            guard case .moduleFile(let module, let file) = snippet.kind else { continue }
            if FileManager.default.fileExists(atPath: buildDirectory.appendingPathComponent("Modules/\(module).swiftmodule").path) {
                failures.append(
                    Failure(
                        snippet: snippet,
                        output: "the block writes a file of module \(module), a module the package already has: name the example's module differently"))
            } else if let index = written.firstIndex(where: { $0.module == module }) {
                if written[index].files.contains(where: { $0.file == file }) {
                    failures.append(
                        Failure(
                            snippet: snippet,
                            output:
                                "Sources/\(module)/\(file) is shown a second time: a document shows each file once, whole (a file that grows is shown whole at its last state)"
                        ))
                } else {
                    written[index].files.append((file, snippet))
                }
            } else {
                written.append((module, [(file, snippet)]))
            }
        }
        let writtenNames = Set(written.map(\.module))
        // The modules a program can import (a module with a main.swift is a program itself).
        let writtenLibraries = written.filter { !$0.files.contains { $0.file == "main.swift" } }

        for (module, files) in written {
            let source = folder.appendingPathComponent("Sources/\(module)")
            try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
            var paths: [String] = []
            for (file, snippet) in files {
                let path = source.appendingPathComponent(file)
                try snippet.code.write(to: path, atomically: true, encoding: .utf8)
                paths.append(path.path)
            }
            let aliases = Self.aliases(for: files.flatMap(\.snippet.imports), writtenNames: writtenNames)
            let executable = files.contains { $0.file == "main.swift" }
            let arguments =
                executable
                ? ["-typecheck", "-module-name", module] + paths
                : [
                    "-emit-module", "-parse-as-library", "-module-name", module, "-emit-module-path",
                    modulesFolder.appendingPathComponent("\(module).swiftmodule").path,
                ]
                    + paths
            let result = try await swiftc(arguments + aliases + ["-I", modulesFolder.path])
            if result.status != 0 {
                // Blamed on the first of the module's files that a diagnostic names.
                var output = result.output
                var blamed: Snippet?
                for (file, snippet) in files {
                    let path = source.appendingPathComponent(file).path
                    if blamed == nil, output.contains(path + ":") {
                        blamed = snippet
                    }
                    output = Self.located(output, file: path, in: snippet.document, offset: snippet.line)
                }
                failures.append(Failure(snippet: blamed ?? files[0].snippet, output: output))
            }
        }

        for (index, snippet) in snippets.enumerated() {
            let source = folder.appendingPathComponent("block-\(index)")
            try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
            let result: (status: Int32, output: String)
            switch snippet.kind {
            case .moduleFile:
                continue
            case .manifest(let toolsVersion):
                let path = source.appendingPathComponent("Package.swift")
                try snippet.code.write(to: path, atomically: true, encoding: .utf8)
                result = try await swiftc([
                    "-typecheck", "-I", try manifestAPIDirectory().path, "-package-description-version", toolsVersion, path.path,
                ])
            case .program:
                // One line of imports, so a diagnostic's line is the block's line plus one.
                // The stand-ins are left out where the document writes modules of its own (its
                // blocks mean those) and where the block imports the app's modules, which declare
                // the same names.
                let importsAppModules = snippet.imports.contains { Self.exampleModules[$0] != nil }
                let context = importsAppModules || !writtenLibraries.isEmpty ? nil : "DocumentationContext"
                let imports = (["Mediator", catalogModule, context] as [String?]).compactMap { $0 }
                let path = source.appendingPathComponent("main.swift")
                let prelude = Array(Set(imports)).sorted().map { "import \($0)" }.joined(separator: "; ")
                try (prelude + "\n" + snippet.code + "\n").write(to: path, atomically: true, encoding: .utf8)
                result = try await swiftc(
                    ["-typecheck", "-module-name", "Snippet", path.path, "-I", modulesFolder.path]
                        + Self.aliases(for: snippet.imports, writtenNames: writtenNames))
            }
            if result.status != 0 {
                // A program's first line is the imports; a manifest is the block itself.
                let offset = snippet.kind == .program ? snippet.line - 1 : snippet.line
                let file = source.appendingPathComponent(snippet.kind == .program ? "main.swift" : "Package.swift")
                failures.append(Failure(snippet: snippet, output: Self.located(result.output, file: file.path, in: snippet.document, offset: offset)))
            }
        }
        return failures
    }

    /// The compiler's error lines, with each place in `file` (`path:line:column:`) given as the
    /// place in the document instead: `document:(line + offset):column:`.
    static func located(_ output: String, file: String, in document: String, offset: Int) -> String {
        let lines = output.split(separator: "\n").filter { $0.contains(" error: ") }.map { line -> String in
            var text = String(line)
            while let range = text.range(of: file + ":") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                guard let number = Int(digits) else { break }
                text.replaceSubrange(range.lowerBound..<text.index(range.upperBound, offsetBy: digits.count), with: "\(document):\(number + offset)")
            }
            return text
        }
        return lines.isEmpty ? output : lines.joined(separator: "\n")
    }

    /// `-module-alias` arguments for the app modules `imports` names that the document does not write.
    static func aliases(for imports: [String], writtenNames: Set<String>) -> [String] {
        Set(imports).subtracting(writtenNames).sorted().compactMap { name in
            exampleModules[name].map { "-module-alias \(name)=\($0)" }
        }.flatMap { $0.split(separator: " ").map(String.init) }
    }

    /// The toolchain's `PackageDescription` module, beside the `swiftc` on `PATH`.
    func manifestAPIDirectory() throws -> URL {
        // swiftc is a link to the driver (which reads its role from the name it is run by), so the
        // toolchain is found from the link's target.
        let compiler = try Self.compiler().resolvingSymlinksInPath()
        return compiler.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lib/swift/pm/ManifestAPI")
    }

    /// The `swiftc` found on `PATH`.
    static func compiler() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("swiftc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        throw CheckerError(message: "no swiftc on PATH (\(path))")
    }

    /// Runs `swiftc` with the arguments every check shares; waits for it without blocking a thread
    /// of the test's executor.
    func swiftc(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        var modules = ["-I", buildDirectory.appendingPathComponent("Modules").path]
        // The package's C modules (MediatorAtomics) are found through their module maps.
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: buildDirectory.path)) ?? []
        for entry in entries.sorted() where entry.hasSuffix(".build") {
            let map = buildDirectory.appendingPathComponent(entry).appendingPathComponent("module.modulemap")
            if FileManager.default.fileExists(atPath: map.path) {
                modules += ["-Xcc", "-fmodule-map-file=\(map.path)"]
            }
        }
        let cache = workDirectory.appendingPathComponent("module-cache")
        let log = workDirectory.appendingPathComponent("swiftc-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        // Far beyond any type check: only a hang reaches it.
        return try await ToolProcess.run(
            ["swiftc", "-swift-version", "6", "-module-cache-path", cache.path] + modules + arguments, log: log, hangLimitSeconds: 600)
    }
}

/// A checker that could not run (no compiler, no build), as opposed to a block that failed.
struct CheckerError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
