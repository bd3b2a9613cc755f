import Mediator

/// Splits a ``BatchInput`` into lines with bounded memory.
///
/// Bytes are read in chunks (`read(2)` for a descriptor, no stdio buffer and no Foundation) and a
/// line is stored only up to the limit: past it the line is reported at once and the rest of it
/// is read and dropped up to the next newline. `Swift.readLine`, used before, stored any line
/// whole (`batch < /dev/zero` grew without bound) and read a failed allocation or a read error
/// as the end of input.
struct LineReader {
    /// One line of input.
    enum Line: Equatable {
        /// A line without its newline.
        case text(String)
        /// A line longer than the limit; the rest of it is skipped by the next call.
        case tooLong
        /// A line that is not UTF-8; `offset` is the byte where decoding failed.
        case invalidUTF8(offset: Int)
    }

    private let input: BatchInput
    private let chunkSize: Int
    private var chunk: [UInt8] = []
    /// The unread part of `chunk`.
    private var start = 0
    private var end = 0
    private var memoryOffset = 0
    private var atEnd = false
    /// The line read so far, never more than the limit.
    private var line: [UInt8] = []
    /// Whether the rest of a line that passed the limit is being dropped.
    private var skipping = false
    /// How many lines have ended (at a newline or at the end of input).
    private var linesEnded = 0

    /// - Parameter chunkSize: bytes asked for per read (small sizes let tests cross chunk edges).
    init(input: BatchInput, chunkSize: Int = 64 * 1024) {
        precondition(chunkSize > 0)
        self.input = input
        self.chunkSize = chunkSize
    }

    /// The 1-based number of the line being read: where a read error happened.
    var lineBeingRead: Int { linesEnded + 1 }

    /// Bytes held for the line being read (tests check the bound).
    var storedLineCapacity: Int { line.capacity }

    /// The next line and its 1-based number, or nil at the end of the input.
    ///
    /// - Throws: ``StreamError`` when the input cannot be read; the caller should stop there.
    mutating func next() throws(StreamError) -> (number: Int, line: Line)? {
        while true {
            if start == end {
                if atEnd { return finishAtEnd() }
                end = try fill()
                start = 0
                if end == 0 { atEnd = true }
                continue
            }
            let newline = findNewline()
            let stop = newline ?? end
            let number = linesEnded + 1
            if !skipping {
                if line.count + (stop - start) > input.lineLimit {
                    // Past the limit: free what was stored and drop the rest unstored.
                    line = []
                    if let newline {
                        start = newline + 1
                        linesEnded += 1
                    } else {
                        start = end
                        skipping = true
                    }
                    return (number, .tooLong)
                }
                line.append(contentsOf: chunk[start..<stop])
            }
            guard let newline else {
                start = end
                continue
            }
            start = newline + 1
            linesEnded += 1
            if skipping {
                skipping = false
                continue
            }
            return (number, takeLine())
        }
    }

    /// At the end of input: a last line without a newline, if any.
    private mutating func finishAtEnd() -> (number: Int, line: Line)? {
        if skipping {
            skipping = false
            linesEnded += 1
            return nil
        }
        guard !line.isEmpty else { return nil }
        linesEnded += 1
        return (linesEnded, takeLine())
    }

    /// Decodes the stored line and empties the store, keeping its memory only when small.
    private mutating func takeLine() -> Line {
        defer { line.removeAll(keepingCapacity: line.count <= chunkSize) }
        return Self.decode(line)
    }

    /// The line as text, or where it stops being UTF-8. Invalid lines are refused rather than
    /// repaired with U+FFFD: a repaired value would silently differ from what was sent.
    static func decode(_ bytes: [UInt8]) -> Line {
        if let text = validUTF8(bytes) { return .text(text) }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while case .valid(let scalar) = parser.parseScalar(from: &iterator) {
            offset += scalar.count
        }
        return .invalidUTF8(offset: offset)
    }

    /// The index of the next newline in the unread part of the chunk.
    private func findNewline() -> Int? {
        chunk.withUnsafeBytes { buffer in firstNewline(in: UnsafeRawBufferPointer(rebasing: buffer[start..<end])).map { start + $0 } }
    }

    /// Reads the next chunk; 0 at the end of the input.
    private mutating func fill() throws(StreamError) -> Int {
        if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: chunkSize) }
        switch input.source {
        case .bytes(let bytes):
            let count = min(chunkSize, bytes.count - memoryOffset)
            bytes.withUnsafeBytes { source in
                chunk.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[memoryOffset..<(memoryOffset + count)])) }
            }
            memoryOffset += count
            return count
        case .descriptor(let descriptor):
            switch chunk.withUnsafeMutableBytes({ readSome(descriptor, into: $0) }) {
            case .success(let count): return count
            case .failure(let error): throw error
            }
        }
    }
}
