import Foundation
import Testing

/// One module of the package: what the manifest says it depends on and what its sources import.
struct ModuleInfo {
    let name: String
    let path: String
    let declared: Set<String>
    let imported: Set<String>
}

/// The decoupling rules of the example modules.
///
/// Under `Targets/`, a module whose name ends in `Mediator` is a typed extension module, one whose
/// name ends in `Support` is a support module (helpers shared by providers, such as a lock), and
/// every other one is a provider. Extension modules depend on `Mediator` only; support modules on
/// `Mediator` at most; providers on `Mediator`, extension modules and support modules only (never
/// on another provider). A provider may depend on its own extension module (whose typed keys it
/// registers its actions against) and on others' (whose keys it calls): extension modules hold
/// keys and types, no target, so a provider still knows nothing of any other provider. A support
/// module holds no target either.
enum ImportRules {
    static func violations(in modules: [ModuleInfo]) -> [String] {
        let packageModules = Set(modules.map(\.name))
        let examples = modules.filter { $0.path.hasPrefix("Targets/") }
        let extensionModules = Set(examples.filter { $0.name.hasSuffix("Mediator") }.map(\.name))
        let supportModules = Set(examples.filter { $0.name.hasSuffix("Support") }.map(\.name))
        let providers = Set(examples.map(\.name)).subtracting(extensionModules).subtracting(supportModules)
        var found: [String] = []
        for module in examples {
            let allowed: Set<String>
            let kind: String
            if extensionModules.contains(module.name) {
                (allowed, kind) = (["Mediator"], "extension module")
            } else if supportModules.contains(module.name) {
                (allowed, kind) = (["Mediator"], "support module")
            } else {
                (allowed, kind) = (Set(["Mediator"]).union(extensionModules).union(supportModules), "provider")
            }
            for dependency in module.declared.sorted() where !allowed.contains(dependency) {
                let why = providers.contains(dependency) ? "a provider" : "not allowed"
                found.append("\(kind) \(module.name) declares a dependency on \(dependency) (\(why))")
            }
            // Only imports of this package's own modules matter; the toolchain's are always allowed.
            for imported in module.imported.sorted() where packageModules.contains(imported) && !allowed.contains(imported) {
                found.append("\(kind) \(module.name) imports \(imported)")
            }
        }
        return found
    }
}

/// Reads the real package: the manifest through `swift package dump-package`, the imports from sources.
enum PackageReader {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func modules() throws -> [ModuleInfo] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-package-\(UUID().uuidString)")
        // A scratch path of its own, so this never waits for the lock of the `swift test` running it.
        process.arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: scratch)
        guard process.terminationStatus == 0 else { throw ReadError(message: "swift package dump-package exited with \(process.terminationStatus)") }

        guard let manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let targets = manifest["targets"] as? [[String: Any]]
        else { throw ReadError(message: "unexpected dump-package output") }
        return try targets.map { target in
            let name = target["name"] as? String ?? ""
            let path = target["path"] as? String ?? "Sources/\(name)"
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency -> String? in
                // Each dependency is {"byName": [name, condition]} or {"target": [...]} or {"product": [...]}.
                (dependency.values.first as? [Any])?.first as? String
            }
            return ModuleInfo(name: name, path: path, declared: Set(dependencies), imported: try imports(under: path))
        }
    }

    /// Module names imported by the Swift files under `path` (any access level or attribute).
    static func imports(under path: String) throws -> Set<String> {
        let directory = root.appendingPathComponent(path)
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        var modules: Set<String> = []
        for case let file as URL in files where file.pathExtension == "swift" {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                    words[..<index].allSatisfy({ ["public", "internal", "package", "private", "fileprivate"].contains($0) })
                else { continue }
                modules.insert(String(words[index + 1].split(separator: ".").first ?? ""))
            }
        }
        return modules
    }

    struct ReadError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

