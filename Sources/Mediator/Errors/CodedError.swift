/// An error a provider throws that callers in other modules can recognise by a stable string,
/// without importing the provider's error type.
///
/// Providers adopt it on their domain errors; typed extension modules read it back through
/// ``MediatorError/actionErrorCode``:
///
/// ```swift
/// enum NotesError: CodedError {
///     case notFound(id: Int)
///     var code: String { "notFound" }
/// }
/// // in a caller that never imports the Notes module:
/// do {
///     try mediator.callNow(target: "Notes", action: "get", params: ["id": 7])
/// } catch where error.actionErrorCode == "notFound" {
///     print("no note 7")
/// }
/// ```
public protocol CodedError: Error {
    /// A short, stable identifier of the kind of failure (for example `"notFound"`).
    var code: String { get }
}
