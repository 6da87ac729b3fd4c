import Foundation
import Testing
import SpatialCore

/// Style documents as MapLibre styles are written, beyond the spec's subset: `feature-state`,
/// `image` and `format` in values (a hover radius reads its no-state branch, an icon falls back to
/// a registered image, a formatted label's box grows with its sections' `font-scale`),
/// `icon-padding` as 1 to 4 sides, and `data` given as a URL. Expected edges come from the spec's
/// footprint formulas at zoom 5 around (0, 0), where a feature at the centre is drawn at the view's
/// centre (200, 200).
struct StyleCompatibilityTests {
    static let camera = try! Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 5,
                                    viewSize: CGSize(width: 400, height: 400))

    static func scene(layers: String, images: [String: CGSize] = [:]) throws -> Scene {
        let doc = #"""
            {"version": 8,
             "sources": {"s": {"type": "geojson", "data": {"type": "Feature", "id": 1,
               "properties": {"name": "Abcdefghij", "icon": "bus"},
               "geometry": {"type": "Point", "coordinates": [0, 0]}}}},
             "layers": [\#(layers)]}
            """#
        return try Scene(styleData: Data(doc.utf8), images: images, camera: camera)
    }

    static func hits(_ scene: Scene, _ x: Double, _ y: Double) -> [String] {
        scene.visibleFeatures(at: CGPoint(x: x, y: y)).map(\.layerIdentifier)
    }

    @Test("a hover radius written with feature-state loads and uses its no-state branch")
    func featureStateRadius() throws {
        let scene = try Self.scene(layers: #"""
            {"id": "c", "type": "circle", "source": "s",
             "paint": {"circle-radius": ["case", ["boolean", ["feature-state", "hover"], false], 20, 6],
                       "circle-opacity": ["coalesce", ["feature-state", "opacity"], 1]}}
            """#)
        // Radius 6: a tap 5.9 points away hits, one 6 points away does not (strictly less).
        #expect(Self.hits(scene, 205.9, 200) == ["c"])
        #expect(Self.hits(scene, 206, 200).isEmpty)
    }

    @Test("feature-state in a filter is a style error naming the layer's filter")
    func featureStateInFilter() {
        #expect {
            _ = try Self.scene(layers: #"""
                {"id": "c", "type": "circle", "source": "s", "filter": ["==", ["feature-state", "hover"], true]}
                """#)
        } throws: { error in
            "\(error)".contains("layers[0].filter")
        }
    }

    @Test("a format label is 0.6 · text-size · Σ(characters · font-scale) wide and 1.2 · text-size · max scale high")
    func formatFontScale() throws {
        // "Abcdefghij" at scale 2 and "xy" at scale 1, text-size 10, no padding: width
        // 0.6 · 10 · (10 · 2 + 2 · 1) = 132 (half 66), height 1.2 · 10 · 2 = 24 (half 12).
        let scene = try Self.scene(layers: #"""
            {"id": "t", "type": "symbol", "source": "s",
             "layout": {"text-field": ["format", ["get", "name"], {"font-scale": 2, "text-font": ["literal", ["Noto Sans"]]}, "xy", {}],
                        "text-size": 10, "text-padding": 0}}
            """#)
        #expect(Self.hits(scene, 200 + 65.9, 200) == ["t"])
        #expect(Self.hits(scene, 200 + 66.1, 200).isEmpty)
        #expect(Self.hits(scene, 200, 200 - 11.9) == ["t"])
        #expect(Self.hits(scene, 200, 200 - 12.1).isEmpty)
        // A rectangle query finds it by the same box.
        #expect(scene.visibleFeatures(in: CGRect(x: 266.1, y: 150, width: 20, height: 100)).isEmpty)
        #expect(scene.visibleFeatures(in: CGRect(x: 265.9, y: 150, width: 20, height: 100)).count == 1)
    }

    @Test("an icon-image that falls back with coalesce of image uses the first registered image")
    func imageFallback() throws {
        let layer = #"""
            {"id": "i", "type": "symbol", "source": "s",
             "layout": {"icon-image": ["coalesce", ["image", ["get", "icon"]], ["image", "fallback"]], "icon-padding": 0}}
            """#
        // Only the fallback (10 × 10) is registered: the box's half width is 5.
        let fallback = try Self.scene(layers: layer, images: ["fallback": CGSize(width: 10, height: 10)])
        #expect(Self.hits(fallback, 204.9, 200) == ["i"])
        #expect(Self.hits(fallback, 205.1, 200).isEmpty)
        // With "bus" (30 × 30) registered it wins: half width 15.
        let bus = try Self.scene(layers: layer, images: ["fallback": CGSize(width: 10, height: 10), "bus": CGSize(width: 30, height: 30)])
        #expect(Self.hits(bus, 214.9, 200) == ["i"])
        #expect(Self.hits(bus, 215.1, 200).isEmpty)
        // Neither registered: no icon, no hit.
        let none = try Self.scene(layers: layer)
        #expect(Self.hits(none, 200, 200).isEmpty)
    }

    @Test("icon-padding takes 1 to 4 numbers as CSS writes a box's sides (MapLibre's padding type)")
    func iconPaddingSides() throws {
        func layer(_ padding: String) -> String {
            #"{"id": "i", "type": "symbol", "source": "s", "layout": {"icon-image": "pin", "icon-padding": \#(padding)}}"#
        }
        let images = ["pin": CGSize(width: 10, height: 10)]
        // The 10 × 10 icon covers x, y ∈ [195, 205]; padding (top 1, right 2, bottom 3, left 4)
        // grows it to x ∈ [191, 207], y ∈ [194, 208].
        let four = try Self.scene(layers: layer("[1, 2, 3, 4]"), images: images)
        for (x, y, hit) in [(191.1, 200.0, true), (190.9, 200, false), (206.9, 200, true), (207.1, 200, false),
                            (200, 194.1, true), (200, 193.9, false), (200, 207.9, true), (200, 208.1, false)] {
            #expect(Self.hits(four, x, y) == (hit ? ["i"] : []), "(\(x), \(y))")
        }
        #expect(four.visibleFeatures(in: CGRect(x: 185, y: 199, width: 6.1, height: 2)).count == 1)
        #expect(four.visibleFeatures(in: CGRect(x: 185, y: 199, width: 5.9, height: 2)).isEmpty)
        // [a, b]: a above and below, b left and right; [a]: a on every side.
        let two = try Self.scene(layers: layer("[1, 3]"), images: images)
        #expect(Self.hits(two, 207.9, 200) == ["i"] && Self.hits(two, 208.1, 200).isEmpty)
        #expect(Self.hits(two, 200, 205.9) == ["i"] && Self.hits(two, 200, 206.1).isEmpty)
        let one = try Self.scene(layers: layer("[3]"), images: images)
        #expect(Self.hits(one, 200, 207.9) == ["i"] && Self.hits(one, 200, 208.1).isEmpty)
        // Not 1 to 4 numbers, or a negative side: an error at the property's path.
        for bad in ["[1, 2, 3, 4, 5]", "[]", "[-1]", "\"a\"", "[1, \"a\"]"] {
            #expect {
                _ = try Self.scene(layers: layer(bad), images: images)
            } throws: { error in
                "\(error)".contains("layers[0].layout.icon-padding")
            }
        }
    }

    @Test("data as a file: URL is read; https: and other URLs are errors naming the source")
    func dataURLs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spatialcore-data-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("one point.geojson")
        try Data(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{}}"#.utf8).write(to: file)
        func style(_ data: String) -> Data {
            Data(#"{"version":8,"sources":{"s":{"type":"geojson","data":"\#(data)"}},"layers":[{"id":"c","type":"circle","source":"s"}]}"#.utf8)
        }
        // By URL (the space written %20), by relative path, and by absolute path: the same point.
        for data in [file.absoluteString, "one point.geojson", file.path] {
            let scene = try Scene(styleData: style(data), baseURL: folder, camera: Self.camera)
            #expect(Self.hits(scene, 200, 200) == ["c"], "\(data)")
        }
        // A base URL naming the style document itself resolves from its folder too.
        let byDocument = try Scene(styleData: style("one point.geojson"),
                                   baseURL: folder.appendingPathComponent("style.json"), camera: Self.camera)
        #expect(Self.hits(byDocument, 200, 200) == ["c"])
        for data in ["https://example.com/points.geojson", "asset://points.geojson", "mapbox://datasets/x"] {
            #expect {
                _ = try Scene(styleData: style(data), baseURL: folder, camera: Self.camera)
            } throws: { error in
                "\(error)".contains("sources.s.data") && "\(error)".contains("is not fetched")
            }
        }
        // A file: URL that does not parse as a URL (a bad percent escape in the host) is an
        // error, not a path.
        #expect {
            _ = try Scene(styleData: style("file://%zz/points.geojson"), camera: Self.camera)
        } throws: { error in
            "\(error)".contains("sources.s.data") && "\(error)".contains("is not a valid file URL")
        }
        #expect {
            _ = try Scene(styleData: style(folder.appendingPathComponent("missing.geojson").absoluteString), camera: Self.camera)
        } throws: { error in
            "\(error)".contains("sources.s.data") && "\(error)".contains("cannot read")
        }
    }
}
