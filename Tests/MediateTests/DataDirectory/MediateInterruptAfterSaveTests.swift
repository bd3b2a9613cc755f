import Foundation
import Testing

/// What exit status 130 promises (README's table, `--help`): a request under way is cancelled and
/// nothing of it is saved; a request whose change was saved stands, even when Ctrl-C comes while
/// its result is printed.
@Suite("mediate: Ctrl-C after a request's save", .bug(id: "interrupt-after-save", "what exit 130 promised about a saved change"))
struct MediateInterruptAfterSaveTests {
    @Test("Ctrl-C after a request's change was saved, while its result is printed: exit 130, and the saved change stands whole")
    func interruptAfterSave() throws {
        let directory = Mediate.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try Mediate.run(["--data-dir", directory, "perform", "Accounts", "signUp", "username=ada", "password=analytical"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: directory + "/state.json"))

        // Standard output is a pipe already full and not read: the result's write blocks, after the save.
        let output = Pipe()
        let writeEnd = output.fileHandleForWriting.fileDescriptor
        let flags = fcntl(writeEnd, F_GETFL)
        _ = fcntl(writeEnd, F_SETFL, flags | O_NONBLOCK)
        let block = [UInt8](repeating: UInt8(ascii: "f"), count: 4096)
        while write(writeEnd, block, block.count) > 0 {}
        _ = fcntl(writeEnd, F_SETFL, flags)

        let process = Process()
        process.executableURL = Mediate.binary
        process.arguments = ["--data-dir", directory, "perform", "Accounts", "signUp", "username=bob", "password=analytical"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        try output.fileHandleForWriting.close()

        // The event: bob is in the saved file. From then on mediate is past the save, blocked printing.
        let deadline = Date().addingTimeInterval(120)
        var saved = false
        while !saved && Date() < deadline {
            let text = (try? String(contentsOfFile: directory + "/state.json", encoding: .utf8)) ?? ""
            saved = text.contains("\"bob\"")
            if !saved { usleep(2_000) }
        }
        try #require(saved, "mediate did not save within 120 s")
        try InterruptTests.waitUntilCatchingInterrupts(process.processIdentifier)
        _ = kill(process.processIdentifier, SIGINT)
        // The pipe is drained only once mediate has ended: until then its print stays blocked, so
        // the Ctrl-C, not the end of the print, decides how it ends (no race).
        let exitDeadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < exitDeadline { usleep(2_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            Issue.record("mediate did not end within 120 s of Ctrl-C")
        }
        process.waitUntilExit()
        _ = output.fileHandleForReading.readDataToEndOfFile()

        let after = try Data(contentsOf: URL(fileURLWithPath: directory + "/state.json"))
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        // The change is saved whole: the file is a complete state with both accounts.
        let text = String(decoding: after, as: UTF8.self)
        #expect(after != before && text.contains("\"ada\"") && text.contains("\"bob\""))
        #expect(text.hasSuffix("\n"))
    }
}
