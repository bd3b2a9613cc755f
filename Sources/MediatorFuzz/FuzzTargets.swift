import Dispatch
import Mediator
import MediatorCommandLine

/// The inputs the fuzzer explores: the first byte picks the entry point, the rest is its input.
/// Each check stops the process (`fatalError`), which libFuzzer records as a crash with the input.
enum FuzzTargets {
    /// Runs one input through the entry point its first byte picks (for the command line, the
    /// next bit of that byte also picks whether standard output refuses every line).
    static func run(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        let input = Array(bytes.dropFirst())
        switch selector % 3 {
        case 0: url(String(decoding: input, as: UTF8.self))
        case 1: commandLine(input, outputFails: selector / 3 % 2 == 1)
        default: coercion(String(decoding: input, as: UTF8.self))
        }
    }

    /// A mediator with an echoing target, a local-only action and a `native` one; the last two
    /// stop the process if a URL ever reaches them.
    static let mediator: Mediator = {
        let mediator = Mediator()
        do {
            try mediator.register(
                target: "Echo",
                actions: [
                    Action("echo") { _, params in params },
                    Action("typed") { _, params in try params.value("n", as: Int.self) },
                    Action("secret", localOnly: true) { _, _ in fatalError("a URL reached a local-only action") },
                    Action("nativeEcho") { _, _ in fatalError("a URL reached a native action") },
                ])
        } catch {
            fatalError("fuzz fixture: \(error)")
        }
        return mediator
    }()

    /// What a URL call may end in besides success.
    static let urlFailures: Set<MediatorError.Code> = [.invalidURL, .forbidden, .targetNotFound, .actionNotFound, .invalidParameter]

    /// The URL parser and remote rules: every URL succeeds or fails with a URL-call code, and the
    /// nil-returning `open` agrees with the throwing `call(url:)`.
    static func url(_ text: String) {
        let opened = mediator.open(text)
        do {
            let result = try mediator.callNow(url: text)
            if (opened == nil) != (result == nil) { fatalError("open and call(url:) disagree on \(text.debugDescription)") }
        } catch {
            if !urlFailures.contains(error.code) { fatalError("unexpected \(error.code) for \(text.debugDescription): \(error)") }
            if opened != nil { fatalError("open answered a URL call(url:) refused: \(text.debugDescription)") }
            if error.description.isEmpty { fatalError("an error without a description") }
        }
    }

    /// Standard input for `batch`: every kind of line (request, URL, URL followed by more words,
    /// tabs, comment, blank, too long, not UTF-8, last line without a newline). Read with a limit
    /// of 64 bytes so the too-long line is cheap. (Kept as plain bytes: LeakSanitizer cannot see
    /// an array referenced from a global enum payload and reports it as leaked.)
    static let batchBytes: [UInt8] =
        Array("perform Echo echo a=1\nopen 'app://Echo/echo?x=\"'\napp://Echo/echo?y=1 z\nEcho\techo\tu=http://x\n# comment\n\n".utf8)
        + Array(repeating: UInt8(ascii: "x"), count: 100) + [0x0A, 0x61, 0xFF, 0x0A] + Array("Echo echo last=1".utf8)

    /// Exit statuses the command-line layer documents.
    static let exitStatuses: Set<Int32> = [0, 1, 64, 65, 69, 70, 74, 77]

    /// The command-line layer: arguments separated by NUL bytes (as in `argv`). Every run exits
    /// with a documented status and every error is one line; a failing command writes exactly one.
    /// No line holds a raw control, bidi or invisible format character (help and listings may
    /// span lines). When standard output refuses lines (`outputFails`), the first refused line
    /// ends the run with 74 and an error line saying so.
    static func commandLine(_ bytes: [UInt8], outputFails: Bool) {
        // libFuzzer's entry point is a synchronous C function and the tool is async: run the
        // checks in a task and wait for it here. This thread is libFuzzer's (or the replay's
        // main thread), never one of the task pool's, so waiting on it cannot starve the task.
        let finished = DispatchSemaphore(value: 0)
        Task {
            await checkCommandLine(bytes, outputFails: outputFails)
            finished.signal()
        }
        finished.wait()
    }

