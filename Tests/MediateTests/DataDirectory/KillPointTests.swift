import Foundation
import Testing

/// Whether `strace` can trace here (it is installed and the system allows `ptrace`).
enum Strace {
    static let path = "/usr/bin/strace"
    static let works: Bool = {
        guard FileManager.default.isExecutableFile(atPath: path) else { return false }
        let probe = RawProcess.run(path, arguments: ["-o", "/dev/null", "/bin/true"].map { Array($0.utf8) }, timeout: 60)
        return probe.status == 0
    }()
}

/// CI installs strace and sets `MEDIATOR_REQUIRE_STRACE`: there the suite below must run, not skip.
@Suite("mediate: strace is there where CI requires it")
struct StraceRequirementTests {
    @Test("strace works when MEDIATOR_REQUIRE_STRACE is set", .enabled(if: ProcessInfo.processInfo.environment["MEDIATOR_REQUIRE_STRACE"] != nil))
    func required() {
        #expect(Strace.works, "strace at \(Strace.path) does not work; the kill-point tests would be skipped")
    }
}

/// Kills a writer at an exact step of a write, chosen by the system call it makes (strace's
/// fault injection), instead of at a random moment: deterministic, whatever the machine's load.
/// Without a working strace (macOS, a container without ptrace) the suite is reported skipped.
@Suite(
    "mediate: a writer killed at each step of a write leaves the old file or the new one",
    .enabled(if: Strace.works, "needs a working strace (Linux, ptrace allowed)"))
struct KillPointTests {
    /// A step of `replaceStateFile`: the n-th call of a system call, and what must be on disk after a kill there.
    struct KillPoint: Sendable, CustomTestStringConvertible {
        let syscall: String
        let occurrence: Int
        let name: String
        /// Whether the rename happened: then the new file is in place.
        let renamed: Bool
        /// The bytes of the temporary file left behind, or `nil` when none is.
        let leftover: Leftover?
        var testDescription: String { name }

        enum Leftover: Sendable { case empty, complete }
    }

    static let points: [KillPoint] = [
        KillPoint(syscall: "pwrite64", occurrence: 1, name: "writing the temporary file", renamed: false, leftover: .empty),
        KillPoint(syscall: "fsync", occurrence: 1, name: "syncing the temporary file", renamed: false, leftover: .complete),
        KillPoint(syscall: "/^renameat2?$", occurrence: 1, name: "renaming it over state.json", renamed: false, leftover: .complete),
        KillPoint(syscall: "fsync", occurrence: 2, name: "syncing the directory", renamed: true, leftover: nil),
    ]

    @Test("A writer killed at this step leaves the old or the new state.json, and nothing that piles up", arguments: points)
    func killedAt(_ point: KillPoint) throws {
        let directory = PlantedDirectory()
        expectSuccess(directory.signUp("ada"))
        let before = try #require(directory.contents("state.json"))
        let injection = "inject=\(point.syscall):signal=SIGKILL:when=\(point.occurrence)"
        // -f: the request runs in a task, on a thread of the concurrency runtime, not the main one.
        // The runtime's threads make system calls of their own (libdispatch wakes them with an
        // eventfd `write`), which is why the temporary file is written with `pwrite`: only that
        // write makes that call, so its first occurrence is the file's, whatever the threads do.
        let arguments = [
            "-f", "-o", "/dev/null", "-e", injection, Mediate.binary.path, "--data-dir", directory.path,
            "perform", "Accounts", "signUp", "username=grace", "password=analytical",
        ]
        let run = RawProcess.run(Strace.path, arguments: arguments.map { Array($0.utf8) }, timeout: 60)
        #expect(!run.timedOut)
        #expect(run.signal == SIGKILL, "the writer was not killed there: \(run.errorText)")
        #expect(run.output.isEmpty, "a killed write must not be acknowledged")

        let after = try #require(directory.contents("state.json"))
        if point.renamed {
            #expect(after.contains("\"grace\"") && after.contains("\"ada\""), "\(after)")
        } else {
            #expect(after == before, "state.json changed before the rename: \(after)")
        }
        let leftovers = try directory.entries(startingWith: "state.json.tmp")
        switch point.leftover {
        case nil:
            #expect(leftovers.isEmpty, "\(leftovers)")
        case .empty?:
            #expect(leftovers.count == 1 && directory.contents(leftovers[0]) == "", "\(leftovers)")
        case .complete?:
            #expect(leftovers.count == 1 && directory.contents(leftovers[0])?.contains("\"grace\"") == true, "\(leftovers)")
        }
        // The next writer finds a usable file and removes what the killed one left behind.
        expectSuccess(directory.signUp("alan"))
        #expect(try directory.entries(startingWith: "state.json.tmp").isEmpty)
        #expect(directory.contents("state.json")?.contains("\"alan\"") == true)
    }
}
