import Foundation
import Testing
@testable import SpatialCore

/// Places where a scene must answer as MapLibre does and an earlier version did not: a layer with
/// no `maxzoom` at zoom 24, a feature drawn at several positions, views many worlds wide, the
/// `clusterMaxZoom` a source's `maxzoom` implies, and `icon-image` tokens. Expected answers come
/// from the spec's rules and the geometry of each case, not from the scene's output.
struct SceneMapLibreParityTests {
    static let origin = Coordinate(latitude: 0, longitude: 0)

    static func point(_ lng: Double, _ lat: Double, id: Double, _ properties: JSONObject = [:]) -> Feature {
        Feature(id: .number(id), geometry: .point(Position(longitude: lng, latitude: lat)), properties: properties)
    }

    static func scene(_ features: [Feature], layers: [StyleLayer], camera: Camera, clustered: Bool = false) throws -> Scene {
        try Scene(sources: [GeoJSONSource(id: "s", features: features, isClustered: clustered)], layers: layers, camera: camera)
    }

    @Test("a layer without maxzoom shows at zoom 24; one with maxzoom 24 does not (minzoom ≤ Z < maxzoom)")
    func zoom24() throws {
        let camera = try Camera(center: Self.origin, zoom: 24, viewSize: CGSize(width: 400, height: 400))
        let centre = CGPoint(x: 200, y: 200)
        for clustered in [false, true] {
            let unset = try Self.scene([Self.point(0, 0, id: 1)], layers: [StyleLayer(id: "c", kind: .circle, source: "s")],
                                       camera: camera, clustered: clustered)
            #expect(unset.visibleFeatures(at: centre).map(\.layerIdentifier) == ["c"], "clustered \(clustered)")
            let capped = try Self.scene([Self.point(0, 0, id: 1)],
                                        layers: [StyleLayer(id: "c", kind: .circle, source: "s", maxZoom: 24)],
                                        camera: camera, clustered: clustered)
            #expect(capped.visibleFeatures(at: centre).isEmpty, "clustered \(clustered)")
        }
        // The same from a style document, where the member is absent or 24.
        for (maxzoom, hits) in [("", 1), (#","maxzoom":24"#, 0), (#","maxzoom":23.5"#, 0)] {
            let doc = #"{"version":8,"sources":{"s":{"type":"geojson","data":{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{}}}},"layers":[{"id":"c","type":"circle","source":"s"\#(maxzoom)}]}"#
            let scene = try Scene(styleData: Data(doc.utf8), camera: camera)
            #expect(scene.visibleFeatures(at: centre).count == hits, "maxzoom member '\(maxzoom)'")
        }
    }

    @Test("a MultiPoint or a line is reported once per layer, at its nearest or first-hit position")
    func multiPositionFeatureOncePerLayer() throws {
        let camera = try Camera(center: Self.origin, zoom: 5, viewSize: CGSize(width: 400, height: 400))
        // At zoom 5 a degree of longitude is 512 · 32 / 360 ≈ 45.5 points: 0.05° apart is about
        // 2.3 points, so a circle of radius 5 at each position covers the view's centre.
        let positions = [Position(longitude: 0, latitude: 0), Position(longitude: 0.05, latitude: 0)]
        let multi = Feature(id: .number(9), geometry: .multiPoint(positions))
        let line = Feature(id: .number(10), geometry: .lineString(positions.map { Position(longitude: $0.longitude, latitude: 1) }))
        let layers = [StyleLayer(id: "a", kind: .circle, source: "s"), StyleLayer(id: "b", kind: .circle, source: "s")]
        let scene = try Self.scene([multi, line], layers: layers, camera: camera)
        let centre = CGPoint(x: 200, y: 200)
        let atCentre = scene.visibleFeatures(at: centre)
        #expect(atCentre.map(\.layerIdentifier) == ["b", "a"])
        #expect(atCentre.allSatisfy { $0.feature.id == .number(9) })
        let all = scene.visibleFeatures(in: CGRect(x: 0, y: 0, width: 400, height: 400))
        #expect(all.map(\.layerIdentifier) == ["b", "b", "a", "a"])
        #expect(all.map(\.feature.id) == [.number(10), .number(9), .number(10), .number(9)])
        // Nearest: the distance and coordinate of the nearer position (the second, 0.05° east,
        // lies about 2.3 points right of the centre; the query point is 3 points right of it).
        let q = CGPoint(x: 200 + 2.3 + 3, y: 200)
        let near = scene.nearestFeatures(to: q, within: 1, styleLayerIdentifiers: ["a"])
        #expect(near.count == 1)
        if let hit = near.first {
            #expect(hit.feature.id == .number(9))
            #expect(hit.coordinate.longitude == 0.05)
            let p = camera.point(for: Coordinate(latitude: 0, longitude: 0.05))
            #expect(abs(hit.distance - max(0, hypot(Double(q.x - p.x), Double(q.y - p.y)) - 5)) < 1e-9)
        }
    }

    @Test("a view many worlds wide: a rectangle over it finds the feature once, in every part")
    func viewManyWorldsWide() throws {
        // 40,000 points at zoom 0 show 78 copies of the 512-point world.
        let camera = try Camera(center: Self.origin, zoom: 0, viewSize: CGSize(width: 40_000, height: 512))
        let scene = try Self.scene([Self.point(0, 0, id: 1)], layers: [StyleLayer(id: "c", kind: .circle, source: "s")], camera: camera)
        #expect(scene.visibleFeatures(in: CGRect(x: 0, y: 0, width: 40_000, height: 512)).count == 1)
        // Copy k of the point sits at x = 20,000 + 512 k: a narrow rectangle around each, and
        // one between two copies (farther than the radius from both) finds nothing.
        for k in [-39, -20, -1, 0, 1, 20, 38] {
            let x = 20_000 + 512 * Double(k)
            #expect(scene.visibleFeatures(in: CGRect(x: x - 2, y: 250, width: 4, height: 12)).count == 1, "copy \(k)")
            #expect(scene.visibleFeatures(at: CGPoint(x: x + 4, y: 256)).count == 1, "copy \(k)")
        }
        #expect(scene.visibleFeatures(in: CGRect(x: 20_000 + 200, y: 0, width: 100, height: 512)).isEmpty)
        // Wider than the limit: a typed error, not a view whose far copies are never searched.
        #expect(throws: CameraError.invalidViewSize(width: Camera.maximumViewSide + 1, height: 10)) {
            try Camera(center: Self.origin, zoom: 0, viewSize: CGSize(width: Camera.maximumViewSide + 1, height: 10))
        }
        _ = try Camera(center: Self.origin, zoom: 0, bearing: 45,
                       viewSize: CGSize(width: Camera.maximumViewSide, height: Camera.maximumViewSide))
    }

