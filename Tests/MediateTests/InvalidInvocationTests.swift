import Foundation
import Mediator
import TestSupport
import Testing

/// Builds invalid `mediate` command lines: every one must be refused cleanly.
struct InvalidInvocations {
    var generator: SeededGenerator
    var corpus: [(category: String, arguments: [[UInt8]])] = []

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    mutating func add(_ category: String, _ arguments: [String]) {
        corpus.append((category, arguments.map { Array($0.utf8) }))
    }

    mutating func add(_ category: String, raw arguments: [[UInt8]]) {
        corpus.append((category, arguments))
    }

    mutating func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &generator)! }

    /// A name no target or action has: random letters after a fixed prefix.
    mutating func unknownName() -> String {
        "Zq" + String((0..<Int.random(in: 1...12, using: &generator)).map { _ in pick(Array("abcdefghijklmnopqrstuvwxyzABCXYZ0123456789_")) })
    }

    /// Bytes that are not valid UTF-8.
    mutating func invalidUTF8() -> [UInt8] {
        let bad: [[UInt8]] = [
            [0xFF], [0xFE, 0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xF4, 0x90, 0x80, 0x80],
        ]
        return Array("a".utf8) + pick(bad) + Array("b".utf8)
    }

    /// JSON that does not parse.
    mutating func brokenJSON() -> String {
        let fixed = [
            "{", "[1,", "tru", "\"open", "{\"a\":}", "[1 2]", "01", "1.", ".5", "-", "nul", "{\"a\" 1}", "[", "}", "\"\\x\"", "1e", "+1", "NaN", "[1,]", "{,}",
            "'a'",
        ]
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: return pick(fixed)
        case 1: return String(repeating: "[", count: Int.random(in: 257...20_000, using: &generator))
        default: return pick(fixed) + pick(fixed)
        }
    }

    /// A URL `open` must refuse (malformed, local-only, unknown, or outside the rules).
    mutating func invalidURL() -> String {
        let fixed = [
            "", "app:", "app://", "://Echo/echo", "Echo/echo", "app://Echo", "app://Echo/", "app://Echo/echo/extra",
            "app://Echo/echo?a=%", "app://Echo/echo?a=%zz", "app://Echo/echo?a=%4", "app://Echo/echo?%ff=1",
            "app://Echo/echo?=1", "app://Echo/nativeEcho", "app://Echo/Action_nativeEcho?x=1", "1app://Echo/echo",
            "app://Ec ho/echo", "app://Target_/echo", "app://Echo/Action_",
            "app://Echo/echo?a=%C0%80", "app://Echo/echo?a=%ED%A0%80", "a pp://Echo/echo",
        ]
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return pick(fixed)
        case 1: return "app://\(unknownName())/echo?x=1"
        case 2: return "app://Echo/\(unknownName())"
        default: return "app://Echo/echo?" + String(repeating: "a=1&", count: Int.random(in: 1_025...3_000, using: &generator))
        }
    }

    /// At least `count` invalid invocations across every category the issue names.
    static func make(count: Int, seed: UInt64) -> [(category: String, arguments: [[UInt8]])] {
        var maker = InvalidInvocations(seed: seed)
        let commands = ["perform", "open", "list", "batch", "help"]
        while maker.corpus.count < count {
            switch maker.corpus.count % 10 {
            case 0:
                let typo = maker.pick([
                    "perfrom", "opne", "lsit", "bacth", "Perform", "OPEN", "-perform", "--perform", "", "-", "--", "--cache", "perform2", "run", "exec",
                    "\u{1F600}", "perform\n", "--version2", "-x",
                ])
                maker.add("bad command", [typo] + (Bool.random(using: &maker.generator) ? ["Echo", "echo"] : []))
            case 1:
                maker.add(
                    "missing arguments",
                    maker.pick([
                        ["perform"], ["perform", "Echo"], ["open"], ["open", "a", "b"], ["list", "Echo", "extra"], ["batch", "extra"],
                        ["perform", "Echo", "echo", "--params-json"], ["perform", "Echo", "echo", "--unknown-flag"], ["--data-dir"],
                        ["--in-memory", "--data-dir"], ["perform", "Echo", "echo", "=1"], ["perform", "Echo", "echo", "novalue"],
                        ["perform", "Echo", "echo", ":=1"],
                    ]))
            case 2:
                maker.add("malformed key:=json", ["perform", "Echo", "echo", "k:=" + maker.brokenJSON()])
            case 3:
                maker.add(
                    "malformed --params-json", ["perform", "Echo", "echo", "--params-json", maker.pick(["[1]", "1", "\"a\"", "null", maker.brokenJSON()])])
            case 4:
                maker.add("invalid URL", ["open", maker.invalidURL()] + (Bool.random(using: &maker.generator) ? ["--json"] : []))
            case 5:
                // Linux refuses a single argument over 128 KiB (E2BIG), so "huge" stays under it.
                let size = Int.random(in: 20_000...60_000, using: &maker.generator)
                let huge = String(repeating: maker.pick(["A", "%", "é", "\n", "x=", "["]), count: size)
                maker.add(
                    "huge argument",
                    maker.pick([
                        ["perform", huge, "echo"], ["perform", "Echo", huge], ["open", "app://Echo/echo?a=" + huge + "%"],
                        ["perform", "Echo", "echo", "k:=" + huge], [huge],
                    ]))
            case 6:
                let bad = maker.invalidUTF8()
                let position = Int.random(in: 0..<4, using: &maker.generator)
                var arguments: [[UInt8]] = [Array("perform".utf8), Array("Echo".utf8), Array("echo".utf8), Array("k:=1".utf8)]
                if position == 3 { arguments[3] = Array("k:=".utf8) + bad } else { arguments[position] = bad }
                maker.add("invalid UTF-8", raw: Bool.random(using: &maker.generator) ? arguments : [Array("open".utf8), Array("app://Echo/".utf8) + bad])
            case 7:
                maker.add(
                    "unknown name",
                    maker.pick([
                        ["perform", maker.unknownName(), "echo"], ["perform", "Echo", maker.unknownName()], ["list", maker.unknownName()],
                        ["perform", "Notes", maker.unknownName()], ["perform", "Target_" + maker.unknownName(), "Action_x"],
                    ]))
            case 8:
                // Control characters in names must not break the one-line error.
                let control = maker.pick(["\n", "\r", "\t", "\u{1B}[31m", "\u{7F}", "\u{2028}", "\r\n"])
                maker.add(
                    "control characters",
                    maker.pick([
                        ["perform", "Ec" + control + "ho", "echo"], ["perform", "Echo", "ec" + control + "ho"], ["open", "app://Echo/echo" + control],
                        [maker.pick(commands) + control],
                    ]))
            default:
                // Actions that fail on purpose, or get the wrong params.
                maker.add(
                    "failing call",
                    maker.pick([
                        ["perform", "Echo", "fail", "message=line one\nline two"], ["perform", "Accounts", "logIn", "username=nobody", "password=x"],
                        ["perform", "Notes", "get", "id=notanumber"], ["perform", "Notes", "create", "title=x"], ["perform", "Accounts", "signUp"],
                    ]))
            }
        }
        return maker.corpus
    }
}

