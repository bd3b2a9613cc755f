import Mediator
import MediatorCommandLine

extension DataDirectory {
    /// The largest state file `mediate` reads or writes: 64 MiB. A larger file is refused, never
    /// read whole (so a huge or endless file cannot exhaust memory).
    static let maximumStateFileSize = 64 << 20

    /// The state file's text, `nil` when there is none yet. Refuses a file that is not a regular
    /// file of the user, is larger than ``maximumStateFileSize``, or is not UTF-8.
    func readStateFile() throws(DataStoreError) -> String? {
        let name = Self.stateName
        guard let (file, info) = try openRegularFile(name, flags: O_RDONLY, what: "cannot read") else { return nil }
        defer { closeDescriptor(file) }
        let limit = Self.maximumStateFileSize
        guard Int(info.st_size) <= limit else { throw Self.tooLarge(path(of: name)) }
        let bytes: [UInt8]
        switch readToEnd(file, size: Int(info.st_size), limit: limit) {
        case .success(let read): bytes = read
        case .failure(let error): throw .system("cannot read", path(of: name), errno: error.errorNumber)
        }
        guard bytes.count <= limit else { throw Self.tooLarge(path(of: name)) }
        guard let text = validUTF8(bytes) else {
            throw .corrupt(path(of: name), "not UTF-8 text")
        }
        return text
    }

    static func tooLarge(_ path: String) -> DataStoreError {
        .refusing(path, "it is larger than the limit of \(maximumStateFileSize >> 20) MiB (\(maximumStateFileSize) bytes)")
    }
}
