import Foundation
import SpatialCore

/// `expr.<name>/uniform-100k`: nanoseconds per evaluation over 100k synthetic fire-hydrant-like
/// features (properties `FLOW`, `ENGINEID`), release build, each feature read in place through
/// `UnsafeBufferPointer<Feature>.withExpressionContext(at:)` (the reference-count-free context):
/// - `expr.filter`: `["all", ["==", ["get","ENGINEID"], "E-9"], [">", ["get","FLOW"], 1000]]`;
/// - `expr.step`: `["step", ["get","FLOW"], 1, 500, 2, 1000, 3]`;
/// - `expr.interpolate`: `["interpolate", ["linear"], ["get","FLOW"], 0, 2, 5000, 10]`;
/// - `expr.cluster-map`: the three fire-hydrant map expressions, ns per map expression;
/// - `expr.cluster-reduce`: their three reduces folded over all points, ns per reduce expression.
func benchExpressions(_ bench: Bench) throws {
    let n = 100_000
    let dataset = "uniform-\(Synthetic.sizeName(n))"
    let features = Synthetic.uniform(n).map { p in
        Feature(
            geometry: .point(Position(longitude: p.longitude, latitude: p.latitude)),
            properties: ["FLOW": .number(p.flow), "ENGINEID": .string("E-\(p.engineID)")])
    }
    let perEvaluation = { (count: Int) in { (seconds: Double) in seconds * 1e9 / Double(count) } }

    let filter = try Expression(filter: ["all", ["==", ["get", "ENGINEID"], "E-9"], [">", ["get", "FLOW"], 1000]])
    bench.measure("expr.filter", dataset: dataset, n: n, unit: "ns", value: perEvaluation(n)) {
        var hits = 0
        features.withUnsafeBufferPointer { buffer in
            for i in buffer.indices where buffer.withExpressionContext(at: i, { filter.evaluateFilter($0) }) { hits += 1 }
        }
        blackHole(hits)
    }

    let step = try Expression(json: ["step", ["get", "FLOW"], 1, 500, 2, 1000, 3], purpose: .value)
    bench.measure("expr.step", dataset: dataset, n: n, unit: "ns", value: perEvaluation(n)) {
        var total = 0.0
        features.withUnsafeBufferPointer { buffer in
            for i in buffer.indices { total += buffer.withExpressionContext(at: i) { step.evaluateNumber($0, default: 0) } }
        }
        blackHole(total)
    }

    let interpolate = try Expression(json: ["interpolate", ["linear"], ["get", "FLOW"], 0, 2, 5000, 10], purpose: .value)
    bench.measure("expr.interpolate", dataset: dataset, n: n, unit: "ns", value: perEvaluation(n)) {
        var total = 0.0
        features.withUnsafeBufferPointer { buffer in
            for i in buffer.indices { total += buffer.withExpressionContext(at: i) { interpolate.evaluateNumber($0, default: 0) } }
        }
        blackHole(total)
    }

    let properties = try ClusterPropertyExpressions(json: [
        "max": ["max", ["get", "FLOW"]],
        "in_e9": ["any", ["==", ["get", "ENGINEID"], "E-9"]],
        "sum": [["+", ["accumulated"], ["get", "sum"]], ["get", "FLOW"]],
    ])
    let k = properties.count
    bench.measure("expr.cluster-map", dataset: dataset, n: n, unit: "ns", value: perEvaluation(n * k)) {
        var output = [JSONValue](repeating: .null, count: k)
        output.withUnsafeMutableBufferPointer { out in
            features.withUnsafeBufferPointer { buffer in
                for i in buffer.indices { buffer.withExpressionContext(at: i) { properties.map($0, into: out) } }
            }
        }
        blackHole(output)
    }

    // Mapped values in one flat store (k per point), reduced in point order.
    var store: [JSONValue] = []
    store.reserveCapacity(n * k)
    for feature in features {
        store.append(contentsOf: feature.withExpressionContext { properties.mapValues($0) })
    }
    bench.measure("expr.cluster-reduce", dataset: dataset, n: n, unit: "ns", value: perEvaluation((n - 1) * k)) {
        var accumulated = Array(store[0..<k])
        store.withUnsafeBufferPointer { buffer in
            for p in 1..<n {
                let member = UnsafeBufferPointer(rebasing: buffer[(p * k)..<(p * k + k)])
                properties.reduce(&accumulated, member: member)
            }
        }
        blackHole(accumulated)
    }
    try benchExpressionsOnTulsa(bench)
}

/// `expr.cluster-map/tulsa-fire-hydrants` and `expr.cluster-reduce/tulsa-fire-hydrants`: the same
/// figures on the real Tulsa hydrant properties (12 members each; `STATION == "27"` stands in for
/// `ENGINEID == "E-9"`, as `../shared/datasets/README.md` maps them), read with the project's
/// GeoJSON reader (member names in document order, one shared name array per object shape).
func benchExpressionsOnTulsa(_ bench: Bench) throws {
    guard let dataset = bench.dataset("tulsa-fire-hydrants") else { return }
    guard bench.wants("expr.cluster-map/\(dataset.name)") || bench.wants("expr.cluster-reduce/\(dataset.name)") else { return }
    let features = try GeoJSON.read(dataset.bytes).features
    let n = features.count
    let properties = try ClusterPropertyExpressions(json: [
        "max": ["max", ["get", "FLOW"]],
        "in_27": ["any", ["==", ["get", "STATION"], "27"]],
        "sum": [["+", ["accumulated"], ["get", "sum"]], ["get", "FLOW"]],
    ])
    let k = properties.count
    bench.measure("expr.cluster-map", dataset: dataset.name, n: n, unit: "ns", value: { $0 * 1e9 / Double(n * k) }) {
        var output = [JSONValue](repeating: .null, count: k)
        output.withUnsafeMutableBufferPointer { out in
            features.withUnsafeBufferPointer { buffer in
                for i in buffer.indices { buffer.withExpressionContext(at: i) { properties.map($0, into: out) } }
            }
        }
        blackHole(output)
    }
    let store = features.flatMap { f in f.withExpressionContext { properties.mapValues($0) } }
    bench.measure("expr.cluster-reduce", dataset: dataset.name, n: n, unit: "ns", value: { $0 * 1e9 / Double((n - 1) * k) }) {
        var accumulated = Array(store[0..<k])
        store.withUnsafeBufferPointer { buffer in
            for p in 1..<n { properties.reduce(&accumulated, member: UnsafeBufferPointer(rebasing: buffer[(p * k)..<(p * k + k)])) }
        }
        blackHole(accumulated)
    }
}
