#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

extension String {
    /// Whether this string's UTF-8 is exactly `bytes`. Unlike `==`, which takes canonically
    /// equivalent text for equal, this tells NFC "café" from NFD "café".
    func hasUTF8(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { hasUTF8($0) }
    }

    /// Whether this string and `other` have exactly the same UTF-8 bytes.
    func hasUTF8(of other: String) -> Bool {
        var other = other
        return other.withUTF8 { hasUTF8($0) }
    }

    /// One `memcmp` over a native string (a byte-by-byte loop takes seconds over 64 MiB in a
    /// debug build).
    private func hasUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var text = self
        return text.withUTF8 { utf8 in
            guard utf8.count == bytes.count else { return false }
            guard let start = utf8.baseAddress, let other = bytes.baseAddress else { return true }
            return memcmp(start, other, utf8.count) == 0
        }
    }
}
