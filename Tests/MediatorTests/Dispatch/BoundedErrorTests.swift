import TestSupport
import Testing

@testable import Mediator

@Suite("Errors stay small and cheap whatever the input")
struct BoundedErrorTests {
    @Test("An error lists at most 20 names and says how many more exist")
    func cappedListing() throws {
        let mediator = Mediator()
        for index in 0..<100_000 {
            try mediator.register(target: "T\(index)", actions: index == 0 ? (0..<500).map { Action("a\($0)") { _, _ in nil } } : [])
        }
        let missingTarget = #expect(throws: MediatorError.self) { try mediator.callNow(target: "Nope", action: "x") }
        #expect(
            missingTarget?.availableNames == [
                "T0", "T1", "T10", "T100", "T1000", "T10000", "T10001", "T10002", "T10003", "T10004",
                "T10005", "T10006", "T10007", "T10008", "T10009", "T1001", "T10010", "T10011", "T10012", "T10013",
            ])
        #expect(missingTarget?.omittedNameCount == 99_980)
        #expect(missingTarget?.description.hasSuffix(", T10013, and 99980 more)") == true)
        #expect((missingTarget?.description.utf8.count ?? .max) < 400)

        let missingAction = #expect(throws: MediatorError.self) { try mediator.callNow(target: "T0", action: "zz") }
        #expect(missingAction?.availableNames.count == 20)
        #expect(missingAction?.omittedNameCount == 480)
    }

    @Test("A 20 KB name gets no suggestion, and the message quotes it cut")
    func hugeName() throws {
        let mediator = Mediator()
        for index in 0..<200 { try mediator.register(target: "Target\(index)", actions: []) }
        let name = String(repeating: "Target1", count: 3_000)
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(target: name, action: "x") }
        #expect(error?.suggestion == nil)
        #expect((error?.description.utf8.count ?? .max) < 1_000)
        // Longer than any name can be: refused before any lookup.
        let byURL = #expect(throws: MediatorError.self) { try mediator.callNow(url: "app://\(name)/x") }
        #expect(byURL?.code == .invalidURL)
        #expect(byURL?.reason.contains("at most 256 bytes") == true)
        #expect((byURL?.description.utf8.count ?? .max) < 1_000)
    }

    @Test(
        "Caller text in an error is cut and its control characters escaped",
        arguments: [
            "app://%1B%5B2J%1B%5D0%3Bpwned%07/read", "app://Echo/%E2%80%AEtxt.exe", "app://" + String(repeating: "%C3%A9", count: 30_000) + "/read",
            "app://Echo/" + String(repeating: "%C3%A9", count: 10_000), "app://Echo/echo?" + String(repeating: "%C3%A9", count: 5_000) + "=%zz",
        ])
    func callerTextInErrors(url: String) throws {
        let mediator = Mediator()
        try mediator.registerEcho()
        let error = #expect(throws: MediatorError.self) { try mediator.callNow(url: url) }
        let text = error?.description ?? ""
        #expect(text.utf8.count < 1_000, "\(text.utf8.count) bytes")
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" }, "\(text)")
    }

    @Test("Names longer than the compared length get no suggestion, even from a case-only match")
    func comparedLength() {
        let long = String(repeating: "a", count: Suggestions.maximumComparedLength + 1)
        #expect(Suggestions.closest(to: long, in: [long.uppercased()]) == nil)
        let fits = String(repeating: "a", count: Suggestions.maximumComparedLength)
        #expect(Suggestions.closest(to: fits, in: [fits.uppercased()]) == fits.uppercased())
    }

    @Test("The banded edit distance equals the full one within its limit and exceeds the limit otherwise")
    func bandedDistance() {
        var generator = SeededGenerator(seed: 0xBA0D)
        let alphabet = Array("abc".utf8)
        for _ in 0..<3_000 {
            let a = (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let b = (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let full = Suggestions.editDistance(a, b, limit: max(a.count, b.count))
            for limit in 0...4 {
                let banded = Suggestions.editDistance(a, b, limit: limit)
                if full <= limit {
                    #expect(banded == full, "\(a) \(b) limit \(limit)")
                } else {
                    #expect(banded > limit, "\(a) \(b) limit \(limit)")
                }
            }
        }
    }

    @Test("Ties between suggestions go to the first in sorted order, whatever the registry's order")
    func ties() {
        #expect(Suggestions.closest(to: "bat", in: ["cat", "bag", "hat"]) == "bag")
        #expect(Suggestions.closest(to: "bat", in: ["hat", "cat", "bag"]) == "bag")
    }
}

@Suite("Names: the byte test")
struct NameByteTests {
    @Test("Exactly ASCII letters, digits, underscore, hyphen and dot are name bytes")
    func nameBytes() {
        let reference = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(Names.isNameByte(byte) == reference.contains(byte), "byte \(byte)")
        }
    }
}
