import MediatorCommandLine

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

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
        let name = Self.temporaryPrefix + "-" + Self.randomHex()
        let file = openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw .system("cannot create", path(of: name)) }
        if !writeAll(bytes, to: file) || fsync(file) != 0 {
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
        // Names are kept as raw bytes: a name that is not UTF-8 must still be unlinked as it is.
        let prefix = Array(Self.temporaryPrefix.utf8).map { CChar(bitPattern: $0) }
        var leftovers: [[CChar]] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                Array(raw.bindMemory(to: CChar.self).prefix { $0 != 0 }) + [0]
            }
            if name.starts(with: prefix) { leftovers.append(name) }
        }
        for name in leftovers { unlinkat(descriptor, name, 0) }
    }

    /// 128 bits from the system's cryptographically secure generator, as 32 lowercase hex digits.
    static func randomHex() -> String {
        var generator = SystemRandomNumberGenerator()
        return [generator.next(), generator.next()].map { (half: UInt64) in
            let digits = String(half, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }
}