@Suite("mediate: a corpus of invalid invocations")
struct InvalidInvocationTests {
    static let documentedStatuses: Set<Int32> = [64, 65, 69, 70, 74, 77]

    @Test("1,200 generated invalid invocations: each exits with a documented code and one line on stderr, never a signal or a hang; the data file is untouched")
    func corpus() throws {
        let seed: UInt64 = 0xBAD_A965
        let corpus = InvalidInvocations.make(count: 1_200, seed: seed)
        print("Invalid invocations: \(corpus.count) from seed 0x\(String(seed, radix: 16))")
        let directory = Mediate.temporaryDirectory()
        try Mediate.run(["--data-dir", directory, "perform", "Accounts", "signUp", "username=ada", "password=analytical"])
        let stateFile = directory + "/state.json"
        let before = FileManager.default.contents(atPath: stateFile)
        #expect(before != nil)

        let failures = ReadWriteLock<[String]>([])
        let categories = ReadWriteLock<[String: Int]>([:])
        onThreads(2) { thread in
            for (index, entry) in corpus.enumerated() where index % 2 == thread {
                // Half use the data directory, half run in memory.
                let options = index % 4 < 2 ? ["--data-dir", directory] : ["--in-memory"]
                let run = RawProcess.run(Mediate.binary.path, arguments: options.map { Array($0.utf8) } + entry.arguments)
                let shown = entry.arguments.map { String(decoding: $0.prefix(60), as: UTF8.self).debugDescription }.joined(separator: " ")
                var problems: [String] = []
                if run.timedOut { problems.append("hung") }
                if let signal = run.signal { problems.append("signal \(signal)") }
                if let status = run.status, !Self.documentedStatuses.contains(status) { problems.append("exit \(status)") }
                let newlines = run.error.filter { $0 == 0x0A }.count
                if newlines != 1 || run.error.last != 0x0A {
                    problems.append("stderr has \(newlines) lines: \(String(decoding: run.error.prefix(300), as: UTF8.self).debugDescription)")
                }
                if !run.error.starts(with: Array("mediate: error: ".utf8)) { problems.append("stderr does not start with \"mediate: error: \"") }
                if !problems.isEmpty { failures.withLock { $0.append("#\(index) [\(entry.category)] \(shown): \(problems.joined(separator: "; "))") } }
                categories.withLock { $0[entry.category, default: 0] += 1 }
            }
        }
        let found = failures.withLock { $0 }
        #expect(found.isEmpty, "\(found.count) invocations misbehaved; first:\n\(found.prefix(8).map { String($0.prefix(400)) }.joined(separator: "\n"))")
        #expect(categories.withLock { $0.count } == 10)
        #expect(FileManager.default.contents(atPath: stateFile) == before, "an invalid invocation changed the data file")
    }
}
