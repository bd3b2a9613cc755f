import Foundation
import TestSupport

/// A temporary SwiftPM package that builds generated wrappers against copies of the repository's
/// library and example modules, and runs a program that calls them.
struct GeneratedWrappersPackage {
    /// A target of the repository's manifest: its name, the targets it depends on, its folder.
    struct ManifestTarget: Equatable {
        let name: String
        let dependencies: [String]
        let path: String
    }

    /// Why the package could not be made or run.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The repository's root (this file is `Tests/MediateTests/Describe/GeneratedWrappersPackage.swift`).
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The temporary folder holding the package (and the logs, beside it).
    let root: URL
    var directory: URL { root.appendingPathComponent("package") }

    /// A fresh, empty temporary folder.
    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("generated-wrappers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("package"), withIntermediateDirectories: true)
    }

    /// Deletes the temporary folder.
    func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    // MARK: The manifest

    /// The repository's manifest text.
    static func manifest() throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    }

    /// The targets the manifest declares (`.target`, `.executableTarget`, `.testTarget`), with
    /// their dependencies on other targets by name. Tolerant of layout: each declaration is read
    /// up to the next one.
    static func manifestTargets(_ manifest: String) -> [ManifestTarget] {
        var starts: [Range<String.Index>] = []
        for marker in [".target(", ".executableTarget(", ".testTarget("] {
            var rest = manifest.startIndex..<manifest.endIndex
            while let found = manifest.range(of: marker, range: rest) {
                starts.append(found)
                rest = found.upperBound..<manifest.endIndex
            }
        }
        starts.sort { $0.lowerBound < $1.lowerBound }
        return starts.enumerated().compactMap { index, start in
            let end = index + 1 < starts.count ? starts[index + 1].lowerBound : manifest.endIndex
            let declaration = manifest[start.upperBound..<end]
            guard let name = quoted(after: "name:", in: declaration), let path = quoted(after: "path:", in: declaration) else { return nil }
            var dependencies: [String] = []
            if let label = declaration.range(of: "dependencies:"), let open = declaration[label.upperBound...].firstIndex(of: "["),
                let close = declaration[open...].firstIndex(of: "]")
            {
                // Between the quotes: every other piece.
                let pieces = declaration[declaration.index(after: open)..<close].split(separator: "\"", omittingEmptySubsequences: false)
                dependencies = pieces.enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            }
            return ManifestTarget(name: name, dependencies: dependencies, path: path)
        }
    }

    /// The first string literal after `label` in `text` (no escapes: manifests' names have none).
    private static func quoted(after label: String, in text: Substring) -> String? {
        guard let labelRange = text.range(of: label) else { return nil }
        let rest = text[labelRange.upperBound...]
        guard let open = rest.firstIndex(of: "\""), let close = rest[rest.index(after: open)...].firstIndex(of: "\"") else { return nil }
        return String(rest[rest.index(after: open)..<close])
    }

    /// `names` and every target they depend on, in the manifest's order.
    static func closure(of names: [String], in targets: [ManifestTarget]) throws -> [ManifestTarget] {
        var needed = Set<String>()
        var pending = names
        while let name = pending.popLast() {
            guard needed.insert(name).inserted else { continue }
            guard let target = targets.first(where: { $0.name == name }) else {
                throw Failure(description: "the repository's Package.swift declares no target \(name)")
            }
            pending += target.dependencies
        }
        return targets.filter { needed.contains($0.name) }
    }

    // MARK: Writing

    /// Copies `targets` from the repository and writes the `Generated` library (`generated`:
    /// file name to source) and the `Verdict` program (`program`: file name to source), with a
    /// manifest like the repository's: its tools version, platforms and settings.
    func write(copying targets: [ManifestTarget], generated: [String: String], program: [String: String], manifest: String) throws {
        let files = FileManager.default
        for target in targets {
            let destination = directory.appendingPathComponent(target.path)
            try files.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try files.copyItem(at: Self.repositoryRoot.appendingPathComponent(target.path), to: destination)
        }
        try write(generated, in: "Generated")
        try write(program, in: "Verdict")
        let toolsVersion = manifest.prefix { $0 != "\n" }
        var platforms = ""
        if let start = manifest.range(of: "platforms:"), let end = manifest[start.upperBound...].range(of: "],") {
            platforms = String(manifest[start.lowerBound..<end.upperBound])
        }
        var declarations = targets.map { target in
            let dependencies = target.dependencies.map { "\"\($0)\"" }.joined(separator: ", ")
            return "        .target(name: \"\(target.name)\", dependencies: [\(dependencies)], path: \"\(target.path)\", swiftSettings: settings),"
        }
        declarations.append("        .target(name: \"Generated\", dependencies: [\"Mediator\"], path: \"Generated\", swiftSettings: settings),")
        let programDependencies = (["Generated"] + targets.map(\.name)).map { "\"\($0)\"" }.joined(separator: ", ")
        // Only what a file imports is visible in it (MemberImportVisibility): the example modules'
        // own hand-written wrappers (imported by Notes) cannot be confused with the generated ones.
        declarations.append(
            "        .executableTarget(name: \"Verdict\", dependencies: [\(programDependencies)], path: \"Verdict\", "
                + "swiftSettings: settings + [.define(\"GENERATED_WRAPPERS\"), .enableUpcomingFeature(\"MemberImportVisibility\")]),")
        let text = """
            \(toolsVersion)
            import PackageDescription

            let settings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

            let package = Package(
                name: "GeneratedWrappersCheck",
                \(platforms)
                targets: [
            \(declarations.joined(separator: "\n"))
                ],
                swiftLanguageModes: [.v6]
            )

            """
        try text.write(to: directory.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    }

    private func write(_ sources: [String: String], in folder: String) throws {
        let destination = directory.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for (name, text) in sources {
            try text.write(to: destination.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
    }

    // MARK: Running

    /// Runs the toolchain's `swift` (from `PATH`) with `arguments` in the package and returns its
    /// exit status and output (both streams, through a file). A run that outlasts `hangLimitSeconds`
    /// (far beyond any build) is taken for a hang: it is ended and reported as a failure.
    func swift(_ arguments: [String], hangLimitSeconds: UInt64 = 3_600) async throws -> (status: Int32, output: String) {
        try await ToolProcess.run(
            ["swift"] + arguments, in: directory, log: root.appendingPathComponent("log-\(UUID().uuidString)"), hangLimitSeconds: hangLimitSeconds)
    }
}
