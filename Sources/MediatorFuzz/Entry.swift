/// The fuzz entries: each has its own input format and its own kept corpus. `core` (the URL
/// parser, the command-line layer, params coercion; the files directly in `Tests/FuzzCorpus`) and
/// `routes` (deep-link routes, ``RouteFuzz``; `Tests/FuzzCorpus/routes`). Separate entries rather
/// than more selector values, so that the kept inputs of one keep their meaning when another is
/// added, and each is fuzzed for time of its own.
enum FuzzEntry: String, CaseIterable {
    /// ``FuzzTargets``: the first byte picks the URL parser, the command line or coercion.
    case core
    /// ``RouteFuzz``: deep-link routes.
    case routes

    /// Runs one input through this entry's checks.
    func run(_ bytes: [UInt8]) {
        switch self {
        case .core: FuzzTargets.run(bytes)
        case .routes: RouteFuzz.run(bytes)
        }
    }

    /// Every entry's name, for messages.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

#if MEDIATOR_LIBFUZZER
/// The entry libFuzzer runs, named by the environment variable `MEDIATOR_FUZZ_TARGET` (default
/// `core`); `scripts/fuzz --target NAME` sets it.
let fuzzedEntry: FuzzEntry = {
    guard let name = getenv("MEDIATOR_FUZZ_TARGET").map({ String(cString: $0) }), !name.isEmpty else { return .core }
    guard let entry = FuzzEntry(rawValue: name) else { fatalError("MEDIATOR_FUZZ_TARGET=\(name): no such fuzz entry (entries: \(FuzzEntry.names))") }
    return entry
}()

/// libFuzzer's entry point: built only by `scripts/fuzz` (`-sanitize=fuzzer`), where libFuzzer
/// supplies `main`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    fuzzedEntry.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#else
/// Without libFuzzer: replays inputs (files, or every file in directories) through the same
/// checks, so the kept corpus is a regression test in an ordinary build. Files directly in a
/// directory go through `core` (or the entry `--target` names); a subdirectory must be named after
/// an entry, and its files go through that entry (`Tests/FuzzCorpus/routes`). A directory given
/// by a path ending in an entry's name is that entry's corpus.
@main
enum Replay {
    /// Replays the inputs the arguments name and prints how many each entry checked.
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var chosen: FuzzEntry?
        if arguments.first == "--target" {
            guard arguments.count > 1, let entry = FuzzEntry(rawValue: arguments[1]) else {
                print("mediator-fuzz: --target needs one of: \(FuzzEntry.names)")
                exit(64)
            }
            chosen = entry
            arguments.removeFirst(2)
        }
        guard !arguments.isEmpty else {
            print("usage: mediator-fuzz [--target ENTRY] FILE_OR_DIRECTORY...  (replays fuzz inputs; scripts/fuzz runs libFuzzer; entries: \(FuzzEntry.names))")
            exit(64)
        }
        var counts: [FuzzEntry: Int] = [:]
        for path in arguments {
            let named = FuzzEntry(rawValue: String(path.split(separator: "/").last ?? ""))
            for (file, entry) in files(at: path, entry: chosen ?? (isDirectory(path) ? named : nil) ?? .core) {
                guard let bytes = read(file) else {
                    print("mediator-fuzz: cannot read \(file)")
                    exit(66)
                }
                entry.run(bytes)
                counts[entry, default: 0] += 1
            }
        }
        let total = counts.values.reduce(0, +)
        let perEntry = FuzzEntry.allCases.compactMap { entry in counts[entry].map { "\(entry.rawValue) \($0)" } }.joined(separator: ", ")
        print("mediator-fuzz: \(total) inputs replayed (\(perEntry)), all checks held")
    }

    /// `path` itself, or the regular files directly inside it when it is a directory, each with the
    /// entry that replays it; the files of a subdirectory named after an entry go through that entry.
    static func files(at path: String, entry: FuzzEntry) -> [(String, FuzzEntry)] {
        guard let directory = opendir(path) else { return [(path, entry)] }
        defer { closedir(directory) }
        var names: [String] = []
        while let item = readdir(directory) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        var found: [(String, FuzzEntry)] = []
        for name in names.sorted() {
            let child = path + "/" + name
            guard isDirectory(child) else {
                found.append((child, entry))
                continue
            }
            guard let inner = FuzzEntry(rawValue: name) else {
                print("mediator-fuzz: \(child): a subdirectory must be named after a fuzz entry (\(FuzzEntry.names))")
                exit(64)
            }
            found += files(at: child, entry: inner)
        }
        return found
    }

    /// Whether `path` is a directory (one that can be opened).
    static func isDirectory(_ path: String) -> Bool {
        guard let directory = opendir(path) else { return false }
        closedir(directory)
        return true
    }

    /// The bytes of the file at `path`, or `nil` when it cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return ferror(file) == 0 ? bytes : nil
    }
}
#endif
