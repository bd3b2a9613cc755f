import MediatorCommandLine
import Testing

/// `readToEnd`, which reads option files and `mediate`'s state file: the whole file whatever its
/// size said, but never more than one byte past the limit (the file may grow after its size was
/// read; the caller then refuses it as too large).
@Suite("Files read whole: to their end, and at most one byte past the limit")
struct BoundedReadTests {
    /// The result of `readToEnd` on a file of `length` bytes, told it has `size`.
    func read(length: Int, size: Int, limit: Int) throws -> [UInt8] {
        let path = try temporaryFile(String(repeating: "x", count: length))
        defer { unlink(path) }
        let file = open(path, O_RDONLY | O_CLOEXEC)
        try #require(file >= 0)
        defer { close(file) }
        return try readToEnd(file, size: size, limit: limit).get()
    }

    @Test("A file larger than its stated size is read to its end")
    func grownWithinLimit() throws {
        #expect(try read(length: 100, size: 10, limit: 1_000).count == 100)
        #expect(try read(length: 100, size: 0, limit: 100).count == 100)
    }

    @Test("A file that grew past the limit is read to one byte past it, never further")
    func grownPastLimit() throws {
        #expect(try read(length: 100, size: 10, limit: 50).count == 51)
        #expect(try read(length: 5_000, size: 0, limit: 99).count == 100)
    }

    @Test("An empty file is empty")
    func empty() throws {
        #expect(try read(length: 0, size: 0, limit: 10).isEmpty)
    }
}