    private static func checkCommandLine(_ bytes: [UInt8], outputFails: Bool) async {
        let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let tool = CommandLineTool(mediator: mediator, name: "fuzz", version: "0")
        var errors: [String] = []
        var outputs: [String] = []
        var outputAttempts = 0
        let status = await tool.run(
            arguments, input: BatchInput(bytes: batchBytes, lineLimit: 64),
            write: { stream, line throws(StreamError) in
                guard stream == .output else {
                    errors.append(line)
                    return
                }
                outputAttempts += 1
                if outputFails { throw StreamError(errorNumber: EPIPE) }
                outputs.append(line)
            })
        if !exitStatuses.contains(status) { fatalError("undocumented exit status \(status) for \(arguments)") }
        for line in errors where line.contains(where: \.isNewline) {
            fatalError("an error of more than one line: \(line.debugDescription)")
        }
        for line in errors + outputs where line.unicodeScalars.contains(where: { $0 != "\n" && $0.isEscapedForTerminals }) {
            fatalError("a raw control, bidi or format character reached the terminal: \(line.debugDescription)")
        }
        let isBatch = arguments.filter { $0 != "--json" }.first == "batch"
        // `--log` adds its own lines (`fuzz: log: ...`), one per call, beside the one error line.
        let errorLines = errors.filter { !$0.hasPrefix("fuzz: log: ") }
        if status != 0 && !isBatch && errorLines.count != 1 { fatalError("status \(status) with \(errorLines.count) error lines for \(arguments)") }
        if outputFails && outputAttempts > 0 {
            if outputAttempts > 1 { fatalError("\(outputAttempts - 1) lines written after standard output failed for \(arguments)") }
            if status != 74 { fatalError("status \(status) after standard output failed for \(arguments)") }
            // Not `lastError.contains("cannot write")`: without Foundation that overload is
            // _StringProcessing's, which needs macOS 13 / iOS 16.
            let lastError = errors.last ?? ""
            if !lastError.indices.contains(where: { lastError[$0...].starts(with: "cannot write") }) {
                fatalError("no error line for the failed output for \(arguments)")
            }
        }
    }

    /// Params' text coercions and the JSON the command line reads: never a crash; a coerced number
    /// survives being printed and coerced again; parsed JSON survives printing and parsing again.
    static func coercion(_ text: String) {
        let params: Params = ["v": text]
        if let number = try? params.value("v", as: Int.self) {
            let again: Params = ["v": String(number)]
            if (try? again.value("v", as: Int.self)) != number { fatalError("\(number) did not survive printing") }
        }
        if let number = try? params.value("v", as: Double.self), number.isFinite {
            let again: Params = ["v": "\(number)"]
            if (try? again.value("v", as: Double.self)) != number { fatalError("\(number) did not survive printing") }
        }
        _ = try? params.value("v", as: Bool.self)
        _ = try? params.value("v", as: [Int].self)
        _ = try? params.value("v", as: [String].self)
        do {
            _ = try params.value("v", as: [Double].self)
        } catch {
            if error.code != .invalidParameter || error.parameter != "v" { fatalError("coercion failed with \(error)") }
        }
        // The outline a server reads a request with accepts and refuses what the parser does.
        let parsed = Result { () throws(JSONValue.ParseError) in try JSONValue(parsing: text) }
        let outlined = Result { () throws(JSONValue.ParseError) in try JSONOutline(parsing: text) }.map { $0.value(of: $0.root) }
        if parsed != outlined { fatalError("JSONOutline and JSONValue disagree on \(text.debugDescription): \(outlined) against \(parsed)") }
        if let value = try? JSONValue(parsing: text) {
            guard let again = try? JSONValue(parsing: value.serialized), again == value else {
                fatalError("JSON \(text.debugDescription) did not survive printing as \(value.serialized.debugDescription)")
            }
            _ = try? mediator.callNow(target: "Echo", action: "typed", params: ["n": value.parameterValue])
        }
    }
}
