import Foundation
import Mediator
import Testing

@testable import MediatorCommandLine

/// The source `describe --swift` prints compiles, whatever names a registry that `verify()`
/// accepts uses: each file is type-checked with `swiftc` against the built `Mediator` module.
@Suite("Swift wrapper compilation")
struct SwiftWrapperCompilationTests {
    /// The wrappers for the targets `register` adds to a fresh mediator, type-checked as one module.
    static func typeCheck(_ register: (Mediator) throws -> Void) async throws -> (source: String, outcome: SwiftTypeCheck.Outcome) {
        let mediator = Mediator()
        try register(mediator)
        #expect(mediator.verify().isEmpty, "\(mediator.verify())")
        let source = mediator.targets.map { SwiftWrappers.source(for: $0) }.joined(separator: "\n")
        return (source, try await SwiftTypeCheck.check(["Wrappers.swift": source]))
    }

    @Test("A parameter named like the method the wrapper calls does not capture the call", .bug(id: "a parameter named call"))
    func parameterNamedCall() async throws {
        let (source, outcome) = try await Self.typeCheck { mediator in
            try mediator.register(
                target: "Messages",
                actions: [
                    Action("send", params: [.required("call", .string)]) { _, _ in nil },
                    Action("ring", params: [.required("call", .string), .optional("mediator", .integer)], result: .string) { _, _ in "" },
                ])
        }
        #expect(outcome.succeeded, "\(outcome)\n\(source)")
    }

    @Test("A result field whose nested struct is named after a standard protocol does not hide it", .bug(id: "a result field named codingKey"))
    func fieldNamedCodingKey() async throws {
        let (source, outcome) = try await Self.typeCheck { mediator in
            let owner = ParameterType.object([.required("name", .string)])
            try mediator.register(
                target: "Profiles",
                actions: [
                    Action("get", result: .object([.required("codingKey", owner), .optional("first-name", .string)])) { _, _ in nil }
                ])
        }
        #expect(outcome.succeeded, "\(outcome)\n\(source)")
    }

    @Test("A parameter named after a standard type does not hide the type of the result", .bug(id: "a parameter named String"))
    func parameterNamedString() async throws {
        let (source, outcome) = try await Self.typeCheck { mediator in
            try mediator.register(
                target: "Texts", actions: [Action("echo", params: [.required("String", .string)], result: .string) { _, _ in "" }])
        }
        #expect(outcome.succeeded, "\(outcome)\n\(source)")
    }

    @Test("The names generated methods avoid include every member Mediator has")
    func mediatorMembersAreAvoided() throws {
        let api = try String(contentsOf: GeneratedWrappersPackage.repositoryRoot.appendingPathComponent("api/Mediator.txt"), encoding: .utf8)
        let members = Set(
            api.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("Mediator.") else { return nil }
                let name = line.dropFirst("Mediator.".count).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                return name.first?.isLowercase == true ? String(name) : nil
            })
        #expect(members.count > 20)
        #expect(members.subtracting(SwiftWrappers.mediatorMembers).sorted() == [])
    }

    @Test("Wrappers for registries named with keywords, standard and library names and hostile text all type-check")
    func generatedRegistries() async throws {
        let started = Date()
        var generator = HostileRegistries(seed: 20_260_601)
        var files: [(name: String, source: String, declared: Set<String>)] = []
        func add(_ mediator: Mediator, as registry: String) {
            #expect(mediator.verify().isEmpty, "\(mediator.verify())")
            for (index, target) in mediator.targets.enumerated() {
                let methods = SwiftWrappers.methods(for: target)
                let declared = Set(methods.map(\.name) + methods.flatMap { $0.result?.structures.map(\.name) ?? [] })
                files.append(("\(registry)T\(index).swift", SwiftWrappers.source(for: target), declared))
            }
        }
        add(try HostileRegistries.everyName(), as: "Every")
        var registries = 0
        var attempts = 0
        while registries < 16, attempts < 100 {
            attempts += 1
            guard let mediator = try generator.registry() else { continue }
            registries += 1
            add(mediator, as: "R\(registries)")
        }
        #expect(registries == 16, "only \(registries) of \(attempts) registries drawn were accepted by verify()")
        // Files go into as few modules as keep their top-level names apart: two targets of
        // different registries may give the same method or struct names.
        var modules: [(files: [String: String], declared: Set<String>)] = []
        for file in files {
            if let index = modules.firstIndex(where: { $0.declared.isDisjoint(with: file.declared) }) {
                modules[index].files[file.name] = file.source
                modules[index].declared.formUnion(file.declared)
            } else {
                modules.append(([file.name: file.source], file.declared))
            }
        }
        for (index, module) in modules.enumerated() {
            let outcome = try await SwiftTypeCheck.check(module.files, module: "Generated\(index)")
            #expect(outcome.succeeded, "\(outcome)")
        }
        print("swift wrappers: \(files.count) files in \(modules.count) modules type-checked in \(Int(Date().timeIntervalSince(started) * 1_000)) ms")
    }
}