    @Test("an unset clusterMaxZoom is one below the source maxzoom (MapLibre GL JS); an explicit one at or above it is an error")
    func clusterMaxZoomFromSourceMaxzoom() throws {
        #expect(MapLibreOptions().clusterMaxZoom == 17)
        #expect(MapLibreOptions(maxzoom: 14).clusterMaxZoom == 13)
        #expect(try MapLibreOptions(maxzoom: 14).clusterOptions().maxZoom == 13)
        #expect(throws: ClusterOptionsError.clusterMaxZoomNotBelowSourceMaxZoom(clusterMaxZoom: 17, maxzoom: 14)) {
            try MapLibreOptions(clusterMaxZoom: 17, maxzoom: 14).clusterOptions()
        }
        // In a style with maxzoom 14 alone (refused before): two points 0.0001° apart cluster
        // up to zoom 13 and are drawn apart from zoom 14.
        let data = #""data":{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[0,0]}},{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[0.0001,0]}}]}"#
        let camera = try Camera(center: Self.origin, zoom: 13.5, viewSize: CGSize(width: 400, height: 400))
        let doc = #"{"version":8,"sources":{"s":{"type":"geojson","cluster":true,"maxzoom":14,\#(data)}},"layers":[{"id":"c","type":"circle","source":"s"}]}"#
        var scene = try Scene(styleData: Data(doc.utf8), camera: camera)
        // 0.0001° is about 2.3 points at zoom 13.5 (within the default radius 50): one cluster.
        #expect(scene.visibleFeatures(at: CGPoint(x: 200, y: 200)).map { $0.clusterID != nil } == [true])
        // From zoom 14 (past clusterMaxZoom 13) the points themselves.
        scene.camera = try Camera(center: Self.origin, zoom: 14, viewSize: CGSize(width: 400, height: 400))
        #expect(scene.visibleFeatures(at: CGPoint(x: 200, y: 200)).map { $0.clusterID == nil } == [true, true])
    }

    @Test("legacy {token} strings in icon-image name an image per feature")
    func iconImageTokens() throws {
        let camera = try Camera(center: Self.origin, zoom: 5, viewSize: CGSize(width: 400, height: 400))
        let features = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"maki":"cafe"},"geometry":{"type":"Point","coordinates":[0,0]}},{"type":"Feature","properties":{"maki":"bar"},"geometry":{"type":"Point","coordinates":[1,0]}}]}"#
        let doc = #"{"version":8,"sources":{"s":{"type":"geojson","data":\#(features)}},"layers":[{"id":"i","type":"symbol","source":"s","layout":{"icon-image":"{maki}-15"}}]}"#
        // Only cafe-15 is registered: the first feature is hit (a 20-point icon around the
        // centre), the second (about 45 points east, its image unknown) is not.
        let scene = try Scene(styleData: Data(doc.utf8), images: ["cafe-15": CGSize(width: 20, height: 20)], camera: camera)
        #expect(scene.visibleFeatures(at: CGPoint(x: 205, y: 200)).count == 1)
        let east = camera.point(for: Coordinate(latitude: 0, longitude: 1))
        #expect(scene.visibleFeatures(at: east).isEmpty)
    }

    @Test("a NaN maxZoom is reported at the layer's maxzoom")
    func nanMaxZoomPath() throws {
        let camera = try Camera(center: Self.origin, zoom: 5, viewSize: CGSize(width: 400, height: 400))
        for (layer, member) in [(StyleLayer(id: "c", kind: .circle, source: "s", maxZoom: .nan), "maxzoom"),
                                (StyleLayer(id: "c", kind: .circle, source: "s", minZoom: .nan), "minzoom")] {
            let e = #expect(throws: SceneError.self) { try Self.scene([Self.point(0, 0, id: 1)], layers: [layer], camera: camera) }
            #expect(e?.path == "layers[0].\(member)")
        }
    }

    @Test("a point beyond ±180° is returned with its longitude wrapped, its geometry too")
    func wrappedPointGeometry() throws {
        let camera = try Camera(center: Coordinate(latitude: 0, longitude: -170), zoom: 5, viewSize: CGSize(width: 400, height: 400))
        for clustered in [false, true] {
            let scene = try Self.scene([Self.point(190, 0, id: 1, ["a": 1])], layers: [StyleLayer(id: "c", kind: .circle, source: "s")],
                                       camera: camera, clustered: clustered)
            let hits = scene.visibleFeatures(at: CGPoint(x: 200, y: 200))
            #expect(hits.count == 1, "clustered \(clustered)")
            #expect(hits.first?.coordinate.longitude == -170)
            #expect(hits.first?.feature.geometry == .point(Position(longitude: -170, latitude: 0)), "clustered \(clustered)")
            #expect(hits.first?.feature.properties == ["a": 1])
        }
    }

    @Test("a camera centred beyond the Mercator limit reports the latitude its focal point shows")
    func centreLatitudeClamped() throws {
        for (given, shown) in [(89.9, WebMercator.maxLatitude), (-90, -WebMercator.maxLatitude), (60, 60)] {
            let camera = try Camera(center: Coordinate(latitude: given, longitude: 10), zoom: 3, viewSize: CGSize(width: 300, height: 300))
            #expect(camera.center.latitude == shown)
            // The focal point shows the centre.
            let c = camera.coordinate(for: CGPoint(x: 150, y: 150))
            #expect(abs(c.latitude - shown) < 1e-9 && abs(c.longitude - 10) < 1e-9)
        }
    }
}
