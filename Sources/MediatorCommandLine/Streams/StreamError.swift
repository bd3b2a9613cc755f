/// A standard stream that could not be read or written, with the system's reason.
///
/// ```swift
/// do {
///     try StandardStreams.write("done", to: .output)
/// } catch {
///     print(error)  // No space left on device
/// }
/// ```
public struct StreamError: Error, Equatable, CustomStringConvertible {
    /// The system's error number (`errno`): `ENOSPC`, `EPIPE`, `EISDIR`, ...
    public let errorNumber: Int32

    /// The error for the system error number `errorNumber`.
    ///
    /// A custom ``CommandLineTool/Writer`` throws one when it cannot deliver a line:
    ///
    /// ```swift
    /// throw StreamError(errorNumber: EPIPE)
    /// ```
    ///
    /// - Parameter errorNumber: the system's error number (`errno`).
    public init(errorNumber: Int32) {
        self.errorNumber = errorNumber
    }

    /// The system's text for the error, as `strerror` gives it: "No space left on device".
    public var description: String { systemErrorText(errorNumber) }
}
