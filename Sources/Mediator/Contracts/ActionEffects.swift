/// What an action does beyond returning its result, as it declares it with ``Action/effects(_:)``:
/// for people reading a listing, and for AI agents, which see it as a tool's hints (the Model
/// Context Protocol's `readOnlyHint`, `destructiveHint`, `idempotentHint` and `openWorldHint`).
///
/// ```swift
/// Action<Target_Notes>("delete", params: [.required("id", .integer)]) { notes, params in
///     try notes.delete(id: params.value("id"))
/// }
///     .effects([.destructive, .idempotent])
/// ```
///
/// A declaration, not a guarantee: nothing checks that the body does what it says.
public struct ActionEffects: OptionSet, Sendable, Hashable {
    /// The effects as bits.
    public let rawValue: Int

    /// Effects from their bits.
    ///
    /// - Parameter rawValue: the bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Changes nothing: calling it only reads.
    public static let readOnly = ActionEffects(rawValue: 1 << 0)
    /// May delete or overwrite what exists (not only add to it).
    public static let destructive = ActionEffects(rawValue: 1 << 1)
    /// Calling it again with the same params changes nothing more.
    public static let idempotent = ActionEffects(rawValue: 1 << 2)
    /// Reaches outside the program: a network, another service, the file system.
    public static let openWorld = ActionEffects(rawValue: 1 << 3)

    /// The names of the effects in the set, in a fixed order (`readOnly`, `destructive`,
    /// `idempotent`, `openWorld`).
    public var names: [String] {
        [(Self.readOnly, "readOnly"), (.destructive, "destructive"), (.idempotent, "idempotent"), (.openWorld, "openWorld")]
            .filter { contains($0.0) }.map(\.1)
    }
}
