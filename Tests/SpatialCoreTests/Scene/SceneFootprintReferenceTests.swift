import Foundation
import Testing
@testable import SpatialCore

/// One feature's footprint against the rules of `projection-and-queries.md` written out from the
/// spec alone (the spec's projection formulas, anchors as fractions of the box, the rotated box's
/// corners, translations turned by the bearing), on seeded random layers and cameras: every
/// `icon-anchor` / `text-anchor`, offsets × sizes, rotations, translations with both anchors under
/// a bearing, paddings, only text, only icon, an unregistered icon; circles with both translate
/// anchors, strokes, zero radius and the opacity rules.
@Suite("Scene footprints against the spec's formulas")
struct SceneFootprintReferenceTests {
    typealias S = SceneTestSupport

    /// The spec's projection: world points at world size `w`.
    static func project(_ lat: Double, _ lng: Double, _ w: Double) -> SIMD2<Double> {
        let phi = min(max(lat, -85.051128779806604), 85.051128779806604)
        return SIMD2(
            (lng + 180) / 360 * w,
            (180 - 180 / Double.pi * log(tan(Double.pi / 4 + phi * Double.pi / 360))) / 360 * w)
    }

    /// The spec's coordinate → point, with the longitude moved to the copy nearest the centre.
    static func screen(_ c: Coordinate, _ camera: Camera) -> SIMD2<Double> {
        var lng = c.longitude
        while lng - camera.center.longitude > 180 { lng -= 360 }
        while lng - camera.center.longitude < -180 { lng += 360 }
        let w = 512 * pow(2, camera.zoom)
        let d = project(c.latitude, lng, w) - project(camera.center.latitude, camera.center.longitude, w)
        let i = camera.insets, v = camera.viewSize
        let a = SIMD2(Double(v.width) / 2 + (i.left - i.right) / 2, Double(v.height) / 2 + (i.top - i.bottom) / 2)
        let t = camera.bearing * Double.pi / 180
        return SIMD2(a.x + d.x * cos(t) + d.y * sin(t), a.y - d.x * sin(t) + d.y * cos(t))
    }

    /// A map-aligned vector (x east, y south) as the screen shows it under the camera's bearing.
    static func turned(_ v: SIMD2<Double>, _ camera: Camera) -> SIMD2<Double> {
        let t = camera.bearing * Double.pi / 180
        return SIMD2(v.x * cos(t) + v.y * sin(t), -v.x * sin(t) + v.y * cos(t))
    }

    /// Edges: min x, min y, max x, max y.
    typealias Box = (Double, Double, Double, Double)

    /// The box of a `w` × `h` symbol whose anchor (named as in the style spec) sits at the origin:
    /// `left` puts the box's left edge on the anchor, `top` its top edge, and so on.
    static func anchored(_ name: String, _ w: Double, _ h: Double) -> Box {
        let fx = name.hasSuffix("left") ? 0.0 : name.hasSuffix("right") ? 1.0 : 0.5
        let fy = name.hasPrefix("top") ? 0.0 : name.hasPrefix("bottom") ? 1.0 : 0.5
        return (-fx * w, -fy * h, (1 - fx) * w, (1 - fy) * h)
    }

    /// The envelope of a box turned `degrees` clockwise on the y-down screen about the origin.
    static func envelope(_ b: Box, _ degrees: Double) -> Box {
        let r = degrees * Double.pi / 180
        var out: Box = (.infinity, .infinity, -.infinity, -.infinity)
        for (x, y) in [(b.0, b.1), (b.2, b.1), (b.0, b.3), (b.2, b.3)] {
            // Clockwise on screen: east (1, 0) turns towards south (0, 1).
            let tx = x * cos(r) - y * sin(r), ty = x * sin(r) + y * cos(r)
            out = (min(out.0, tx), min(out.1, ty), max(out.2, tx), max(out.3, ty))
        }
        return out
    }

    static func moved(_ b: Box, _ d: SIMD2<Double>, pad: Double) -> Box {
        (b.0 + d.x - pad, b.1 + d.y - pad, b.2 + d.x + pad, b.3 + d.y + pad)
    }

