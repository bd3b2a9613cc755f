import Mediator

// `verify`: the mediator's start-up check, from the command line.

extension CommandLineTool {
    /// `verify [--json]`: runs `mediator.verify()`. Nothing printed and 0 when it finds nothing;
    /// otherwise one line per problem on standard error and 1.
    func verify(_ arguments: [String], session: inout Session) -> Int32 {
        if let other = arguments.first {
            return session.fail(.usage("verify takes no arguments; got \(quoted(other))"))
        }
        return session.reportVerification(mediator.verify())
    }
}

extension Session {
    /// What `verify` found. Without `--json`: nothing when all is well, else one
    /// `NAME: error: <problem>` line per problem on standard error. With `--json`, one object on
    /// standard output: `{"ok":true,"result":{"problems":[]}}`, or `{"ok":false,"error":{"code":
    /// "contractProblems","message":...,"problems":[...]}}` (each problem's code, target, action,
    /// message and description), and the lines on standard error too.
    mutating func reportVerification(_ problems: [MediatorError]) -> Int32 {
        let list = JSONValue.array(
            problems.map { problem in
                var object: [String: JSONValue] = [
                    "code": .string(problem.code.rawValue), "message": .string(problem.reason), "description": .string(problem.description),
                ]
                if let target = problem.target { object["target"] = .string(target) }
                if let action = problem.action { object["action"] = .string(action) }
                return .object(object)
            })
        if problems.isEmpty { return json ? succeed(.object(["problems": list])) : 0 }
        if json {
            let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
            let error = JSONValue.object([
                "code": .string("contractProblems"), "message": .string("verify found \(count)"), "problems": list,
            ])
            let status = emit("{\"ok\":false,\"error\":\(error.serialized)}", what: "the problems")
            if status != 0 { return status }
        }
        for problem in problems { writeError(oneLine(problem.description)) }
        return 1
    }
}
