// The stdio transport: one JSON-RPC message per line in, one per line out.

import Dispatch
import Mediator

extension MCPServer {
    /// Serves the Model Context Protocol's stdio transport: each line of `input` is a message,
    /// each response one line written to ``CommandLineTool/Stream/output``; nothing else is
    /// written there (diagnostics go to ``CommandLineTool/Stream/error``).
    ///
    /// ```swift
    /// exit(await MCPServer(mediator: mediator, name: "myapp", version: "1.0.0").run())
    /// ```
    ///
    /// Messages are handled concurrently, so a slow action never holds up another call. At most 64
    /// are in progress (read, not yet answered, or their answer not yet written): past that the
    /// server reads no further until one is done, so a client that floods it, or does not read its
    /// answers, cannot make it hold more. A line longer than 4 MiB (or the input's
    /// ``BatchInput/lineLimit``, if smaller), or not UTF-8, gets a parse error (id `null`) and the
    /// server goes on. At the end of the input, the calls under way finish and their responses are
    /// written before it returns.
    ///
    /// - Parameters:
    ///   - input: the messages, one per line; standard input by default. It is read on a thread
    ///     of its own, never on one of the concurrency pool's.
    ///   - write: prints one line (see ``CommandLineTool/Writer``); by default to standard output
    ///     or standard error.
    /// - Returns: 0 at the end of the input; 74 when the input cannot be read or the output
    ///   written (each such failure says so in one line on standard error, if that can be
    ///   written); 130 when the calling task was cancelled (the calls under way are cancelled too).
    public func run(
        input: BatchInput = .standardInput(),
        write: @escaping CommandLineTool.Writer = { stream, line throws(StreamError) in try StandardStreams.write(line, to: stream) }
    ) async -> Int32 {
        await serve(input: input, write: write, afterEachMessage: {})
    }

    /// ``run(input:write:)``, calling `afterEachMessage` in the calling task after each line it
    /// writes (`mediate mcp --log` writes the calls' log lines then).
    func serve(input: BatchInput, write: CommandLineTool.Writer, afterEachMessage: () -> Void) async -> Int32 {
        let (lines, lineSink) = stream(of: InputEvent.self)
        let (responses, responseSink) = stream(of: Response.self)
        let input = BatchInput(source: input.source, lineLimit: min(input.lineLimit, Self.messageLimit))
        // One permit per message in progress: taken by the input thread before it reads a line,
        // given back once the message is answered and the answer written.
        let permits = DispatchSemaphore(value: Self.messagesInProgressLimit)
        InputThread.start(reading: input, into: lineSink, permits: permits)
        defer {
            // The thread may wait for a permit: let it go on to its end (it stops once nobody listens).
            for _ in 0..<Self.messagesInProgressLimit { permits.signal() }
        }
        var status: Int32 = 0
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [self] in
                await withTaskGroup(of: Void.self) { requests in
                    for await event in lines {
                        switch event {
                        case .line(.text(let text)):
                            if text.utf8.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) {
                                permits.signal()
                                continue
                            }
                            requests.addTask { [self] in
                                if let response = await handle(text) {
                                    responseSink.yield(.message(response))
                                } else {
                                    permits.signal()
                                }
                            }
                        case .line(.tooLong):
                            responseSink.yield(
                                .message(
                                    Self.error(id: nil, code: .parseError, "Parse error: the line is longer than the limit of \(input.lineLimitDescription)")))
                        case .line(.invalidUTF8(let offset)):
                            responseSink.yield(
                                .message(Self.error(id: nil, code: .parseError, "Parse error: the line is not UTF-8 (invalid byte at offset \(offset))")))
                        case .failed(let error):
                            responseSink.yield(.inputFailed("cannot read standard input: \(error)"))
                            permits.signal()
                        }
                    }
                    // The end of the input (or the server stopped): the calls under way finish first.
                }
                responseSink.finish()
            }
            writing: for await response in responses {
                switch response {
                case .message(let line):
                    defer { permits.signal() }
                    do throws(StreamError) {
                        try write(.output, line)
                    } catch {
                        // Nobody reads the responses any more: say so (once) and stop serving.
                        status = 74
                        try? write(.error, "\(name): error: cannot write a response to standard output: \(error)")
                        group.cancelAll()
                        break writing
                    }
                case .inputFailed(let message):
                    status = 74
                    try? write(.error, "\(name): error: \(message)")
                }
                afterEachMessage()
            }
            group.cancelAll()
        }
        if status == 0 && Task.isCancelled { return 130 }
        return status
    }

    /// The most messages in progress at once.
    static let messagesInProgressLimit = 64

    /// The longest message read, in bytes: 4 MiB.
    static let messageLimit = 4 * 1024 * 1024

    /// What the transport writes.
    enum Response: Sendable {
        case message(String)
        case inputFailed(String)
    }
}

/// A stream and its continuation (`AsyncStream.makeStream` needs macOS 14 / iOS 17).
private func stream<Element>(of: Element.Type) -> (AsyncStream<Element>, AsyncStream<Element>.Continuation) {
    var continuation: AsyncStream<Element>.Continuation?
    let stream = AsyncStream<Element> { continuation = $0 }
    // The closure runs during the initializer, before it returns.
    return (stream, continuation!)
}

/// What the input thread reads.
enum InputEvent: Sendable {
    case line(LineReader.Line)
    case failed(StreamError)
}

/// Reads an input's lines on a POSIX thread of its own: a blocking `read(2)` there never holds a
/// thread of the concurrency pool (with one core, that would stop every call).
enum InputThread {
    static func start(reading input: BatchInput, into sink: AsyncStream<InputEvent>.Continuation, permits: DispatchSemaphore) {
        // No thread: read here instead (the input is then read on the caller's thread).
        if !startDetachedThread({ read(input, into: sink, permits: permits) }) { read(input, into: sink, permits: permits) }
    }

    /// Reads lines, each once a permit is free, until the input ends or fails or nobody listens.
    private static func read(_ input: BatchInput, into sink: AsyncStream<InputEvent>.Continuation, permits: DispatchSemaphore) {
        var reader = LineReader(input: input)
        while true {
            permits.wait()
            do throws(StreamError) {
                guard let (_, line) = try reader.next() else { break }
                // Nobody listens any more (the server stopped): stop reading.
                if case .terminated = sink.yield(.line(line)) { return }
            } catch {
                sink.yield(.failed(error))
                break
            }
        }
        sink.finish()
    }
}
