import ExampleModuleSupport
import MediatorCommandLine

extension DataDirectory {
    /// Temporary files are `state.json.tmp-` and 32 random hex digits. (Before, one fixed name,
    /// `state.json.tmp`; leftovers under that name are removed too.)
    static let temporaryPrefix = "state.json.tmp"

    /// Replaces the state file with `text` so that a crash at any moment leaves the old file or
    /// the new one, never a torn one: write a new temporary file, `fsync` it, `rename` it over
    /// the state file, `fsync` the directory. Call it holding the lock.
    ///
    /// The temporary file is created exclusively (`O_CREAT | O_EXCL | O_NOFOLLOW`, mode 0600)
    /// under a fresh unpredictable name, so nothing planted in the directory is ever written
    /// through, and the new state file always belongs to the user with mode 0600.
    func replaceStateFile(with text: String) throws(DataStoreError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumStateFileSize else {
            throw .refusing(
                path(of: Self.stateName),
                "the new state would be \(bytes.count) bytes, past the limit of \(Self.maximumStateFileSize) bytes; nothing was written")
        }
        // Writers hold the lock, so any temporary file present is a leftover of a writer that was
        // killed mid-write: remove them so they do not pile up.
        removeLeftoverTemporaryFiles()
        let name = Self.temporaryPrefix + "-" + randomHex128()
        let file = openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw .system("cannot create", path(of: name)) }
        if !Self.writeFile(bytes, to: file) || fsync(file) != 0 {
            let error = DataStoreError.system("cannot write", path(of: name))
            closeDescriptor(file)
            unlinkat(descriptor, name, 0)
            throw error
        }
        closeDescriptor(file)
        guard renameat(descriptor, name, descriptor, Self.stateName) == 0 else {
            let error = DataStoreError.system("cannot replace", path(of: Self.stateName))
            unlinkat(descriptor, name, 0)
            throw error
        }
        // Make the rename itself durable.
        _ = fsync(descriptor)
    }

    /// Writes every byte of a fresh regular file at explicit offsets (`pwrite`), retrying
    /// interrupted and partial writes. `pwrite`, not `write`: no other code of the process makes
    /// that system call (the concurrency runtime's threads `write` to an eventfd to wake each
    /// other), so the kill-point tests can stop mediate at exactly this write with strace.
    static func writeFile(_ bytes: [UInt8], to file: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = pwrite(file, buffer.baseAddress! + offset, buffer.count - offset, off_t(offset))
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// Unlinks every `state.json.tmp*` entry. Unlinking a symbolic link removes only the link;
    /// a failure is ignored (the next write uses a fresh name whatever is left).
    private func removeLeftoverTemporaryFiles() {
        let copy = dup(descriptor)
        guard copy >= 0 else { return }
        guard let listing = fdopendir(copy) else {
            closeDescriptor(copy)
            return
        }
        defer { closedir(listing) }
        var leftovers: [[CChar]] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                Array(raw.bindMemory(to: UInt8.self).prefix { $0 != 0 })
            }
            if Self.isTemporaryName(name) { leftovers.append(name.map { CChar(bitPattern: $0) } + [0]) }
        }
        for name in leftovers { unlinkat(descriptor, name, 0) }
    }

    /// Whether `name` is one of mediate's own temporary names: `state.json.tmp-` and 32 lowercase
    /// hex digits, or `state.json.tmp` (the fixed name of mediate 0.1.0). Nothing else is removed,
    /// whatever it starts with.
    static func isTemporaryName(_ name: [UInt8]) -> Bool {
        let prefix = Array(temporaryPrefix.utf8)
        guard name.starts(with: prefix) else { return false }
        let rest = name.dropFirst(prefix.count)
        if rest.isEmpty { return true }
        guard rest.count == 33, rest.first == UInt8(ascii: "-") else { return false }
        return rest.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
}
