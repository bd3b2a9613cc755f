import Foundation
import Testing

/// A fresh data directory (mode 0700) in which a test plants links, FIFOs and files before
/// running `mediate` on it.
struct PlantedDirectory {
    let path: String

    init() {
        path = Mediate.temporaryDirectory()
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Runs `mediate --data-dir DIR arguments...` with standard input from /dev/null. The watchdog
    /// of 60 s is only reached by a hang (every run here takes well under a second). With
    /// `memoryLimit` (bytes of address space), an attempt to read something endless ends in a
    /// failed allocation instead of exhausting the machine.
    func mediate(_ arguments: String..., memoryLimit: Int? = nil) -> RawRun {
        let all = ["--data-dir", path] + arguments
        guard let memoryLimit else {
            return RawProcess.run(Mediate.binary.path, arguments: all.map { Array($0.utf8) }, timeout: 60)
        }
        let shell = ["-c", "ulimit -v \(memoryLimit / 1024) && exec \"$0\" \"$@\"", Mediate.binary.path] + all
        return RawProcess.run("/bin/sh", arguments: shell.map { Array($0.utf8) }, timeout: 60)
    }

    /// A write: signs up a new user.
    func signUp(_ username: String = "ada") -> RawRun {
        mediate("perform", "Accounts", "signUp", "username=\(username)", "password=analytical")
    }

    func write(_ text: String, to name: String, mode: mode_t = 0o600) throws {
        try text.write(toFile: file(name), atomically: false, encoding: .utf8)
        chmod(file(name), mode)
    }

    func contents(_ name: String) -> String? {
        FileManager.default.contents(atPath: file(name)).map { String(decoding: $0, as: UTF8.self) }
    }

    func link(_ name: String, to target: String) {
        #expect(symlink(target, file(name)) == 0, "symlink \(name)")
    }

    func fifo(_ name: String) {
        #expect(mkfifo(file(name), 0o600) == 0, "mkfifo \(name)")
    }

    /// `lstat`: the entry itself, not what a link points to; `nil` when there is none.
    func status(_ name: String) -> stat? {
        var info = stat()
        return lstat(file(name), &info) == 0 ? info : nil
    }

    func isRegularFile(_ name: String) -> Bool {
        status(name).map { $0.st_mode & S_IFMT == S_IFREG } ?? false
    }

    /// Entries whose name starts with `prefix`.
    func entries(startingWith prefix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasPrefix(prefix) }.sorted()
    }
}

extension RawRun {
    var outputText: String { String(decoding: output, as: UTF8.self) }
}

/// The run ended promptly with exit 74 and exactly one line, `mediate: error: refusing PATH: REASON`.
func expectRefusal(_ run: RawRun, of path: String, because reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!run.timedOut, "mediate hung", sourceLocation: sourceLocation)
    #expect(
        run.status == 74, "status \(String(describing: run.status)), signal \(String(describing: run.signal)), stderr: \(run.errorText)",
        sourceLocation: sourceLocation)
    #expect(run.errorText == "mediate: error: refusing \(path): \(reason)\n", sourceLocation: sourceLocation)
    #expect(run.output.isEmpty, "stdout: \(run.outputText)", sourceLocation: sourceLocation)
}

/// The run ended promptly with exit 0.
func expectSuccess(_ run: RawRun, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!run.timedOut, "mediate hung", sourceLocation: sourceLocation)
    #expect(
        run.status == 0, "status \(String(describing: run.status)), signal \(String(describing: run.signal)), stderr: \(run.errorText)",
        sourceLocation: sourceLocation)
}
