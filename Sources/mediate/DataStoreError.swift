/// Why the data directory or one of its files could not be used: one line that names the path
/// and the reason (`mediate` exits 74 with it).
struct DataStoreError: Error, CustomStringConvertible {
    let description: String

    /// A state file that cannot be read as the format: `the data file PATH is corrupt (REASON)`.
    static func corrupt(_ path: String, _ reason: String) -> DataStoreError {
        DataStoreError(description: "the data file \(path) is corrupt (\(reason)); it was left unchanged: repair or move it away")
    }

    /// A file or directory that exists but must not be used: `refusing PATH: REASON`.
    static func refusing(_ path: String, _ reason: String) -> DataStoreError {
        DataStoreError(description: "refusing \(path): \(reason)")
    }

    /// A system call that failed: `WHAT PATH: strerror(errno)`. Read `errno` before anything
    /// else can change it.
    static func system(_ what: String, _ path: String, errno code: Int32 = errno) -> DataStoreError {
        DataStoreError(description: "\(what) \(path): \(String(cString: strerror(code)))")
    }
}
