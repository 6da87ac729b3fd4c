import Foundation
import SpatialCore

/// Points of a real dataset for the clustering figures (read once, untimed).
struct ClusterBenchInput {
    var coordinates: [Coordinate] = []
    var properties: [JSONObject] = []
}

/// Reads a GeoJSON dataset's point coordinates (and, when asked, a few properties) with
/// Foundation, outside the timed code.
func clusterBenchInput(_ dataset: BenchDataset, properties keys: [String] = []) -> ClusterBenchInput {
    var input = ClusterBenchInput()
    guard let root = try? JSONSerialization.jsonObject(with: Data(dataset.bytes)) as? [String: Any],
        let features = root["features"] as? [[String: Any]]
    else { return input }
    for f in features {
        guard let g = f["geometry"] as? [String: Any], (g["type"] as? String) == "Point",
            let c = g["coordinates"] as? [Any], c.count >= 2,
            let lng = (c[0] as? NSNumber)?.doubleValue, let lat = (c[1] as? NSNumber)?.doubleValue,
            lat >= -90, lat <= 90
        else { continue }
        input.coordinates.append(Coordinate(latitude: lat, longitude: lng))
        if !keys.isEmpty {
            var o = JSONObject()
            let props = f["properties"] as? [String: Any] ?? [:]
            for k in keys {
                if let s = props[k] as? String { o[k] = .string(s) } else if let n = props[k] as? NSNumber { o[k] = .number(n.doubleValue) }
            }
            input.properties.append(o)
        }
    }
    return input
}

/// Notes the peak memory a default build over `dataset` adds (measured in a fresh process by
/// the memory probe, so that the bench's other data cannot hide it).
private func noteBuildMemory(_ bench: Bench, _ dataset: String, _ bytes: Double) {
    bench.note("memory \(dataset): \(String(format: "%.1f", bytes / 1_048_576)) MB added by the build (peak RSS of a fresh process, input excluded)")
}

/// The fire-hydrant case of `performance.md` on the Tulsa file: radius 75, with `max FLOW`,
/// `any STATION == "27"` and `sum FLOW` as typed cluster properties.
enum FireHydrantCase {
    /// The feature properties the case reads.
    static let keys = ["FLOW", "STATION"]
    static var options: ClusterOptions { get throws { try ClusterOptions(radius: 75) } }
    static let properties = [
        ClusterProperty("max", .maximum(of: "FLOW")),
        ClusterProperty("in_station_27", .any(ClusterPredicate(property: "STATION", .equals("27")))),
        ClusterProperty("sum", .sum(of: "FLOW")),
    ]
}

