import Mediator

extension String {
    /// Whether this string and `other` have exactly the same UTF-8 bytes. Unlike `==`, which
    /// takes canonically equivalent text for equal, this tells NFC "café" from NFD "café".
    func hasUTF8(of other: String) -> Bool {
        var text = self
        var other = other
        return text.withUTF8 { mine in other.withUTF8 { sameBytes(mine, $0) } }
    }
}
