import Foundation
import Testing

@testable import MediatorCommandLine

/// Every line a reader gives, with its number; stops at a read error (returned as well).
func readAll(_ input: BatchInput, chunkSize: Int) -> (lines: [(Int, LineReader.Line)], error: StreamError?) {
    var reader = LineReader(input: input, chunkSize: chunkSize)
    var lines: [(Int, LineReader.Line)] = []
    do {
        while let next = try reader.next() { lines.append(next) }
        return (lines, nil)
    } catch {
        return (lines, error)
    }
}

@Suite("batch input: lines read in chunks with a per-line limit")
struct LineReaderTests {
    /// Chunk sizes that put line ends at every position of a chunk.
    static let chunkSizes = [1, 2, 3, 7, 64 * 1024]

    @Test("Lines split at newlines whatever the chunk size; a last line without newline counts; blank lines stay", arguments: chunkSizes)
    func splitting(chunkSize: Int) {
        let input = BatchInput(bytes: Array("one\n\ntwo \r\nnul\u{0}byte\nlast".utf8))
        let read = readAll(input, chunkSize: chunkSize)
        #expect(read.error == nil)
        #expect(read.lines.map(\.0) == [1, 2, 3, 4, 5])
        #expect(read.lines.map(\.1) == [.text("one"), .text(""), .text("two \r"), .text("nul\u{0}byte"), .text("last")])
    }

    @Test("A line of exactly the limit is read; one byte more is too long and the next line still comes", arguments: chunkSizes)
    func limitBoundary(chunkSize: Int) {
        let input = BatchInput(bytes: Array("12345678\n123456789\nnext\n".utf8), lineLimit: 8)
        let read = readAll(input, chunkSize: chunkSize)
        #expect(read.lines.map(\.0) == [1, 2, 3])
        #expect(read.lines.map(\.1) == [.text("12345678"), .tooLong, .text("next")])
    }

    @Test("A too-long line is reported once, even when it is the last and has no newline", arguments: chunkSizes)
    func tooLongAtEnd(chunkSize: Int) {
        let read = readAll(BatchInput(bytes: Array("ok\n".utf8) + Array(repeating: 0x78, count: 100), lineLimit: 10), chunkSize: chunkSize)
        #expect(read.lines.map(\.1) == [.text("ok"), .tooLong])
        #expect(read.lines.map(\.0) == [1, 2])
    }

    @Test("A too-long line is not stored: the reader never holds more than the limit and a chunk")
    func boundedMemory() throws {
        let limit = 4 * 1024
        let chunk = 1024
        var reader = LineReader(
            input: BatchInput(bytes: Array(repeating: 0x78, count: 1_000_000) + Array("\nafter\n".utf8), lineLimit: limit), chunkSize: chunk)
        var largest = 0
        var lines: [LineReader.Line] = []
        while let next = try reader.next() {
            largest = max(largest, reader.storedLineCapacity)
            lines.append(next.line)
        }
        #expect(lines == [.tooLong, .text("after")])
        // An array's capacity at most doubles past what it holds.
        #expect(largest <= 2 * (limit + chunk), "held \(largest) bytes")
    }

    @Test(
        "Lines that are not UTF-8 are refused with the offset of the first bad byte, not repaired",
        arguments: [
            ([0x61, 0xFF, 0x62], 1),
            ([0x61, 0x62, 0xC0, 0x80], 2),  // overlong NUL
            ([0xC3, 0xA9, 0xED, 0xA0, 0x80], 2),  // é, then an encoded surrogate
            ([0x61, 0xE2, 0x82], 1),  // cut short at the end of the line
            ([0xE2, 0x82, 0xAC, 0xEF, 0xBF, 0x41], 3),  // €, then a sequence that starts like U+FFFD
        ] as [([UInt8], Int)])
    func invalidUTF8(bytes: [UInt8], offset: Int) {
        let read = readAll(BatchInput(bytes: bytes + Array("\nok\n".utf8)), chunkSize: 64)
        #expect(read.lines.map(\.1) == [.invalidUTF8(offset: offset), .text("ok")])
    }

    @Test("A read error (a directory as input) is thrown with the system's reason")
    func readError() throws {
        let descriptor = open("/", O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let read = readAll(BatchInput(source: .descriptor(descriptor), lineLimit: 16), chunkSize: 64)
        #expect(read.lines.isEmpty)
        #expect(read.error == StreamError(errorNumber: EISDIR))
        #expect(read.error?.description == "Is a directory")
    }
}
