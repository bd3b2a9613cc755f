import Foundation
import Testing

/// The package as an app adds it: the package's modules, examples included, must not take names an
/// app uses for its own, or SwiftPM refuses the app's package graph ("multiple similar targets
/// ... appear in package ...") before anything is built.
@Suite("Module names: an app with modules of common names can depend on the package")
struct ModuleNamesTests {
    /// The modules an app following the Getting Started tutorial has, and names apps commonly use.
    static let appModules = ["Notes", "Accounts", "NotesMediator", "AccountsMediator", "ExampleSupport", "TestSupport", "Support", "App"]

    @Test(
        "A package with its own Notes, Accounts, NotesMediator, AccountsMediator and ExampleSupport modules resolves with this package as a dependency",
        .bug(id: "module-name-collisions", "the example modules' names collided with an app's own modules")
    )
    func appWithCommonModuleNamesResolves() throws {
        let consumer = FileManager.default.temporaryDirectory.appendingPathComponent("mediator-consumer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: consumer) }
        for module in Self.appModules {
            let folder = consumer.appendingPathComponent("Sources/\(module)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let source = module == "App" ? "import Mediator\nprint(Mediator())\n" : "public let moduleName = \"\(module)\"\n"
            try source.write(to: folder.appendingPathComponent(module == "App" ? "main.swift" : "\(module).swift"), atomically: true, encoding: .utf8)
        }
        let library = Self.appModules.filter { $0 != "App" }
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "Consumer",
                dependencies: [.package(path: "\(PackageReader.root.path)")],
                targets: [
                    .executableTarget(
                        name: "App",
                        dependencies: [
                            .product(name: "Mediator", package: "\(PackageReader.root.lastPathComponent)"),
                            .product(name: "MediatorCommandLine", package: "\(PackageReader.root.lastPathComponent)"),
                            .product(name: "MediatorTesting", package: "\(PackageReader.root.lastPathComponent)"),
                            \(library.map { "\"\($0)\"" }.joined(separator: ", ")),
                        ]),
                    \(library.map { ".target(name: \"\($0)\")" }.joined(separator: ", ")),
                ]
            )

            """
        try manifest.write(to: consumer.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)

        // Loading the package graph is where SwiftPM refuses conflicting module names; nothing is built.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", consumer.path, "show-dependencies"]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "swift package show-dependencies failed: \(message)")
    }
}
