// `batch`: requests read from the input, one per line, answered in order.

import Mediator
import MediatorDiagnostics

extension CommandLineTool {
    /// `batch [--json] [--stats]`: one request per line of the input. A line that fails is
    /// reported and the batch goes on; input that cannot be read, or output that cannot be
    /// written, ends it, and so does the cancellation of the calling task (after the line under
    /// way is reported; 130). With `--stats`, however it ends, the statistics of the calls it
    /// made (nested calls included) are the last line on standard error: one JSON object, as
    /// ``CallStatistics/Snapshot/json`` writes it.
    func batch(_ arguments: [String], session: inout Session, input: BatchInput) async -> Int32 {
        var statistics: CallStatistics?
        for argument in arguments {
            guard argument == "--stats" else { return session.fail(CommandError.usage("unknown argument \(quoted(argument)) for batch")) }
            statistics = statistics ?? CallStatistics()
        }
        let observer = statistics.map { mediator.addObserver($0) }
        let status = await batchLines(session: &session, input: input)
        if let observer { mediator.removeInterception(observer) }
        if let statistics {
            session.lineNumber = nil
            session.flushLog()
            try? session.write(.error, statistics.snapshot.json)
        }
        return status
    }

    /// The lines of a batch, read and answered in order; the batch's exit status.
    private func batchLines(session: inout Session, input: BatchInput) async -> Int32 {
        var reader = LineReader(input: input)
        var allSucceeded = true
        while true {
            let next: (number: Int, line: LineReader.Line)?
            do {
                next = try reader.next()
            } catch {
                // What follows cannot be known: the batch ends, and not as a success.
                session.lineNumber = reader.lineBeingRead
                return session.fail(.environment("cannot read standard input: \(error)"))
            }
            guard let (number, line) = next else { break }
            session.lineNumber = number
            let status: Int32
            switch line {
            case .text(let text):
                let trimmed = text.batchLineContent()
                if trimmed.isEmpty || trimmed.utf8.first == UInt8(ascii: "#") { continue }
                status = await session.request { () async throws(CommandError) -> Any? in try await request(batchLine: trimmed) }
            case .tooLong:
                status = session.fail(.usage("the line is longer than the limit of \(input.lineLimitDescription) and was skipped"))
            case .invalidUTF8(let offset):
                status = session.fail(.usage("the line is not UTF-8 (invalid byte at offset \(offset)) and was skipped"))
            }
            // Standard output is gone: later results could not be delivered either.
            if session.outputFailed { return status }
            // Interrupted: the line under way was reported as cancelled; no further line is read.
            if Task.isCancelled { return CommandError.interrupted.exitStatus }
            if status != 0 { allSucceeded = false }
        }
        return allSucceeded ? 0 : 1
    }

    /// One batch line (trimmed, not blank): a URL when its first word is one, else
    /// `Target action ...`. Only the first word decides, so a parameter holding `://`
    /// (`Echo echo u=http://x`, with spaces or tabs) is still a parameter.
    func request(batchLine line: String) async throws(CommandError) -> Any? {
        // Byte for byte (`contains("://")` on a String would be _StringProcessing's, which needs
        // macOS 13 / iOS 16, and would compare Characters).
        guard BatchLine.startsWithURL(line) else { return try await perform(BatchLine.words(line)) }
        let (first, rest) = BatchLine.firstWord(of: line)
        guard rest.isEmpty else {
            throw .usage("the URL \(quoted(first)) is followed by \(quoted(rest)); a URL line holds the URL alone (write a space in it as %20)")
        }
        return try await open([first])
    }
}

extension String {
    /// A batch line as the word splitter takes it: one final `\r` (of a CRLF line) removed, and
    /// the spaces and tabs before the first word. Nothing else: other whitespace (a no-break space)
    /// is part of a value, and trailing spaces are left to the splitter, which skips separators
    /// but keeps an escaped one (`a=x\ `).
    func batchLineContent() -> String {
        withUTF8Bytes(of: self) { bytes in
            var start = 0
            var end = bytes.count
            if end > 0 && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            while start < end, BatchLine.isSeparator(bytes[start]) { start += 1 }
            return start == 0 && end == bytes.count ? self : text(bytes, start, end)
        }
    }
}
