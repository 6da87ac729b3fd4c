import Foundation
import SpatialCore

/// `read/<dataset>`: GeoJSON bytes → typed model, in MB/s, with Foundation's `JSONDecoder`
/// (geometry only) on the same bytes beside it as `read.jsondecoder/<dataset>`.
func benchRead(_ bench: Bench) throws {
    var inputs: [(name: String, bytes: [UInt8])] = bench.datasets.map { ($0.name, $0.bytes) }
    inputs.append(("uniform-1m", Synthetic.geoJSON(Synthetic.uniform(1_000_000))))
    for input in inputs {
        let megabytes = Double(input.bytes.count) / 1_000_000
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
