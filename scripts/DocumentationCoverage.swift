// Reads the `documentation-coverage.json` that `docc convert --experimental-documentation-coverage`
// writes and fails (exit 1) when a public symbol has no summary, a function or initializer has a
// parameter without a description, or a symbol is curated in no topic group. Run by scripts/docs:
//
//   swift scripts/DocumentationCoverage.swift Mediator=PATH/documentation-coverage.json ...
//
// Foundation is fine here: this is a build script, not the library.
import Foundation

/// One symbol's entry as docc writes it (only the fields checked).
struct Entry {
    let path: String
    let kind: String
    let hasAbstract: Bool
    let isCurated: Bool
    /// Documented and total parameters, for functions and initializers.
    let parameters: (documented: Int, total: Int)?

    init?(_ object: [String: Any]) {
        guard let reference = object["referencePath"] as? String,
              let kind = object["kind"] as? [String: Any],
              // Not symbols: articles and the "Equatable Implementations" groups docc makes.
              kind["isSymbol"] as? Bool == true
        else { return nil }
        // "doc://Mediator/documentation/Mediator/Params/value(_:as:)" -> "Mediator/Params/value(_:as:)"
        path = reference.components(separatedBy: "/documentation/").last ?? reference
        self.kind = kind["name"] as? String ?? "symbol"
        hasAbstract = object["hasAbstract"] as? Bool ?? false
        isCurated = object["isCurated"] as? Bool ?? false
        // Functions and initializers: {"discriminant": ..., "associatedValue": {"documented": n, "total": m}}.
        if let specific = object["kindSpecificData"] as? [String: Any],
           let counts = specific["associatedValue"] as? [String: Any],
           let documented = counts["documented"] as? Int, let total = counts["total"] as? Int {
            parameters = (documented, total)
        } else {
            parameters = nil
        }
    }

    var problems: [String] {
        var problems: [String] = []
        if !hasAbstract { problems.append("no summary (add a /// comment)") }
        if let parameters, parameters.documented < parameters.total {
            problems.append("\(parameters.documented) of \(parameters.total) parameters documented (add - Parameters:)")
        }
        if !isCurated { problems.append("in no topic group (curate it in the catalog)") }
        return problems
    }
}

func percent(_ part: Int, _ whole: Int) -> String {
    whole == 0 ? "100%" : String(format: "%.1f%%", Double(part) * 100 / Double(whole))
}

var failed = false
let reports = CommandLine.arguments.dropFirst()
if reports.isEmpty {
    print("usage: swift scripts/DocumentationCoverage.swift MODULE=documentation-coverage.json ...")
    exit(64)
}
for report in reports {
    let parts = report.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2,
          let data = FileManager.default.contents(atPath: parts[1]),
          let objects = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
    else {
        print("docs: cannot read the coverage report \(report)")
        exit(1)
    }
    let module = parts[0]
    let entries = objects.compactMap(Entry.init).sorted { $0.path < $1.path }
    let withAbstract = entries.filter(\.hasAbstract).count
    let curated = entries.filter(\.isCurated).count
    let documentedParameters = entries.compactMap(\.parameters).map(\.documented).reduce(0, +)
    let parameters = entries.compactMap(\.parameters).map(\.total).reduce(0, +)
    print(
        "docs: \(module): \(entries.count) symbols; summaries \(withAbstract)/\(entries.count) (\(percent(withAbstract, entries.count))), "
            + "parameters \(documentedParameters)/\(parameters) (\(percent(documentedParameters, parameters))), "
            + "curated \(curated)/\(entries.count) (\(percent(curated, entries.count)))"
    )
    for entry in entries where !entry.problems.isEmpty {
        failed = true
        print("docs: \(module): \(entry.path) (\(entry.kind)): \(entry.problems.joined(separator: "; "))")
    }
}
if failed {
    print("docs: documentation coverage is below 100%")
    exit(1)
}
