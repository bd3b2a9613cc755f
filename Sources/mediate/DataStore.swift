#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MediatorCommandLine

/// Why the data directory could not be used. Always names the path.
struct DataStoreError: Error, CustomStringConvertible {
    let description: String
}

/// `mediate`'s state file: `state.json` in the data directory, guarded by `state.lock`.
///
/// Every request runs inside ``transaction(_:)``: take an exclusive `flock` on the lock file,
/// read the state, run, and (only if the state changed) write a temporary file, `fsync` it and
/// `rename` it over `state.json`. So concurrent processes lose no update, and a crash at any
/// moment leaves either the old or the new file, never a torn one. A file that does not parse is
/// reported and left exactly as it is.
struct DataStore: Sendable {
    let directory: String
    var statePath: String { directory + "/state.json" }
    var lockPath: String { directory + "/state.lock" }

    /// Runs `body` holding the lock, with the current file text (`nil` when there is none yet);
    /// `body` returns the new text to write, or `nil` to leave the file alone.
    func transaction(_ body: (String?) throws -> String?) throws {
        try makeDirectory(directory)
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw failure("cannot open the lock file", lockPath) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure("cannot lock", lockPath) }
        }
        defer { _ = flock(lock, LOCK_UN) }
        if let replacement = try body(try read()) {
            try write(replacement)
        }
    }

    private func read() throws -> String? {
        let file = open(statePath, O_RDONLY | O_CLOEXEC)
        if file < 0 {
            if errno == ENOENT { return nil }
            throw failure("cannot read the data file", statePath)
        }
        defer { close(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(file, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read the data file", statePath)
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw DataStoreError(description: "the data file \(statePath) is corrupt (not UTF-8 text); it was left unchanged: repair or move it away")
        }
        return text
    }

    private func write(_ text: String) throws {
        // One fixed name: writers hold the exclusive lock, and a file left by a writer killed
        // mid-write is simply overwritten by the next one instead of piling up.
        let temporary = statePath + ".tmp"
        let file = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw failure("cannot write", temporary) }
        if !writeAll(Array(text.utf8), to: file) || fsync(file) != 0 {
            let error = failure("cannot write", temporary)
            close(file)
            unlink(temporary)
            throw error
        }
        close(file)
        guard rename(temporary, statePath) == 0 else {
            let error = failure("cannot replace", statePath)
            unlink(temporary)
            throw error
        }
        // Make the rename itself durable.
        let directoryFile = open(directory, O_RDONLY | O_CLOEXEC)
        if directoryFile >= 0 {
            _ = fsync(directoryFile)
            close(directoryFile)
        }
    }

    /// `mkdir -p`.
    private func makeDirectory(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw failure("cannot create the data directory", current)
            }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw DataStoreError(description: "the data directory \(path) is not a directory")
        }
    }

    private func failure(_ what: String, _ path: String) -> DataStoreError {
        DataStoreError(description: "\(what) \(path): \(String(cString: strerror(errno)))")
    }
}

#if canImport(Darwin)
private let systemRead = Darwin.read
#elseif canImport(Glibc)
private let systemRead = Glibc.read
#elseif canImport(Musl)
private let systemRead = Musl.read
#endif
