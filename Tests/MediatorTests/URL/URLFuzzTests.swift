import Mediator
import TestSupport
import Testing

@Suite("URL calls: fuzzing")
struct URLFuzzTests {
    static let seedURLs = [
        "app://Echo/echo?a=1&b=%20x&tag=a&tag=b#frag", "app://Target_Echo/Action_echo/?k=%E2%82%AC",
        "app://Other/ping", "app://Echo/nativeEcho?x=1", "app://Echo/secret", "app://Ghost/x?y", "x://E/e?=",
    ]
    static let alphabet: [Character] = Array("ap:/?#&=%+-._~ EchoOtherTarget_Action_natv0129AFzZ€😀\u{0}\n[]@")
    static let allowedCodes: Set<MediatorError.Code> = [.invalidURL, .forbidden, .targetNotFound, .actionNotFound]

    @Test("100,000 random and mutated URLs each succeed or fail with invalidURL, forbidden or not-found")
    func fuzz() throws {
        let mediator = try urlTestMediator()
        mediator.urlPolicy = URLPolicy(maximumLength: 256, maximumQueryItems: 8)
        var random = SeededGenerator(seed: 0xF00D)
        var outcomes: [String: Int] = [:]
        for iteration in 0..<100_000 {
            let url = iteration % 2 == 0 ? randomURL(using: &random) : mutatedURL(using: &random)
            let answered: Bool
            do {
                answered = try mediator.callNow(url: url) != nil
                outcomes["ok", default: 0] += 1
            } catch {
                answered = false
                outcomes[error.code.rawValue, default: 0] += 1
                if !Self.allowedCodes.contains(error.code) {
                    Issue.record("iteration \(iteration): \(url.debugDescription) failed with \(error.code): \(error)")
                }
            }
            // The nil-returning entry point agrees with the throwing one.
            if (mediator.open(url) != nil) != answered {
                Issue.record("iteration \(iteration): open and call(url:) disagree on \(url.debugDescription)")
            }
        }
        // The inputs must reach every outcome, or the fuzzer is not exploring.
        for code in ["ok", "invalidURL", "forbidden", "targetNotFound", "actionNotFound"] {
            #expect(outcomes[code, default: 0] > 100, "outcomes: \(outcomes)")
        }
    }

    func randomURL(using random: inout SeededGenerator) -> String {
        let length = Int.random(in: 0...60, using: &random)
        return String((0..<length).map { _ in Self.alphabet[Int.random(in: 0..<Self.alphabet.count, using: &random)] })
    }

    func mutatedURL(using random: inout SeededGenerator) -> String {
        var characters = Array(Self.seedURLs[Int.random(in: 0..<Self.seedURLs.count, using: &random)])
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = characters.isEmpty ? 0 : Int.random(in: 0..<characters.count, using: &random)
            let character = Self.alphabet[Int.random(in: 0..<Self.alphabet.count, using: &random)]
            switch Int.random(in: 0..<5, using: &random) {
            case 0 where !characters.isEmpty: characters.remove(at: position)
            case 1: characters.insert(character, at: position)
            case 2 where !characters.isEmpty: characters[position] = character
            case 3: characters += characters.prefix(Int.random(in: 0...characters.count, using: &random))
            default: characters = Array(characters.prefix(position))
            }
        }
        return String(characters)
    }
}