    /// How far `q` is inside the box (negative: outside by that much along the nearer axis).
    static func margin(_ b: Box, _ q: SIMD2<Double>) -> Double {
        min(q.x - b.0, b.2 - q.x, q.y - b.1, b.3 - q.y)
    }

    static let anchors = ["center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right"]

    static func randomCamera(_ rng: inout SplitMix, center: Coordinate) throws -> Camera {
        let zoom = rng.int(5) == 0 ? rng.range(0, 3) : rng.range(3, 22)
        let insets = rng.bool() ? EdgeInsets() : EdgeInsets(top: rng.range(0, 120), left: rng.range(0, 90), bottom: rng.range(0, 120), right: rng.range(0, 90))
        return try Camera(
            center: center, zoom: zoom, bearing: rng.bool() ? 0 : rng.range(-360, 360),
            viewSize: CGSize(width: rng.range(200, 500), height: rng.range(300, 900)), insets: insets)
    }

    @Test("symbol boxes: every anchor, offset × size, rotation, translation and padding", arguments: 0..<12)
    func symbols(seed: Int) throws {
        var rng = SplitMix(state: UInt64(seed) &* 6_364_136_223 &+ 11)
        let images = ["wide": CGSize(width: 30, height: 12), "tall": CGSize(width: 8, height: 26)]
        for round in 0..<25 {
            let lng = seed % 3 == 0 ? 179.99 : rng.range(-179, 179)
            let here = Coordinate(latitude: rng.range(-70, 70), longitude: lng)
            let camera = try Self.randomCamera(&rng, center: Coordinate(latitude: here.latitude + rng.range(-0.0005, 0.0005), longitude: here.longitude + rng.range(-0.0005, 0.0005)))
            let iconName = ["wide", "tall", "missing", ""][rng.int(4)]
            let hasIcon = rng.int(4) != 0, hasText = rng.int(4) != 0
            let iconAnchor = Self.anchors[rng.int(9)], textAnchor = Self.anchors[rng.int(9)]
            let iconSize = rng.range(0.3, 2.5), textSize = rng.range(6, 24)
            let iconOffset = SIMD2(rng.range(-10, 10), rng.range(-10, 10)), textOffset = SIMD2(rng.range(-2, 2), rng.range(-2, 2))
            let iconTranslate = SIMD2(rng.range(-15, 15), rng.range(-15, 15)), textTranslate = SIMD2(rng.range(-15, 15), rng.range(-15, 15))
            let iconMap = rng.bool(), textMap = rng.bool()
            let rotate = [0, 90, 45, -30, rng.range(-720, 720)][rng.int(5)]
            let iconPadding = rng.range(0, 5), textPadding = rng.range(0, 5)
            // The text: a string, or a number read from the feature (12 → "12", 2.5 → "2.5").
            let number = [12.0, 2.5, 1000, -3][rng.int(4)]
            let useNumber = rng.bool()
            let word = String(repeating: "ab", count: 1 + rng.int(5))
            let text = useNumber ? (number == number.rounded() ? String(Int(number)) : String(number)) : word
            var layout: [String: SpatialCore.Expression] = [:]
            var paint: [String: SpatialCore.Expression] = [:]
            if hasIcon {
                layout["icon-image"] = S.expr(.string(iconName))
                layout["icon-anchor"] = S.expr(.string(iconAnchor))
                layout["icon-size"] = S.expr(.number(iconSize))
                layout["icon-offset"] = S.expr([.number(iconOffset.x), .number(iconOffset.y)])
                layout["icon-rotate"] = S.expr(.number(rotate))
                layout["icon-padding"] = S.expr(.number(iconPadding))
                paint["icon-translate"] = S.expr([.number(iconTranslate.x), .number(iconTranslate.y)])
                paint["icon-translate-anchor"] = S.expr(iconMap ? "map" : "viewport")
            }
            if hasText {
                layout["text-field"] = useNumber ? S.expr(["get", "n"]) : S.expr(.string(word))
                layout["text-anchor"] = S.expr(.string(textAnchor))
                layout["text-size"] = S.expr(.number(textSize))
                layout["text-offset"] = S.expr([.number(textOffset.x), .number(textOffset.y)])
                layout["text-padding"] = S.expr(.number(textPadding))
                paint["text-translate"] = S.expr([.number(textTranslate.x), .number(textTranslate.y)])
                paint["text-translate-anchor"] = S.expr(textMap ? "map" : "viewport")
            }
            let source = GeoJSONSource(id: "s", features: [
                Feature(id: .number(1), geometry: .point(Position(longitude: here.longitude, latitude: here.latitude)), properties: ["n": .number(number)]),
            ])
            let layer = StyleLayer(id: "sym", kind: .symbol, source: "s", paint: paint, layout: layout)
            let scene = try Scene(sources: [source], layers: [layer], images: images, camera: camera)

            // The reference footprint.
            let p = Self.screen(here, camera)
            var boxes: [Box] = []
            if hasIcon, let image = images[iconName] {
                let w = Double(image.width) * iconSize, h = Double(image.height) * iconSize
                var b = Self.anchored(iconAnchor, w, h)
                b = (b.0 + iconOffset.x * iconSize, b.1 + iconOffset.y * iconSize, b.2 + iconOffset.x * iconSize, b.3 + iconOffset.y * iconSize)
                b = Self.envelope(b, rotate)
                boxes.append(Self.moved(b, p + (iconMap ? Self.turned(iconTranslate, camera) : iconTranslate), pad: iconPadding))
            }
            if hasText {
                let b = Self.anchored(textAnchor, 0.6 * textSize * Double(text.count), 1.2 * textSize)
                let d = p + textOffset * textSize + (textMap ? Self.turned(textTranslate, camera) : textTranslate)
                boxes.append(Self.moved(b, d, pad: textPadding))
            }
            for _ in 0..<60 {
                let q = p + SIMD2(rng.range(-60, 60), rng.range(-60, 60))
                let margins = boxes.map { Self.margin($0, q) }
                guard margins.allSatisfy({ abs($0) > 1e-6 }) else { continue }
                let want = margins.contains { $0 > 0 }
                let got = scene.visibleFeatures(at: CGPoint(x: q.x, y: q.y)).count
                #expect(got == (want ? 1 : 0), "seed \(seed) round \(round) at \(q - p) from the point: \(got), want \(want); icon \(hasIcon) \(iconName) \(iconAnchor) rotate \(rotate), text \(hasText) \(textAnchor) '\(text)'")
                // A rectangle, given with a negative width and height half the time.
                let size = SIMD2(rng.range(0, 20), rng.range(0, 20))
                let r = Box(q.x, q.y, q.x + size.x, q.y + size.y)
                let touches = boxes.contains { b in r.0 < b.2 - 1e-6 && b.0 < r.2 - 1e-6 && r.1 < b.3 - 1e-6 && b.1 < r.3 - 1e-6 }
                let apart = boxes.allSatisfy { b in r.0 > b.2 + 1e-6 || b.0 > r.2 + 1e-6 || r.1 > b.3 + 1e-6 || b.1 > r.3 + 1e-6 }
                guard touches || apart else { continue }
                let rect = rng.bool() ? CGRect(x: q.x, y: q.y, width: size.x, height: size.y)
                    : CGRect(x: q.x + size.x, y: q.y + size.y, width: -size.x, height: -size.y)
                let inRect = scene.visibleFeatures(in: rect).count
                #expect(inRect == (touches ? 1 : 0), "seed \(seed) round \(round) rect \(rect)")
            }
        }
    }

