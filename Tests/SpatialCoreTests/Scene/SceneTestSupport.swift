import Foundation
@testable import SpatialCore

/// Helpers for scene tests: expressions from JSON literals, the seed-app scenes, and a brute-force
/// reference that scans every drawn item of every layer (no index) and applies the footprint rules
/// of `projection-and-queries.md` written out independently of the scene's code.
enum SceneTestSupport {
    /// The features of a real dataset read with the library's GeoJSON reader, or nil (with a
    /// note) when the file is absent.
    static func dataset(_ file: String) -> [Feature]? {
        guard let bytes = TestData.dataset(file) else { return nil }
        return try? GeoJSON.read(bytes).features
    }

    static func expr(_ json: JSONValue) -> SpatialCore.Expression {
        try! SpatialCore.Expression(styleValue: json)
    }

    static func filter(_ json: JSONValue) -> SpatialCore.Expression {
        try! SpatialCore.Expression(filter: json)
    }

    /// One drawn feature of a layer's source at a zoom, in draw order, with every position it is
    /// drawn at (several for a MultiPoint or a line's vertices; a query reports it once per layer).
    struct Item {
        let feature: Feature
        let positions: [SIMD2<Double>]
        let geometryType: String
    }

    /// Every drawn item of a source at `zoom`, bottom first: the level's items in the order the
    /// cluster index lists the whole world (`clusters(in:zoom:)`), or the features' positions.
    static func items(of source: GeoJSONSource, in scene: Scene, zoom: Double) -> [Item] {
        if let index = scene.clusterIndex(forSource: source.id) {
            return index.clusters(in: [-180, -90, 180, 90], zoom: zoom).map { item in
                switch item {
                case .cluster(let c):
                    let w = c.coordinate.wrapped
                    return Item(
                        feature: Feature(id: .number(Double(c.id.rawValue)),
                                         geometry: .point(Position(longitude: w.longitude, latitude: w.latitude)),
                                         properties: c.properties),
                        positions: [c.mercator], geometryType: "Point")
                case .point(let p):
                    return Item(
                        feature: Feature(id: p.id, geometry: .point(Position(longitude: p.coordinate.wrapped.longitude, latitude: p.coordinate.latitude)),
                                         properties: p.properties),
                        positions: [p.mercator], geometryType: "Point")
                }
            }
        }
        var result: [Item] = []
        for f in source.features {
            guard let g = f.geometry else { continue }
            let positions = SceneSourceIndex.positions(of: g).map { WebMercator.projectUnit($0.coordinate.wrapped) }
            // Coordinates a scene returns have their longitude wrapped (a Point's geometry too).
            var drawn = f
            if case .point(var p) = g { p.longitude = p.coordinate.wrapped.longitude; drawn.geometry = .point(p) }
            result.append(Item(feature: drawn, positions: positions, geometryType: g.typeName))
        }
        return result
    }

    /// Every drawn footprint of the scene (all world copies that can be in view), topmost layer
    /// first and drawn-last first, after the layer filters, zoom ranges and the predicate.
    static func allFootprints(
        scene: Scene, sources: [GeoJSONSource], layerIDs: Set<String>? = nil, predicate: SpatialCore.Expression? = nil
    ) -> [(layer: String, feature: Feature, footprints: [Footprint])] {
        let camera = scene.camera
        let z = camera.zoom
        let w = camera.worldSize
        let copies = z < 3 ? -4...4 : -1...1
        var out: [(String, Feature, [Footprint])] = []
        for layer in scene.layers.reversed() {
            if let layerIDs, !layerIDs.contains(layer.id) { continue }
            guard layer.isVisible, layer.minZoom <= z, z < layer.maxZoom,
                let sourceID = layer.source, let source = sources.first(where: { $0.id == sourceID })
            else { continue }
            for item in items(of: source, in: scene, zoom: z).reversed() {
                let c = JSONObjectExpressionContext(
                    properties: item.feature.properties, zoom: z, featureID: item.feature.id, geometryType: item.geometryType)
                if let f = layer.filter, !f.evaluateFilter(c) { continue }
                if let predicate, !predicate.evaluateFilter(c) { continue }
                var fps: [Footprint] = []
                for m in item.positions {
                    for k in copies {
                        let p = camera.viewPoint(forWorldPoint: (m + SIMD2(Double(k), 0)) * w)
                        guard let fp = footprint(layer, c, SIMD2(Double(p.x), Double(p.y)), item.geometryType, scene) else { break }
                        fps.append(fp)
                    }
                }
                if !fps.isEmpty { out.append((layer.id, item.feature, fps)) }
            }
        }
        return out
    }

    /// The brute-force answer over ``allFootprints``: `test` gives the distance when a footprint
    /// counts, else nil; the smallest over the copies is kept.
    static func bruteForce(
        _ all: [(layer: String, feature: Feature, footprints: [Footprint])], test: (Footprint) -> Double?
    ) -> [(layer: String, feature: Feature, distance: Double)] {
        var out: [(String, Feature, Double)] = []
        for entry in all {
            var best: Double?
            for fp in entry.footprints { if let d = test(fp) { best = min(best ?? .infinity, d) } }
            if let best { out.append((entry.layer, entry.feature, best)) }
        }
        return out
    }

