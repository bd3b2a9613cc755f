/// 128 bits from the system's cryptographically secure generator (`SystemRandomNumberGenerator`),
/// as 32 lowercase hex digits: for values nobody may guess, such as session tokens and the names
/// of temporary files.
///
/// ```swift
/// let token = randomHex128()   // "3f9c2a6e8d41b0577c1e9a2f64d8b3c0"
/// ```
public func randomHex128() -> String {
    var generator = SystemRandomNumberGenerator()
    return [generator.next(), generator.next()].map { (half: UInt64) in
        let digits = String(half, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }.joined()
}
