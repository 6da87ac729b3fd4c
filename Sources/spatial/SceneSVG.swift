import Foundation
import SpatialCore

/// An SVG picture of what a scene shows: circles with their evaluated radius, colour and stroke,
/// symbol icon and text boxes with their labels, bottom layer first; the tapped point and the
/// features it hits highlighted.
///
/// Every drawn feature is one `<g class="feature">` with `data-layer`, `data-source` and, for a
/// cluster, `data-cluster-id` and `data-point-count`, so that tests and people can read it back.
struct SceneSVG {
    var scene: Scene
    var tap: CGPoint?
    var layers: Set<String>?
    /// Colour expressions per layer id (`circle-color`, `circle-stroke-color`, `text-color`),
    /// read from the style document: the scene keeps only the properties its queries need.
    var colours: [String: [String: SpatialCore.Expression]] = [:]

    static let colourProperties = ["circle-color", "circle-stroke-color", "text-color"]

    /// The colour expressions of a style document's layers; a value that does not parse is
    /// left out (drawn in the default colour).
    static func colourExpressions(of style: JSONValue) -> [String: [String: SpatialCore.Expression]] {
        var out: [String: [String: SpatialCore.Expression]] = [:]
        for layer in style["layers"]?.arrayValue ?? [] {
            guard let id = layer["id"]?.stringValue else { continue }
            for group in ["paint", "layout"] {
                for name in colourProperties {
                    if let v = layer[group]?[name], let e = try? SpatialCore.Expression(styleValue: v, interpolatable: false) {
                        out[id, default: [:]][name] = e
                    }
                }
            }
        }
        return out
    }

