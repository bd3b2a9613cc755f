import Testing

/// A suite trait that fails a test which hangs for ten minutes, instead of stalling the run: a
/// limit only a hang reaches. `.timeLimit` needs macOS 13 / iOS 16; older systems run unlimited.
public let hangLimit: any SuiteTrait = {
    if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
        return .timeLimit(.minutes(10))  // availability: guarded
    }
    return .enabled(if: true)
}()
