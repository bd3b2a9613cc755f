import Mediator

/// A target, or one action of a target, named as a test writes it (short or full names), compared
/// as the mediator compares names.
///
/// Kept as an `InterceptorScope`: it turns `Target_Accounts` and `Action_whoAmI:` into the
/// canonical `Accounts` and `whoAmI` exactly as the mediator does, so a stub or a filter written
/// with either spelling matches the calls, whose names are already canonical.
struct CallName: Hashable, Sendable {
    let scope: InterceptorScope

    /// `target` (every action) when `action` is `nil`, else `target`/`action`.
    init(target: String, action: String?) {
        scope = action.map { .action($0, of: target) } ?? .target(target)
    }

    /// `Notes` (a whole target) or `Notes/create` (one action).
    init(parsing text: String) {
        if let slash = text.firstIndex(of: "/") {
            self.init(target: String(text[..<slash]), action: String(text[text.index(after: slash)...]))
        } else {
            self.init(target: text, action: nil)
        }
    }

    /// Whether a call to `target`/`action` (canonical names, as calls carry them) is named.
    func matches(target: String, action: String) -> Bool {
        scope == .target(target) || scope == .action(action, of: target)
    }
}
