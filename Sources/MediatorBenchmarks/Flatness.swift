import Mediator

// Dispatch must cost the same whatever the registry holds: performCached's call among 100,000
// other targets, and a plain target's action among 5 and among 500 actions.

/// performCached's registry with 100,000 more targets (no actions). A global, so it is built on
/// first use, by its case only.
let benchAmong100000: Mediator = {
    let mediator = Mediator()
    for index in 0..<100_000 { try? mediator.register(target: "Other" + String(index), actions: []) }
    try? mediator.register(Target_Bench.self) { _ in Target_Bench() }
    return mediator
}()

/// A mediator with one plain target, `Plain`, of `count` actions `a0`, `a1`, ...: each reads `v`
/// and `name` as performCached's action does.
func plainTarget(actions count: Int) throws -> Mediator {
    let service = BenchService()
    let mediator = Mediator()
    let actions = (0..<count).map { number in
        Action<Mediator>("a" + String(number)) { _, params in
            service.echo(v: try params.value("v", as: Int.self), name: try params.value("name", as: String.self))
        }
    }
    try mediator.register(target: "Plain", actions: actions)
    return mediator
}
