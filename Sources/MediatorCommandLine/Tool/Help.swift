/// The `--help` texts. Complete by design: scripts and people learn the interface here.
struct Help {
    let name: String
    let about: String
    let extraOptions: [String]

    var main: String {
        var text = """
            \(about)

            USAGE:
              \(name) perform <Target> <action> [key=value | key:=json ...] [--params-json JSON] [--cache] [--json]
              \(name) open <url> [--json]
              \(name) list [<Target>] [--json]
              \(name) routes [--json]          the deep-link routes, in the order URLs are matched
              \(name) describe [<Target> [<action>]] [--json | --swift]
              \(name) perform <Target> <action> --help     that action's description
              \(name) verify [--json]         checks the registry: what modules require, what actions declare
              \(name) batch [--json] [--stats]   requests from standard input, one per line
              \(name) mcp                    serves the actions to AI agents (Model Context Protocol, stdio)
              \(name) help [<command>] | <command> --help | --version

            PARAMETERS:
              key=value      passes the text "value", exactly as a URL query would
              key:=json      passes a typed JSON value: count:=3  ok:=true  tags:='["a","b"]'  x:=null
              A key given more than once collects its values into an array, as a repeated URL key does.
              In a key, a backslash makes the next character literal: a\\=b=1 is key "a=b", value "1".

            OUTPUT:
              A result prints as JSON (keys sorted) on standard output. A failure prints nothing there
              and one line "\(name): error: ..." on standard error.
              --json prints one object per request on standard output instead:
                {"ok":true,"result":...}
                {"ok":false,"error":{"code":"...","message":"...","target":"...","action":"..."}}
              codes: usage, invalidURL, invalidParameter, targetNotFound, actionNotFound, forbidden,
              actionFailed, environment, cancelled, contractProblems (verify), invalidRedirect,
              redirectCycle, tooManyRedirects (--redirects), invalidRoute, duplicateRoute
              (--routes), routeNotFound (open, with routes)
              describe --json prints the registry description itself (JSON Schema for params), not
              an {"ok":...} object; its failures are {"ok":false,...} objects as above.

            EXIT STATUS:
              0 success   64 usage error   65 invalid URL or parameter, or a --redirects file that cannot be used
                 (or a --routes file that cannot be used)
              69 target or action not found (or, with routes, a URL no route matches)
              70 the action failed   77 forbidden
              130 interrupted (a request under way was cancelled)
              74 environment failure: the data directory, standard input (batch), or standard output
                 cannot be used (a full disk; a closed pipe when SIGPIPE is ignored; at its default,
                 SIGPIPE ends the process, as for any filter)
              batch: 0 when every line succeeded, 1 otherwise, 74 when input or output fails (the
              batch stops there), 130 when interrupted (the lines answered before stand)
              verify: 0 when it finds no problem (and prints nothing), 1 when it finds any
            """
        text += "\n\n" + options
        if !extraOptions.isEmpty {
            text += "\n" + extraOptions.map { "  " + $0 }.joined(separator: "\n")
        }
        return text
    }

    /// The options ``CommandLineTool`` itself reads, wherever they are on the line.
    private var options: String {
        """
        OPTIONS (any command):
          --json             the {"ok":...} objects above
          --log              one line per call on standard error, nested calls included (an
                             action's calls to other actions, each a line, before the line of the
                             call that made it), written when each request ends, e.g.:
            \(name): log: 2025-03-01T09:30:12.047Z command-line depth=1 Notes/create ok 1.3ms
                             fields: start (UTC), origin (command-line, in-process, url=URL),
                             depth, Target/action (each redirect first, "Old/x -> New/x"),
                             ok or failed, duration, and for a failure its code and message;
                             in batch, "line N: " comes before the start time
          --redirects FILE   calls follow the redirect table in FILE, a JSON object:
                             {"redirects": {"Old/action": "New/action", "OldTarget": "NewTarget"},
                              "degradations": {"Target": "Fallback/action"}} (both optional)
                             FILE must be a regular file (a link is followed) of at most 8 MiB.
                             One that cannot be read, or is not such a table (not JSON, an
                             invalid name, a cycle, a chain of more than 8 redirects), stops the
                             command before anything runs: one line naming the problem, exit 65
          --routes FILE      adds the deep-link routes in FILE (Mediator.addRoutes(json:)), a JSON
                             array: [{"pattern": "/notes/:id<int>", "target": "Notes", "action":
                             "get"}, {"pattern": "/me", "target": "Accounts", "action": "whoAmI",
                             "scheme": "app", "priority": 1}] ("scheme", "host", "priority"
                             optional)
                             for the run; open and batch URL lines follow them. The same file
                             rules as --redirects. A file that cannot be read, or is not such a
                             table (not JSON, a missing, unknown or mistyped member, a bad
                             pattern, a route matching exactly the URLs of another), stops the
                             command before anything runs: one line naming the entry ("route 3:
                             \"action\" is missing"), exit 65 (code invalidRoute, duplicateRoute)
        """
    }

