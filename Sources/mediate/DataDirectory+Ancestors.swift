extension DataDirectory {
    /// Refuses a data directory that someone else could swap for another: as ssh checks every
    /// directory above `~/.ssh`, each directory above this one (from the directory as opened, so
    /// through any symbolic link, up to `/`) must belong to root or the user, and must not be
    /// writable by group or others, unless it has the sticky bit (as `/tmp` has) and the entry
    /// below it belongs to root or the user: then nobody else can rename or remove that entry.
    func checkAncestors() throws(DataStoreError) {
        let user = geteuid()
        var child = stat()
        guard fstat(descriptor, &child) == 0 else { throw .system("cannot inspect the data directory", path) }
        var current = dup(descriptor)
        guard current >= 0 else { throw .system("cannot inspect the data directory", path) }
        defer { closeDescriptor(current) }
        // Each step goes up one level; a path has fewer levels than this bound.
        for level in 1...4_096 {
            let parent = openat(current, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
            guard parent >= 0 else { throw .system("cannot inspect the directories above", path) }
            closeDescriptor(current)
            current = parent
            var info = stat()
            guard fstat(parent, &info) == 0 else { throw .system("cannot inspect the directories above", path) }
            // The root is its own parent.
            if info.st_dev == child.st_dev && info.st_ino == child.st_ino { return }
            let place = level == 1 ? "its parent directory" : "the directory \(level) levels above it"
            if info.st_uid != 0 && info.st_uid != user {
                throw .refusing(path, "\(place) is owned by uid \(info.st_uid), who could replace it")
            }
            let writableByOthers = info.st_mode & (S_IWGRP | S_IWOTH) != 0
            let sticky = info.st_mode & S_ISVTX != 0
            let childIsOurs = child.st_uid == 0 || child.st_uid == user
            if writableByOthers && !(sticky && childIsOurs) {
                let octal = String(info.st_mode & 0o7777, radix: 8)
                let mode = String(repeating: "0", count: max(0, 4 - octal.count)) + octal
                throw .refusing(path, "\(place) is writable by group or others without the sticky bit (mode \(mode)): they could replace it")
            }
            child = info
        }
        throw .refusing(path, "it is nested too deeply to check the directories above it")
    }
}
