import Foundation

/// How a raw run of a program ended.
struct RawRun {
    /// The exit status, or nil when a signal ended the process.
    let status: Int32?
    let signal: Int32?
    let output: [UInt8]
    let error: [UInt8]
    let timedOut: Bool
    /// The child's peak resident memory in KiB (`VmHWM`), when `RawOptions.measurePeakAfter` asked
    /// for it; 0 otherwise.
    var peakResidentKiB: Int = 0

    var errorText: String { String(decoding: error, as: UTF8.self) }
}

/// Where a raw run's standard streams come from and go, and what it does with `SIGPIPE`.
struct RawOptions {
    enum Input {
        /// `/dev/null`.
        case empty
        /// A file (or directory) opened read-only.
        case path(String)
        /// These bytes through a pipe, then its end. Not together with `.firstLineThenClose`: the
        /// child could block on its full output while this process writes its input.
        case bytes([UInt8])
        /// Parts through a non-blocking pipe (as some parents hand out): each part after the
        /// output file holds one line per part before it, so the child has already found the
        /// pipe empty (and got `EAGAIN`) while waiting for it. Needs `.file` output.
        case nonBlockingParts([[UInt8]])
    }

    enum Output {
        /// A temporary file, read after the run.
        case file
        /// A file opened for writing, e.g. `/dev/full`.
        case path(String)
        /// A pipe whose reading end is closed before the child starts: every write fails.
        case closedPipe
        /// A pipe read until its first line (as `head -1` does), then closed.
        case firstLineThenClose
        /// A non-blocking pipe that is already full when the child starts, so its first write
        /// gets `EAGAIN`; then read to its end. The output is what came after the filling.
        case fullNonBlockingPipe
    }

    var input = Input.empty
    var output = Output.file
    /// Whether the child starts with `SIGPIPE` ignored; otherwise at its default (terminate).
    var ignoresSIGPIPE = false
    /// With `.bytes` input and `.file` output: keep standard input open after the bytes until the
    /// output holds this many lines, then read the child's peak resident memory (`VmHWM` in
    /// `/proc/PID/status`), then close it. (`ru_maxrss` cannot serve: a spawned child starts as
    /// a copy of this process's memory map and its maximum includes this test process.)
    var measurePeakAfter: Int?
}

/// Runs a program with arguments given as raw bytes (so they can be invalid UTF-8, which
/// `Process` cannot pass), standard input from /dev/null and output to files unless `options`
/// says otherwise. The child starts with no blocked signals and `SIGPIPE` as `options` says.
enum RawProcess {
    static func run(_ path: String, arguments: [[UInt8]], options: RawOptions = RawOptions(), timeout: Double = 30) -> RawRun {
        let directory = FileManager.default.temporaryDirectory.path
        let outputPath = "\(directory)/raw-out-\(UUID().uuidString)"
        let errorPath = "\(directory)/raw-err-\(UUID().uuidString)"
        defer {
            unlink(outputPath)
            unlink(errorPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }

        var inputPipe: (read: Int32, write: Int32)?
        switch options.input {
        case .empty: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .path(let input): posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        case .bytes, .nonBlockingParts:
            let pipe = makePipe()
            inputPipe = pipe
            if case .nonBlockingParts = options.input { setNonBlocking(pipe.read) }
            posix_spawn_file_actions_adddup2(&actions, pipe.read, 0)
        }
        var outputPipe: (read: Int32, write: Int32)?
        switch options.output {
        case .file: posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        case .path(let output): posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY, 0)
        case .closedPipe, .firstLineThenClose, .fullNonBlockingPipe:
            let pipe = makePipe()
            outputPipe = pipe
            posix_spawn_file_actions_adddup2(&actions, pipe.write, 1)
        }
        var filling = 0
        if case .fullNonBlockingPipe = options.output, let outputPipe {
            setNonBlocking(outputPipe.write)
            filling = fill(outputPipe.write)
        }
        if case .closedPipe = options.output, let pipe = outputPipe {
            // Closed before the child exists: no reader, ever.
            close(pipe.read)
            outputPipe = (read: -1, write: pipe.write)
        }
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        // The child's signal state is set, not inherited from whichever test thread spawns it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &pipeSignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        // POSIX has no spawn attribute that ignores a signal; a shell's `trap ''` does, and
        // `exec` keeps an ignored signal ignored.
        let program = options.ignoresSIGPIPE ? "/bin/sh" : path
        let prefix: [[UInt8]] =
            options.ignoresSIGPIPE
            ? [Array("/bin/sh".utf8), Array("-c".utf8), Array("trap '' PIPE; exec \"$0\" \"$@\"".utf8), Array(path.utf8)]
            : [Array(path.utf8)]

        // argv: NUL-terminated copies of the raw bytes.
        let argv: [UnsafeMutablePointer<CChar>?] =
            (prefix + arguments).map { bytes in
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
                for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
                copy[bytes.count] = 0
                return copy
            } + [nil]
        defer { for pointer in argv { pointer?.deallocate() } }

        var pid = pid_t()
        let spawned = argv.withUnsafeBufferPointer { buffer in
            posix_spawn(&pid, program, &actions, &attributes, UnsafeMutablePointer(mutating: buffer.baseAddress!), environ)
        }
        // The child holds its own copies now.
        if let inputPipe { close(inputPipe.read) }
        if let outputPipe { close(outputPipe.write) }
        guard spawned == 0 else {
            if let inputPipe { close(inputPipe.write) }
            if let outputPipe, outputPipe.read >= 0 { close(outputPipe.read) }
            return RawRun(status: nil, signal: nil, output: [], error: Array("spawn failed: \(spawned)".utf8), timedOut: false)
        }

        var peakResidentKiB = 0
        var timedOut = false
        if case .bytes(let bytes) = options.input, let inputPipe {
            writeWithoutSIGPIPE(bytes, to: inputPipe.write)
            if let lines = options.measurePeakAfter {
                timedOut = !waitForLines(lines, in: outputPath, timeout: timeout)
                peakResidentKiB = peakResident(of: pid)
            }
            close(inputPipe.write)
        }
        if case .nonBlockingParts(let parts) = options.input, let inputPipe {
            for (index, part) in parts.enumerated() {
                if index > 0 && !waitForLines(index, in: outputPath, timeout: timeout) {
                    timedOut = true
                    break
                }
                writeWithoutSIGPIPE(part, to: inputPipe.write)
            }
            close(inputPipe.write)
        }
        var pipedOutput: [UInt8] = []
        if case .firstLineThenClose = options.output, let outputPipe {
            timedOut = !readFirstLine(from: outputPipe.read, into: &pipedOutput, timeout: timeout)
            close(outputPipe.read)
        }
        if case .fullNonBlockingPipe = options.output, let outputPipe {
            timedOut = !readToEnd(from: outputPipe.read, into: &pipedOutput, timeout: timeout)
            pipedOutput.removeFirst(min(filling, pipedOutput.count))
            close(outputPipe.read)
        }

        var waitStatus: Int32 = 0
        let deadline = Date().addingTimeInterval(timeout)
        while waitpid(pid, &waitStatus, WNOHANG) == 0 {
            if timedOut || Date() > deadline {
                timedOut = true
                kill(pid, SIGKILL)
                waitpid(pid, &waitStatus, 0)
                break
            }
            usleep(1_000)
        }
        let output: [UInt8]
        switch options.output {
        case .file: output = FileManager.default.contents(atPath: outputPath).map(Array.init) ?? []
        case .path, .closedPipe: output = []
        case .firstLineThenClose, .fullNonBlockingPipe: output = pipedOutput
        }
        let error = FileManager.default.contents(atPath: errorPath).map(Array.init) ?? []
        let signal = waitStatus & 0x7F
        return RawRun(
            status: signal == 0 ? (waitStatus >> 8) & 0xFF : nil,
            signal: signal == 0 ? nil : signal,
            output: output, error: error, timedOut: timedOut,
            peakResidentKiB: peakResidentKiB
        )
    }

