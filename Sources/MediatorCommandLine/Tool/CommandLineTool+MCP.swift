// `mcp`: the mediator's actions served to AI agents over the Model Context Protocol's stdio transport.

import Mediator

extension CommandLineTool {
    /// `mcp`: serves ``MCPServer`` on standard input and output until the input ends (exit 0),
    /// the output is gone or the input unreadable (74), or the run is interrupted (130). With
    /// `--log`, each call's log line goes to standard error after the response it belongs to.
    func serveAgents(_ arguments: [String], session: inout Session, input: BatchInput) async -> Int32 {
        if let argument = arguments.first { return session.fail(CommandError.usage("unknown argument \(quoted(argument)) for mcp")) }
        // Each call runs inside the tool's request wrapper, as a `perform` does (`mediate` loads and
        // saves its data there).
        let server = MCPServer(
            mediator: mediator, name: name, version: version, instructions: nil, pageSize: MCPServer.defaultPageSize, aroundCall: aroundRequest)
        let session = session
        return await server.serve(input: input, write: session.write, afterEachMessage: { session.flushLog() })
    }
}
