import Foundation
import SpatialCore

/// One point of the scaling plot.
struct ScalingSample {
    var distribution: String
    var n: Int
    /// Median build time in milliseconds.
    var milliseconds: Double
    /// Peak resident memory the build added, in bytes (peak during the build minus the resident
    /// size before it, inputs excluded).
    var bytes: Double
}

/// `spatial-bench --plot FILE.svg`: cluster build time and peak memory against the number of
/// points, uniform and clustered (blobs), 10k … 5M, drawn log–log as an SVG (about five minutes
/// on a 2-core machine).
func benchPlot(_ bench: Bench, to path: String) throws {
    let sizes = [10_000, 30_000, 100_000, 300_000, 1_000_000, 2_000_000, 5_000_000]
    var samples: [ScalingSample] = []
    for (distribution, generate) in [("uniform", Synthetic.uniform), ("blobs", Synthetic.blobs)] as [(String, (Int) -> [SyntheticPoint])] {
        for n in sizes {
            let coordinates = generate(n).map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
            let runs = n >= 1_000_000 ? Swift.min(bench.runs, 3) : bench.runs
            let timed = bench.measure("cluster.build", dataset: "\(distribution)-\(Synthetic.sizeName(n))", n: n, runs: runs) {
                blackHole(try? ClusterIndex(coordinates: coordinates))
            }
            // Memory: one build in a fresh process, so that earlier, larger builds cannot hide it
            // (the kernel's peak-RSS reset is not available everywhere).
            let bytes = memoryProbe(distribution: distribution, n: n)
            samples.append(ScalingSample(
                distribution: distribution, n: n, milliseconds: timed?.median ?? .nan, bytes: bytes))
            bench.note("memory \(distribution)-\(Synthetic.sizeName(n)): \(String(format: "%.1f", bytes / 1_048_576)) MB added by the build")
        }
    }
    let svg = ScalingPlot(samples: samples, machine: MachineInfo.current).svg()
    try Data(svg.utf8).write(to: URL(fileURLWithPath: path))
    bench.note("Wrote \(path) (\(samples.count) points).")
}

/// The environment variable that turns a `spatial-bench` process into a memory probe.
let memoryProbeVariable = "SPATIAL_BENCH_MEMORY_PROBE"

/// Runs `spatial-bench` again as a probe for one build over `n` synthetic points and reads the
/// bytes it reports; NaN when the probe fails.
func memoryProbe(distribution: String, n: Int) -> Double {
    memoryProbe(spec: "\(distribution):\(n)")
}

/// Runs `spatial-bench` again as a probe for one default build over the points of a GeoJSON
/// file and reads the bytes it reports; NaN when the probe fails.
func memoryProbe(file: URL) -> Double {
    memoryProbe(spec: "file:\(file.path)")
}

/// Runs `spatial-bench` again as a probe for one build of the fire-hydrant case
/// (``FireHydrantCase``) over a GeoJSON file and reads the bytes it reports; NaN when it fails.
func memoryProbe(fireHydrantCase file: URL) -> Double {
    memoryProbe(spec: "file-r75-props:\(file.path)")
}

/// Runs the probe named by `spec` (`uniform:N`, `blobs:N`, `file:PATH` or `file-r75-props:PATH`).
private func memoryProbe(spec: String) -> Double {
    memoryProbeReadings(spec: spec).first ?? .nan
}

/// Runs the probe named by `spec` in a fresh `spatial-bench` process and reads the numbers it
/// prints (bytes); empty when the probe fails.
func memoryProbeReadings(spec: String) -> [Double] {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    guard let data = Subprocess.output(executable, [], environment: [memoryProbeVariable: spec]) else { return [] }
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
}

/// The input a probe process builds over, named by `spec`: `file:PATH` (a GeoJSON file's points),
/// `file-r75-props:PATH` (the fire-hydrant case: FLOW and STATION read as properties) or
/// `uniform:N` / `blobs:N` (the seeded synthetic points). Exits with status 2 when it cannot be
/// read.
struct ProbeInput {
    var coordinates: [Coordinate]
    /// The properties read (the fire-hydrant case only), input like the coordinates.
    var properties: [JSONObject] = []
    var fireHydrantCase = false

