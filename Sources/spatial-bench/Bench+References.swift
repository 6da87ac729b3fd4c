import Foundation

/// The `references` group: the same figures timed on the established implementations, on this
/// machine in this run, so that every ratio in PERFORMANCE.md is a side-by-side one.
///
/// - `--reference-js DIR`: kdbush and flatbush (ES-module packages in `DIR`, for example a
///   `node_modules` folder) through `node Scripts/reference/kdbush-flatbush-bench.mjs`, run from
///   the checkout; figures `kdbush:<figure>` / `flatbush:<figure>`.
/// - `--reference-port BINARY`: the C++ port of supercluster built from
///   `Scripts/reference/supercluster-port-bench.cpp`; figures `supercluster-port:cluster.build`
///   for every dataset the `cluster.build` figures ran on.
///
/// Each reference figure is recorded under its own name beside SpatialCore's, with a note giving
/// the ratio. A reference that cannot run is noted and skipped; it never fails the bench.
struct References {
    var javaScriptLibraries: String?
    var portBinary: String?

    var isEmpty: Bool { javaScriptLibraries == nil && portBinary == nil }

    func run(_ bench: Bench) {
        if let javaScriptLibraries { runJavaScript(bench, libraries: javaScriptLibraries) }
        if let portBinary { runPort(bench, binary: portBinary) }
    }

    /// kdbush / flatbush on the index figures.
    private func runJavaScript(_ bench: Bench, libraries: String) {
        let script = "Scripts/reference/kdbush-flatbush-bench.mjs"
        guard FileManager.default.fileExists(atPath: script) else {
            return bench.note("references: \(script) not found (run spatial-bench from the checkout); kdbush/flatbush skipped")
        }
        guard let output = Self.run("/usr/bin/env", ["node", script, libraries, "--runs", String(bench.runs), "--json"]),
            let root = try? JSONSerialization.jsonObject(with: output) as? [String: Any],
            let results = root["results"] as? [[String: Any]]
        else {
            return bench.note("references: the kdbush/flatbush script failed (is node installed, and \(libraries) holding kdbush and flatbush?)")
        }
        for fidelity in root["fidelity"] as? [String] ?? [] { bench.note("references: \(fidelity)") }
        for r in results {
            guard let name = r["name"] as? String, let dataset = r["dataset"] as? String, bench.wants(name),
                let n = r["n"] as? Int, let median = r["median"] as? Double,
                let min = r["min"] as? Double, let max = r["max"] as? Double
            else { continue }
            let library = name.hasPrefix("kdtree") ? "kdbush" : "flatbush"
            record(bench, BenchResult(name: "\(library):\(name)", dataset: dataset, n: n, unit: "ms", median: median,
                                      min: min, max: max, runs: bench.runs, peak_rss_bytes: nil), against: name)
        }
    }

    /// The C++ port on every dataset `cluster.build` ran on (coordinates only, as SpatialCore's
    /// figures are built; the r75 case with the features' properties).
    private func runPort(_ bench: Bench, binary: String) {
        let builds = bench.results.filter { $0.name == "cluster.build" }
        guard !builds.isEmpty else { return bench.note("references: no cluster.build figure ran; the C++ port skipped") }
        for build in builds {
            var arguments: [String]
            let parts = build.dataset.split(separator: "/")
            let base = String(parts[0])
            if let file = bench.dataset(base) {
                arguments = ["file", file.url.path]
                if parts.count > 1 {
                    guard parts[1] == "r75-props" else { continue }
                    arguments += ["--radius", "75"]
                } else {
                    arguments.append("--no-props")
                }
            } else if let dash = base.firstIndex(of: "-"), ["uniform", "blobs"].contains(String(base[..<dash])) {
                arguments = [String(base[..<dash]), String(build.n)]
            } else {
                continue
            }
            let runs = build.n >= 1_000_000 ? Swift.min(bench.runs, 3) : bench.runs
            arguments += ["--runs", String(runs)]
            guard let output = Self.run(binary, arguments),
                let line = String(decoding: output, as: UTF8.self).split(separator: "\n").last(where: { $0.hasPrefix("{") }),
                let r = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let median = r["median_ms"] as? Double, let min = r["min_ms"] as? Double, let max = r["max_ms"] as? Double
            else {
                bench.note("references: the C++ port failed on \(build.dataset)")
                continue
            }
            let peak = r["peak_rss_bytes"] as? Int
            record(bench, BenchResult(name: "supercluster-port:cluster.build", dataset: build.dataset, n: build.n, unit: "ms",
                                      median: median, min: min, max: max, runs: runs, peak_rss_bytes: peak),
                   against: "cluster.build")
            if let peak, let before = r["rss_before_bytes"] as? Int {
                bench.note("memory \(build.dataset), C++ port: \(String(format: "%.1f", Double(peak - before) / 1_048_576)) MB added by its builds (peak RSS minus resident before, input excluded)")
            }
        }
    }

    /// Records a reference figure and notes its ratio to SpatialCore's figure of the same name
    /// and dataset, when that ran.
    private func record(_ bench: Bench, _ reference: BenchResult, against name: String) {
        bench.record(reference)
        if let ours = bench.results.first(where: { $0.name == name && $0.dataset == reference.dataset }), ours.median > 0 {
            bench.note("side by side: \(name)/\(reference.dataset): SpatialCore \(fmt(ours.median)) ms, "
                + "\(reference.name.split(separator: ":")[0]) \(fmt(reference.median)) ms: \(fmt(reference.median / ours.median))x")
        }
    }

    /// Runs a program and returns its standard output, or nil when it cannot start or fails.
    private static func run(_ executable: String, _ arguments: [String]) -> Data? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? data : nil
    }
}
