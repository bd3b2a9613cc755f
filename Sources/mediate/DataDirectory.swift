/// The data directory, held open: every file in it is opened relative to this one descriptor
/// (`openat`), so the checks made on the directory hold for every file used in it, even if the
/// path is renamed meanwhile.
///
/// The rules, as ssh applies them to `~/.ssh`: the directory must belong to the user running
/// `mediate` and not be writable by group or others (otherwise someone else could plant links or
/// special files in it); the files in it are opened without following symbolic links and must be
/// regular files belonging to the same user. Special files are refused from their metadata,
/// before any `open` (opening a FIFO or a device can block or have side effects), and every
/// `open` is non-blocking besides, in case one is swapped in between.
struct DataDirectory {
    /// The directory as the user named it (for messages).
    let path: String
    /// Open with `O_DIRECTORY`; closed by ``close()``.
    let descriptor: Int32

    static let stateName = "state.json"
    static let lockName = "state.lock"

    /// `path/name`, for messages.
    func path(of name: String) -> String { path == "/" ? "/" + name : path + "/" + name }

    /// Opens the directory, creating it (and missing parents, mode 0700) if it does not exist,
    /// and checks its owner and mode.
    static func open(_ path: String) throws(DataStoreError) -> DataDirectory {
        let trimmed = normalized(path)
        // The directory itself may be reached through a symbolic link (a user's
        // ~/.local/share may live on another disk); what it resolves to is what is checked.
        var descriptor = openDirectory(trimmed)
        if descriptor < 0 && errno == ENOENT {
            try makeDirectories(trimmed)
            descriptor = openDirectory(trimmed)
        }
        guard descriptor >= 0 else {
            if errno == ENOTDIR { throw .refusing(trimmed, "it is not a directory") }
            throw .system("cannot open the data directory", trimmed)
        }
        let directory = DataDirectory(path: trimmed, descriptor: descriptor)
        do throws(DataStoreError) {
            try directory.checkItself()
            try directory.checkAncestors()
        } catch {
            directory.close()
            throw error
        }
        return directory
    }

    /// `path` without trailing slashes, so messages name `DIR/state.json`, not `DIR//state.json`.
    static func normalized(_ path: String) -> String {
        var trimmed = path
        while trimmed.utf8.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }

    func close() {
        closeDescriptor(descriptor)
    }

    /// Refuses a directory that is not the user's or that group or others can write to.
    private func checkItself() throws(DataStoreError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system("cannot inspect the data directory", path) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .refusing(path, "it is not a directory") }
        if let reason = Self.foreignOwner(info) { throw .refusing(path, reason) }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            let octal = String(info.st_mode & 0o7777, radix: 8)
            let mode = String(repeating: "0", count: max(0, 4 - octal.count)) + octal
            throw .refusing(path, "it is writable by group or others (mode \(mode)); make it private with chmod go-w")
        }
    }

    // MARK: - Files in the directory

    /// The reason `name` must not be used, from its own metadata (`lstat`), without opening it;
    /// `nil` when it is a regular file of the user or does not exist.
    func refusal(of name: String) throws(DataStoreError) -> String? {
        var info = stat()
        if fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) != 0 {
            if errno == ENOENT { return nil }
            throw .system("cannot inspect", path(of: name))
        }
        return Self.refusal(info)
    }

    /// Opens `name` (never following a symbolic link, never blocking) and checks, on the open
    /// file, that it is a regular file of the user. `nil` when it does not exist and `flags` do
    /// not create it.
    func openRegularFile(_ name: String, flags: Int32, what: String) throws(DataStoreError) -> (descriptor: Int32, info: stat)? {
        if let reason = try refusal(of: name) { throw .refusing(path(of: name), reason) }
        let file = openat(descriptor, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard file >= 0 else {
            if errno == ENOENT && flags & O_CREAT == 0 { return nil }
            if errno == ELOOP { throw .refusing(path(of: name), "it is a symbolic link") }
            throw .system(what, path(of: name))
        }
        var info = stat()
        guard fstat(file, &info) == 0 else {
            let error = DataStoreError.system("cannot inspect", path(of: name))
            closeDescriptor(file)
            throw error
        }
        if let reason = Self.refusal(info) {
            closeDescriptor(file)
            throw .refusing(path(of: name), reason)
        }
        return (file, info)
    }

    /// Opens (creating it if needed) the lock file.
    func openLockFile() throws(DataStoreError) -> Int32 {
        // With O_CREAT the call returns a descriptor or throws.
        guard let lock = try openRegularFile(Self.lockName, flags: O_RDWR | O_CREAT, what: "cannot open the lock file") else {
            throw .system("cannot open the lock file", path(of: Self.lockName), errno: ENOENT)
        }
        return lock.descriptor
    }

    // MARK: - Checks

    /// Why a file with this metadata must not be used, or `nil`.
    static func refusal(_ info: stat) -> String? {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return foreignOwner(info)
        case S_IFLNK: return "it is a symbolic link"
        case S_IFDIR: return "it is a directory"
        case S_IFIFO: return "it is a FIFO (named pipe)"
        case S_IFCHR: return "it is a character device"
        case S_IFBLK: return "it is a block device"
        case S_IFSOCK: return "it is a socket"
        default: return "it is not a regular file"
        }
    }

    /// Why a file or directory with this owner must not be used, or `nil` when the user running
    /// `mediate` owns it.
    static func foreignOwner(_ info: stat) -> String? {
        let user = geteuid()
        return info.st_uid == user ? nil : "it is owned by uid \(info.st_uid), not by the user running mediate (uid \(user))"
    }

    private static func openDirectory(_ path: String) -> Int32 {
        openat(AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
    }

    /// `mkdir -p` with mode 0700.
    private static func makeDirectories(_ path: String) throws(DataStoreError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw .system("cannot create the data directory", current)
            }
        }
    }
}

/// `close(2)`, by a name that methods called `close` do not shadow.
func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