    @Test("circles: translations under a bearing, strokes, strict distance, opacity rules", arguments: 0..<8)
    func circles(seed: Int) throws {
        var rng = SplitMix(state: UInt64(seed) &* 1_442_695_040_888_963_407 &+ 3)
        for round in 0..<40 {
            let here = Coordinate(latitude: rng.range(-70, 70), longitude: seed % 2 == 0 ? -179.995 : rng.range(-179, 179))
            let camera = try Self.randomCamera(&rng, center: Coordinate(latitude: here.latitude + rng.range(-0.0005, 0.0005), longitude: here.longitude + rng.range(-0.0005, 0.0005)))
            let radius = [0, 4, rng.range(1, 30)][rng.int(3)], stroke = [0, 2, rng.range(0, 6)][rng.int(3)]
            let fillOpacity = [0, 1, 0.3][rng.int(3)], strokeOpacity = [0.0, 1][rng.int(2)]
            let translate = SIMD2(rng.range(-20, 20), rng.range(-20, 20))
            let map = rng.bool(), failing = rng.bool()
            let source = GeoJSONSource(id: "s", features: [
                Feature(geometry: .point(Position(longitude: here.longitude, latitude: here.latitude)),
                        properties: ["r": .number(radius), "bad": "x"]),
            ])
            // A data-driven value that fails to evaluate falls back to the default (stroke 0).
            let layer = StyleLayer(id: "c", kind: .circle, source: "s", paint: [
                "circle-radius": S.expr(["get", "r"]), "circle-stroke-width": failing ? S.expr(["*", ["get", "bad"], 1]) : S.expr(.number(stroke)),
                "circle-opacity": S.expr(.number(fillOpacity)), "circle-stroke-opacity": S.expr(.number(strokeOpacity)),
                "circle-translate": S.expr([.number(translate.x), .number(translate.y)]),
                "circle-translate-anchor": S.expr(map ? "map" : "viewport"),
            ])
            let scene = try Scene(sources: [source], layers: [layer], camera: camera)
            let usedStroke = failing ? 0 : stroke
            let r = radius + usedStroke
            let visible = (radius > 0 && fillOpacity > 0) || (usedStroke > 0 && strokeOpacity > 0)
            let c = Self.screen(here, camera) + (map ? Self.turned(translate, camera) : translate)
            for _ in 0..<40 {
                let q = c + SIMD2(rng.range(-40, 40), rng.range(-40, 40))
                let d = ((q - c) * (q - c)).sum().squareRoot()
                guard abs(d - r) > 1e-6 else { continue }
                let got = scene.visibleFeatures(at: CGPoint(x: q.x, y: q.y)).count
                #expect(got == (visible && d < r ? 1 : 0), "seed \(seed) round \(round): d \(d) r \(r) visible \(visible)")
            }
        }
    }

