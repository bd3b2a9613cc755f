import Mediator
import TestSupport
import Testing

/// Builds call URLs the way a careful client would, for the property and fuzz tests.
enum URLBuilder {
    /// Every byte outside RFC 3986's unreserved set percent-encoded (as `%XX`).
    static func encode(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            let unreserved =
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
            if unreserved {
                encoded.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return encoded
    }

    /// `app://Echo/echo?...` carrying `params`: a repeated key for each array value (its values
    /// in order), the keys in an order shuffled by `random`.
    static func echoURL(_ params: [String: QueryValue], using random: inout SeededGenerator) -> String {
        let groups = params.keys.sorted().shuffled(using: &random).map { key -> [String] in
            switch params[key]! {
            case .one(let single): [encode(key) + "=" + encode(single)]
            case .many(let values): values.map { encode(key) + "=" + encode($0) }
            }
        }
        return "app://Echo/echo?" + groups.joined().joined(separator: "&")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// Random text from characters chosen to be awkward in URLs.
struct AwkwardText {
    static let pool: [Character] = Array("abcXYZ019 -._~!*'();:@&=+$,/?#[]%\"<>\\^`{|}\t\nüéΩ名前値😀👍🏽\u{301}\u{200D}\u{0}\u{7F}")

    static func make(length: ClosedRange<Int>, using random: inout SeededGenerator) -> String {
        let count = Int.random(in: length, using: &random)
        return String((0..<count).map { _ in pool[Int.random(in: 0..<pool.count, using: &random)] })
    }
}

@Suite("URL calls: round trip of random params")
struct URLRoundTripTests {
    @Test("Percent-encoded random params come back exactly, repeated keys as arrays in order")
    func roundTrip() throws {
        let mediator = try urlTestMediator()
        var random = SeededGenerator(seed: 20_261_121)
        for iteration in 0..<2_000 {
            var params: [String: QueryValue] = [:]
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                let key = AwkwardText.make(length: 1...10, using: &random)
                if Int.random(in: 0..<4, using: &random) == 0 {
                    params[key] = .many((0..<Int.random(in: 2...4, using: &random)).map { _ in AwkwardText.make(length: 0...12, using: &random) })
                } else {
                    params[key] = .one(AwkwardText.make(length: 0...20, using: &random))
                }
            }
            let url = URLBuilder.echoURL(params, using: &random)
            let result = echoed(try mediator.callNow(url: url))
            #expect(result == params, "iteration \(iteration): \(url)")
        }
    }

    @Test("The encoder really escapes every reserved byte (a check on the check)")
    func encoderEscapes() {
        #expect(URLBuilder.encode("a b&c=d%e+f#g/h?i") == "a%20b%26c%3Dd%25e%2Bf%23g%2Fh%3Fi")
        #expect(URLBuilder.encode("€") == "%E2%82%AC")
    }
}
