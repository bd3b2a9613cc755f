import Testing

@testable import Mediator

@Suite("Suggestions")
struct SuggestionTests {
    @Test(
        "Edit distance counts a swap of neighbours as one edit",
        arguments: [
            ("get", "gte", 1), ("create", "craete", 1), ("list", "lists", 1), ("a", "b", 1), ("", "abc", 3), ("same", "same", 0), ("kitten", "sitting", 3),
        ])
    func editDistance(lhs: String, rhs: String, expected: Int) {
        let (a, b) = (Array(lhs.utf8), Array(rhs.utf8))
        #expect(Suggestions.editDistance(a, b, limit: max(a.count, b.count)) == expected)
        #expect(Suggestions.editDistance(b, a, limit: max(a.count, b.count)) == expected)
    }

    @Test(
        "The closest plausible name is suggested; a case-only difference wins",
        arguments: [
            ("creat", "create"), ("DELETE", "delete"), ("lsit", "list"), ("xyz", nil), ("upd", nil),
        ] as [(String, String?)])
    func closest(name: String, expected: String?) {
        #expect(Suggestions.closest(to: name, in: ["create", "delete", "get", "list", "update"]) == expected)
    }
}
