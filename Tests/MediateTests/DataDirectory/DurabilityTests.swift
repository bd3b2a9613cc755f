import Foundation
import TestSupport
import Testing

/// The usernames in result lines `{"id":...,"username":"..."}`: each one acknowledges a saved write.
func acknowledgedUsernames(_ lines: [String]) -> [String] {
    lines.compactMap { line in
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return object["username"] as? String
    }
}

/// No test here depends on timing: kills happen at moments chosen by events (the k-th
/// acknowledgement has been read), and the run goes on until enough writes were acknowledged.
/// The only limit is the 60 s a single line may take, which only a hang reaches.
@Suite("mediate: the data file survives kills and concurrent writers", .serialized)
struct DurabilityTests {
    /// The accounts in the data file; fails the test if the file does not parse.
    func savedUsernames(in directory: String) throws -> [String] {
        let data = try #require(FileManager.default.contents(atPath: directory + "/state.json"))
        let state = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "state.json does not parse")
        let users = try #require((state["accounts"] as? [String: Any])?["users"] as? [[String: Any]], "state.json has no accounts.users")
        return users.compactMap { $0["username"] as? String }
    }

    /// A `mediate batch` that signs up `count` users. Its input stays open, so it cannot finish
    /// on its own: when it is killed, it is alive, whatever the machine's speed.
    func startWriter(_ directory: String, names prefix: String, count: Int) throws -> InteractiveMediate {
        let writer = try InteractiveMediate(["--data-dir", directory, "batch"])
        // About 60 bytes a line: well under the pipe's 64 KiB, so sending never blocks.
        writer.send((0..<count).map { "Accounts signUp username=\(prefix)n\($0) password=long-enough\n" }.joined())
        return writer
    }

    @Test("Writers killed with SIGKILL after a seeded number of acknowledgements: the file always parses and holds every acknowledged write")
    func killedWriters() throws {
        let seed: UInt64 = 0xDEAD_F11E
        print("Durability: seed 0x\(String(seed, radix: 16))")
        var generator = SeededGenerator(seed: seed)
        let directory = Mediate.temporaryDirectory()
        let requiredAcknowledged = 300
        let requiredKills = 24
        var acknowledged: Set<String> = []
        var kills = 0
        var round = 0
        // Every round acknowledges at least one write per writer and kills every writer, so this
        // ends after a bounded number of rounds.
        while acknowledged.count < requiredAcknowledged || kills < requiredKills {
            let killAfter = (0..<3).map { _ in Int.random(in: 1...30, using: &generator) }
            let writers = try killAfter.enumerated().map { writer, count in
                try startWriter(directory, names: "r\(round)w\(writer)", count: count + 200)
            }
            var lines: [[String]] = Array(repeating: [], count: writers.count)
            for (index, writer) in writers.enumerated() {
                while lines[index].count < killAfter[index] {
                    let line = try #require(try writer.nextLine(), "round \(round): writer \(index) ended before \(killAfter[index]) acknowledgements")
                    lines[index].append(line)
                }
                writer.signal(SIGKILL)
            }
            for (index, writer) in writers.enumerated() {
                // Lines written whole before the kill landed were acknowledged too.
                lines[index] += try writer.remainingLines()
                try writer.closeInput()
                let exit = writer.waitForExit()
                #expect(exit.reason == .uncaughtSignal && exit.status == SIGKILL, "round \(round): writer \(index) was not alive when killed: \(exit)")
                kills += 1
                acknowledged.formUnion(acknowledgedUsernames(lines[index]))
            }
            let saved = try savedUsernames(in: directory)
            let missing = acknowledged.subtracting(saved)
            #expect(missing.isEmpty, "round \(round): \(missing.count) acknowledged writes lost, e.g. \(missing.sorted().prefix(5))")
            #expect(Set(saved).count == saved.count, "round \(round): an account saved twice")
            // mediate itself still reads the file after the kills, and writes it (a log-in).
            let run = try Mediate.run(["--data-dir", directory, "perform", "Accounts", "logIn", "username=\(saved.first ?? "none")", "password=long-enough"])
            #expect(run.status == 0, "\(run)")
            round += 1
        }
        print("Durability: \(round) rounds, \(kills) writers killed, \(acknowledged.count) acknowledged writes, all present")
        // The last log-in wrote after the last kill, removing what killed writers left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".tmp") }
        #expect(leftovers.isEmpty, "temporary files piled up: \(leftovers)")
    }

    @Test("Four processes writing at once lose no update")
    func concurrentWriters() throws {
        let directory = Mediate.temporaryDirectory()
        let writers = try (0..<4).map { writer in try startWriter(directory, names: "p\(writer)", count: 40) }
        var acknowledged: [String] = []
        for writer in writers {
            try writer.closeInput()
            acknowledged += acknowledgedUsernames(try writer.remainingLines())
            let exit = writer.waitForExit()
            #expect(exit.reason == .exit && exit.status == 0)
        }
        #expect(acknowledged.count == 160)
        let saved = try savedUsernames(in: directory)
        #expect(Set(saved) == Set(acknowledged))
        #expect(saved.count == 160)
    }
}
