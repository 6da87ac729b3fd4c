import Foundation

/// The camera's rotation, for map-aligned translations.
struct SceneRotation {
    let sin: Double
    let cos: Double

    init(bearing: Double) {
        let r = bearing * Double.pi / 180
        sin = Foundation.sin(r)
        cos = Foundation.cos(r)
    }

    /// A map-aligned vector (x east, y south) as drawn on screen.
    @inline(__always) func screen(_ v: SIMD2<Double>) -> SIMD2<Double> {
        SIMD2(v.x * cos + v.y * sin, -v.x * sin + v.y * cos)
    }
}

extension SceneLayer {
    /// The footprint of one feature drawn at screen point `p`, or `nil` when it is invisible
    /// (opacity 0, size 0, no icon and no text, or a symbol on a non-point geometry).
    ///
    /// Text boxes are an approximation (no font metrics): `0.6 · text-size` wide per character of
    /// the evaluated `text-field` and `1.2 · text-size` high (a `format` section's characters and
    /// the line height scaled by its `font-scale`), placed by `text-anchor` and moved by
    /// `text-offset` ems. O(size of the value expressions).
    func footprint<C: ExpressionContext>(
        _ c: C, at p: SIMD2<Double>, geometryType: String, rotation: SceneRotation, images: [String: CGSize]
    ) -> Footprint? {
        let v = values
        switch layer.kind {
        case .circle:
            let radius = max(0, StyleEval.number(v.circleRadius, c, 5))
            let stroke = max(0, StyleEval.number(v.circleStrokeWidth, c, 0))
            let r = radius + stroke
            guard r > 0 else { return nil }
            let fill = StyleEval.number(v.circleOpacity, c, 1) > 0 && radius > 0
            let ring = stroke > 0 && StyleEval.number(v.circleStrokeOpacity, c, 1) > 0
            guard fill || ring else { return nil }
            var t = StyleEval.vector(v.circleTranslate, c)
            if !StyleEval.isViewport(v.circleTranslateAnchor, c) { t = rotation.screen(t) }
            return .circle(center: p + t, radius: r)
        case .symbol:
            guard geometryType == "Point" || geometryType == "MultiPoint" else { return nil }
            var icon: ScreenBox?
            if let name = StyleEval.string(v.iconImage, c), !name.isEmpty, let image = images[name] {
                let size = StyleEval.number(v.iconSize, c, 1)
                let w = Double(image.width) * size, h = Double(image.height) * size
                if w > 0, h > 0, StyleEval.number(v.iconOpacity, c, 1) > 0 {
                    var box = StyleEval.anchor(v.iconAnchor, c).box(width: w, height: h)
                        .offsetBy(StyleEval.vector(v.iconOffset, c) * size)
                    let rotate = StyleEval.number(v.iconRotate, c, 0)
                    if rotate != 0 { box = box.envelopeRotated(by: rotate, about: .zero) }
                    var t = StyleEval.vector(v.iconTranslate, c)
                    if !StyleEval.isViewport(v.iconTranslateAnchor, c) { t = rotation.screen(t) }
                    icon = box.offsetBy(p + t).insetBy(sides: StyleEval.padding(v.iconPadding, c, 2))
                }
            }
            var text: ScreenBox?
            let measure = StyleEval.textMeasure(v.textField, c)
            if measure.x > 0 {
                let size = StyleEval.number(v.textSize, c, 16)
                if size > 0, StyleEval.number(v.textOpacity, c, 1) > 0 {
                    let box = StyleEval.anchor(v.textAnchor, c)
                        .box(width: 0.6 * size * measure.x, height: 1.2 * size * measure.y)
                        .offsetBy(StyleEval.vector(v.textOffset, c) * size)
                    var t = StyleEval.vector(v.textTranslate, c)
                    if !StyleEval.isViewport(v.textTranslateAnchor, c) { t = rotation.screen(t) }
                    text = box.offsetBy(p + t).insetBy(StyleEval.number(v.textPadding, c, 2))
                }
            }
            if icon == nil && text == nil { return nil }
            return .boxes(icon: icon, text: text)
        case .other:
            return nil
        }
    }

