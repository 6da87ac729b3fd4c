import Foundation
import Testing
import SpatialCore

@Suite struct ClusterInputsTests {
    @Test(arguments: ["places.json", "earthquakes.geojson"])
    func columnarBuildEqualsFeatureBuild(file: String) throws {
        guard let bytes = TestData.dataset(file) else { return }
        let features = try GeoJSON.read(bytes).features
        let points = try GeoJSON.readPoints(bytes)
        #expect(points.count == features.count)
        let flow = try ClusterPropertyExpressions(json: ["total": ["+", ["to-number", ["get", "mag"], 0]]])
        let byFeature = try ClusterIndex(features: features, clusterProperties: flow)
        let byColumns = try ClusterIndex(points: points, clusterProperties: flow)
        for zoom in 0...17 {
            let a = byFeature.clusters(in: .world, zoom: Double(zoom))
            let b = byColumns.clusters(in: .world, zoom: Double(zoom))
            #expect(a == b, "zoom \(zoom)")
            #expect(a.reduce(0) { $0 + $1.pointCount } == features.filter { $0.geometry != nil }.count)
        }
    }

    @Test func geoBoundingBoxQueriesEqualArrayQueries() throws {
        guard let bytes = TestData.dataset("places.json") else { return }
        let index = try ClusterIndex(points: try GeoJSON.readPoints(bytes))
        let boxes = [
            GeoBoundingBox(west: 170, south: -60, east: -170, north: 60),
            GeoBoundingBox(west: -200, south: -85, east: 200, north: 85),
            GeoBoundingBox(west: 190, south: -20, east: 250, north: 20),
            GeoBoundingBox(west: -10, south: 30, east: 40, north: 60),
        ]
        for box in boxes {
            for zoom in [0.0, 1, 2.7, 5] {
                #expect(index.clusters(in: box, zoom: zoom) == index.clusters(in: [box.west, box.south, box.east, box.north], zoom: zoom))
            }
        }
        // The crossing box holds exactly the items of its two parts.
        let crossing = boxes[0]
        let whole = Set(index.clusters(in: crossing, zoom: 3).map(\.rawID))
        let parts = crossing.antimeridianParts.flatMap { index.clusters(in: $0, zoom: 3).map(\.rawID) }
        #expect(whole == Set(parts))
        #expect(!whole.isEmpty)
    }

    @Test func nullGeometryKeepsItsNumber() throws {
        guard let bytes = TestData.dataset("places.json") else { return }
        let points = try GeoJSON.readPoints(bytes)
        #expect(!points.hasGeometry(at: points.count - 1))
        let index = try ClusterIndex(points: points)
        let leaves = index.clusters(in: .world, zoom: 17).compactMap(\.point)
        #expect(leaves.count == points.count - 1)
    }
}
