import Foundation

/// The `references` group: the same figures timed on the established implementations, on this
/// machine in this run, so that every ratio in PERFORMANCE.md is a side-by-side one.
///
/// - `--reference-js DIR`: kdbush and flatbush (ES-module packages in `DIR`, for example a
///   `node_modules` folder) through `node Scripts/reference/kdbush-flatbush-bench.mjs`, run from
///   the checkout; figures `kdbush:<figure>` / `flatbush:<figure>`.
/// - `--reference-port BINARY`: the C++ port of supercluster built from
///   `Scripts/reference/supercluster-port-bench.cpp`; figures `supercluster-port:cluster.build`
///   for every dataset the `cluster.build` figures run on, timed right after each figure in
///   `--rounds N` rounds (default 1): each round times SpatialCore's build again and then the
///   port, back to back, each in a fresh process, and the ratio noted is the median of the
///   rounds' ratios (the machine's speed drifts over minutes: ratios of figures taken minutes
///   apart carry that drift).
///
/// Each reference figure is recorded under its own name beside SpatialCore's, with a note giving
/// the ratio. A reference that cannot run is noted and skipped; it never fails the bench.
struct References {
    var javaScriptLibraries: String?
    var portBinary: String?
    /// `--rounds N`: how many times each `cluster.build` figure and the port are timed back to
    /// back (at least 1).
    var rounds = 1

    var isEmpty: Bool { javaScriptLibraries == nil && portBinary == nil }

    /// The references timed after SpatialCore's figures (the port is timed beside each build
    /// figure as it runs: ``pairPort(_:dataset:)``).
    func run(_ bench: Bench) {
        if let javaScriptLibraries { runJavaScript(bench, libraries: javaScriptLibraries) }
        if portBinary != nil && !bench.results.contains(where: { $0.name == "cluster.build" }) {
            bench.note("references: no cluster.build figure ran; the C++ port skipped")
        }
    }

