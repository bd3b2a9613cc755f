/// `bytes` as a `String` when they are valid UTF-8, else `nil`; the package's replacement for
/// `String(validating:as:)`, which needs macOS 15 / iOS 18. Decoding repairs invalid input with
/// U+FFFD, so the text is valid exactly when its bytes are the input's.
package func validUTF8(_ bytes: some Collection<UInt8>) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.utf8.elementsEqual(bytes) ? text : nil
}
