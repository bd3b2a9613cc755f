import Foundation
import Testing

@Suite("mediate batch: line limit, read errors and invalid UTF-8")
struct BatchInputTests {
    static let mebibyte = 1024 * 1024

    /// `Echo echo a=xxx...` padded to exactly `length` bytes.
    static func echoLine(length: Int) -> [UInt8] {
        let prefix = Array("Echo echo a=".utf8)
        return prefix + Array(repeating: UInt8(ascii: "x"), count: length - prefix.count)
    }

    @Test("64 MiB without a newline from a pipe: that line fails, the next line runs, and the line is never stored")
    func longLineFromPipe() {
        let input = Array(repeating: UInt8(ascii: "y"), count: 64 * Self.mebibyte) + Array("\nEcho echo a=1\n".utf8)
        let run = rawMediate(["--in-memory", "batch"], RawOptions(input: .bytes(input), measurePeakAfter: 1))
        #expect(run.status == 1)
        #expect(String(decoding: run.output, as: UTF8.self) == "{\"a\":\"1\"}\n")
        #expect(run.errorText == "mediate: error: line 1: the line is longer than the limit of 16 MiB and was skipped\n")
        // The batch holds at most one line of 16 MiB besides the program itself (about 13 MiB in a
        // debug build): 48 MiB leaves room for both, and could not hold the 64 MiB line.
        #expect(run.peakResidentKiB < 48 * 1024, "peak resident memory \(run.peakResidentKiB) KiB")
    }

    @Test("A line of exactly 16 MiB runs; one byte more fails alone and the batch goes on")
    func limitBoundary() {
        let limit = 16 * Self.mebibyte
        let input = Self.echoLine(length: limit) + [0x0A] + Self.echoLine(length: limit + 1) + Array("\nEcho echo b=2\n".utf8)
        let run = rawMediate(["--in-memory", "batch"], RawOptions(input: .bytes(input)))
        #expect(run.status == 1)
        let lines = run.output.split(separator: 0x0A)
        #expect(lines.count == 2)
        #expect(lines.first?.count == limit - "Echo echo a=".count + #"{"a":""}"#.count)
        #expect(lines.last.map { String(decoding: $0, as: UTF8.self) } == #"{"b":"2"}"#)
        #expect(run.errorText == "mediate: error: line 2: the line is longer than the limit of 16 MiB and was skipped\n")
    }

    @Test("A 10 MB line still works, in memory a few times its size")
    func tenMegabyteLine() {
        let run = rawMediate(["--in-memory", "batch"], RawOptions(input: .bytes(Self.echoLine(length: 10_000_000) + [0x0A]), measurePeakAfter: 1))
        #expect(run.status == 0, "\(run.errorText)")
        #expect(run.output.count == 10_000_000 - "Echo echo a=".count + #"{"a":""}"#.count + 1)
        // The value is copied a few times (line, word, parameter, JSON), never expanded into
        // 16-byte Characters (which took 214 MB).
        #expect(run.peakResidentKiB < 100 * 1024, "peak resident memory \(run.peakResidentKiB) KiB")
    }

    @Test("Standard input a directory: the batch ends with 74 and one line naming the error")
    func directoryAsInput() {
        let run = rawMediate(["--in-memory", "batch"], RawOptions(input: .path("/")))
        #expect(run.status == 74)
        #expect(run.output.isEmpty)
        #expect(run.errorText == "mediate: error: line 1: cannot read standard input: Is a directory\n")
        let json = rawMediate(["--in-memory", "batch", "--json"], RawOptions(input: .path("/")))
        #expect(json.status == 74)
        #expect(String(decoding: json.output, as: UTF8.self).contains(#""code":"environment""#))
    }

    @Test("A line that is not UTF-8 fails alone, naming the offset, and is not repaired; the batch goes on")
    func invalidUTF8() {
        let input = Array("Echo echo a=".utf8) + [0xFF] + Array("\nEcho echo b=1\n".utf8)
        let run = rawMediate(["--in-memory", "batch"], RawOptions(input: .bytes(input)))
        #expect(run.status == 1)
        #expect(String(decoding: run.output, as: UTF8.self) == "{\"b\":\"1\"}\n")
        #expect(run.errorText == "mediate: error: line 1: the line is not UTF-8 (invalid byte at offset 12) and was skipped\n")
        let json = rawMediate(["--in-memory", "batch", "--json"], RawOptions(input: .bytes(input)))
        #expect(String(decoding: json.output, as: UTF8.self).hasPrefix(#"{"ok":false,"error":{"code":"usage""#))
    }
}
