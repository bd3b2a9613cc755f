import Mediator

/// The options every command takes, anywhere on the line, besides `--json` (which ``Session``
/// reads): `--log` and `--redirects FILE`.
struct GlobalOptions {
    /// `--log`: one line per call on standard error.
    var log = false
    /// `--redirects FILE` (or `--redirects=FILE`): the redirect table's file.
    var redirectsPath: String?

    /// The options in `arguments`, which are removed from it.
    ///
    /// - Throws: ``CommandError/usage(_:)`` for `--redirects` without a file, or given twice.
    init(extractingFrom arguments: inout [String]) throws(CommandError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--log" {
                log = true
                arguments.remove(at: index)
            } else if argument == "--redirects" || argument.hasPrefix("--redirects=") {
                arguments.remove(at: index)
                var path: String?
                if argument == "--redirects" {
                    // An option is not a file: `--redirects --json` must not read a file "--json".
                    if index < arguments.count, !arguments[index].hasPrefix("--") { path = arguments.remove(at: index) }
                } else {
                    path = String(argument.dropFirst("--redirects=".count))
                }
                guard let path, !path.isEmpty else { throw .usage("--redirects needs a file: --redirects FILE") }
                guard redirectsPath == nil else { throw .usage("--redirects is given more than once") }
                redirectsPath = path
            } else {
                index += 1
            }
        }
    }
}

extension CommandLineTool {
    /// What ``GlobalOptions`` changed on the mediator for one run, undone by ``undo()``.
    struct AppliedOptions {
        let mediator: Mediator
        var observer: InterceptionID?
        var previousRedirects: RedirectTable?

        /// Removes the log's observer and puts back the redirect table the mediator had.
        func undo() {
            if let observer { mediator.removeInterception(observer) }
            if let previousRedirects { mediator.setRedirects(previousRedirects) }
        }
    }

    /// Reads the redirect table (before anything runs) and sets it, and adds the log's observer.
    func apply(_ options: GlobalOptions, to session: inout Session) throws(CommandError) -> AppliedOptions {
        var applied = AppliedOptions(mediator: mediator)
        if let path = options.redirectsPath {
            let table = try RedirectsFile.load(path)
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