    func render() -> String {
        let camera = scene.camera
        let w = Double(camera.viewSize.width), h = Double(camera.viewSize.height)
        let view = CGRect(x: 0, y: 0, width: w, height: h)
        // Everything the view shows, topmost first: draw in reverse.
        let shown = scene.visibleFeatures(in: view, styleLayerIdentifiers: layers)
        let hits = tap.map { scene.visibleFeatures(at: $0, styleLayerIdentifiers: layers) } ?? []
        let hitKeys = Set(hits.map(key))
        let byID = Dictionary(scene.layers.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var s = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(f(w))" height="\(f(h))" viewBox="0 0 \(f(w)) \(f(h))" font-family="Helvetica, Arial, sans-serif">
            <title>\(escape("SpatialCore scene at \(camera.center.latitude),\(camera.center.longitude) zoom \(camera.zoom)"))</title>
            <rect class="background" width="100%" height="100%" fill="#f4f1ea"/>

            """
        for vf in shown.reversed() {
            guard let layer = byID[vf.layerIdentifier] else { continue }
            s += feature(vf, layer: layer, hit: hitKeys.contains(key(vf)))
        }
        if let tap {
            let x = Double(tap.x), y = Double(tap.y)
            s += "<g class=\"tap\" data-x=\"\(f(x))\" data-y=\"\(f(y))\" data-hits=\"\(hits.count)\">"
            s += "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"6\" fill=\"none\" stroke=\"#ff6a00\" stroke-width=\"2\"/>"
            s += "<line x1=\"\(f(x - 10))\" y1=\"\(f(y))\" x2=\"\(f(x + 10))\" y2=\"\(f(y))\" stroke=\"#ff6a00\" stroke-width=\"2\"/>"
            s += "<line x1=\"\(f(x))\" y1=\"\(f(y - 10))\" x2=\"\(f(x))\" y2=\"\(f(y + 10))\" stroke=\"#ff6a00\" stroke-width=\"2\"/></g>\n"
        }
        let caption = "zoom \(number(camera.zoom)) · \(shown.count) drawn" + (tap == nil ? "" : " · tap hits \(hits.count)")
        s += "<text x=\"8\" y=\"\(f(h - 8))\" font-size=\"12\" fill=\"#333\">\(escape(caption))</text>\n"
        return s + "</svg>"
    }

    private func key(_ v: VisibleFeature) -> String {
        let id = v.clusterID.map { "c\($0.rawValue)" } ?? v.feature.id.map { "\($0.jsonValue)" } ?? "p\(v.coordinate.latitude),\(v.coordinate.longitude),\(v.properties.hashValue)"
        return "\(v.layerIdentifier)|\(id)"
    }

    private func feature(_ vf: VisibleFeature, layer: StyleLayer, hit: Bool) -> String {
        let camera = scene.camera
        let c = FeatureExpressionContext(feature: vf.feature, zoom: camera.zoom)
        let p = camera.point(for: vf.coordinate)
        let x = Double(p.x), y = Double(p.y)
        func num(_ name: String, _ d: Double) -> Double { layer.value(name)?.evaluateNumber(c, default: d) ?? d }
        func colour(_ name: String, _ d: String) -> String {
            Self.colour((colours[layer.id]?[name] ?? layer.value(name))?.evaluate(c)) ?? d
        }
        var attributes = "class=\"feature \(layer.kind.typeName)\" data-layer=\"\(escape(vf.layerIdentifier))\" data-source=\"\(escape(vf.sourceIdentifier))\""
        if let id = vf.clusterID {
            attributes += " data-cluster-id=\"\(id.rawValue)\""
            if let n = vf.properties["point_count"]?.numberValue { attributes += " data-point-count=\"\(Int(n))\"" }
        }
        if hit { attributes += " data-hit=\"true\"" }
        var s = "<g \(attributes)>"
        switch layer.kind {
        case .circle:
            let radius = max(0, num("circle-radius", 5))
            let stroke = max(0, num("circle-stroke-width", 0))
            let opacity = num("circle-opacity", 1)
            s += "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"\(f(radius))\" fill=\"\(escape(colour("circle-color", "#000000")))\" fill-opacity=\"\(number(opacity))\""
            if stroke > 0 {
                s += " stroke=\"\(escape(colour("circle-stroke-color", "#000000")))\" stroke-width=\"\(f(stroke))\""
            }
            s += "/>"
            if hit {
                s += "<circle class=\"highlight\" cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"\(f(radius + stroke + 3))\" fill=\"none\" stroke=\"#ff6a00\" stroke-width=\"3\"/>"
            }
        case .symbol:
            if let name = layer.value("icon-image")?.evaluate(c)?.stringValue, let image = scene.images[name] {
                let size = num("icon-size", 1)
                let iw = Double(image.width) * size, ih = Double(image.height) * size
                s += "<rect class=\"icon\" x=\"\(f(x - iw / 2))\" y=\"\(f(y - ih / 2))\" width=\"\(f(iw))\" height=\"\(f(ih))\" fill=\"#c0392b\" fill-opacity=\"0.8\" stroke=\"\(hit ? "#ff6a00" : "#7b241c")\" stroke-width=\"\(hit ? 3 : 1)\"><title>\(escape(name))</title></rect>"
            }
            let text = Self.text(layer.value("text-field")?.evaluate(c))
            if !text.isEmpty {
                let size = num("text-size", 16)
                let tw = 0.6 * size * Double(text.count), th = 1.2 * size
                s += "<rect class=\"text-box\" x=\"\(f(x - tw / 2))\" y=\"\(f(y - th / 2))\" width=\"\(f(tw))\" height=\"\(f(th))\" fill=\"none\" stroke=\"\(hit ? "#ff6a00" : "#999")\" stroke-width=\"\(hit ? 2 : 0.5)\" stroke-dasharray=\"2 2\"/>"
                s += "<text class=\"label\" x=\"\(f(x))\" y=\"\(f(y + 0.35 * size))\" font-size=\"\(f(size))\" text-anchor=\"middle\" fill=\"\(escape(colour("text-color", "#000000")))\">\(escape(text))</text>"
            }
        default:
            break
        }
        return s + "</g>\n"
    }

    /// A style colour value as SVG: colour strings pass through; `[r, g, b, a]` arrays (0 … 255,
    /// alpha 0 … 1) become `rgba(…)`.
    static func colour(_ v: JSONValue?) -> String? {
        switch v {
        case .string(let s)?: return s
        case .array(let a)? where a.count >= 3:
            let n = a.map { $0.numberValue ?? 0 }
            return "rgba(\(Int(n[0])),\(Int(n[1])),\(Int(n[2])),\(n.count > 3 ? n[3] : 1))"
        default: return nil
        }
    }

    static func text(_ v: JSONValue?) -> String {
        switch v {
        case .string(let s)?: return s
        case .number(let n)?: return jsonText(.number(n))
        case .bool(let b)?: return b ? "true" : "false"
        default: return ""
        }
    }

    private func f(_ v: Double) -> String { String(format: "%.2f", v) }
    private func number(_ v: Double) -> String { jsonText(.number(v)) }
    private func escape(_ t: String) -> String {
        var out = ""
        for ch in t {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }
}