/// `cluster.build/…`, `cluster.query.world-z<z>/…`, `cluster.query.screen-z12/…`,
/// `cluster.expansion-zoom/…` (and children / leaves per second).
func benchClustering(_ bench: Bench) throws {
    let options = ClusterOptions.default

    // Real datasets, default options.
    var built: [String: (ClusterIndex, ClusterBenchInput)] = [:]
    // The query figures below read these indexes; a run that wants neither them nor a dataset's
    // build (`--only cluster.build/<one dataset>`) skips its input and its extra build.
    let wantsQueries = ["cluster.query", "cluster.expansion-zoom", "cluster.children", "cluster.leaves"].contains { bench.wants($0) }
    for dataset in bench.datasets {
        let wantsBuild = bench.wants("cluster.build/\(dataset.name)")
        guard wantsBuild || wantsQueries else { continue }
        let input = clusterBenchInput(dataset)
        let build = { blackHole(try? ClusterIndex(coordinates: input.coordinates, options: options)) }
        bench.measure("cluster.build", dataset: dataset.name, n: input.coordinates.count, build)
        bench.pair("cluster.build", dataset: dataset.name, build)
        if wantsQueries, let index = try? ClusterIndex(coordinates: input.coordinates, options: options) {
            built[dataset.name] = (index, input)
        }
        if wantsBuild { noteBuildMemory(bench, dataset.name, memoryProbe(file: dataset.url)) }
    }
    if let cities = bench.dataset("cities500"), bench.wants("cluster.build.float32/cities500") {
        let input = clusterBenchInput(cities)
        let f32 = try ClusterOptions(precision: .float32)
        bench.measure("cluster.build.float32", dataset: "cities500", n: input.coordinates.count) {
            blackHole(try? ClusterIndex(coordinates: input.coordinates, options: f32))
        }
    }

    // Tulsa, radius 75 with the fire-hydrant cluster properties (typed, then as expressions).
    if let tulsa = bench.dataset("tulsa-fire-hydrants") {
        let input = clusterBenchInput(tulsa, properties: FireHydrantCase.keys)
        let r75 = try FireHydrantCase.options, typed = FireHydrantCase.properties
        let build = {
            blackHole(try? ClusterIndex(coordinates: input.coordinates, properties: input.properties, options: r75, clusterProperties: typed))
        }
        bench.measure("cluster.build", dataset: "tulsa-fire-hydrants/r75-props", n: input.coordinates.count, build)
        bench.pair("cluster.build", dataset: "tulsa-fire-hydrants/r75-props", build)
        if bench.wants("cluster.build/tulsa-fire-hydrants/r75-props") {
            noteBuildMemory(bench, "tulsa-fire-hydrants/r75-props", memoryProbe(fireHydrantCase: tulsa.url))
        }
        let expressions = try ClusterPropertyExpressions(json: [
            "max": ["max", ["get", "FLOW"]],
            "in_station_27": ["any", ["==", ["get", "STATION"], "27"]],
            "sum": [["+", ["accumulated"], ["get", "sum"]], ["get", "FLOW"]],
        ])
        bench.measure("cluster.build", dataset: "tulsa-fire-hydrants/r75-expr", n: input.coordinates.count) {
            blackHole(try? ClusterIndex(coordinates: input.coordinates, properties: input.properties, options: r75, expressions: expressions))
        }
    }

    // Synthetic sets.
    var sizes: [(String, () -> [SyntheticPoint])] = [
        ("uniform-100k", { Synthetic.uniform(100_000) }),
        ("uniform-1m", { Synthetic.uniform(1_000_000) }),
        ("blobs-1m", { Synthetic.blobs(1_000_000) }),
    ]
    if bench.full {
        sizes.append(("uniform-5m", { Synthetic.uniform(5_000_000) }))
        sizes.append(("blobs-5m", { Synthetic.blobs(5_000_000) }))
    }
    var uniform1m: ClusterIndex? = nil
    for (name, make) in sizes {
        guard bench.wants("cluster.build/\(name)") || bench.wants("cluster.query") || bench.wants("cluster.build.float32") else { continue }
        let coordinates = make().map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
        let build = { blackHole(try? ClusterIndex(coordinates: coordinates, options: options)) }
        let buildRuns = coordinates.count >= 1_000_000 ? 3 : nil
        bench.measure("cluster.build", dataset: name, n: coordinates.count, runs: buildRuns, build)
        bench.pair("cluster.build", dataset: name, runs: buildRuns, build)
        if bench.wants("cluster.build/\(name)") {
            noteBuildMemory(bench, name, memoryProbe(distribution: String(name.prefix { $0 != "-" }), n: coordinates.count))
        }
        if name == "uniform-100k" || name == "uniform-1m" {
            let f32 = try ClusterOptions(precision: .float32)
            bench.measure("cluster.build.float32", dataset: name, n: coordinates.count, runs: 3) {
                blackHole(try? ClusterIndex(coordinates: coordinates, options: f32))
            }
        }
        if name == "uniform-1m", bench.wants("cluster.query") {
            uniform1m = try? ClusterIndex(coordinates: coordinates, options: options)
        }
    }

    // World queries over uniform 1M.
    if let index = uniform1m {
        for z in [0, 4, 8] {
            let count = index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: Double(z)).count
            bench.measure("cluster.query.world-z\(z)", dataset: "uniform-1m", n: count) {
                blackHole(index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: Double(z)))
            }
        }
    }

    // A 390×844-point screen at z 12 (512-point tiles), 1,000 positions around the data's median.
    for name in ["tulsa-fire-hydrants", "dc-fire-hydrants"] {
        guard let (index, input) = built[name], !input.coordinates.isEmpty else { continue }
        let lngs = input.coordinates.map(\.longitude).sorted(), lats = input.coordinates.map(\.latitude).sorted()
        let cx = lngs[lngs.count / 2] / 360 + 0.5
        let cy = mercatorY(lats[lats.count / 2])
        let world = 512 * pow(2, 12.0)
        let (hw, hh) = (195 / world, 422 / world)
        var boxes: [(Double, Double, Double, Double)] = []
        var rng = LCG(seed: 12)
        for _ in 0..<1000 {
            let x = cx + (rng.next53() - 0.5) * 8 * hw, y = cy + (rng.next53() - 0.5) * 8 * hh
            boxes.append(((x - hw - 0.5) * 360, latitude(y + hh), (x + hw - 0.5) * 360, latitude(y - hh)))
        }
        bench.measure("cluster.query.screen-z12", dataset: name, n: boxes.count, unit: "ns", value: { $0 * 1e9 / 1000 }) {
            var total = 0
            for b in boxes {
                index.forEachCluster(west: b.0, south: b.1, east: b.2, north: b.3, zoom: 12) { _ in total += 1 }
            }
            blackHole(total)
        }
        // Expansion zoom, children and leaves of every cluster at z 10.
        let clusters = index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: 10).compactMap(\.cluster).map(\.id)
        guard !clusters.isEmpty else { continue }
        let perSecond: (Double) -> Double = { Double(clusters.count) / $0 }
        bench.measure("cluster.expansion-zoom", dataset: name, n: clusters.count, unit: "ops/s", value: perSecond) {
            for id in clusters { blackHole(try? index.expansionZoom(of: id)) }
        }
        bench.measure("cluster.children", dataset: name, n: clusters.count, unit: "ops/s", value: perSecond) {
            for id in clusters { blackHole(try? index.children(of: id)) }
        }
        bench.measure("cluster.leaves", dataset: name, n: clusters.count, unit: "ops/s", value: perSecond) {
            for id in clusters { blackHole(try? index.leaves(of: id)) }
        }
    }
}

private func mercatorY(_ lat: Double) -> Double {
    let s = sin(lat * Double.pi / 180)
    return 0.5 - 0.25 * log((1 + s) / (1 - s)) / Double.pi
}

private func latitude(_ y: Double) -> Double {
    360 * atan(exp((180 - y * 360) * Double.pi / 180)) / Double.pi - 90
}