    /// Waits until the file holds `count` newlines; false after `timeout` seconds (a hang).
    private static func waitForLines(_ count: Int, in path: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let bytes = FileManager.default.contents(atPath: path) ?? Data()
            if bytes.filter({ $0 == 0x0A }).count >= count { return true }
            usleep(1_000)
        }
        return false
    }

    /// The process's peak resident memory in KiB since its `exec` (`VmHWM`), or 0 when unknown.
    private static func peakResident(of pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// A pipe whose ends close on `exec`, set atomically where the system can (`pipe2`): tests
    /// spawn processes in parallel, and a child of another test that inherited an end would keep
    /// a "closed" pipe open.
    private static func makePipe() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
        if let symbol = dlsym(nil, "pipe2") {
            let pipe2 = unsafeBitCast(symbol, to: Pipe2.self)
            precondition(pipe2(&ends, O_CLOEXEC) == 0, "pipe2 failed")
        } else {
            precondition(pipe(&ends) == 0, "pipe failed")
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
        return (ends[0], ends[1])
    }

    /// Writes everything (or until the reader is gone) with `SIGPIPE` blocked in this thread, so
    /// a child that exits early makes the write fail instead of killing the test process.
    private static func writeWithoutSIGPIPE(_ bytes: [UInt8], to descriptor: Int32) {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            // Consume a SIGPIPE raised while blocked before unblocking it.
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var now = timespec()
                _ = sigtimedwait(&pipeSignal, nil, &now)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    private static func setNonBlocking(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Writes to a non-blocking pipe until it is full; how many bytes it took.
    private static func fill(_ descriptor: Int32) -> Int {
        let block = [UInt8](repeating: UInt8(ascii: "f"), count: 4096)
        var total = 0
        while true {
            let written = write(descriptor, block, block.count)
            if written < 0 {
                if errno == EINTR { continue }
                return total
            }
            total += written
        }
    }

    /// Reads to the end; false when nothing came for `timeout` seconds (a hang).
    private static func readToEnd(from descriptor: Int32, into bytes: inout [UInt8], timeout: Double) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(timeout * 1_000))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return true }
            bytes += buffer[0..<count]
        }
    }

    /// Reads until a newline or the end; false when nothing came for `timeout` seconds (a hang).
    private static func readFirstLine(from descriptor: Int32, into line: inout [UInt8], timeout: Double) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1)
        while true {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(timeout * 1_000))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            // One byte at a time: nothing past the first line is taken from the pipe.
            let count = read(descriptor, &buffer, 1)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return true }
            line.append(buffer[0])
            if buffer[0] == 0x0A { return true }
        }
    }
}