    /// kdbush / flatbush on the index figures.
    private func runJavaScript(_ bench: Bench, libraries: String) {
        let script = "Scripts/reference/kdbush-flatbush-bench.mjs"
        guard FileManager.default.fileExists(atPath: script) else {
            return bench.note("references: \(script) not found (run spatial-bench from the checkout); kdbush/flatbush skipped")
        }
        guard let output = Subprocess.output("/usr/bin/env", ["node", script, libraries, "--runs", String(bench.runs), "--json"], quiet: true),
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

    /// The C++ port on the dataset of the `cluster.build` figure just measured (coordinates only,
    /// as SpatialCore's figures are built; the r75 case with the features' properties), in
    /// ``rounds`` rounds back to back with SpatialCore's same build, each timed in a fresh
    /// process (`again`, this process, only when the time probe fails). Called from
    /// `Bench.pairing` right after the figure.
    func pairPort(_ bench: Bench, dataset: String, again: Retimer) {
        guard let binary = portBinary,
            let build = bench.results.last(where: { $0.name == "cluster.build" && $0.dataset == dataset })
        else { return }
        // The port's arguments, and the same input as a time probe's spec (SpatialCore's build in
        // a fresh process of its own, as the port's is: see `timeProbe(spec:runs:)`).
        var arguments: [String]
        let probeSpec: String
        let parts = build.dataset.split(separator: "/")
        let base = String(parts[0])
        if let file = bench.dataset(base) {
            arguments = ["file", file.url.path]
            if parts.count > 1 {
                guard parts[1] == "r75-props" else { return }
                arguments += ["--radius", "75"]
                probeSpec = "file-r75-props:\(file.url.path)"
            } else {
                arguments.append("--no-props")
                probeSpec = "file:\(file.url.path)"
            }
        } else if let dash = base.firstIndex(of: "-"), ["uniform", "blobs"].contains(String(base[..<dash])) {
            arguments = [String(base[..<dash]), String(build.n)]
            probeSpec = "\(base[..<dash]):\(build.n)"
        } else {
            return
        }
        let runs = build.n >= 1_000_000 ? Swift.min(bench.runs, 3) : bench.runs
        arguments += ["--runs", String(runs)]
        // Each round times SpatialCore's build again, then the port's, back to back: the
        // machine's speed drifts over minutes, and a ratio of figures taken minutes apart
        // carries that drift. The ratio reported is the median of the rounds' ratios.
        var ours: [Double] = [], port: [(median: Double, min: Double, max: Double)] = []
        var peak: Int? = nil, before: Int? = nil
        var inProcess = false
        for _ in 0 ..< rounds {
            let mine: Double
            if let probed = timeProbe(spec: probeSpec, runs: runs) {
                mine = probed
            } else {
                mine = again.median()
                inProcess = true
            }
            guard let output = Subprocess.output(binary, arguments, quiet: true),
                let line = String(decoding: output, as: UTF8.self).split(separator: "\n").last(where: { $0.hasPrefix("{") }),
                let r = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let median = r["median_ms"] as? Double, let min = r["min_ms"] as? Double, let max = r["max_ms"] as? Double
            else { break }
            ours.append(mine)
            port.append((median, min, max))
            peak = r["peak_rss_bytes"] as? Int
            before = r["rss_before_bytes"] as? Int
        }
        guard !port.isEmpty else {
            bench.note("references: the C++ port failed on \(build.dataset)")
            return
        }
        let medians = port.map(\.median).sorted()
        bench.record(BenchResult(name: "supercluster-port:cluster.build", dataset: build.dataset, n: build.n, unit: "ms",
                                 median: medians[medians.count / 2], min: port.map(\.min).min()!, max: port.map(\.max).max()!,
                                 runs: runs * port.count, peak_rss_bytes: peak))
        let ratios = zip(port, ours).map { $0.median / $1 }
        let ratio = ratios.sorted()[ratios.count / 2]
        let rounds = zip(ours, port).map { "\(fmt($0)) / \(fmt($1.median))" }.joined(separator: ", ")
        bench.note("side by side: cluster.build/\(build.dataset): SpatialCore against supercluster-port, "
            + "\(port.count) round\(port.count == 1 ? "" : "s") back to back, each in a fresh process (ms): \(rounds): \(fmt(ratio))x"
            + (inProcess ? " (the time probe failed: SpatialCore timed in this process)" : ""))
        if let peak, let before {
            bench.note("memory \(build.dataset), C++ port: \(String(format: "%.1f", Double(peak - before) / 1_048_576)) MB added by its builds (peak RSS minus resident before, input excluded)")
        }
    }

    /// SpatialCore's build of the input `spec` names (see ``ProbeInput``), timed in a fresh
    /// process (one warm-up, then `runs` runs): the median in ms, or nil when the probe failed.
    ///
    /// Why a fresh process, as the port's: after this process has waited for a child (the port's
    /// rounds), the build's background thread was found on the build thread's own core in most
    /// of its hand-offs (the core each thread ran on, read from `/proc/thread-self/stat` at every
    /// hand-off: 0 of 88 before the first child, 54–67 of 88 in each round after one), so the two
    /// halves of the build ran one after the other, and every round after the first timed that.
    /// A fresh process starts with its threads apart, as the figure itself was measured.
    private func timeProbe(spec: String, runs: Int) -> Double? {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        guard let data = Subprocess.output(executable, [], environment: [timeProbeVariable: "\(runs):\(spec)"], quiet: true)
        else { return nil }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).first.flatMap { Double($0) }
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
}

let timeProbeVariable = "SPATIAL_BENCH_TIME_PROBE"

/// When this process is a time probe (`RUNS:SPEC`, see ``ProbeInput``): times the build one
/// warm-up and RUNS times, prints the median in ms and exits.
func runTimeProbeIfAsked() {
    guard let value = ProcessInfo.processInfo.environment[timeProbeVariable] else { return }
    guard let colon = value.firstIndex(of: ":"), let runs = Int(value[..<colon]), runs > 0 else { exit(2) }
    let input = ProbeInput(spec: String(value[value.index(after: colon)...]))
    let median = Retimer(runs: runs) { blackHole(input.build()) }.median()
    print(median)
    exit(0)
}
