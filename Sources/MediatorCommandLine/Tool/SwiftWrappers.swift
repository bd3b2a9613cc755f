import Mediator

/// The source of a typed extension module for a target, generated from its declarations
/// (`describe <Target> --swift`). A placeholder, replaced by the generator.
enum SwiftWrappers {
    /// The Swift source of the wrappers for `target`.
    static func source(for target: TargetInfo) -> String { "" }
}
