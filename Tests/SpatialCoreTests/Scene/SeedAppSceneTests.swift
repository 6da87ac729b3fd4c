import Foundation
import Testing
@testable import SpatialCore

/// The lighthouse, points-of-interest and data-driven earthquake examples reproduced as scenes.
@Suite("Seed-app scenes")
struct SeedAppSceneTests {
    typealias S = SceneTestSupport

    static func lighthouseScene(_ features: [Feature], zoom: Double, center: Coordinate) throws -> Scene {
        let source = GeoJSONSource(id: "lighthouses", features: features)
        let layers = [
            StyleLayer(id: "lighthouse-circles", kind: .circle, source: "lighthouses",
                       paint: ["circle-radius": S.expr(["interpolate", ["linear"], ["zoom"], 2, 2, 7, 3])]),
            StyleLayer(id: "lighthouse-symbols", kind: .symbol, source: "lighthouses",
                       paint: ["icon-opacity": try SpatialCore.Expression(styleValue: ["stops": [[5.9, 0], [6, 1]]], interpolatable: true)],
                       layout: ["icon-image": S.expr("lighthouse"), "text-field": S.expr(["get", "name"]),
                                "text-size": S.expr(12), "text-offset": S.expr([1.25, 0]), "text-anchor": S.expr("left")]),
        ]
        return try Scene(sources: [source], layers: layers, images: ["lighthouse": CGSize(width: 16, height: 16)],
                         camera: Camera(center: center, zoom: zoom, viewSize: CGSize(width: 390, height: 844)))
    }

    static func points(_ features: [Feature]) -> [(Int, Coordinate)] {
        features.enumerated().compactMap { i, f in
            if case .point(let p)? = f.geometry { return (i, p.coordinate) }
            return nil
        }
    }