@Suite("Import rules of the example modules")
struct ImportRulesTests {
    @Test(
        "Providers never depend on providers (only on extension modules, their own included, and support modules); extension modules depend on Mediator only; support modules on Mediator at most"
    )
    func realPackageFollowsTheRules() throws {
        let modules = try PackageReader.modules()
        let examples = modules.filter { $0.path.hasPrefix("Targets/") }.map(\.name).sorted()
        #expect(examples == ["ExampleAccounts", "ExampleAccountsMediator", "ExampleModuleSupport", "ExampleNotes", "ExampleNotesMediator"])
        // Sanity: the reader sees the allowed cross-module links, so an empty result means something.
        #expect(modules.first { $0.name == "ExampleNotes" }?.imported.contains("ExampleAccountsMediator") == true)
        #expect(modules.first { $0.name == "ExampleNotes" }?.imported.contains("ExampleModuleSupport") == true)
        // Each provider registers against the keys of its own extension module.
        #expect(modules.first { $0.name == "ExampleNotes" }?.declared.contains("ExampleNotesMediator") == true)
        #expect(modules.first { $0.name == "ExampleNotes" }?.imported.contains("ExampleNotesMediator") == true)
        #expect(modules.first { $0.name == "ExampleAccounts" }?.imported.contains("ExampleAccountsMediator") == true)
        #expect(ImportRules.violations(in: modules) == [])
    }

    @Test("The checker reports a provider importing a provider and an extension module importing anything but Mediator")
    func checkerCatchesViolations() {
        let modules = [
            ModuleInfo(name: "Mediator", path: "Sources/Mediator", declared: [], imported: []),
            ModuleInfo(
                name: "ExampleNotes", path: "Targets/Notes", declared: ["Mediator", "ExampleAccounts"], imported: ["Mediator", "ExampleAccounts", "Foundation"]),
            ModuleInfo(name: "ExampleAccounts", path: "Targets/Accounts", declared: ["Mediator"], imported: ["Mediator"]),
            ModuleInfo(
                name: "ExampleNotesMediator", path: "Targets/NotesMediator", declared: ["Mediator", "ExampleAccountsMediator"], imported: ["ExampleNotes"]),
            ModuleInfo(name: "ExampleAccountsMediator", path: "Targets/AccountsMediator", declared: ["Mediator"], imported: ["Mediator"]),
        ]
        #expect(
            ImportRules.violations(in: modules) == [
                "provider ExampleNotes declares a dependency on ExampleAccounts (a provider)",
                "provider ExampleNotes imports ExampleAccounts",
                "extension module ExampleNotesMediator declares a dependency on ExampleAccountsMediator (not allowed)",
                "extension module ExampleNotesMediator imports ExampleNotes",
            ])
    }

    @Test("A provider may use its own extension module and another's; an extension module may not use its provider")
    func ownExtensionModule() {
        let modules = [
            ModuleInfo(name: "Mediator", path: "Sources/Mediator", declared: [], imported: []),
            ModuleInfo(
                name: "ExampleNotes", path: "Targets/Notes", declared: ["Mediator", "ExampleNotesMediator", "ExampleAccountsMediator"],
                imported: ["Mediator", "ExampleNotesMediator", "ExampleAccountsMediator"]),
            ModuleInfo(
                name: "ExampleNotesMediator", path: "Targets/NotesMediator", declared: ["Mediator", "ExampleNotes"], imported: ["Mediator", "ExampleNotes"]),
            ModuleInfo(name: "ExampleAccountsMediator", path: "Targets/AccountsMediator", declared: ["Mediator"], imported: ["Mediator"]),
        ]
        #expect(
            ImportRules.violations(in: modules) == [
                "extension module ExampleNotesMediator declares a dependency on ExampleNotes (a provider)",
                "extension module ExampleNotesMediator imports ExampleNotes",
            ])
    }

    @Test("Providers may use a support module; a support module may not use a provider, and extension modules may not use it")
    func supportModules() {
        let modules = [
            ModuleInfo(name: "Mediator", path: "Sources/Mediator", declared: [], imported: []),
            ModuleInfo(name: "ExampleModuleSupport", path: "Targets/ExampleSupport", declared: ["ExampleAccounts"], imported: ["ExampleAccounts"]),
            ModuleInfo(
                name: "ExampleAccounts", path: "Targets/Accounts", declared: ["Mediator", "ExampleModuleSupport"],
                imported: ["Mediator", "ExampleModuleSupport"]),
            ModuleInfo(
                name: "ExampleAccountsMediator", path: "Targets/AccountsMediator", declared: ["Mediator", "ExampleModuleSupport"], imported: ["Mediator"]),
        ]
        #expect(
            ImportRules.violations(in: modules) == [
                "support module ExampleModuleSupport declares a dependency on ExampleAccounts (a provider)",
                "support module ExampleModuleSupport imports ExampleAccounts",
                "extension module ExampleAccountsMediator declares a dependency on ExampleModuleSupport (not allowed)",
            ])
    }
}
