import ExampleAccounts
import Testing

/// The example accounts are what people copy: unguessable tokens, usernames that cannot pass for
/// one another.
@Suite("Accounts: unguessable session tokens and look-alike-proof usernames")
struct AccountsSecurityTests {
    /// A token's 128 bits as (high, low) halves.
    static func bits(_ token: String) -> (high: UInt64, low: UInt64)? {
        guard token.utf8.count == 32,
            let high = UInt64(token.prefix(16), radix: 16), let low = UInt64(token.suffix(16), radix: 16)
        else { return nil }
        return (high, low)
    }

    /// Whether `b` is within `distance` of `a` as 128-bit numbers, in either direction (so
    /// counting up or down from the previous token is caught, carries included).
    static func isNear(_ a: (high: UInt64, low: UInt64), _ b: (high: UInt64, low: UInt64), distance: UInt64) -> Bool {
        let (low, borrow) = b.low.subtractingReportingOverflow(a.low)
        let high = b.high &- a.high &- (borrow ? 1 : 0)
        return (high == 0 && low <= distance) || (high == .max && low >= 0 &- distance)
    }

    @Test("1,000 session tokens are distinct, 32 lowercase hex digits, and none follows from the previous")
    func tokensAreRandom() throws {
        let accounts = AccountsService()
        _ = try accounts.signUp(username: "ada", password: "analytical")
        let tokens = try (0..<1_000).map { _ in try accounts.logIn(username: "ada", password: "analytical") }
        #expect(Set(tokens).count == 1_000)
        let lowercaseHex = Set("0123456789abcdef".utf8)
        for token in tokens {
            #expect(token.utf8.count == 32 && token.utf8.allSatisfy(lowercaseHex.contains), "malformed token \(token)")
            #expect(try accounts.whoAmI(token: token).username == "ada")
        }
        for (previous, next) in zip(tokens, tokens.dropFirst()) {
            let a = try #require(Self.bits(previous))
            let b = try #require(Self.bits(next))
            #expect(!Self.isNear(a, b, distance: 1_000), "\(next) follows from \(previous)")
        }
    }

    @Test("whoAmI refuses a token not of the issued form before looking it up")
    func malformedTokensRefused() throws {
        let accounts = AccountsService()
        _ = try accounts.signUp(username: "ada", password: "analytical")
        let token = try accounts.logIn(username: "ada", password: "analytical")
        // Sessions of other forms, as an old state file might hold them: never honoured.
        var snapshot = accounts.snapshot
        for forged in ["token-1", "1", "", token.uppercased(), token + "0", String(token.dropLast()), " " + token] {
            snapshot.tokens[forged] = "ada"
        }
        accounts.restore(snapshot)
        for forged in ["token-1", "1", "", token.uppercased(), token + "0", String(token.dropLast()), " " + token] where forged != token {
            #expect(throws: AccountsError.invalidToken, "\(forged.debugDescription)") { try accounts.whoAmI(token: forged) }
        }
        #expect(try accounts.whoAmI(token: token).username == "ada")
    }

    static let invalidUsernames = [
        "", "\u{FF41}da", "ada\u{200B}", "\u{212A}ate", "émile", "e\u{301}mile", "名前", "😀", "a b", "ada ", "tab\t",
        "line\nbreak", "ada/..", "ada@home", "ada+1", "ada\u{0}", String(repeating: "u", count: 33),
    ]

    @Test("Sign-up refuses every username outside ASCII letters, digits and ._- (1 to 32 characters), saying so", arguments: invalidUsernames)
    func invalidUsername(_ username: String) throws {
        let accounts = AccountsService()
        #expect(throws: AccountsError.invalidUsername(username)) { try accounts.signUp(username: username, password: "analytical") }
        let description = AccountsError.invalidUsername(username).description
        #expect(description.contains("1 to 32 characters, each an ASCII letter, digit, '.', '_' or '-'"), "\(description)")
    }

    @Test("Sign-up accepts the safe set", arguments: ["a", "ada", "Ada", "ada.lovelace", "grace_hopper-1", "A.B_C-9", "0", String(repeating: "u", count: 32)])
    func validUsername(_ username: String) throws {
        let accounts = AccountsService()
        #expect(try accounts.signUp(username: username, password: "analytical").username == username)
    }

    @Test("A look-alike of an existing username neither signs up nor logs in to that account")
    func lookAlikes() throws {
        let accounts = AccountsService()
        _ = try accounts.signUp(username: "Kate", password: "analytical")
        _ = try accounts.signUp(username: "ada", password: "analytical")
        // KELVIN SIGN is canonically equivalent to K: String equality would find Kate's account.
        #expect(throws: AccountsError.invalidCredentials) { try accounts.logIn(username: "\u{212A}ate", password: "analytical") }
        #expect(throws: AccountsError.invalidCredentials) { try accounts.logIn(username: "\u{FF41}da", password: "analytical") }
        #expect(throws: AccountsError.invalidUsername("\u{FF41}da")) { try accounts.signUp(username: "\u{FF41}da", password: "analytical") }
        #expect(throws: AccountsError.invalidUsername("ada\u{200B}")) { try accounts.signUp(username: "ada\u{200B}", password: "analytical") }
        #expect(accounts.snapshot.accounts.count == 2)
    }
}