    @Test("a tap exactly on the rim of a circle misses it; a rect at the rim distance misses it too")
    func rim() throws {
        // The feature at the centre with no insets and bearing 0 is drawn at the view's centre exactly.
        let camera = try Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 5, viewSize: CGSize(width: 400, height: 400))
        let source = GeoJSONSource(id: "s", features: [Feature(geometry: .point(Position(longitude: 0, latitude: 0)))])
        let layer = StyleLayer(id: "c", kind: .circle, source: "s", paint: ["circle-radius": S.expr(6), "circle-stroke-width": S.expr(2)])
        let scene = try Scene(sources: [source], layers: [layer], camera: camera)
        #expect(scene.visibleFeatures(at: CGPoint(x: 208, y: 200)).isEmpty)
        #expect(scene.visibleFeatures(at: CGPoint(x: 207.999, y: 200)).count == 1)
        #expect(scene.visibleFeatures(in: CGRect(x: 208, y: 190, width: 5, height: 20)).isEmpty)
        #expect(scene.visibleFeatures(in: CGRect(x: 207.999, y: 190, width: 5, height: 20)).count == 1)
        // Radius 0 and stroke 0: nothing drawn, nothing hit, even at the centre.
        let none = try Scene(sources: [source], layers: [StyleLayer(id: "c", kind: .circle, source: "s", paint: ["circle-radius": S.expr(0.0)])], camera: camera)
        #expect(none.visibleFeatures(in: CGRect(x: 190, y: 190, width: 20, height: 20)).isEmpty)
    }
}
