import Foundation
import Testing

@testable import SpatialCore

/// The columnar point form: positions in one buffer, null geometries kept in the numbering,
/// properties in a shared table, non-points refused with the feature index and type.
@Suite struct PointFeaturesTests {
    let text = #"""
        {"type":"FeatureCollection","features":[
         {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"name":"a","flow":10}},
         {"type":"Feature","id":"x","geometry":null,"properties":{"name":"b","flow":null}},
         {"type":"Feature","id":3,"geometry":{"type":"Point","coordinates":[-200,-90,7]},"properties":{"flow":30,"name":"c","extra":[1]}},
         {"type":"Feature","geometry":{"type":"Point","coordinates":[5,6]}}
        ]}
        """#

    @Test func columns() throws {
        let points = try GeoJSON.readPoints(Array(text.utf8))
        #expect(points.count == 4)
        #expect(points.nullGeometryCount == 1)
        #expect((0..<4).map { points.hasGeometry(at: $0) } == [true, false, true, true])
        #expect(points.coordinates[0] == SIMD2(1, 2))
        #expect(points.coordinates[1].x.isNaN && points.coordinates[1].y.isNaN)
        #expect(points.coordinates[2] == SIMD2(-200, -90))
        #expect(points.altitudes.count == 4 && points.altitudes[2] == 7 && points.altitudes[0].isNaN)
        #expect(points.position(at: 2) == Position(longitude: -200, latitude: -90, altitude: 7))
        #expect(points.position(at: 1) == nil)
        #expect((0..<4).map { points.id(at: $0) } == [nil, .string("x"), .number(3), nil])
        #expect(points.properties.keys == ["name", "flow", "extra"])

        let flow = points.properties.column("flow")
        #expect((0..<4).map { flow.value(at: $0) } == [10, .null, 30, nil])
        #expect((0..<4).map { flow.number(at: $0) } == [10, nil, 30, nil])
        let missing = points.properties.column("nope")
        #expect((0..<4).allSatisfy { missing.value(at: $0) == nil })
        #expect(points.properties.value("name", at: 2) == "c")
        #expect(points.properties.value("name", at: 3) == nil)

        let features = try GeoJSON.read(Array(text.utf8)).features
        #expect(points.features == features)
        #expect(points.properties.object(at: 2).keys == ["flow", "name", "extra"])
    }

    @Test func noAltitudesNoIds() throws {
        let points = try GeoJSON.readPoints(Array(#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}]}"#.utf8))
        #expect(points.altitudes.isEmpty)
        #expect(points.id(at: 0) == nil)
        #expect(try GeoJSON.readPoints(Array(#"{"type":"FeatureCollection","features":[]}"#.utf8)).count == 0)
        let bare = try GeoJSON.readPoints(Array(#"{"type":"Point","coordinates":[3,4]}"#.utf8))
        #expect(bare.count == 1 && bare.coordinates[0] == SIMD2(3, 4))
    }

    @Test func nonPointsAreRefused() throws {
        let text = #"""
            {"type":"FeatureCollection","features":[
             {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"a":1}},
             {"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[3,4]]},"properties":{"a":2}},
             {"type":"Feature","geometry":{"coordinates":[[1,2]],"type":"MultiPoint"},"properties":{"a":3}},
             {"type":"Feature","geometry":{"type":"Point","coordinates":[5,6]},"properties":{"a":4}}
            ]}
            """#
        do {
            _ = try GeoJSON.readPoints(Array(text.utf8))
            Issue.record("no error")
        } catch {
            #expect(error.kind == .notAPoint)
            #expect(error.featureIndex == 1)
            #expect(error.line == 3 && error.column == 39)
            #expect(error.message.contains("LineString"))
        }
        let skipped = try GeoJSON.readPoints(Array(text.utf8), options: .init(skipInvalidFeatures: true))
        #expect(skipped.count == 2)
        #expect(skipped.properties.column("a").value(at: 1) == 4)
        #expect(skipped.report.skipped.map(\.index) == [1, 2])
        #expect(skipped.report.skipped.map(\.error.kind) == [.notAPoint, .notAPoint])
        #expect(skipped.report.skipped[1].error.message.contains("MultiPoint"))
        // The typed reader takes them all.
        #expect(try GeoJSON.read(Array(text.utf8)).features.count == 4)
    }

    @Test func fromFeatures() throws {
        let features = [
            Feature(id: .number(1), geometry: .point(Position(longitude: 1, latitude: 2)), properties: ["a": 1, "b": "x"]),
            Feature(geometry: nil, properties: ["b": "y", "a": 2]),
            Feature(geometry: .point(Position(longitude: 3, latitude: 4, altitude: 5))),
        ]
        let points = try PointFeatures(features)
        #expect(points.features == features)
        #expect(points.properties.keys == ["a", "b"])
        #expect(points.properties.column("b").value(at: 1) == "y")

        func refusal(_ geometry: Geometry) -> PointFeaturesError? {
            do {
                _ = try PointFeatures(features + [Feature(geometry: geometry)])
                return nil
            } catch { return error }
        }
        let line = refusal(.lineString([]))
        #expect(line?.kind == .notAPoint && line?.featureIndex == 3 && line?.message.contains("LineString") == true)
        #expect(refusal(.point(Position(longitude: .nan, latitude: 0)))?.kind == .nonFiniteNumber)
        #expect(refusal(.point(Position(longitude: 0, latitude: 0, altitude: .infinity)))?.kind == .nonFiniteNumber)
        #expect(refusal(.point(Position(longitude: 0, latitude: -90.5)))?.kind == .latitudeOutOfRange)
        #expect(refusal(.point(Position(longitude: 720, latitude: 90))) == nil)
        #expect(try PointFeatures([]).count == 0)
    }

    @Test func newlineDelimited() throws {
        let text = """
            {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"k":1}}
            {"type":"Feature","geometry":{"type":"Polygon","coordinates":[]},"properties":{"k":2}}
            {"type":"Feature","geometry":null,"properties":{"k":3}}
            """
        let points = try GeoJSONReader(options: .init(skipInvalidFeatures: true)).readPoints(ndjson: Array(text.utf8))
        #expect(points.count == 2)
        #expect(points.report.skipped.map(\.index) == [1])
        #expect(points.properties.column("k").value(at: 1) == 3)
        #expect(!points.hasGeometry(at: 1))
    }
}
