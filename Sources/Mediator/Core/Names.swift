/// CTMediator's naming: a target is `Notes` or `Target_Notes`, an action `create` or `Action_create`.
enum Names {
    static let targetPrefix = "Target_"
    static let actionPrefix = "Action_"

    /// `Target_Notes` -> `Notes`; any other name unchanged.
    static func shortTargetName(_ name: String) -> String {
        strip(targetPrefix, from: name)
    }

    /// `Action_create` -> `create`; also drops a trailing `:` of an Objective-C selector string
    /// (`Action_create:`). Any other name unchanged.
    static func shortActionName(_ name: String) -> String {
        var short = strip(actionPrefix, from: name)
        if short.hasSuffix(":") && short.count > 1 { short.removeLast() }
        return short
    }

    private static func strip(_ prefix: String, from name: String) -> String {
        guard name.count > prefix.count, name.hasPrefix(prefix) else { return name }
        return String(name.dropFirst(prefix.count))
    }

    /// CTMediator's rule: actions whose (short) name begins with `native` are never reachable by URL.
    static func isNative(_ shortActionName: String) -> Bool {
        shortActionName.hasPrefix("native")
    }

    /// Why `name` cannot be registered, or `nil` when it can.
    ///
    /// Names must be addressable from a URL path and a command line unchanged: ASCII letters,
    /// digits, `_`, `-` and `.`, not empty.
    static func problem(with name: String) -> String? {
        if name.isEmpty { return "a name must not be empty" }
        return name.utf8.allSatisfy(isNameByte) ? nil : "use only ASCII letters, digits, \"_\", \"-\" and \".\""
    }

    /// Whether `byte` may appear in a name: an ASCII letter or digit, `_`, `-` or `.`.
    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
