import Foundation
import Testing

@testable import SpatialCore

/// A seeded mutator over valid GeoJSON (the in-process stand-in for a libFuzzer target): every
/// mutated input either reads or fails with a typed error whose place lies inside the input, for
/// every entry point; nothing crashes, and skipped features keep their indices in range.
@Suite struct GeoJSONFuzzTests {
    static let seeds: [[UInt8]] = {
        var rng = SplitMix(state: 0x5EED_0007)
        var seeds = (0..<12).map { _ in
            Array(FeatureCollection(features: (0..<3).map { _ in RandomGeoJSON.feature(using: &rng) }).geoJSONString().utf8)
        }
        seeds.append(Array(#"""
            {"type":"FeatureCollection","crs":{"type":"name"},"features":[
             {"type":"Feature","id":1,"geometry":{"type":"Point","coordinates":[-77.0089,38.8703,0.0]},"properties":{"NAME":"H0","DESCRIPTIO":"<p>In Service<\/p>"}},
             {"geometry":{"coordinates":[[1,2],[3,4]],"type":"LineString"},"type":"Feature","properties":null},
             {"type":"Feature","geometry":null,"properties":{"a":{"b":[1,2,{"c":null}]}}}
            ]}
            """#.utf8))
        return seeds
    }()

    @Test func mutatedGeoJSONNeverCrashes() {
        var rng = SplitMix(state: 0x5EED_0008)
        var failures = 0
        let runs = 6_000
        for i in 0..<runs {
            let bytes = Mutator.mutate(Self.seeds[i % Self.seeds.count], using: &rng)
            let options = GeoJSONReader.Options(skipInvalidFeatures: i % 2 == 0, maxDepth: 32)
            let reader = GeoJSONReader(options: options)
            for entry in 0..<4 {
                do {
                    switch entry {
                    case 0:
                        let result = try reader.read(bytes)
                        #expect(result.report.skipped.allSatisfy { $0.index >= 0 && $0.error.offset <= bytes.count })
                    case 1: _ = try reader.readPoints(bytes)
                    case 2: _ = try reader.read(ndjson: bytes)
                    default: _ = try reader.readPoints(ndjson: bytes)
                    }
                } catch {
                    failures += 1
                    #expect(error.offset >= 0 && error.offset <= bytes.count)
                    #expect(error.line >= 1 && error.column >= 1)
                    #expect((error.featureIndex ?? 0) >= 0)
                }
            }
        }
        #expect(failures > runs)  // most mutations break the document
    }
}
