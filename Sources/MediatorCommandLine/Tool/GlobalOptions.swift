import Mediator
import MediatorDiagnostics

/// The options every command takes, anywhere on the line, besides `--json` (which ``Session``
/// reads): `--log`, `--redirects FILE` and `--routes FILE`.
struct GlobalOptions {
    /// `--log`: one line per call on standard error.
    var log = false
    /// `--redirects FILE` (or `--redirects=FILE`): the redirect table's file.
    var redirectsPath: String?
    /// `--routes FILE` (or `--routes=FILE`): the route table's file.
    var routesPath: String?

    /// The options in `arguments`, which are removed from it.
    ///
    /// - Throws: ``CommandError/usage(_:)`` for `--redirects` or `--routes` without a file, or
    ///   given twice.
    init(extractingFrom arguments: inout [String]) throws(CommandError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--log" {
                log = true
                arguments.remove(at: index)
            } else if let path = try Self.file(of: "--redirects", at: index, in: &arguments) {
                guard redirectsPath == nil else { throw .usage("--redirects is given more than once") }
                redirectsPath = path
            } else if let path = try Self.file(of: "--routes", at: index, in: &arguments) {
                guard routesPath == nil else { throw .usage("--routes is given more than once") }
                routesPath = path
            } else {
                index += 1
            }
        }
    }

    /// When `arguments[index]` is `option FILE` or `option=FILE`: the file, with the option and
    /// the file removed from `arguments`; otherwise `nil`, with `arguments` left alone.
    ///
    /// - Throws: ``CommandError/usage(_:)`` when the file is missing or empty.
    private static func file(of option: String, at index: Int, in arguments: inout [String]) throws(CommandError) -> String? {
        let argument = arguments[index]
        guard argument == option || argument.hasPrefix(option + "=") else { return nil }
        arguments.remove(at: index)
        var path: String?
        if argument == option {
            // An option is not a file: `--routes --json` must not read a file "--json".
            if index < arguments.count, !arguments[index].hasPrefix("--") { path = arguments.remove(at: index) }
        } else {
            path = String(argument.dropFirst(option.count + 1))
        }
        guard let path, !path.isEmpty else { throw .usage("\(option) needs a file: \(option) FILE") }
        return path
    }
}

extension CommandLineTool {
    /// What ``GlobalOptions`` changed on the mediator for one run, undone by ``undo()``.
    struct AppliedOptions {
        let mediator: Mediator
        var observer: InterceptionID?
        var previousRedirects: RedirectTable?
        /// The routes `--routes` added (none of them replaced one the mediator had).
        var addedRoutes: [RouteKey] = []

        /// Removes the log's observer and the routes added, and puts back the redirect table the
        /// mediator had.
        func undo() {
            if let observer { mediator.removeInterception(observer) }
            if let previousRedirects { mediator.setRedirects(previousRedirects) }
            mediator.removeRoutes(addedRoutes)
        }
    }

    /// Reads the redirect and route tables (before anything runs) and sets them, and adds the
    /// log's observer. Both files are read and checked before either changes the mediator, so a
    /// bad one changes nothing.
    func apply(_ options: GlobalOptions, to session: inout Session) throws(CommandError) -> AppliedOptions {
        var applied = AppliedOptions(mediator: mediator)
        var table: RedirectTable?
        if let path = options.redirectsPath { table = try RedirectsFile.load(path) }
        // All or none, and the last step that can fail.
        if let path = options.routesPath { applied.addedRoutes = try RoutesFile.add(path, to: mediator) }
        if let table {
            applied.previousRedirects = mediator.redirects
            mediator.setRedirects(table)
        }
        if options.log {
            let log = CallLog()
            session.log = log
            applied.observer = mediator.addObserver(CallLogger { line in log.append(line) })
        }
        return applied
    }
}
