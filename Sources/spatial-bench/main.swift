import Foundation
import SpatialCore

// spatial-bench: the benchmark suite of `../shared/spec/performance.md`.
// Each group of figures lives in its own file (`Bench+<Group>.swift`) and is listed here.

let groups: [(name: String, run: (Bench) throws -> Void)] = [
    ("read", benchRead),
    ("indexes", benchIndexes),
    ("expressions", benchExpressions),
    ("clustering", benchClustering),
    ("queries", benchQueries),
]

let usage = """
    usage: spatial-bench [--data DIR] [--only PATTERN] [--runs N] [--json] [--full] [--plot FILE.svg]
                         [--reference-js DIR] [--reference-port BINARY [--rounds N]]
      --data DIR      real datasets (default: $SPATIAL_DATASETS, else Datasets/)
      --only PATTERN  run only the figures whose name contains PATTERN
      --runs N        timed runs per figure after one warm-up (default 5)
      --json          one JSON object on stdout instead of the table
      --full          also the 5M-point synthetic sets
      --plot FILE.svg only the scaling plot: cluster build time and peak memory against n
                      (uniform and clustered, 10k … 5M, log–log; several minutes)
      --reference-js DIR       after SpatialCore's figures, time kdbush and flatbush (ES-module
                               packages in DIR) on the index figures, with node, from the checkout
                               (Scripts/reference/kdbush-flatbush-bench.mjs)
      --reference-port BINARY  right after each cluster.build figure, time the C++ port of
                               supercluster (built from Scripts/reference/supercluster-port-bench.cpp)
                               on the same dataset, back to back with SpatialCore's build again
                               (each in a fresh process)
      --rounds N      with --reference-port: time SpatialCore's build again and then the port,
                      back to back, each in a fresh process, N times per dataset (default 1);
                      the ratio noted is the median of the rounds' ratios
    """

runMemoryProbeIfAsked()
runTimeProbeIfAsked()
var arguments = Array(CommandLine.arguments.dropFirst())
var dataPath: String? = nil
var only: String? = nil
var runs = 5
var json = false
var full = false
var plotPath: String? = nil
var references = References()
var roundsGiven = false
while !arguments.isEmpty {
    let flag = arguments.removeFirst()
    func value() -> String {
        guard !arguments.isEmpty else {
            FileHandle.standardError.write(Data("spatial-bench: \(flag) needs a value\n\(usage)\n".utf8))
            exit(2)
        }
        return arguments.removeFirst()
    }
    switch flag {
    case "--data": dataPath = value()
    case "--only": only = value()
    case "--runs":
        guard let n = Int(value()), n > 0 else {
            FileHandle.standardError.write(Data("spatial-bench: --runs takes a positive whole number\n".utf8))
            exit(2)
        }
        runs = n
    case "--json": json = true
    case "--full": full = true
    case "--plot": plotPath = value()
    case "--reference-js": references.javaScriptLibraries = value()
    case "--reference-port": references.portBinary = value()
    case "--rounds":
        guard let n = Int(value()), n > 0 else {
            FileHandle.standardError.write(Data("spatial-bench: --rounds takes a positive whole number\n".utf8))
            exit(2)
        }
        references.rounds = n
        roundsGiven = true
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data("spatial-bench: unknown option \(flag)\n\(usage)\n".utf8))
        exit(2)
    }
}

if roundsGiven && references.portBinary == nil {
    FileHandle.standardError.write(Data("spatial-bench: --rounds times the C++ port beside each build: it needs --reference-port\n".utf8))
    exit(2)
}

let knownDatasets = ["dc-fire-hydrants", "tulsa-fire-hydrants", "earthquakes", "places", "cities500"]

/// The known datasets present in a folder.
func datasets(in directory: URL) -> [BenchDataset] {
    var found: [BenchDataset] = []
    for name in knownDatasets {
        for ext in ["geojson", "json"] {
            let url = directory.appendingPathComponent("\(name).\(ext)")
            if let data = FileManager.default.contents(atPath: url.path) {
                found.append(BenchDataset(name: name, url: url, bytes: [UInt8](data)))
                break
            }
        }
    }
    return found
}

/// The dataset folder: `--data`, else `$SPATIAL_DATASETS`, else `Datasets/`, else the shared folder
/// beside the checkout (`../shared/datasets`); the first of them that holds a known dataset.
var directory: URL? = nil
var datasets: [BenchDataset] = []
let candidates = dataPath.map { [$0] }
    ?? [ProcessInfo.processInfo.environment["SPATIAL_DATASETS"], "Datasets", "../shared/datasets"].compactMap { $0 }
for path in candidates where !path.isEmpty {
    let url = URL(fileURLWithPath: path)
    let found = datasets(in: url)
    if !found.isEmpty {
        directory = url
        datasets = found
        break
    }
}

let bench = Bench(runs: runs, only: only, full: full, json: json, datasets: datasets, dataDirectory: directory)
if references.portBinary != nil {
    bench.pairing = { [references] name, dataset, again in
        if name == "cluster.build" { references.pairPort(bench, dataset: dataset, again: again) }
    }
}
if datasets.isEmpty {
    bench.note("No real datasets found (--data, $SPATIAL_DATASETS, Datasets/): using seeded synthetic points only.")
} else {
    bench.note("Datasets from \(directory!.path): \(datasets.map(\.name).joined(separator: ", "))")
}
if let plotPath {
    if !json { print(tableRow("figure", "dataset", "n", "median", "min", "max", "unit", "peak RSS")) }
    do {
        try benchPlot(bench, to: plotPath)
    } catch {
        FileHandle.standardError.write(Data("spatial-bench: --plot \(plotPath): \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
if !json {
    print(tableRow("figure", "dataset", "n", "median", "min", "max", "unit", "peak RSS"))
}
for group in groups {
    do {
        try group.run(bench)
    } catch {
        FileHandle.standardError.write(Data("spatial-bench: group \(group.name) failed: \(error)\n".utf8))
        exit(1)
    }
}
if !references.isEmpty { references.run(bench) }
if json {
    struct Report: Codable {
        var machine: MachineInfo
        var results: [BenchResult]
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data = try encoder.encode(Report(machine: .current, results: bench.results))
    print(String(decoding: data, as: UTF8.self))
}
