/// `bytes` as a `String` when they are valid UTF-8, else `nil`; the package's replacement for
/// `String(validating:as:)`, which needs macOS 15 / iOS 18. Decoding repairs invalid input with
/// U+FFFD, so the text is valid exactly when its bytes are the input's.
package func validUTF8(_ bytes: some Collection<UInt8>) -> String? {
    var text = String(decoding: bytes, as: UTF8.self)
    let unchanged =
        text.withUTF8 { decoded in bytes.withContiguousStorageIfAvailable { sameBytes(decoded, $0) } }
        ?? text.utf8.elementsEqual(bytes)
    return unchanged ? text : nil
}
