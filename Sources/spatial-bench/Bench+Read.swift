import Foundation
import SpatialCore

/// `read/<dataset>`: GeoJSON bytes → the full typed model (`[Feature]` with properties), in MB/s,
/// and the same runs as features per second, `read.features/<dataset>`; `read.points/<dataset>`:
/// bytes → the columnar `PointFeatures`; `read.json/<dataset>`: bytes → a generic `JSONValue`
/// tree; and, beside them, Foundation's `JSONDecoder` (geometry only) on the same bytes as
/// `read.jsondecoder/<dataset>`.
func benchRead(_ bench: Bench) throws {
    let figures = ["read", "read.points", "read.json", "read.jsondecoder"]
    var inputs: [(name: String, bytes: [UInt8])] = bench.datasets.map { ($0.name, $0.bytes) }
    if figures.contains(where: { bench.wants("\($0)/uniform-1m") || bench.wants($0) }) {
        inputs.append(("uniform-1m", Synthetic.geoJSON(Synthetic.uniform(1_000_000))))
    }
    for input in inputs {
        let megabytes = Double(input.bytes.count) / 1_000_000
        let bytes = input.bytes
        if let read = bench.measure("read", dataset: input.name, n: bytes.count, unit: "MB/s", value: { megabytes / $0 }, {
            blackHole(try? GeoJSON.read(bytes))
        }) {
            // Features per second from the same runs (a run's MB/s times features per MB).
            let features = try GeoJSON.read(bytes).features.count
            let perMB = Double(features) / megabytes
            var perSecond = read
            perSecond.name = "read.features"
            perSecond.n = features
            perSecond.unit = "ops/s"
            (perSecond.median, perSecond.min, perSecond.max) = (read.median * perMB, read.min * perMB, read.max * perMB)
            bench.record(perSecond)
        }
        bench.measure("read.points", dataset: input.name, n: bytes.count, unit: "MB/s", value: { megabytes / $0 }) {
            blackHole(try? GeoJSON.readPoints(bytes))
        }
        bench.measure("read.json", dataset: input.name, n: bytes.count, unit: "MB/s", value: { megabytes / $0 }) {
            blackHole(try? JSONValue(parsing: bytes))
        }
        let data = Data(input.bytes)
        bench.measure("read.jsondecoder", dataset: input.name, n: input.bytes.count, unit: "MB/s",
            value: { megabytes / $0 }) {
            blackHole(try? JSONDecoder().decode(DecodableCollection.self, from: data))
        }
    }
}

/// The geometry-only model that a `JSONDecoder` user would write.
struct DecodableCollection: Decodable {
    struct Feature: Decodable {
        struct Geometry: Decodable {
            var type: String
            var coordinates: [Double]?
        }
        var geometry: Geometry?
    }
    var features: [Feature]
}
