/// Where `batch` reads its requests, one per line: the process's standard input by default, or
/// bytes in memory (for tests and fuzzing), split into lines the same way.
///
/// ```swift
/// let status = await tool.run(["batch"], input: BatchInput(bytes: Array("Echo echo a=1\n".utf8)))
/// ```
///
/// Lines end at `\n`. A line longer than ``lineLimit`` bytes fails on its own (usage, exit 64 for
/// that line) and is skipped without being stored, so no input can make `batch` hold more than
/// about one line's worth of memory; the batch goes on with the next line. A line that is not
/// UTF-8 fails the same way. Input that cannot be read (standard input a directory, an I/O
/// error) ends the batch with exit 74.
public struct BatchInput: Sendable {
    /// The longest line accepted unless told otherwise: 16 MiB (16,777,216 bytes), not counting
    /// its newline.
    public static let defaultLineLimit = 16 * 1024 * 1024

    enum Source: Sendable {
        case descriptor(Int32)
        case bytes([UInt8])
    }

    let source: Source

    /// The longest line accepted, in bytes, not counting its newline.
    public let lineLimit: Int

    /// The process's standard input, read with `read(2)` in chunks.
    ///
    /// - Parameter lineLimit: the longest line accepted, in bytes (at least 1).
    /// - Returns: an input that reads file descriptor 0 when `batch` runs.
    public static func standardInput(lineLimit: Int = defaultLineLimit) -> BatchInput {
        BatchInput(source: .descriptor(0), lineLimit: lineLimit)
    }

    /// `bytes` as the input, split into lines exactly as standard input would be.
    ///
    /// - Parameters:
    ///   - bytes: the whole input, lines ending at `\n`.
    ///   - lineLimit: the longest line accepted, in bytes (at least 1).
    public init(bytes: [UInt8], lineLimit: Int = defaultLineLimit) {
        self.init(source: .bytes(bytes), lineLimit: lineLimit)
    }

    init(source: Source, lineLimit: Int) {
        precondition(lineLimit > 0, "a batch line limit must be at least 1 byte")
        self.source = source
        self.lineLimit = lineLimit
    }

    /// The limit as messages show it: "16 MiB", or a count of bytes.
    var lineLimitDescription: String {
        let mebibyte = 1024 * 1024
        return lineLimit % mebibyte == 0 ? "\(lineLimit / mebibyte) MiB" : "\(lineLimit) bytes"
    }
}
