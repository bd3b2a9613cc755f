// swift-tools-version: 6.1
import PackageDescription

/// Every target gets the same settings: Swift 6 mode (complete strict concurrency) plus explicit `any`.
let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "Mediator",
    // The oldest systems the package builds for: what apps that still support iOS 15 need. Nothing
    // newer is used unless guarded by `#available` (`scripts/check-availability` keeps it so).
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .library(name: "Mediator", targets: ["Mediator"]),
        .library(name: "MediatorCommandLine", targets: ["MediatorCommandLine"]),
        .library(name: "MediatorTesting", targets: ["MediatorTesting"]),
        .library(name: "MediatorDiagnostics", targets: ["MediatorDiagnostics"]),
        .executable(name: "mediate", targets: ["mediate"]),
        .executable(name: "mediator-demo", targets: ["MediatorDemo"]),
        .executable(name: "mediator-bench", targets: ["MediatorBenchmarks"]),
        .executable(name: "mediator-fuzz", targets: ["MediatorFuzz"]),
    ],
    targets: [
        // The library: zero dependencies beyond the toolchain.
        .target(name: "Mediator", dependencies: ["MediatorAtomics"], path: "Sources/Mediator", swiftSettings: settings),
        // Two C functions (an atomic load and store of a word): the Synchronization module's atomics
        // need macOS 15 / iOS 18. Internal to the library (imported with `internal import`).
        .target(name: "MediatorAtomics", path: "Sources/MediatorAtomics"),
        // Ready-made observers (a call log, per-action statistics) and the registry described as JSON
        // for other tools: an add-on to the library (its public API and a few package-level text and
        // JSON helpers), so the library's own API stays what every app needs.
        .target(name: "MediatorDiagnostics", dependencies: ["Mediator"], path: "Sources/MediatorDiagnostics", swiftSettings: settings),
        // The reusable command-line layer: any program can expose its mediator like `mediate` does.
        .target(
            name: "MediatorCommandLine", dependencies: ["Mediator", "MediatorDiagnostics"], path: "Sources/MediatorCommandLine", swiftSettings: settings),
        // Test one module without the others: a call recorder, stubs and a strict mode, on a private mediator.
        .target(name: "MediatorTesting", dependencies: ["Mediator"], path: "Sources/MediatorTesting", swiftSettings: settings),

        // The C library of the platform, chosen once for the executables and the end-to-end tests
        // (the libraries keep their C calls behind internal wrappers instead).
        .target(name: "MediatorPlatform", path: "Sources/MediatorPlatform", swiftSettings: settings),

        // Example provider modules (each defines its Target_X), their typed extension modules, and a
        // support module of shared helpers (a lock that works from iOS 15). Rule (checked by
        // ExampleModulesTests/ImportRulesTests): providers never depend on other providers, only on
        // Mediator, extension modules (their own, whose typed keys they register against, and
        // others', whose keys they call) and support modules; extension modules depend on Mediator
        // only; support modules on Mediator at most.
        .target(name: "ExampleModuleSupport", path: "Targets/ExampleSupport", swiftSettings: settings),
        .target(
            name: "ExampleAccounts", dependencies: ["Mediator", "ExampleAccountsMediator", "ExampleModuleSupport"], path: "Targets/Accounts",
            swiftSettings: settings),
        .target(name: "ExampleAccountsMediator", dependencies: ["Mediator"], path: "Targets/AccountsMediator", swiftSettings: settings),
        .target(
            name: "ExampleNotes",
            dependencies: ["Mediator", "ExampleAccountsMediator", "ExampleNotesMediator", "ExampleModuleSupport"],
            path: "Targets/Notes",
            swiftSettings: settings
        ),
        .target(name: "ExampleNotesMediator", dependencies: ["Mediator"], path: "Targets/NotesMediator", swiftSettings: settings),

        .executableTarget(
            name: "mediate",
            dependencies: [
                "Mediator", "MediatorCommandLine", "MediatorPlatform", "ExampleAccounts", "ExampleAccountsMediator", "ExampleNotes", "ExampleNotesMediator",
                "ExampleModuleSupport",
            ],
            path: "Sources/mediate",
            swiftSettings: settings
        ),
        .executableTarget(
            name: "MediatorBenchmarks",
            dependencies: ["Mediator", "MediatorCommandLine", "MediatorPlatform"],
            path: "Sources/MediatorBenchmarks",
            exclude: ["README.md"],
            swiftSettings: settings
        ),
        // Fuzz inputs: replays a corpus in ordinary builds; `scripts/fuzz` builds it with libFuzzer.
        .executableTarget(
            name: "MediatorFuzz",
            dependencies: ["Mediator", "MediatorCommandLine", "MediatorPlatform"],
            path: "Sources/MediatorFuzz",
            swiftSettings: settings
        ),
        .executableTarget(
            name: "MediatorDemo",
            dependencies: ["Mediator", "ExampleAccounts", "ExampleAccountsMediator", "ExampleNotes", "ExampleNotesMediator"],
            path: "Sources/MediatorDemo",
            swiftSettings: settings
        ),

        // Helpers shared by the test targets (seeded randomness, real threads, a shared counter).
        .target(name: "TestSupport", dependencies: ["Mediator"], path: "Tests/TestSupport", swiftSettings: settings),
        .testTarget(
            name: "MediatorTests", dependencies: ["Mediator", "MediatorDiagnostics", "TestSupport"], path: "Tests/MediatorTests", swiftSettings: settings),
        .testTarget(
            name: "MediatorTestingTests",
            dependencies: ["Mediator", "MediatorTesting", "TestSupport"],
            path: "Tests/MediatorTestingTests",
            swiftSettings: settings
        ),
        // End-to-end tests of the `mediate` binary (depending on it makes `swift test` build it).
        .testTarget(
            name: "MediateTests",
            dependencies: ["mediate", "Mediator", "MediatorCommandLine", "MediatorDiagnostics", "MediatorPlatform", "TestSupport"],
            path: "Tests/MediateTests",
            swiftSettings: settings
        ),
        .testTarget(
            name: "ExampleModulesTests",
            dependencies: [
                "Mediator", "MediatorTesting", "ExampleAccounts", "ExampleAccountsMediator", "ExampleNotes", "ExampleNotesMediator", "ExampleModuleSupport",
                "TestSupport",
            ],
            path: "Tests/ExampleModulesTests",
            swiftSettings: settings
        ),
        // The names the documentation's snippets use without declaring them (`mediator`, `tool`, ...):
        // a module each snippet is type-checked with, not a copy of any snippet.
        .target(
            name: "DocumentationContext", dependencies: ["Mediator", "MediatorCommandLine", "MediatorTesting"], path: "Tests/DocumentationContext",
            swiftSettings: settings),
        // Type-checks every Swift block of README.md, the DocC articles and the libraries' `///`
        // comments with the toolchain's swiftc, against the modules of this build (so it depends on
        // every module a block may use).
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "Mediator", "MediatorCommandLine", "MediatorTesting", "MediatorDiagnostics", "ExampleAccounts", "ExampleAccountsMediator", "ExampleNotes",
                "ExampleNotesMediator", "DocumentationContext", "TestSupport",
            ],
            path: "Tests/DocumentationTests",
            swiftSettings: settings
        ),
    ],
    swiftLanguageModes: [.v6]
)