    init(spec: String) {
        if spec.hasPrefix("file:") || spec.hasPrefix("file-r75-props:") {
            fireHydrantCase = spec.hasPrefix("file-r75-props:")
            let url = URL(fileURLWithPath: String(spec.drop { $0 != ":" }.dropFirst()))
            guard let bytes = try? Data(contentsOf: url) else { exit(2) }
            let dataset = BenchDataset(name: url.lastPathComponent, url: url, bytes: [UInt8](bytes))
            let input = clusterBenchInput(dataset, properties: fireHydrantCase ? FireHydrantCase.keys : [])
            coordinates = input.coordinates
            properties = input.properties
        } else {
            let parts = spec.split(separator: ":")
            guard parts.count == 2, let n = Int(parts[1]) else { exit(2) }
            let points = parts[0] == "blobs" ? Synthetic.blobs(n) : Synthetic.uniform(n)
            coordinates = points.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
        }
    }

    /// One build, as the `cluster.build` figure of this input builds it (default options, or the
    /// fire-hydrant case's radius and typed cluster properties).
    func build() -> ClusterIndex? {
        guard fireHydrantCase else { return try? ClusterIndex(coordinates: coordinates) }
        guard let options = try? FireHydrantCase.options else { return nil }
        return try? ClusterIndex(coordinates: coordinates, properties: properties, options: options,
                                 clusterProperties: FireHydrantCase.properties)
    }
}

/// When this process is a memory probe: builds one index over the input `spec` names (see
/// ``ProbeInput``), prints the peak resident size minus the resident size before the build
/// (inputs kept alive, so they are excluded) and exits.
func runMemoryProbeIfAsked() {
    guard let spec = ProcessInfo.processInfo.environment[memoryProbeVariable] else { return }
    if spec.hasPrefix("kdtree:") || spec.hasPrefix("rtree:") { runIndexMemoryProbe(spec) }
    let input = ProbeInput(spec: spec)
    // Hand the reader's freed memory back to the OS, so that the build cannot reuse pages that
    // are already resident and look smaller than it is.
    returnFreedMemoryToOS()
    let before = PeakMemory.resident() ?? 0
    PeakMemory.reset()
    let index = input.build()
    let peak = PeakMemory.current() ?? before
    blackHole(index)
    blackHole(input)
    print(Swift.max(0, peak - before))
    exit(0)
}

extension PeakMemory {
    /// The current resident set size in bytes (Linux: `VmRSS`), or `nil`.
    static func resident() -> Int? {
        #if os(Linux)
        if let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kb = line.split(separator: " ").compactMap({ Int($0) }).first
        {
            return kb * 1024
        }
        #endif
        return nil
    }
}

/// A hand-written SVG of two log–log panels (time, memory) with one line per distribution and a
/// dashed guide proportional to n.
struct ScalingPlot {
    var samples: [ScalingSample]
    var machine: MachineInfo

    private let panelWidth = 420.0
    private let panelHeight = 300.0
    private let margin = (left: 70.0, right: 20.0, top: 50.0, bottom: 60.0)
    private let colours = ["uniform": "#1f77b4", "blobs": "#d62728"]

