import ExampleAccounts
import ExampleAccountsMediator
import ExampleNotes
import ExampleNotesMediator
import Mediator
import MediatorCommandLine

// mediate: invokes any action registered in this program's mediator from a shell.
// The example modules (Accounts, Notes) and the diagnostic target Echo are registered at start-up;
// the example modules keep their state in a data directory between runs.
let version = "0.1.0"

// A standard stream that was closed (`mediate ... >&-`) must not leave its number free: the data
// directory and its files would take descriptors 0 to 2, and a write meant for standard error
// could land in the new state file. Each closed one gets /dev/null, opened so that using it fails
// as a closed stream does (EBADF): standard input write-only, the outputs read-only. So a closed
// output still ends the run with 74, and a closed input is still a read error for batch.
for stream in Int32(0)...2 where fcntl(stream, F_GETFD) == -1 && errno == EBADF {
    _ = open("/dev/null", (stream == 0 ? O_WRONLY : O_RDONLY) | O_CLOEXEC)
}

// Ctrl-C cancels a request under way instead of killing the process in it, and exits 130
// anywhere else (see Interrupts). Taken over right after the standard streams are settled (its
// pipe must not take descriptors 0 to 2), before anything else happens.
Interrupts.shared.start()

var arguments = Array(CommandLine.arguments.dropFirst())

// MARK: Options of mediate itself

enum DataLocation {
    case directory(String)
    case inMemory
    case missing(String)
}

func defaultDataDirectory() -> DataLocation {
    if let xdg = getenv("XDG_DATA_HOME").map({ String(cString: $0) }), xdg.hasPrefix("/") { return .directory(xdg + "/mediate") }
    if let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty { return .directory(home + "/.local/share/mediate") }
    return .missing("no data directory: HOME is not set; pass --data-dir DIR or --in-memory")
}

var location: DataLocation?
var optionError: String?
var index = 0
while index < arguments.count {
    let argument = arguments[index]
    if argument == "--in-memory" {
        location = .inMemory
        arguments.remove(at: index)
    } else if argument == "--data-dir" {
        arguments.remove(at: index)
        // An option is not a directory: `--data-dir --json` must not create a folder "--json".
        if index < arguments.count, !arguments[index].isEmpty, !arguments[index].hasPrefix("--") {
            location = .directory(arguments.remove(at: index))
        } else {
            optionError = "--data-dir needs a directory"
        }
    } else if argument.hasPrefix("--data-dir=") {
        let directory = String(argument.dropFirst("--data-dir=".count))
        if directory.isEmpty { optionError = "--data-dir needs a directory" } else { location = .directory(directory) }
        arguments.remove(at: index)
    } else {
        index += 1
    }
}

// MARK: The mediator

let mediator = Mediator()
let accounts = AccountsService()
let notes = NotesService(authorize: Target_Notes.accountsAuthorizer(mediator), authorizeAsync: Target_Notes.asyncAccountsAuthorizer(mediator))
do {
    try Target_Accounts.register(in: mediator, service: accounts)
    try Target_Notes.register(in: mediator, service: notes)
    try Echo.register(in: mediator)
} catch {
    try? StandardStreams.write("mediate: error: registration failed: \(error)", to: .error)
    exit(70)
}
// What each module needs from the others, for `mediate verify` (as an app checks at start-up).
mediator.require(AccountsRequirements.all, by: "ExampleAccountsMediator")
mediator.require(NotesRequirements.all, by: "ExampleNotesMediator")
mediator.require(Target_Accounts.requirements, by: "Accounts")
mediator.require(Target_Notes.requirements, by: "Notes")

/// Loads the example modules' state before each request and saves it after, under the file lock.
func persisting(in location: DataLocation) -> CommandLineTool.RequestWrapper? {
    switch location {
    case .inMemory:
        return { request in await Interrupts.shared.cancellable(request) }
    case .missing(let reason):
        return { _ in throw DataStoreError(description: reason) }
    case .directory(let directory):
        let store = DataStore(directory: directory)
        return { request in
            try await store.transaction { text in
                var before = ExampleState()
                if let text {
                    do {
                        before = try ExampleState(text: text)
                    } catch {
                        throw DataStoreError.corrupt(store.statePath, "\(error)")
                    }
                }
                accounts.restore(before.accounts)
                notes.restore(before.notes)
                await Interrupts.shared.cancellable(request)
                // Interrupted: the request is reported as cancelled, so none of its effects are kept
                // (the file is left as it was, never written with a partial result).
                if Task.isCancelled { return nil }
                let after = ExampleState(accounts: accounts.snapshot, notes: notes.snapshot).json.serialized
                // What would be stored, byte for byte: a change of normalisation alone is a change.
                return after.hasUTF8(of: before.json.serialized) ? nil : after + "\n"
            }
        }
    }
}

let tool = CommandLineTool(
    mediator: mediator,
    name: "mediate",
    version: version,
    about: """
        mediate calls the actions of the modules registered in its mediator: the example modules
        Accounts and Notes, and the diagnostic target Echo (echo, checkedEcho, delayedEcho, fail,
        nativeEcho). Ctrl-C during a request cancels it (exit 130; the data file is left as it
        was); once a request's change is saved, it stands, even if Ctrl-C comes before its result
        is printed.
        """,
    extraOptions: [
        "--data-dir DIR   where the example modules keep their state (default: $XDG_DATA_HOME/mediate,",
        "                 else ~/.local/share/mediate); the file is DIR/state.json. DIR must be",
        "                 yours and not writable by group or others; state.json is at most 64 MiB",
        "--in-memory      keep no state between runs",
        "Routes: the example modules' route table is Targets/routes.json in the package's source,",
        "                 e.g. mediate --routes Targets/routes.json open app://notes/1",
        "Environment: MEDIATE_TRACE=1 prints \"mediate: trace: request started\" on standard error as",
        "                 each request starts (from then on, Ctrl-C cancels it)",
    ],
    aroundRequest: persisting(in: location ?? defaultDataDirectory())
)

if let optionError {
    exit(tool.reportUsageError(optionError, json: arguments.contains("--json")))
}
// The tool runs in a task of its own, which a Ctrl-C during a request cancels.
let commandLine = arguments
let run = Interrupts.shared.start { Task { await tool.run(commandLine) } }
exit(await run.value)
