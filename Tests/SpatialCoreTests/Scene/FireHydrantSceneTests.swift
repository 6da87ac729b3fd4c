import Foundation
import Testing
@testable import SpatialCore

/// The Mapbox clustering example (fire hydrants) reproduced: taps on clusters and hydrants.
@Suite("Fire-hydrant scene")
struct FireHydrantSceneTests {
    typealias S = SceneTestSupport

    struct Fixture: Sendable {
        let scene: Scene
        let index: ClusterIndex
        let features: [Feature]
        let withProperties: Bool
    }

    /// Built once per file for all tests of the suite.
    static let cache: [String: Fixture] = {
        var result: [String: Fixture] = [:]
        for (file, withProperties) in cases {
            if let f = try? build(file, withProperties: withProperties) { result[file] = f }
        }
        return result
    }()

    static func fixture(_ file: String, withProperties: Bool) throws -> Fixture? {
        cache[file]
    }

    static func build(_ file: String, withProperties: Bool) throws -> Fixture? {
        guard let features = SceneTestSupport.dataset(file) else { return nil }
        let (scene, _) = try S.hydrantScene(features, withProperties: withProperties, center: S.center(of: features))
        return Fixture(scene: scene, index: try #require(scene.clusterIndex(forSource: "hydrants")), features: features, withProperties: withProperties)
    }

    static let cases: [(String, Bool)] = [("tulsa-fire-hydrants.geojson", true), ("dc-fire-hydrants.geojson", false)]

    /// The items of the camera's level drawn inside the view, with their view points, and for
    /// each the distance to the nearest other item.
    static func isolatedItems(_ f: Fixture, camera: Camera, clusters: Bool, minimumGap: Double) -> [(ClusterItem, CGPoint)] {
        let b = camera.visibleBounds
        let items = f.index.clusters(in: [b.west - 0.05, b.south - 0.05, b.east + 0.05, b.north + 0.05], zoom: camera.zoom)
        let points = items.map { camera.viewPoint(forWorldPoint: $0.mercator * camera.worldSize) }
        var result: [(ClusterItem, CGPoint)] = []
        for (i, item) in items.enumerated() where (item.cluster != nil) == clusters {
            let p = points[i]
            guard p.x > 40, p.y > 40, p.x < camera.viewSize.width - 40, p.y < camera.viewSize.height - 40 else { continue }
            let gap = points.indices.filter { $0 != i }.map { hypot(points[$0].x - p.x, points[$0].y - p.y) }.min() ?? .infinity
            if gap > minimumGap { result.append((item, p)) }
        }
        return result
    }

    @Test("a tap on a cluster centre returns it from the count layer, then the circle layer", arguments: cases)
    func tapOnCluster(file: String, withProperties: Bool) throws {
        guard let f = try Self.fixture(file, withProperties: withProperties) else { return }
        let candidates = Self.isolatedItems(f, camera: f.scene.camera, clusters: true, minimumGap: 60)
        try #require(!candidates.isEmpty)
        for (item, p) in candidates.prefix(10) {
            let cluster = try #require(item.cluster)
            let hits = f.scene.visibleFeatures(at: p)
            #expect(hits.map(\.layerIdentifier) == ["cluster-count-layer", "clustered-circle-layer"])
            #expect(hits.allSatisfy { $0.clusterID == cluster.id && $0.sourceIdentifier == "hydrants" })
            let leaves = try f.index.leaves(of: cluster.id, limit: nil)
            let props = hits[0].properties
            #expect(props["point_count"] == .number(Double(leaves.count)))
            #expect(props["cluster"] == .bool(true))
            #expect(props["cluster_id"] == .number(Double(cluster.id.rawValue)))
            if withProperties {
                // A direct reduction over the leaves (FLOW values are integers, so order does not matter).
                let flows = leaves.map { $0.properties["FLOW"]?.numberValue }
                let allNumbers = flows.allSatisfy { $0 != nil }
                #expect(props["max"] == (allNumbers ? .number(flows.map { $0! }.max()!) : .null))
                #expect(props["sum"] == (allNumbers ? .number(flows.map { $0! }.reduce(0, +)) : .null))
                #expect(props["in_27"] == .bool(leaves.contains { $0.properties["STATION"] == .string("27") }))
            }
        }
    }

    @Test("after the expansion zoom the cluster is shown split", arguments: cases)
    func expansion(file: String, withProperties: Bool) throws {
        guard let f = try Self.fixture(file, withProperties: withProperties) else { return }
        for (item, _) in Self.isolatedItems(f, camera: f.scene.camera, clusters: true, minimumGap: 60).prefix(5) {
            let cluster = try #require(item.cluster)
            let zoom = try f.index.expansionZoom(of: cluster.id)
            var scene = f.scene
            scene.camera = try Camera(center: cluster.coordinate, zoom: Double(zoom), viewSize: scene.camera.viewSize)
            let leaves = try f.index.leaves(of: cluster.id, limit: nil)
            let leafProperties = leaves.map(\.properties)
            let everything = scene.visibleFeatures(in: CGRect(x: -2000, y: -2000, width: 4390, height: 4844))
            #expect(!everything.contains { $0.clusterID == cluster.id })
            // The drawn items that hold its leaves: more than one.
            var holders = Set<String>()
            for hit in everything where hit.layerIdentifier != "cluster-count-layer" {
                if let id = hit.clusterID {
                    let sub = Set(try f.index.leaves(of: id, limit: nil).map(\.index))
                    if !sub.isDisjoint(with: leaves.map(\.index)) { holders.insert("c\(id.rawValue)") }
                } else if leafProperties.contains(hit.properties) {
                    holders.insert("p\(hit.coordinate)")
                }
            }
            #expect(holders.count > 1, "cluster \(cluster.id) at zoom \(zoom)")
        }
    }

    @Test("a tap on an unclustered hydrant returns its original properties", arguments: cases)
    func tapOnHydrant(file: String, withProperties: Bool) throws {
        guard let f = try Self.fixture(file, withProperties: withProperties) else { return }
        var camera = f.scene.camera
        var found = Self.isolatedItems(f, camera: camera, clusters: false, minimumGap: 32)
        for zoom in [14.0, 16, 18] where found.isEmpty {
            camera = try Camera(center: camera.center, zoom: zoom, viewSize: camera.viewSize)
            found = Self.isolatedItems(f, camera: camera, clusters: false, minimumGap: 32)
        }
        try #require(!found.isEmpty)
        var scene = f.scene
        scene.camera = camera
        for (item, p) in found.prefix(10) {
            let point = try #require(item.point)
            let hits = scene.visibleFeatures(at: p)
            try #require(hits.count == 1)
            #expect(hits[0].layerIdentifier == "unclustered-point-layer")
            #expect(hits[0].clusterID == nil)
            #expect(hits[0].properties == f.features[point.index].properties)
            // The 22×22 icon (plus padding 2) turned by FLOW % 360: a tap 9 points off the centre is
            // inside whatever the rotation.
            #expect(scene.visibleFeatures(at: CGPoint(x: p.x + 9, y: p.y - 9)).count == 1)
        }
    }

    @Test("a tap 26 points from a cluster centre misses it; just beyond 25 misses the circle, 24.9 hits it", arguments: cases)
    func missBeyondRadius(file: String, withProperties: Bool) throws {
        guard let f = try Self.fixture(file, withProperties: withProperties) else { return }
        for (item, p) in Self.isolatedItems(f, camera: f.scene.camera, clusters: true, minimumGap: 80).prefix(10) {
            let id = try #require(item.cluster).id
            for angle in stride(from: 0.0, to: 360, by: 45) {
                let (s, c) = (sin(angle * .pi / 180), cos(angle * .pi / 180))
                func at(_ d: Double) -> [VisibleFeature] {
                    f.scene.visibleFeatures(at: CGPoint(x: p.x + d * c, y: p.y + d * s), styleLayerIdentifiers: ["clustered-circle-layer"])
                }
                #expect(!f.scene.visibleFeatures(at: CGPoint(x: p.x + 26 * c, y: p.y + 26 * s)).contains { $0.clusterID == id })
                #expect(at(24.9).contains { $0.clusterID == id })
                // Exactly on the edge is outside (strict).
                #expect(at(25.000_001).isEmpty)
            }
        }
    }

    @Test("styleLayerIdentifiers and predicates filter", arguments: cases)
    func filters(file: String, withProperties: Bool) throws {
        guard let f = try Self.fixture(file, withProperties: withProperties) else { return }
        let (item, p) = try #require(Self.isolatedItems(f, camera: f.scene.camera, clusters: true, minimumGap: 60).first)
        let id = try #require(item.cluster).id
        #expect(f.scene.visibleFeatures(at: p, styleLayerIdentifiers: ["clustered-circle-layer"]).map(\.layerIdentifier) == ["clustered-circle-layer"])
        #expect(f.scene.visibleFeatures(at: p, styleLayerIdentifiers: []).isEmpty)
        #expect(f.scene.visibleFeatures(at: p, styleLayerIdentifiers: ["nope", "cluster-count-layer"]).count == 1)
        #expect(f.scene.visibleFeatures(at: p, predicate: S.filter(["==", ["get", "cluster_id"], .number(Double(id.rawValue))])).count == 2)
        #expect(f.scene.visibleFeatures(at: p, predicate: S.filter([">", ["get", "point_count"], 1e9])).isEmpty)
        // An evaluation error in the predicate is false, never a throw.
        #expect(f.scene.visibleFeatures(at: p, predicate: S.filter(["<", ["get", "point_count"], "x"])).isEmpty)
    }
}

extension ClusterItem {
    /// The item's position in unit Mercator (test helper).
    var mercator: SIMD2<Double> { cluster?.mercator ?? point!.mercator }
}
