#if MEDIATOR_LIBFUZZER
/// libFuzzer's entry point: built only by `scripts/fuzz` (`-sanitize=fuzzer`), where libFuzzer
/// supplies `main`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    FuzzTargets.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#else
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// Without libFuzzer: replays inputs (files, or every file in directories) through the same
/// checks, so the kept corpus is a regression test in an ordinary build.
@main
enum Replay {
    static func main() {
        let paths = CommandLine.arguments.dropFirst()
        guard !paths.isEmpty else {
            print("usage: mediator-fuzz FILE_OR_DIRECTORY...  (replays fuzz inputs; scripts/fuzz runs libFuzzer)")
            exit(64)
        }
        var count = 0
        for path in paths {
            for file in files(at: path) {
                guard let bytes = read(file) else {
                    print("mediator-fuzz: cannot read \(file)")
                    exit(66)
                }
                FuzzTargets.run(bytes)
                count += 1
            }
        }
        print("mediator-fuzz: \(count) inputs replayed, all checks held")
    }

    /// `path` itself, or the regular files directly inside it when it is a directory.
    static func files(at path: String) -> [String] {
        guard let directory = opendir(path) else { return [path] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(path + "/" + name) }
        }
        return names.sorted()
    }

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
