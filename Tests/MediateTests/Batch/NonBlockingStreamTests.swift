import Testing

/// Some parents hand their children non-blocking pipes (the flag belongs to the pipe, so the
/// child inherits it); `read` and `write` then fail with `EAGAIN` instead of waiting.
@Suite("mediate: non-blocking standard streams are waited on, not taken for errors")
struct NonBlockingStreamTests {
    @Test("A non-blocking standard output that fills: a 4 MB result waits for room instead of being cut")
    func fullOutput() throws {
        // The pipe is full when mediate starts and this process drains it while mediate writes
        // 4 MB: mediate meets a full pipe (EAGAIN) unless every one of its 64 writes found room.
        let value = String(repeating: "v", count: 4_000_000)
        let input = try temporaryFile("Echo echo a=\(value)\n")
        defer { unlink(input) }
        let run = rawMediate(["--in-memory", "batch"], RawOptions(input: .path(input), output: .fullNonBlockingPipe))
        #expect(run.status == 0, "\(run.errorText)")
        #expect(run.output.count == value.count + #"{"a":""}"#.count + 1)
        #expect(run.error.isEmpty)
    }

    @Test("An empty non-blocking standard input: batch waits for the next line instead of ending")
    func emptyInput() {
        let parts = [Array("Echo echo a=1\n".utf8), Array("Echo echo b=2\n".utf8)]
        let run = rawMediate(["--in-memory", "batch"], RawOptions(input: .nonBlockingParts(parts)))
        #expect(run.status == 0, "\(run.errorText)")
        #expect(String(decoding: run.output, as: UTF8.self) == "{\"a\":\"1\"}\n{\"b\":\"2\"}\n")
        #expect(run.error.isEmpty)
    }
}
