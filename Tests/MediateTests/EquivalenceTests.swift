import Foundation
import Testing

@Suite("mediate: URL and argument list give the same params")
struct EquivalenceTests {
    static let trickyValues = [
        "a:=b", "x:", "hello world", "a&b", "k=v", "100%", "a+b", "%20", "café", "名前", "😀", "", " lead", "trail ", "'quote'", "\"dq\"", "back\\slash",
        "multi\nline",
    ]

    /// RFC 3986 unreserved bytes stay; everything else is percent-encoded.
    static func encode(_ text: String) -> String {
        text.utf8.map { byte -> String in
            let unreserved =
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || [0x2D, 0x2E, 0x5F, 0x7E].contains(byte)
            return unreserved ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
    }

    @Test("Each tricky value echoes identically from open and from perform", arguments: trickyValues)
    func sameEcho(value: String) throws {
        let viaURL = try Mediate.run(["--in-memory", "open", "app://Echo/echo?v=\(Self.encode(value))&k\(Self.encode(value))=1"])
        // In an argument's key, "\\", "=" and ":" are escaped with a backslash.
        let escapedKey = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "=", with: "\\=").replacingOccurrences(
            of: ":", with: "\\:")
        let viaArguments = try Mediate.run(["--in-memory", "perform", "Echo", "echo", "v=\(value)", "k\(escapedKey)=1"])
        #expect(viaURL.status == 0, "\(viaURL)")
        #expect(viaURL.output == viaArguments.output)
        // And the value really arrived (not both empty).
        let echoed = (try JSONSerialization.jsonObject(with: Data(viaURL.line.utf8))) as? [String: Any]
        #expect(echoed?["v"] as? String == value)
    }

    @Test("Repeated keys echo identically from open and from perform")
    func repeatedKeys() throws {
        let viaURL = try Mediate.run(["--in-memory", "open", "app://Echo/echo?t=a%20b&t=%26&t="])
        let viaArguments = try Mediate.run(["--in-memory", "perform", "Echo", "echo", "t=a b", "t=&", "t="])
        #expect(viaURL.line == #"{"t":["a b","&",""]}"#)
        #expect(viaURL.output == viaArguments.output)
    }
}
