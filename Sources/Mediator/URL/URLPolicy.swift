/// What remote (URL) calls may reach and how much input they may bring.
///
/// ```swift
/// mediator.urlPolicy = URLPolicy(allowedSchemes: ["myapp"], allowedTargets: ["Notes"])
/// ```
///
/// Whatever the policy, actions named `native...` and actions declared `localOnly` are never
/// reachable by URL.
public struct URLPolicy: Sendable, Equatable {
    /// The schemes accepted (compared case-insensitively); `nil` accepts any scheme.
    public var allowedSchemes: Set<String>? {
        didSet { allowedSchemes = allowedSchemes.map { Set($0.map { $0.lowercased() }) } }
    }
    /// The targets URL calls may reach (short or full names); `nil` allows every target. Names are
    /// kept in their canonical form; one that has none (not ASCII, a doubled prefix) is dropped.
    public var allowedTargets: Set<String>? {
        didSet { allowedTargets = allowedTargets.map(Self.canonicalTargets) }
    }
    /// The longest URL accepted, in UTF-8 bytes. Longer URLs are refused before any parsing.
    public var maximumLength: Int
    /// The most query items accepted. Parsing stops at the first item past the limit.
    public var maximumQueryItems: Int

    /// The default maximum URL length: 64 KiB.
    public static let defaultMaximumLength = 65_536
    /// The default maximum number of query items: 1,024.
    public static let defaultMaximumQueryItems = 1_024

    /// The allow-list in the form names are compared in. A name with no canonical form is
    /// dropped: it can name no target, and kept in a `Set` it would match (by `String`'s canonical
    /// equivalence) a name it is not byte for byte, as `"\u{212A}iosk"` would match `Kiosk`.
    private static func canonicalTargets(_ names: Set<String>) -> Set<String> {
        Set(names.compactMap { Names.canonical($0, as: .target) })
    }

    /// A policy; the defaults accept any scheme and target, URLs up to 64 KiB and 1,024 query items.
    ///
    /// - Parameters:
    ///   - allowedSchemes: the schemes accepted (compared case-insensitively), or `nil` for any.
    ///   - allowedTargets: the targets URL calls may reach (short or full names), or `nil` for all.
    ///   - maximumLength: the longest URL accepted, in UTF-8 bytes.
    ///   - maximumQueryItems: the most query items accepted.
    public init(
        allowedSchemes: Set<String>? = nil,
        allowedTargets: Set<String>? = nil,
        maximumLength: Int = URLPolicy.defaultMaximumLength,
        maximumQueryItems: Int = URLPolicy.defaultMaximumQueryItems
    ) {
        self.allowedSchemes = allowedSchemes.map { Set($0.map { $0.lowercased() }) }
        self.allowedTargets = allowedTargets.map(Self.canonicalTargets)
        self.maximumLength = maximumLength
        self.maximumQueryItems = maximumQueryItems
    }
}
