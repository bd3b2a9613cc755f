import Mediator

/// Why one request of the command-line tool failed, with its stable code and exit status.
enum CommandError: Error {
    /// The command line (or batch line) itself is wrong.
    case usage(String)
    /// The mediator refused or failed the call.
    case call(MediatorError)
    /// The program's environment failed: a standard stream, or what `aroundRequest` needs (for
    /// `mediate`: the data directory or its file).
    case environment(String)
    /// The calling task was cancelled (Ctrl-C in `mediate`) while the request ran, and the
    /// request did not itself fail with the mediator's `cancelled` code: whatever it returned is
    /// not reported.
    case interrupted

    /// The `code` of the `--json` error object.
    var code: String {
        switch self {
        case .usage: "usage"
        case .environment: "environment"
        case .interrupted: MediatorError.Code.cancelled.rawValue
        // The mediator's own code, whatever it is (an app may add codes of its own); the exit
        // status groups the codes it does not name with actionFailed (70).
        case .call(let error): error.code.rawValue
        }
    }

    /// The process exit status (BSD sysexits values).
    var exitStatus: Int32 {
        switch code {
        case "usage": 64
        // A redirect or route table that cannot be used (`--redirects FILE`, `--routes FILE`) is
        // bad input as well.
        case "invalidURL", "invalidParameter", "invalidRedirect", "redirectCycle", "tooManyRedirects", "invalidRoute", "duplicateRoute": 65
        // With routes registered, a URL that matches none and names no Target/action.
        case "targetNotFound", "actionNotFound", "routeNotFound": 69
        case "forbidden": 77
        case "environment": 74
        // 128 + SIGINT: what a shell reports for a command stopped by Ctrl-C.
        case "cancelled": 130
        default: 70
        }
    }

    /// One line for standard error.
    var message: String {
        let text: String
        switch self {
        case .usage(let message), .environment(let message): text = message
        case .interrupted: text = "interrupted: the request was cancelled"
        case .call(let error): text = error.description
        }
        // One line, whatever the text held.
        return oneLine(text)
    }

    /// The `--json` error object.
    var json: JSONValue {
        var object: [String: JSONValue] = ["code": .string(code), "message": .string(message)]
        if case .call(let error) = self {
            if let target = error.target { object["target"] = .string(target) }
            if let action = error.action { object["action"] = .string(action) }
            if let parameter = error.parameter { object["parameter"] = .string(parameter) }
            if let suggestion = error.suggestion { object["suggestion"] = .string(suggestion) }
            if !error.availableNames.isEmpty { object["available"] = .array(error.availableNames.map(JSONValue.string)) }
            if error.omittedNameCount > 0 { object["omitted"] = .int(error.omittedNameCount) }
        }
        return .object(object)
    }
}