    /// The footprint rules of the spec, written out for the reference.
    static func footprint(_ l: StyleLayer, _ c: JSONObjectExpressionContext, _ p: SIMD2<Double>, _ type: String, _ scene: Scene) -> Footprint? {
        func num(_ n: String, _ d: Double) -> Double {
            guard let e = l.value(n), let v = e.evaluate(c)?.numberValue, !v.isNaN else { return d }
            return v
        }
        func vec(_ n: String) -> SIMD2<Double> {
            guard let e = l.value(n), case .array(let a)? = e.evaluate(c), a.count == 2,
                let x = a[0].numberValue, let y = a[1].numberValue else { return .zero }
            return SIMD2(x, y)
        }
        func str(_ n: String) -> String? { l.value(n)?.evaluate(c)?.stringValue }
        func moved(_ t: SIMD2<Double>, _ anchorName: String) -> SIMD2<Double> {
            if str(anchorName) == "viewport" { return t }
            let b = scene.camera.bearing * Double.pi / 180
            return SIMD2(t.x * cos(b) + t.y * sin(b), -t.x * sin(b) + t.y * cos(b))
        }
        switch l.kind {
        case .circle:
            let radius = max(0, num("circle-radius", 5)), stroke = max(0, num("circle-stroke-width", 0))
            let visible = (radius > 0 && num("circle-opacity", 1) > 0) || (stroke > 0 && num("circle-stroke-opacity", 1) > 0)
            guard radius + stroke > 0, visible else { return nil }
            return .circle(center: p + moved(vec("circle-translate"), "circle-translate-anchor"), radius: radius + stroke)
        case .symbol:
            guard type == "Point" || type == "MultiPoint" else { return nil }
            var icon: ScreenBox?
            if let name = str("icon-image"), let image = scene.images[name] {
                let s = num("icon-size", 1)
                let w = Double(image.width) * s, h = Double(image.height) * s
                if w > 0, h > 0, num("icon-opacity", 1) > 0 {
                    let anchor = str("icon-anchor").flatMap(SymbolAnchor.init(rawValue:)) ?? .center
                    let box = anchor.box(width: w, height: h).offsetBy(vec("icon-offset") * s)
                        .envelopeRotated(by: num("icon-rotate", 0), about: .zero)
                    icon = box.offsetBy(p + moved(vec("icon-translate"), "icon-translate-anchor")).insetBy(num("icon-padding", 2))
                }
            }
            var text: ScreenBox?
            var string = ""
            if let v = l.value("text-field")?.evaluate(c) {
                switch v {
                case .string(let s): string = s
                case .number(let n): string = n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
                default: break
                }
            }
            let size = num("text-size", 16)
            if !string.isEmpty, size > 0, num("text-opacity", 1) > 0 {
                let anchor = str("text-anchor").flatMap(SymbolAnchor.init(rawValue:)) ?? .center
                let box = anchor.box(width: 0.6 * size * Double(string.count), height: 1.2 * size).offsetBy(vec("text-offset") * size)
                text = box.offsetBy(p + moved(vec("text-translate"), "text-translate-anchor")).insetBy(num("text-padding", 2))
            }
            if icon == nil && text == nil { return nil }
            return .boxes(icon: icon, text: text)
        case .other:
            return nil
        }
    }

    /// The fire-hydrant scene of the Mapbox clustering example over a dataset.
    static func hydrantScene(_ features: [Feature], withProperties: Bool, center: Coordinate) throws -> (Scene, [GeoJSONSource]) {
        let properties: ClusterPropertyExpressions = withProperties
            ? try ClusterPropertyExpressions(json: [
                "max": ["max", ["get", "FLOW"]],
                "in_27": ["any", ["==", ["get", "STATION"], "27"]],
                "sum": [["+", ["accumulated"], ["get", "sum"]], ["get", "FLOW"]],
            ])
            : ClusterPropertyExpressions()
        let source = GeoJSONSource(
            id: "hydrants", features: features, isClustered: true,
            clusterOptions: MapLibreOptions(clusterRadius: 75), clusterProperties: properties)
        let layers = [
            StyleLayer(
                id: "unclustered-point-layer", kind: .symbol, source: "hydrants", filter: filter(["!", ["has", "point_count"]]),
                layout: ["icon-image": expr("hydrant"), "icon-rotate": expr(["%", ["get", "FLOW"], 360])]),
            StyleLayer(
                id: "clustered-circle-layer", kind: .circle, source: "hydrants", filter: filter(["has", "point_count"]),
                paint: ["circle-radius": expr(25), "circle-color": expr("#1e90ff")]),
            StyleLayer(
                id: "cluster-count-layer", kind: .symbol, source: "hydrants", filter: filter(["has", "point_count"]),
                layout: ["text-field": expr(["get", "point_count"]), "text-size": expr(12)]),
        ]
        let camera = try Camera(center: center, zoom: 11, viewSize: CGSize(width: 390, height: 844))
        let scene = try Scene(sources: [source], layers: layers, images: ["hydrant": CGSize(width: 22, height: 22)], camera: camera)
        return (scene, [source])
    }

    /// The centre of a dataset's points (mean of latitudes and longitudes).
    static func center(of features: [Feature]) -> Coordinate {
        var lat = 0.0, lng = 0.0, n = 0.0
        for f in features {
            if case .point(let p)? = f.geometry {
                lat += p.latitude
                lng += p.longitude
                n += 1
            }
        }
        return Coordinate(latitude: lat / n, longitude: lng / n)
    }
}
