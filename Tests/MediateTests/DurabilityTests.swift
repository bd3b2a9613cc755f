import Foundation
import Mediator
import Testing
import TestSupport

/// A `mediate batch` process fed sign-ups on standard input; each result line on standard
/// output acknowledges one saved write.
struct Writer {
    let process: Process
    let output: Pipe
    let usernames: [String]

    init(directory: String, usernames: [String]) throws {
        self.usernames = usernames
        process = Process()
        process.executableURL = Mediate.binary
        process.arguments = ["--data-dir", directory, "batch"]
        let input = Pipe()
        output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let lines = usernames.map { "Accounts signUp username=\($0) password=long-enough\n" }.joined()
        input.fileHandleForWriting.write(Data(lines.utf8))
        try input.fileHandleForWriting.close()
    }

    /// The usernames whose sign-up was acknowledged, after the process ended (killed or not).
    func acknowledged() -> [String] {
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // Only whole lines count: a line cut by the kill was not acknowledged.
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object["username"] as? String
        }
    }
}

@Suite("mediate: the data file survives kills and concurrent writers", .serialized)
struct DurabilityTests {
    /// The accounts in the data file; fails the test if the file does not parse.
    func savedUsernames(in directory: String) throws -> [String] {
        let data = try #require(FileManager.default.contents(atPath: directory + "/state.json"))
        let state = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "state.json does not parse")
        let users = try #require((state["accounts"] as? [String: Any])?["users"] as? [[String: Any]], "state.json has no accounts.users")
        return users.compactMap { $0["username"] as? String }
    }

    @Test("Writers killed with SIGKILL at random moments: the file always parses and holds every acknowledged write")
    func killedWriters() throws {
        let seed: UInt64 = 0xDEAD_F11E
        print("Durability: seed 0x\(String(seed, radix: 16))")
        var generator = SeededGenerator(seed: seed)
        let directory = Mediate.temporaryDirectory()
        var acknowledged: Set<String> = []
        var kills = 0
        for round in 0..<12 {
            let writers = try (0..<3).map { writer in
                try Writer(directory: directory, usernames: (0..<150).map { "r\(round)w\(writer)n\($0)" })
            }
            for writer in writers {
                usleep(UInt32.random(in: 2_000...60_000, using: &generator))
                if writer.process.isRunning {
                    kill(writer.process.processIdentifier, SIGKILL)
                    kills += 1
                }
            }
            for writer in writers { acknowledged.formUnion(writer.acknowledged()) }
            let saved = try savedUsernames(in: directory)
            let missing = acknowledged.subtracting(saved)
            #expect(missing.isEmpty, "round \(round): \(missing.count) acknowledged writes lost, e.g. \(missing.sorted().prefix(5))")
            #expect(Set(saved).count == saved.count, "round \(round): an account saved twice")
            // mediate itself still reads the file after the kills.
            let run = try Mediate.run(["--data-dir", directory, "perform", "Accounts", "logIn", "username=\(saved.first ?? "none")", "password=long-enough"])
            #expect(run.status == 0, "\(run)")
        }
        print("Durability: \(kills) writers killed, \(acknowledged.count) acknowledged writes, all present")
        #expect(kills >= 20, "too few kills landed mid-run to prove anything")
        #expect(acknowledged.count > 100)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".tmp") }
        #expect(leftovers.count <= 1, "temporary files piled up: \(leftovers)")
    }

    @Test("Four processes writing at once lose no update")
    func concurrentWriters() throws {
        let directory = Mediate.temporaryDirectory()
        let writers = try (0..<4).map { writer in try Writer(directory: directory, usernames: (0..<40).map { "p\(writer)n\($0)" }) }
        let acknowledged = writers.flatMap { $0.acknowledged() }
        #expect(acknowledged.count == 160)
        #expect(writers.allSatisfy { $0.process.terminationStatus == 0 })
        let saved = try savedUsernames(in: directory)
        #expect(Set(saved) == Set(acknowledged))
        #expect(saved.count == 160)
    }
}