    @Test("lighthouses: a tap exactly on a point hits it; below zoom 6 only the circle is hit")
    func lighthouseTaps() throws {
        guard let features = SceneTestSupport.dataset("places.json") else { return }
        for (i, c) in Self.points(features).prefix(40) {
            for zoom in [7.0, 5.0] {
                let scene = try Self.lighthouseScene(features, zoom: zoom, center: c)
                let hits = scene.visibleFeatures(at: scene.camera.point(for: c))
                let mine = hits.filter { $0.feature == features[i] }
                if zoom >= 6 {
                    #expect(mine.map(\.layerIdentifier) == ["lighthouse-symbols", "lighthouse-circles"])
                } else {
                    #expect(mine.map(\.layerIdentifier) == ["lighthouse-circles"])
                }
                // The label starts 15 points to the right (1.25 em of 12 points), less padding 2.
                let label = scene.camera.point(for: c)
                let onText = scene.visibleFeatures(at: CGPoint(x: label.x + 14, y: label.y), styleLayerIdentifiers: ["lighthouse-symbols"])
                let name = features[i].properties["name"]?.stringValue ?? ""
                #expect(onText.contains { $0.feature == features[i] } == !name.isEmpty)
                #expect(!scene.visibleFeatures(at: CGPoint(x: label.x - 12.1, y: label.y), styleLayerIdentifiers: ["lighthouse-symbols"])
                    .contains { $0.feature == features[i] })
            }
        }
    }

    @Test("lighthouses: the 44×44 fallback then the nearest by ground distance returns the closest")
    func lighthouseFallback() throws {
        guard let features = SceneTestSupport.dataset("places.json") else { return }
        var rng = SplitMix(state: 99)
        let pts = Self.points(features)
        for (_, c) in pts.prefix(30) {
            let scene = try Self.lighthouseScene(features, zoom: 4, center: c)
            let target = scene.camera.point(for: c)
            let tap = CGPoint(x: target.x + rng.range(-15, 15), y: target.y + rng.range(-15, 15))
            let box = CGRect(x: tap.x - 22, y: tap.y - 22, width: 44, height: 44)
            let tapCoordinate = scene.camera.coordinate(for: tap)
            let found = scene.visibleFeatures(in: box, styleLayerIdentifiers: ["lighthouse-circles"])
            let best = try #require(found.min { $0.groundDistance(from: tapCoordinate) < $1.groundDistance(from: tapCoordinate) })
            // The closest of all points whose circle touches the box, by a scan of every point.
            let radius = 2 + (4 - 2) / 5.0
            let touching = pts.filter { _, q in
                let p = scene.camera.point(for: q)
                return ScreenBox(box).contains(SIMD2(Double(p.x), Double(p.y))) || ScreenBox(box).distance(to: SIMD2(Double(p.x), Double(p.y))) < radius
            }
            let want = try #require(touching.min { $0.1.distance(to: tapCoordinate) < $1.1.distance(to: tapCoordinate) })
            #expect(best.feature == features[want.0])
            #expect(Set(found.map(\.coordinate)) == Set(touching.map(\.1.wrapped)))
            // nearestFeatures ranks by screen distance to the footprint: the target is within reach.
            #expect(scene.nearestFeatures(to: tap, within: 22).contains { $0.feature == features[want.0] })
        }
    }

    @Test("points of interest: an icon per type; a feature whose icon is \"\" is not hit")
    func pointsOfInterest() throws {
        var rng = SplitMix(state: 7)
        let types = ["Cafe", "Bakery", "Library", "Theatre", "Unknown"]
        let features = (0..<300).map { i in
            Feature(id: .number(Double(i)), geometry: .point(Position(longitude: -77 + rng.range(0, 0.05), latitude: 38.9 + rng.range(0, 0.05))),
                    properties: ["POITYPE": .string(types[rng.int(types.count)])])
        }
        let layer = StyleLayer(id: "poi", kind: .symbol, source: "poi", layout: [
            "icon-image": S.expr(["match", ["get", "POITYPE"], "Cafe", "cafe", "Bakery", "bakery", "Library", "library", "Theatre", "theatre", ""]),
        ])
        let images = ["cafe": CGSize(width: 20, height: 20), "bakery": CGSize(width: 18, height: 24),
                      "library": CGSize(width: 24, height: 18), "theatre": CGSize(width: 20, height: 20)]
        let scene = try Scene(sources: [GeoJSONSource(id: "poi", features: features)], layers: [layer], images: images,
                              camera: Camera(center: Coordinate(latitude: 38.925, longitude: -76.975), zoom: 14, viewSize: CGSize(width: 390, height: 844)))
        var hidden = 0, shown = 0
        for f in features {
            guard case .point(let p)? = f.geometry else { continue }
            let hits = scene.visibleFeatures(at: scene.camera.point(for: p.coordinate))
            if f.properties["POITYPE"] == .string("Unknown") {
                #expect(!hits.contains { $0.feature == f })
                hidden += 1
            } else {
                #expect(hits.contains { $0.feature == f })
                shown += 1
            }
        }
        #expect(hidden > 0 && shown > 0)
    }

    @Test("earthquakes: a tap hits exactly the quakes whose magnitude-sized circle covers it", arguments: [3.0, 5.5, 8])
    func earthquakes(zoom: Double) throws {
        guard let features = SceneTestSupport.dataset("earthquakes.geojson") else { return }
        let layer = StyleLayer(id: "quakes", kind: .circle, source: "quakes", paint: [
            "circle-radius": try SpatialCore.Expression(styleValue: ["property": "mag", "type": "identity"], interpolatable: true),
            "circle-color": try SpatialCore.Expression(styleValue: ["property": "mag", "type": "interval", "stops": [[0, "#fff"], [3, "#f80"], [6, "#f00"]]]),
            "circle-stroke-color": try SpatialCore.Expression(styleValue: ["property": "tsunami", "type": "categorical", "stops": [[0, "#000"], [1, "#00f"]]]),
        ])
        let pts = Self.points(features)
        var rng = SplitMix(state: UInt64(zoom * 10))
        var total = 0
        for _ in 0..<25 {
            let (_, c) = pts[rng.int(pts.count)]
            let scene = try Scene(sources: [GeoJSONSource(id: "quakes", features: features)], layers: [layer],
                                  camera: Camera(center: c, zoom: zoom, viewSize: CGSize(width: 390, height: 844)))
            for _ in 0..<10 {
                let centre = scene.camera.point(for: c)
                let tap = CGPoint(x: centre.x + rng.range(-8, 8), y: centre.y + rng.range(-8, 8))
                let got = scene.visibleFeatures(at: tap)
                // Every quake, scanned in drawing order (last drawn first), covered by its circle.
                let want = pts.reversed().filter { i, q in
                    let p = scene.camera.point(for: q)
                    let mag = features[i].properties["mag"]?.numberValue ?? 5
                    return hypot(Double(p.x - tap.x), Double(p.y - tap.y)) < max(0, mag)
                }.map { features[$0.0] }
                #expect(got.map(\.feature) == want)
                total += got.count
            }
        }
        #expect(total > 0)
    }
}
