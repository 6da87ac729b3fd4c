import Foundation
import Testing

@testable import SpatialCore

/// Writing GeoJSON, and seeded round trips (read → write → read) of random features.
@Suite struct GeoJSONWriterTests {
    @Test func exactText() {
        let feature = Feature(
            id: .number(7), geometry: .point(Position(longitude: -77.5, latitude: 38.25, altitude: 0)),
            properties: ["name": "a\"b", "n": 1.5, "list": [1, nil, true]])
        #expect(feature.geoJSONString()
            == #"{"type":"Feature","id":7,"geometry":{"type":"Point","coordinates":[-77.5,38.25,0]},"properties":{"name":"a\"b","n":1.5,"list":[1,null,true]}}"#)
        #expect(Feature(id: .string("x"), geometry: nil).geoJSONString()
            == #"{"type":"Feature","id":"x","geometry":null,"properties":{}}"#)
        let p = Position(longitude: 1, latitude: 2)
        let q = Position(longitude: -0.0, latitude: 1e-7)
        let cases: [(Geometry, String)] = [
            (.multiPoint([p, q]), #"{"type":"MultiPoint","coordinates":[[1,2],[-0,1e-7]]}"#),
            (.lineString([]), #"{"type":"LineString","coordinates":[]}"#),
            (.multiLineString([[p], []]), #"{"type":"MultiLineString","coordinates":[[[1,2]],[]]}"#),
            (.polygon([[p, q, p]]), #"{"type":"Polygon","coordinates":[[[1,2],[-0,1e-7],[1,2]]]}"#),
            (.multiPolygon([[[p]], []]), #"{"type":"MultiPolygon","coordinates":[[[[1,2]]],[]]}"#),
            (.geometryCollection([.point(p), .geometryCollection([])]),
             #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"GeometryCollection","geometries":[]}]}"#),
        ]
        for (geometry, text) in cases { #expect(geometry.geoJSONString() == text) }
        #expect(FeatureCollection().geoJSONString() == #"{"type":"FeatureCollection","features":[]}"#)
    }

    @Test func newlineDelimited() throws {
        let features = [Feature(id: .number(1), geometry: nil), Feature(geometry: .point(Position(longitude: 1, latitude: 2)), properties: ["a": "\n"])]
        var writer = GeoJSONWriter()
        writer.writeNewlineDelimited(features)
        #expect(writer.string.split(separator: "\n").count == 2)
        #expect(try GeoJSON.read(ndjson: writer.bytes).features == features)
    }

    @Test func randomFeaturesRoundTrip() throws {
        var rng = SplitMix(state: 0x5EED_0006)
        for _ in 0..<300 {
            let features = (0..<Int.random(in: 0...8, using: &rng)).map { _ in RandomGeoJSON.feature(using: &rng) }
            let text = FeatureCollection(features: features).geoJSONString()
            let back = try GeoJSON.read(Array(text.utf8)).features
            #expect(back == features, "\(text)")
            // Equal text means bit-equal numbers too (the writer tells -0 from 0 and prints
            // the shortest exact digits).
            #expect(FeatureCollection(features: back).geoJSONString() == text)
        }
    }
}

/// Random features of every geometry type.
enum RandomGeoJSON {
    static func feature(using rng: inout SplitMix) -> Feature {
        let id: FeatureID? = switch Int.random(in: 0..<3, using: &rng) {
        case 0: nil
        case 1: .number(RandomJSON.number(using: &rng))
        default: .string(RandomJSON.string(using: &rng))
        }
        let geometry = Bool.random(using: &rng) && Bool.random(using: &rng) ? nil : self.geometry(depth: 2, using: &rng)
        var properties = JSONObject()
        for _ in 0..<Int.random(in: 0...5, using: &rng) {
            properties[RandomJSON.string(using: &rng)] = RandomJSON.value(depth: 2, using: &rng)
        }
        return Feature(id: id, geometry: geometry, properties: properties)
    }

    static func position(using rng: inout SplitMix) -> Position {
        let longitude = Bool.random(using: &rng) ? Double.random(in: -540...540, using: &rng) : Double(Int.random(in: -180...180, using: &rng))
        let latitude = [-90.0, 90, -0.0, Double.random(in: -90...90, using: &rng)][Int.random(in: 0..<4, using: &rng)]
        let altitude: Double? = Bool.random(using: &rng) ? nil : RandomJSON.number(using: &rng)
        return Position(longitude: longitude, latitude: latitude, altitude: altitude)
    }

    static func positions(using rng: inout SplitMix) -> [Position] {
        (0..<Int.random(in: 0...4, using: &rng)).map { _ in position(using: &rng) }
    }

    static func geometry(depth: Int, using rng: inout SplitMix) -> Geometry {
        switch Int.random(in: 0..<(depth > 0 ? 7 : 6), using: &rng) {
        case 0: return .point(position(using: &rng))
        case 1: return .multiPoint(positions(using: &rng))
        case 2: return .lineString(positions(using: &rng))
        case 3: return .multiLineString((0..<Int.random(in: 0...3, using: &rng)).map { _ in positions(using: &rng) })
        case 4: return .polygon((0..<Int.random(in: 0...3, using: &rng)).map { _ in positions(using: &rng) })
        case 5:
            return .multiPolygon((0..<Int.random(in: 0...2, using: &rng)).map { _ in
                (0..<Int.random(in: 0...2, using: &rng)).map { _ in positions(using: &rng) }
            })
        default: return .geometryCollection((0..<Int.random(in: 0...3, using: &rng)).map { _ in geometry(depth: depth - 1, using: &rng) })
        }
    }
}
