import Foundation
import TestSupport

/// Type-checks Swift sources against the `Mediator` module this test run was built with, with
/// the toolchain's `swiftc` (from `PATH`): one process per module, no build, no linking.
enum SwiftTypeCheck {
    /// What one `swiftc -typecheck` printed and returned.
    struct Outcome: CustomStringConvertible {
        let status: Int32
        let output: String
        var succeeded: Bool { status == 0 && !output.contains("warning:") }
        var description: String { "swiftc exited with \(status):\n\(output)" }
    }

    /// Why the sources could not be checked at all.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The directory of the built products: the first folder, from the running test binary up,
    /// that holds `Mediator.swiftmodule` (in `Modules/` since Swift 6.0, beside it before).
    static func productsDirectory() throws -> URL {
        var starts: [URL] = []
        let linuxExecutable = URL(fileURLWithPath: "/proc/self/exe")
        if FileManager.default.fileExists(atPath: linuxExecutable.path) { starts.append(linuxExecutable.resolvingSymlinksInPath()) }
        // On Darwin the tests run inside `MediatorPackageTests.xctest`, loaded by a helper.
        starts += Bundle.allBundles.map(\.bundleURL) + CommandLine.arguments.map { URL(fileURLWithPath: $0) }
        for start in starts {
            var directory = start.deletingLastPathComponent()
            while directory.path != "/" {
                if !modulePaths(in: directory).isEmpty { return directory }
                directory.deleteLastPathComponent()
            }
        }
        throw Failure(description: "no built Mediator.swiftmodule above \(starts.map(\.path))")
    }

    /// The folders to pass with `-I` for the Swift modules in `directory`.
    private static func modulePaths(in directory: URL) -> [String] {
        [directory.appendingPathComponent("Modules"), directory].map(\.path).filter {
            FileManager.default.fileExists(atPath: $0 + "/Mediator.swiftmodule")
        }
    }

    /// The arguments that make the built modules importable: `-I` for the Swift modules and the
    /// module map of each C target (`Mediator` imports `MediatorAtomics`).
    static func searchArguments() throws -> [String] {
        let directory = try productsDirectory()
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let moduleMaps = contents.filter { $0.hasSuffix(".build") }.sorted().map { directory.appendingPathComponent($0 + "/module.modulemap").path }
            .filter { FileManager.default.fileExists(atPath: $0) }
        return modulePaths(in: directory).flatMap { ["-I", $0] } + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=" + $0] }
    }

    /// Type-checks `files` (name to source) as one module named `module`, in Swift 6 mode with
    /// the package's upcoming features and warnings as errors.
    static func check(_ files: [String: String], module: String = "GeneratedWrappers") async throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swift-typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (name, source) in files.sorted(by: { $0.key < $1.key }) {
            let path = directory.appendingPathComponent(name).path
            try source.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        let arguments =
            [
                // One frontend for the whole module: without `-wmo` each file gets a process of its own.
                "swiftc", "-typecheck", "-wmo", "-parse-as-library", "-module-name", module, "-swift-version", "6",
                "-enable-upcoming-feature", "ExistentialAny", "-warnings-as-errors",
            ] + (try searchArguments()) + paths
        // Far beyond any type-check: only a hang reaches it.
        let run = try await ToolProcess.run(arguments, log: directory.appendingPathComponent("swiftc.log"), hangLimitSeconds: 1_800)
        return Outcome(status: run.status, output: run.output)
    }
}
