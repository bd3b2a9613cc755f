import Mediator

/// `--redirects FILE`: the redirect table a run's calls follow, read from a JSON file.
///
/// The file is read as every file an option names is (``OptionFile``): a symbolic link is
/// followed, but what it names must be a regular file of at most 8 MiB of UTF-8 text. Every
/// problem is one line and exit 65 (code `invalidRedirect`, or `redirectCycle` /
/// `tooManyRedirects` for a table that leads round or too far).
enum RedirectsFile {
    /// The table in the file at `path`.
    static func load(_ path: String) throws(CommandError) -> RedirectTable {
        let text = try OptionFile.read(path, option: "--redirects", code: .invalidRedirect)
        do {
            return try RedirectTable(json: text)
        } catch {
            throw .call(MediatorError(error.code, reason: "--redirects \(quoted(path)): \(error.description)"))
        }
    }
}
