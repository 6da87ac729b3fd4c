import Foundation

/// The index oracles of `../shared/oracle` (kdbush and flatbush), parsed once.
///
/// They are read with Foundation's `JSONDecoder`, not `JSONSerialization`: on Linux the latter
/// hands numbers back as `NSDecimalNumber`, whose `doubleValue` is off by one ulp for about two
/// thirds of the coordinates, which changes the serialized bytes (and could change the
/// edge-case queries that sit exactly on a point). `JSONDecoder` reads the exact doubles.
enum IndexOracle {
    struct PointFile: Decodable {
        struct Feature: Decodable {
            struct Geometry: Decodable { var coordinates: [Double] }
            var geometry: Geometry
        }
        var features: [Feature]
    }

    struct KDBushInput: Decodable {
        struct Config: Decodable { var nodeSize: Int; var arrayType: String }
        var configs: [Config]
        var range_queries: [[Double]]
        var within_queries: [[Double]]
    }

    struct QueryResult: Decodable {
        var count: Int
        var ids: [Int]
        var native_order: [Int]?
        var sq_dists: [Double?]?
    }

    struct KDBushOutput: Decodable {
        struct Config: Decodable {
            var config: KDBushInput.Config
            var index_ids_fnv1a: UInt32
            var index_ids_first64: [Int]
            var serialized_bytes: Int
            var serialized_sha256: String
            var range: [QueryResult]
            var within: [QueryResult]
        }
        var configs: [Config]
    }

    struct FlatbushInput: Decodable {
        struct Config: Decodable { var nodeSize: Int }
        struct Neighbor: Decodable {
            var x: Double
            var y: Double
            var maxResults: Int?
            var maxDistance: Double?
        }
        var boxes: [Double]
        var configs: [Config]
        var search_queries: [[Double]]
        var neighbor_queries: [Neighbor]
        var neighbor_queries_extra: [Neighbor]
    }

    struct FlatbushOutput: Decodable {
        struct Config: Decodable {
            var config: FlatbushInput.Config
            var bounds: [Double]
            var indices_fnv1a: UInt32
            var serialized_bytes: Int
            var serialized_sha256: String
            var search: [QueryResult]
            var neighbors: [QueryResult]
            var neighbors_extra: [QueryResult]
        }
        var configs: [Config]
    }

    static func decode<T: Decodable>(_ type: T.Type, _ file: String) -> T? {
        guard let bytes = TestData.oracle(file) else { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch {
            FileHandle.standardError.write(Data("note: oracle file \(file) did not decode: \(error)\n".utf8))
            return nil
        }
    }

    /// The points of `random100k.geojson` (x = lng, y = lat, in feature order), or nil when absent.
    static let random100k: [SIMD2<Double>]? = decode(PointFile.self, "random100k.geojson")?.features.map {
        SIMD2($0.geometry.coordinates[0], $0.geometry.coordinates[1])
    }
    static let kdbushInput = decode(KDBushInput.self, "kdbush-input.json")
    static let kdbushOutput = decode(KDBushOutput.self, "kdbush-output.json")
    static let flatbushInput = decode(FlatbushInput.self, "flatbush-input.json")
    static let flatbushOutput = decode(FlatbushOutput.self, "flatbush-output.json")
}
