import Mediator
import TestSupport
import Testing

/// A target whose actions await.
final class Target_Feed: MediatorTarget {
    static let made = Counter()

    static let actions: [Action<Target_Feed>] = [
        Action("load") { feed, params async throws in
            await Task.yield()
            return "page \(try params.value("page", as: Int.self)) of \(feed.name)"
        },
        Action("syncTitle") { feed, _ in feed.name },
        Action("fail") { _, params async throws in
            await Task.yield()
            throw FixtureError(message: try params.value("message", as: String.self))
        },
    ]

    let name: String
    init(name: String = "feed") {
        self.name = name
        Self.made.increment()
    }
}

/// An async action's result decoded by a caller into its own type.
struct FeedPage: Decodable, Equatable {
    let page: Int
    let title: String
}

/// Runs `body` in a synchronous context, so that the synchronous overloads of `call`, `perform`
/// and `open` are chosen even inside an async test (where Swift prefers the async ones).
func synchronously<T>(_ body: () throws -> T) rethrows -> T {
    try body()
}