    func svg() -> String {
        let width = 2 * (margin.left + panelWidth + margin.right)
        let height = margin.top + panelHeight + margin.bottom + 30
        var s = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(f(width))" height="\(f(height))" viewBox="0 0 \(f(width)) \(f(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(f(width / 2))" y="22" text-anchor="middle" font-size="16">ClusterIndex build: cost against the number of points (log–log)</text>

            """
        s += panel(x0: margin.left, title: "build time (ms, median)", value: \.milliseconds, unit: "ms")
        s += panel(x0: margin.left + panelWidth + margin.right + margin.left, title: "peak memory added by the build (MB)",
            value: { $0.bytes / 1_048_576 }, unit: "MB")
        // Legend.
        var lx = margin.left
        let ly = height - 18
        for d in ["uniform", "blobs"] {
            s += "<line x1=\"\(f(lx))\" y1=\"\(f(ly - 4))\" x2=\"\(f(lx + 24))\" y2=\"\(f(ly - 4))\" stroke=\"\(colours[d]!)\" stroke-width=\"2\"/>"
            s += "<text x=\"\(f(lx + 30))\" y=\"\(f(ly))\">\(d == "blobs" ? "clustered (1,000 Gaussian blobs)" : "uniform")</text>\n"
            lx += 240
        }
        s += "<line x1=\"\(f(lx))\" y1=\"\(f(ly - 4))\" x2=\"\(f(lx + 24))\" y2=\"\(f(ly - 4))\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>"
        s += "<text x=\"\(f(lx + 30))\" y=\"\(f(ly))\">∝ n (linear growth)</text>\n"
        s += "<text x=\"\(f(width - 10))\" y=\"\(f(ly))\" text-anchor=\"end\" fill=\"#666\">\(escape("\(machine.cores) cores, \(machine.os)"))</text>\n"
        s += "</svg>\n"
        return s
    }

    private func panel(x0: Double, title: String, value: (ScalingSample) -> Double, unit: String) -> String {
        let y0 = margin.top
        let points = samples.filter { value($0).isFinite && value($0) > 0 }
        guard !points.isEmpty else { return "" }
        let ns = points.map { Double($0.n) }
        let vs = points.map(value)
        let xLo = floor(log10(ns.min()!)), xHi = ceil(log10(ns.max()!))
        let yLo = floor(log10(vs.min()!)), yHi = Swift.max(ceil(log10(vs.max()!)), yLo + 1)
        func px(_ n: Double) -> Double { x0 + (log10(n) - xLo) / Swift.max(xHi - xLo, 1) * panelWidth }
        func py(_ v: Double) -> Double { y0 + panelHeight - (log10(v) - yLo) / (yHi - yLo) * panelHeight }
        var s = "<g>\n<text x=\"\(f(x0 + panelWidth / 2))\" y=\"\(f(y0 - 10))\" text-anchor=\"middle\" font-size=\"13\">\(escape(title))</text>\n"
        s += "<rect x=\"\(f(x0))\" y=\"\(f(y0))\" width=\"\(f(panelWidth))\" height=\"\(f(panelHeight))\" fill=\"none\" stroke=\"#333\"/>\n"
        // Grid and tick labels at powers of ten.
        for e in stride(from: xLo, through: xHi, by: 1) {
            let x = px(pow(10, e))
            s += "<line x1=\"\(f(x))\" y1=\"\(f(y0))\" x2=\"\(f(x))\" y2=\"\(f(y0 + panelHeight))\" stroke=\"#ddd\"/>"
            s += "<text x=\"\(f(x))\" y=\"\(f(y0 + panelHeight + 16))\" text-anchor=\"middle\">\(count(pow(10, e)))</text>\n"
        }
        for e in stride(from: yLo, through: yHi, by: 1) {
            let y = py(pow(10, e))
            s += "<line x1=\"\(f(x0))\" y1=\"\(f(y))\" x2=\"\(f(x0 + panelWidth))\" y2=\"\(f(y))\" stroke=\"#ddd\"/>"
            s += "<text x=\"\(f(x0 - 6))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(number(pow(10, e))) \(unit)</text>\n"
        }
        s += "<text x=\"\(f(x0 + panelWidth / 2))\" y=\"\(f(y0 + panelHeight + 36))\" text-anchor=\"middle\">points (n)</text>\n"
        // Guide ∝ n through the first uniform point.
        if let first = points.first(where: { $0.distribution == "uniform" }) ?? points.first {
            let v0 = value(first), n0 = Double(first.n)
            let nEnd = pow(10, xHi)
            var vEnd = v0 * nEnd / n0
            var nStop = nEnd
            if vEnd > pow(10, yHi) { vEnd = pow(10, yHi); nStop = n0 * vEnd / v0 }
            s += "<line x1=\"\(f(px(n0)))\" y1=\"\(f(py(v0)))\" x2=\"\(f(px(nStop)))\" y2=\"\(f(py(vEnd)))\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n"
        }
        for d in ["uniform", "blobs"] {
            let series = points.filter { $0.distribution == d }.sorted { $0.n < $1.n }
            guard !series.isEmpty else { continue }
            let path = series.map { "\(f(px(Double($0.n)))),\(f(py(value($0))))" }.joined(separator: " ")
            s += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(colours[d]!)\" stroke-width=\"2\"/>\n"
            for p in series {
                s += "<circle cx=\"\(f(px(Double(p.n))))\" cy=\"\(f(py(value(p))))\" r=\"3\" fill=\"\(colours[d]!)\"><title>\(d) \(count(Double(p.n))): \(number(value(p))) \(unit)</title></circle>\n"
            }
        }
        return s + "</g>\n"
    }

    private func f(_ v: Double) -> String { String(format: "%.1f", v) }
    private func count(_ n: Double) -> String {
        n >= 1e6 ? "\(number(n / 1e6))M" : n >= 1e3 ? "\(number(n / 1e3))k" : number(n)
    }
    private func number(_ v: Double) -> String {
        v >= 100 || v == v.rounded() ? String(format: "%.0f", v) : v >= 1 ? String(format: "%.1f", v) : String(format: "%.2g", v)
    }
    private func escape(_ t: String) -> String {
        t.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// Hands freed heap memory back to the OS where the allocator allows it (glibc's
/// `malloc_trim`), so that resident-size readings count live memory only.
func returnFreedMemoryToOS() {
    #if os(Linux)
    _ = glibcMallocTrim(0)
    #endif
}

#if os(Linux)
/// glibc's `malloc_trim` (not in the Glibc module's headers).
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
#endif