    func command(_ command: String) -> String? {
        switch command {
        case "perform":
            """
            USAGE: \(name) perform <Target> <action> [key=value | key:=json ...] [--params-json JSON] [--cache] [--json]

            Calls an action locally: actions named native... and local-only actions are allowed.
            Target and action take the short (Notes, create) or full (Target_Notes, Action_create) name.
              key=value            a text parameter (what a URL query passes)
              key:=json            a typed JSON parameter (count:=3, tags:='["a","b"]', ok:=true, x:=null)
              --params-json JSON   a JSON object of parameters (also --params-json=JSON)
              --cache              keep the target instance for later calls in this process
              --json               print {"ok":...} objects (see \(name) --help)
              --help, -h           after <Target> <action>: that action's description (what
                                   \(name) describe <Target> <action> prints); runs nothing
            An action that declares its params refuses a missing or invalid one, and by default one
            it did not declare (invalidParameter, exit 65), before it runs.
            Example: \(name) perform Echo echo title='hello world' count:=3
            """
        case "open":
            """
            USAGE: \(name) open <url> [--json]

            Calls the action a URL names, as a remote caller would: scheme://Target/action?key=value&...
            Query values are percent-decoded text; a repeated key gives an array. Actions named
            native... and local-only actions are refused (forbidden, exit 77).
            Routes (the program's, and those of --routes FILE; see \(name) routes) are tried first:
            a URL whose path matches one calls its action with the path's params (text) over the
            query's, and the keys @route, @url, @scheme (and @rest for a trailing *). With routes,
            a URL that matches none and is not scheme://Target/action is routeNotFound (exit 69).
            Example: \(name) open 'app://Echo/echo?title=hello%20world&tag=a&tag=b'
            """
        case "list":
            """
            USAGE: \(name) list [<Target>] [--json]

            Lists every target (or one) with its actions: short and full names, whether URL calls
            may reach each action (remote) or not (local-only), their descriptions, and the params
            each declares in parentheses, "?" marking optional ones: (token, limit?). An action
            that does not declare its params shows none. --json gives each action's "params" (name,
            type, required, default, summary) or null; describe --json gives their JSON Schema.
            """
        case "routes":
            """
            USAGE: \(name) routes [--json]

            Lists the deep-link routes (the program's, and those of --routes FILE) in the order a URL
            is matched against them: the routes with a host (hosts sorted), each scheme's own routes
            (schemes sorted), then the routes for every scheme (unless the program isolates the
            scheme); within those, the higher priority first, then literal segments before typed
            placeholders (<int> before <float>, which both take an integer) before untyped ones
            before "*", segment by segment, then the order they were added. One route per line:
              [scheme] pattern -> Target/action (priority n)
            ([scheme://host] or [//host] for a route with a host), the scheme, host and priority
            only when set (a pattern over 200 characters is cut). No routes: the line
            "(no routes registered)".
              --json    {"ok":true,"result":{"routes":[{"action":"get","host":null,"pattern":
                        "/notes/:id<int>","priority":0,"scheme":null,"target":"Notes"}, ...]}}
                        (in the same order; "routes":[] for none)
            Example: \(name) --routes routes.json routes
            """
        case "describe":
            """
            USAGE: \(name) describe [<Target> [<action>]] [--json | --swift]

            Describes every action (or a target's, or one), from what it declares:
              usage: \(name) perform Notes list token=<string> [limit=<integer>]
              params: each on its line: type, required or optional, default, description
                      ("not declared" when the action does not declare them)
              then the result type, remote or local-only, async or not, a typed key's types,
              example URL: app://Notes/list?token=text&limit=20
              example: \(name) perform Notes list token=text limit=20
            Examples send the required params and those with defaults: the default, else a
            placeholder of the type ("text", the smallest allowed integer or 1, true). In-process
            values, and defaults holding control characters, are left out.
              --json    the registry description: {"format":"mediator-registry","version":1,
                        "targets":[...]}, params and results as JSON Schema (draft 2020-12);
                        printed as it is, not in an {"ok":...} object
              --swift   the source of a typed Swift module wrapping a target's actions (a target
                        is required, an action is not allowed)
            \(name) perform <Target> <action> --help prints the same text as describe <Target> <action>.
            """
        case "verify":
            """
            USAGE: \(name) verify [--json]

            Checks the registry as a program does at start-up (Mediator.verify()): every action a
            module requires is registered with matching declared types, no action declares
            contradictory params, and names follow the rules. Runs nothing.
            No problem: prints nothing and exits 0. Problems: one line per problem on standard
            error ("\(name): error: Notes/create: ..."), exit 1.
              --json    one object on standard output: {"ok":true,"result":{"problems":[]}}, or
                        {"ok":false,"error":{"code":"contractProblems","message":"...","problems":
                        [{"code":...,"target":...,"action":...,"message":...,"description":...}]}}
            """
        case "batch":
            """
            USAGE: \(name) batch [--json] [--stats]

            Reads requests from standard input until its end, one per line, and answers each in order:
              a URL, alone on its line         like: \(name) open <url>
              Target action key=value ...      like: \(name) perform ... (--cache allowed)
            A line is a URL when its first word contains ://; it is taken literally, and anything
            after it is a usage error. Words split on spaces and tabs alike; 'single quotes' are
            literal; "double quotes" allow \\" and \\\\; outside quotes a backslash escapes the next
            character. Blank lines and lines starting with # are skipped.
            A line may hold up to \(BatchInput.standardInput().lineLimitDescription); a longer line, or one that is not UTF-8, fails
            (usage) and is skipped without being stored. Failures are reported as "line N: ..."
            and the batch goes on.
            Exit status: 0 when every line succeeded, 1 otherwise; 74 when standard input cannot be
            read or standard output cannot be written (the batch stops there).
              --stats   at the end (however the batch ends), one JSON object on standard error, its
                        last line: the calls the batch made, nested calls included, per action:
                        {"actions":{"Notes/create":{"calls":2,"failures":0,"latencyNanoseconds":
                        {"max":..,"mean":..,"min":..,"p50":..,"p90":..,"p99":..}},...},
                        "calls":..,"failures":..}
                        (percentiles within 1/16 above the exact value; "otherActions" counts the
                        calls past 1000 actions together)
            """
        case "mcp":
            """
            USAGE: \(name) mcp [--log] [--routes FILE] [--redirects FILE]

            Serves the actions to AI agents as Model Context Protocol tools, over standard input and
            output: JSON-RPC 2.0, one message per line (protocol versions \(MCPServer.protocolVersions.joined(separator: ", "))).
            An MCP client starts it: the command is this program, the arguments "mcp" and any options.
            Tools: one per action a URL could call (not local-only, not native..., allowed targets),
            named Target.action, with the action's summary and its declared params as the input
            schema. A call runs as a remote call from an agent: interceptors, redirects and
            observers see origin "agent"; a failure is a tool result with isError and the error's
            code, message, target and action.
            Standard output carries only protocol messages; diagnostics and --log lines go to
            standard error. A line longer than 4 MiB or not UTF-8 gets a parse error and the server
            goes on; at most 64 messages are in progress at once (then it reads on as one is done).
            Each call runs as a request of its own (with --data-dir: the state loaded before it and
            saved after it, one call at a time). At the end of the input the calls under way
            finish, then exit 0; 74 when standard input cannot be read or standard output cannot be
            written; 130 at Ctrl-C (the calls under way are cancelled).
            Client configuration (Claude Desktop, Claude Code, ...): {"command": "\(name)", "args": ["mcp"]}
            """
        default: nil
        }
    }
}
