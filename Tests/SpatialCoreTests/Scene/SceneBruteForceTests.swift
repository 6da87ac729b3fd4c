import Foundation
import Testing
@testable import SpatialCore

/// Every query of the indexed scene against a scan of all drawn items (``SceneTestSupport/bruteForce``)
/// on seeded random scenes: clustered and plain sources, circles and symbols with data-driven and
/// zoom-driven sizes, offsets, rotations, translations (map and viewport), filters, zoom ranges,
/// hidden layers, a never-hit fill layer, bearings, insets and world copies at low zoom.
@Suite("Scene queries against brute force")
struct SceneBruteForceTests {
    typealias S = SceneTestSupport

    static func randomScene(seed: UInt64) throws -> (Scene, [GeoJSONSource], SplitMix) {
        var rng = SplitMix(state: seed)
        let kinds = ["a", "b", "c"]
        var features: [Feature] = []
        var plain: [Feature] = []
        let nearAntimeridian = seed % 3 == 0
        let lng0 = nearAntimeridian ? 179.0 : rng.range(-170, 170)
        let lat0 = rng.range(-60, 60)
        for i in 0..<600 {
            let spread = i % 5 == 0 ? 40.0 : 0.5
            var lng = lng0 + rng.range(-spread, spread)
            if lng >= 180 { lng -= 360 }
            let lat = max(-84, min(84, lat0 + rng.range(-spread / 2, spread / 2)))
            let name = String(repeating: "x", count: rng.int(9))
            let props: JSONObject = [
                "size": .number(Double(rng.int(20))), "kind": .string(kinds[rng.int(3)]), "name": .string(name),
                "rot": .number(rng.range(-360, 360)), "rank": .number(Double(i)),
            ]
            let f = Feature(id: .number(Double(i)), geometry: .point(Position(longitude: lng, latitude: lat)), properties: props)
            if i % 2 == 0 { features.append(f) } else { plain.append(f) }
        }
        // A MultiPoint and a LineString in the plain source (circles draw every position).
        plain.append(Feature(id: .string("multi"), geometry: .multiPoint([
            Position(longitude: lng0, latitude: lat0), Position(longitude: lng0 + 0.01, latitude: lat0)]),
            properties: ["size": 6, "kind": "a", "name": "mm", "rot": 0, "rank": 1000]))
        plain.append(Feature(id: .string("line"), geometry: .lineString([
            Position(longitude: lng0 - 0.01, latitude: lat0), Position(longitude: lng0, latitude: lat0 + 0.01)]),
            properties: ["size": 4, "kind": "b", "name": "ll", "rot": 0, "rank": 1001]))
        let clustered = GeoJSONSource(
            id: "clustered", features: features, isClustered: true,
            clusterOptions: MapLibreOptions(clusterRadius: rng.range(20, 80), clusterMaxZoom: 14, maxzoom: 18),
            clusterProperties: try ClusterPropertyExpressions(json: ["total": ["+", ["get", "size"]]]))
        let plainSource = GeoJSONSource(id: "plain", features: plain)
        let anchors = SymbolAnchor.allCases.map(\.rawValue)
        func anchor() -> JSONValue { .string(anchors[rng.int(anchors.count)]) }
        func pair(_ m: Double) -> JSONValue { [.number(rng.range(-m, m)), .number(rng.range(-m, m))] }
        func translateAnchor() -> JSONValue { rng.bool() ? "map" : "viewport" }
        var layers: [StyleLayer] = []
        for (sourceID, isClustered) in [("clustered", true), ("plain", false)] {
            layers.append(StyleLayer(
                id: "\(sourceID)-circles", kind: .circle, source: sourceID,
                filter: isClustered ? nil : S.filter(["!=", ["get", "kind"], "c"]),
                paint: [
                    "circle-radius": isClustered
                        ? S.expr(["interpolate", ["linear"], ["zoom"], 2, ["/", ["get", "total"], 40], 12, 18])
                        : S.expr(["get", "size"]),
                    "circle-stroke-width": S.expr(JSONValue.number(Double(rng.int(4)))),
                    "circle-translate": S.expr(pair(10)), "circle-translate-anchor": S.expr(translateAnchor()),
                    "circle-opacity": S.expr(["step", ["zoom"], 1, 3, ["match", ["get", "kind"], "b", 0, 1]]),
                    "circle-stroke-opacity": S.expr(0),
                ]))
            layers.append(StyleLayer(
                id: "\(sourceID)-fill", kind: .other("fill"), source: sourceID))
            layers.append(StyleLayer(
                id: "\(sourceID)-symbols", kind: .symbol, source: sourceID,
                minZoom: Double(rng.int(3)), maxZoom: 24 - Double(rng.int(4)),
                layout: [
                    "icon-image": S.expr(["match", ["get", "kind"], "a", "img-a", "b", "img-b", ""]),
                    "icon-size": S.expr(["interpolate", ["linear"], ["zoom"], 0, 0.5, 16, 1.5]),
                    "icon-anchor": S.expr(anchor()), "icon-offset": S.expr(pair(8)),
                    "icon-rotate": S.expr(["get", "rot"]), "icon-translate": S.expr(pair(6)),
                    "icon-translate-anchor": S.expr(translateAnchor()), "icon-padding": S.expr(JSONValue.number(rng.range(0, 4))),
                    "text-field": isClustered ? S.expr(["get", "point_count"]) : S.expr(["get", "name"]),
                    "text-size": S.expr(["step", ["zoom"], 10, 8, 14]), "text-anchor": S.expr(anchor()),
                    "text-offset": S.expr(pair(2)), "text-translate": S.expr(pair(4)),
                    "text-opacity": S.expr(["match", ["get", "kind"], "c", 0, 1]),
                ]))
        }
        layers.append(StyleLayer(id: "hidden", kind: .circle, source: "plain", isVisible: false, paint: ["circle-radius": S.expr(30)]))
        layers.shuffle(using: &rng)
        let camera = try randomCamera(&rng, around: Coordinate(latitude: lat0, longitude: lng0))
        let images = ["img-a": CGSize(width: 22, height: 14), "img-b": CGSize(width: 10, height: 30)]
        let scene = try Scene(sources: [clustered, plainSource], layers: layers, images: images, camera: camera)
        return (scene, [clustered, plainSource], rng)
    }

