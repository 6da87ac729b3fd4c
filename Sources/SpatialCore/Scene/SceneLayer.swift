import Foundation

/// A layer prepared for queries: its values looked up once, its source resolved, and per level of
/// its source an upper bound of how far (in points) any footprint reaches from its feature's point.
///
/// **How data-driven sizes are bounded.** Within one source level the same items are drawn at
/// every zoom of the level's interval `[L, L+1)` (the last level serves up to zoom 24). A zoom
/// value may only be a top-level `step` or `interpolate` of the zoom (`expressions.md`), so
/// between consecutive zoom stops each feature's value is monotone (interpolation between two
/// outputs, or constant): its maximum over the interval is reached at the interval's ends or at a
/// stop inside it. Each value is therefore evaluated for every item of the level at those sample
/// zooms (once, when it reads no feature data) and its largest magnitude kept. The footprint's
/// reach is composed from those maxima: a circle reaches `radius + stroke + |translate|`; an icon
/// `icon-size · (image diagonal + |icon-offset|)` (× √2 when it may be rotated, for the
/// envelope) `+ |icon-translate| + √2 · padding`; a text box `text-size · (diagonal of the
/// widest text + |text-offset|) + |text-translate| + √2 · padding`. Each term bounds its part for
/// every feature and zoom of the level, so a k-d search with this radius never misses a hit.
struct SceneLayer: Sendable {
    let layer: StyleLayer
    /// The index of the layer's source in the scene, or −1.
    let source: Int
    let values: LayerValues
    /// Per level of the source: the reach bound in points.
    let reach: [Double]
}

/// The paint/layout values a footprint needs (nil: the property's default).
struct LayerValues: Sendable {
    let circleRadius, circleStrokeWidth, circleTranslate, circleTranslateAnchor: Expression?
    let circleOpacity, circleStrokeOpacity: Expression?
    let iconImage, iconSize, iconAnchor, iconOffset, iconRotate, iconTranslate, iconTranslateAnchor: Expression?
    let iconOpacity, iconPadding: Expression?
    let textField, textSize, textAnchor, textOffset, textTranslate, textTranslateAnchor: Expression?
    let textOpacity, textPadding: Expression?
    /// Whether a value uses the `image` operator, whose result depends on the registered images
    /// (only then does a query's context carry them).
    let readsImages: Bool

    init(_ l: StyleLayer) {
        circleRadius = l.value("circle-radius")
        circleStrokeWidth = l.value("circle-stroke-width")
        circleTranslate = l.value("circle-translate")
        circleTranslateAnchor = l.value("circle-translate-anchor")
        circleOpacity = l.value("circle-opacity")
        circleStrokeOpacity = l.value("circle-stroke-opacity")
        iconImage = l.value("icon-image")
        iconSize = l.value("icon-size")
        iconAnchor = l.value("icon-anchor")
        iconOffset = l.value("icon-offset")
        iconRotate = l.value("icon-rotate")
        iconTranslate = l.value("icon-translate")
        iconTranslateAnchor = l.value("icon-translate-anchor")
        iconOpacity = l.value("icon-opacity")
        iconPadding = l.value("icon-padding")
        textField = l.value("text-field")
        textSize = l.value("text-size")
        textAnchor = l.value("text-anchor")
        textOffset = l.value("text-offset")
        textTranslate = l.value("text-translate")
        textTranslateAnchor = l.value("text-translate-anchor")
        textOpacity = l.value("text-opacity")
        textPadding = l.value("text-padding")
        readsImages = l.layout.values.contains { $0.readsImages } || l.paint.values.contains { $0.readsImages }
    }
}

/// Evaluation of style values with their defaults (an error, null or NaN gives the default).
enum StyleEval {
    @inline(__always)
    static func number<C: ExpressionContext>(_ e: Expression?, _ c: C, _ d: Double) -> Double {
        guard let e else { return d }
        return e.evaluateNumber(c, default: d)
    }

    /// A two-number array value, else (0, 0).
    static func vector<C: ExpressionContext>(_ e: Expression?, _ c: C) -> SIMD2<Double> {
        guard let e, case .array(let a)? = e.evaluate(c), a.count == 2,
            let x = a[0].numberValue, let y = a[1].numberValue, x.isFinite, y.isFinite
        else { return .zero }
        return SIMD2(x, y)
    }

    /// A padding value as (top, right, bottom, left): a number on every side, or 1 to 4 numbers
    /// as CSS writes them (all; vertical, horizontal; top, horizontal, bottom; top, right,
    /// bottom, left); anything else gives `d` on every side.
    static func padding<C: ExpressionContext>(_ e: Expression?, _ c: C, _ d: Double) -> SIMD4<Double> {
        guard let e, let v = e.evaluate(c) else { return SIMD4(repeating: d) }
        switch v {
        case .number(let n) where n.isFinite:
            return SIMD4(repeating: n)
        case .array(let a) where (1...4).contains(a.count):
            // Read into a vector, not an array: this runs for every candidate of a query.
            var n = SIMD4<Double>(repeating: 0)
            for (i, item) in a.enumerated() {
                guard let x = item.numberValue, x.isFinite else { return SIMD4(repeating: d) }
                n[i] = x
            }
            switch a.count {
            case 1: return SIMD4(repeating: n[0])
            case 2: return SIMD4(n[0], n[1], n[0], n[1])
            case 3: return SIMD4(n[0], n[1], n[2], n[1])
            default: return n
            }
        default:
            return SIMD4(repeating: d)
        }
    }

    /// A string value (`icon-image`, anchors): non-strings give `nil`.
    static func string<C: ExpressionContext>(_ e: Expression?, _ c: C) -> String? {
        guard let e, case .string(let s)? = e.evaluate(c) else { return nil }
        return s
    }

    /// The text of `text-field`: strings as they are, numbers and Booleans formatted as
    /// `to-string` does; null, errors and absent values give "".
    static func text<C: ExpressionContext>(_ e: Expression?, _ c: C) -> String {
        guard let e, let v = e.evaluate(c) else { return "" }
        switch v {
        case .string(let s): return s
        case .number, .bool: return JSONText.string(of: v)
        default: return ""
        }
    }

    /// The size of the text of `text-field` in characters at `text-size`: its width (a `format`
    /// section's characters count times its `font-scale`, 1 when not given; an image section
    /// counts none) and its line height (1, or the largest scale of a section with text); (0, 0)
    /// for no text.
    static func textMeasure<C: ExpressionContext>(_ e: Expression?, _ c: C) -> SIMD2<Double> {
        guard let e else { return .zero }
        guard let sections = e.formatSections else {
            let n = Double(text(e, c).count)
            return n > 0 ? SIMD2(n, 1) : .zero
        }
        var size = SIMD2<Double>.zero
        for section in sections {
            // An error in any section fails the whole value, as `format` itself does.
            guard let text = section.text(c) else { return .zero }
            let n = Double(text.count)
            var scale = 1.0
            if let s = section.scale {
                guard let x = s.number(c) else { return .zero }
                scale = x.isFinite && x > 0 ? x : 0
            }
            if n > 0 && scale > 0 { size = SIMD2(size.x + n * scale, Swift.max(size.y, scale)) }
        }
        return size
    }

    static func anchor<C: ExpressionContext>(_ e: Expression?, _ c: C) -> SymbolAnchor {
        string(e, c).flatMap(SymbolAnchor.init(rawValue:)) ?? .center
    }

    /// Whether a translate anchor is `viewport` (else `map`, the default).
    static func isViewport<C: ExpressionContext>(_ e: Expression?, _ c: C) -> Bool {
        string(e, c) == "viewport"
    }
}