    /// The reach bound (points) of a layer over the items of one source level; see ``SceneLayer``.
    /// O(items · data-driven values · sample zooms).
    static func reach(
        of layer: StyleLayer, values v: LayerValues, index: SceneSourceIndex, level: Int, images: [String: CGSize]
    ) -> Double {
        let interval = index.zoomInterval(ofLevel: level)
        let slots = index.levelSlots[level]
        // The largest of `measure` over the level's items and the sample zooms.
        func maximum(_ e: Expression?, _ absent: Double, _ measure: (Expression, JSONObjectExpressionContext) -> Double) -> Double {
            guard let e else { return absent }
            var zooms = [interval.lowerBound, interval.upperBound]
            zooms += zoomStops(e).filter { interval.contains($0) }
            var best = 0.0
            if e.isFeatureConstant {
                for z in zooms {
                    best = max(best, measure(e, JSONObjectExpressionContext(properties: JSONObject(), zoom: z, images: images)))
                }
                return best
            }
            for s in slots {
                let f = index.features[Int(s)]
                var c = JSONObjectExpressionContext(
                    properties: f.properties, zoom: 0, featureID: f.id, geometryType: index.geometryTypes[Int(s)],
                    images: images)
                for z in zooms {
                    c.zoom = z
                    best = max(best, measure(e, c))
                }
            }
            return best
        }
        func number(_ e: Expression?, _ d: Double) -> Double {
            maximum(e, abs(d)) { e, c in abs(e.evaluateNumber(c, default: d)) }
        }
        func vector(_ e: Expression?) -> Double {
            maximum(e, 0) { e, c in
                let t = StyleEval.vector(e, c)
                return (t * t).sum().squareRoot()
            }
        }
        let sqrt2 = 2.0.squareRoot()
        switch layer.kind {
        case .circle:
            return number(v.circleRadius, 5) + number(v.circleStrokeWidth, 0) + vector(v.circleTranslate)
        case .symbol:
            var reach = 0.0
            if v.iconImage != nil {
                func diagonal(_ s: CGSize) -> Double { (Double(s.width * s.width + s.height * s.height)).squareRoot() }
                let image = maximum(v.iconImage, 0) { e, c in
                    guard let name = StyleEval.string(e, c), let s = images[name] else { return 0 }
                    return diagonal(s)
                }
                let rotates = v.iconRotate.map { !($0.isFeatureConstant && !$0.isZoomDependent && number($0, 0) == 0) } ?? false
                let turned = number(v.iconSize, 1) * (image + vector(v.iconOffset)) * (rotates ? sqrt2 : 1)
                let padding = maximum(v.iconPadding, 2) { e, c in
                    let sides = StyleEval.padding(e, c, 2)
                    return max(max(abs(sides[0]), abs(sides[1])), max(abs(sides[2]), abs(sides[3])))
                }
                reach = max(reach, turned + vector(v.iconTranslate) + sqrt2 * padding)
            }
            if v.textField != nil {
                let characters = maximum(v.textField, 0) { e, c in StyleEval.textMeasure(e, c).x }
                let line = 1.2 * maximum(v.textField, 0) { e, c in StyleEval.textMeasure(e, c).y }
                let diagonal = ((0.6 * characters) * (0.6 * characters) + line * line).squareRoot()
                let box = number(v.textSize, 16) * (diagonal + vector(v.textOffset))
                reach = max(reach, box + vector(v.textTranslate) + sqrt2 * number(v.textPadding, 2))
            }
            return reach
        case .other:
            return 0
        }
    }

    /// The zoom stops of a top-level zoom `step` / `interpolate`. O(stops).
    static func zoomStops(_ e: Expression) -> [Double] {
        switch e.root {
        case .step(.zoom, let stops, _), .interpolate(_, .zoom, let stops, _): stops
        default: []
        }
    }
}