    static func randomCamera(_ rng: inout SplitMix, around c: Coordinate) throws -> Camera {
        let zoom = rng.int(4) == 0 ? rng.range(0, 2.5) : rng.range(2, 16)
        let insets = rng.bool() ? EdgeInsets() : EdgeInsets(top: rng.range(0, 100), left: rng.range(0, 80), bottom: rng.range(0, 100), right: rng.range(0, 80))
        let spread = 30 / pow(2, zoom)
        return try Camera(
            center: Coordinate(latitude: max(-80, min(80, c.latitude + rng.range(-spread, spread))), longitude: c.longitude + rng.range(-spread, spread)),
            zoom: zoom, bearing: rng.bool() ? 0 : rng.range(-180, 360), viewSize: CGSize(width: 390, height: 844), insets: insets)
    }

    static func same(_ a: [VisibleFeature], _ b: [(layer: String, feature: Feature, distance: Double)]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.layerIdentifier == $1.layer && $0.feature == $1.feature }
    }

    @Test("point queries equal brute force", arguments: 0..<8)
    func pointQueries(seed: Int) throws {
        var (scene, sources, rng) = try Self.randomScene(seed: UInt64(seed) &* 7919 &+ 1)
        for round in 0..<5 {
            if round > 0 { scene.camera = try Self.randomCamera(&rng, around: scene.camera.center) }
            let all = S.allFootprints(scene: scene, sources: sources)
            let view = scene.camera.viewSize
            var hits = 0
            for _ in 0..<40 {
                let p = CGPoint(x: rng.range(-20, Double(view.width) + 20), y: rng.range(-20, Double(view.height) + 20))
                let got = scene.visibleFeatures(at: p)
                let want = S.bruteForce(all) { (fp: Footprint) -> Double? in fp.contains(SIMD2(Double(p.x), Double(p.y))) ? 0 : nil }
                hits += got.count
                #expect(Self.same(got, want), "seed \(seed) round \(round) at \(p): \(got.count) vs \(want.count)")
            }
            _ = hits
        }
    }

    @Test("taps on drawn items equal brute force (many hits)", arguments: 0..<8)
    func tapsOnItems(seed: Int) throws {
        var (scene, sources, rng) = try Self.randomScene(seed: UInt64(seed) &* 104_729 &+ 5)
        for round in 0..<6 {
            if round > 0 { scene.camera = try Self.randomCamera(&rng, around: scene.camera.center) }
            let all = S.allFootprints(scene: scene, sources: sources)
            let items = S.items(of: sources[rng.int(2)], in: scene, zoom: scene.camera.zoom)
            for _ in 0..<30 where !items.isEmpty {
                let item = items[rng.int(items.count)]
                var p = scene.camera.viewPoint(forWorldPoint: item.positions[rng.int(item.positions.count)] * scene.camera.worldSize)
                p.x += rng.range(-12, 12)
                p.y += rng.range(-12, 12)
                let got = scene.visibleFeatures(at: p)
                let want = S.bruteForce(all) { (fp: Footprint) -> Double? in fp.contains(SIMD2(Double(p.x), Double(p.y))) ? 0 : nil }
                #expect(Self.same(got, want), "seed \(seed) round \(round) at \(p): \(got.count) vs \(want.count)")
            }
        }
    }

    @Test("rect queries equal brute force", arguments: 0..<6)
    func rectQueries(seed: Int) throws {
        var (scene, sources, rng) = try Self.randomScene(seed: UInt64(seed) &* 31 &+ 77)
        for round in 0..<6 {
            if round > 0 { scene.camera = try Self.randomCamera(&rng, around: scene.camera.center) }
            let view = scene.camera.viewSize
            for _ in 0..<20 {
                let side = rng.bool() ? 44.0 : rng.range(0, 300)
                let rect = CGRect(x: rng.range(-50, Double(view.width)), y: rng.range(-50, Double(view.height)), width: side, height: rng.range(0, 2 * side))
                let box = ScreenBox(rect)
                let layerIDs: Set<String>? = rng.int(4) == 0 ? ["plain-symbols", "clustered-circles", "nope"] : nil
                let predicate: SpatialCore.Expression? = rng.int(4) == 0 ? S.filter([">", ["get", "size"], 5]) : nil
                let got = scene.visibleFeatures(in: rect, styleLayerIdentifiers: layerIDs, predicate: predicate)
                let want = S.bruteForce(S.allFootprints(scene: scene, sources: sources, layerIDs: layerIDs, predicate: predicate)) {
                    ($0.intersects(box) ? 0 : nil) as Double?
                }
                #expect(Self.same(got, want), "seed \(seed) round \(round) in \(rect): \(got.count) vs \(want.count)")
            }
        }
    }

    @Test("nearest queries equal brute force", arguments: 0..<6)
    func nearestQueries(seed: Int) throws {
        var (scene, sources, rng) = try Self.randomScene(seed: UInt64(seed) &* 1_000_003 &+ 9)
        for round in 0..<6 {
            if round > 0 { scene.camera = try Self.randomCamera(&rng, around: scene.camera.center) }
            let all = S.allFootprints(scene: scene, sources: sources)
            let view = scene.camera.viewSize
            for _ in 0..<20 {
                let p = CGPoint(x: rng.range(0, Double(view.width)), y: rng.range(0, Double(view.height)))
                let within = rng.range(0, 60)
                let q = SIMD2(Double(p.x), Double(p.y))
                let got = scene.nearestFeatures(to: p, within: within)
                let want = S.bruteForce(all) { fp in
                    let d = fp.distance(to: q)
                    return d <= within ? d : nil
                }.enumerated().sorted { $0.element.distance != $1.element.distance ? $0.element.distance < $1.element.distance : $0.offset < $1.offset }
                    .map(\.element)
                #expect(Self.same(got, want), "seed \(seed) round \(round) near \(p): \(got.count) vs \(want.count)")
                #expect(zip(got, want).allSatisfy { $0.distance == $1.distance })
            }
        }
    }

    @Test("an empty identifier set returns nothing; unknown identifiers are ignored")
    func identifiers() throws {
        let (scene, _, _) = try Self.randomScene(seed: 42)
        let rect = CGRect(x: 0, y: 0, width: 390, height: 844)
        #expect(scene.visibleFeatures(in: rect, styleLayerIdentifiers: []).isEmpty)
        #expect(scene.visibleFeatures(in: rect, styleLayerIdentifiers: ["unknown"]).isEmpty)
        #expect(scene.visibleFeatures(in: rect).allSatisfy { $0.layerIdentifier != "hidden" && !$0.layerIdentifier.hasSuffix("-fill") })
    }

    @Test("absurd queries and sizes give defined answers, never a trap")
    func absurdInput() throws {
        let (scene, _, _) = try Self.randomScene(seed: 8)
        #expect(scene.visibleFeatures(at: CGPoint(x: Double.nan, y: 3)).isEmpty)
        #expect(scene.visibleFeatures(in: CGRect(x: -Double.infinity, y: 0, width: 10, height: 10)).isEmpty)
        _ = scene.visibleFeatures(in: CGRect(x: -1e300, y: -1e300, width: 2e300, height: 2e300))
        #expect(scene.nearestFeatures(to: CGPoint(x: 10, y: 10), within: -1).isEmpty)
        _ = scene.nearestFeatures(to: CGPoint(x: 10, y: 10), within: 1e308)
        let huge = StyleLayer(id: "huge", kind: .circle, source: "p", paint: ["circle-radius": S.expr(["get", "r"])])
        let source = GeoJSONSource(id: "p", features: [
            Feature(geometry: .point(Position(longitude: 0, latitude: 0)), properties: ["r": 1e308]),
            Feature(geometry: .point(Position(longitude: 1, latitude: 0)), properties: ["r": "x"]),
        ])
        let big = try Scene(sources: [source], layers: [huge], camera: Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 3, viewSize: CGSize(width: 390, height: 844)))
        #expect(big.visibleFeatures(at: CGPoint(x: 5, y: 5)).count == 1)
    }
}
