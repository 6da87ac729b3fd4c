/// What a drawn feature covers on screen: the shape a tap or a query rectangle must touch.
///
/// Circles follow `circle-radius + circle-stroke-width` about their (translated) centre; a point
/// hits a circle when strictly inside. Symbols cover one or two screen-aligned boxes (icon and
/// text), each including its padding; touching a box counts.
public enum Footprint: Hashable, Sendable {
    /// A disc of `radius` points about `center`.
    case circle(center: SIMD2<Double>, radius: Double)
    /// The icon box and/or the text box of a symbol (at least one is present).
    case boxes(icon: ScreenBox?, text: ScreenBox?)

    /// Whether a tap at `p` hits the footprint. O(1).
    @inlinable public func contains(_ p: SIMD2<Double>) -> Bool {
        switch self {
        case .circle(let center, let radius):
            let d = p - center
            return (d * d).sum() < radius * radius
        case .boxes(let icon, let text):
            return (icon?.contains(p) ?? false) || (text?.contains(p) ?? false)
        }
    }

    /// Whether the footprint touches a query rectangle: a circle whose centre is inside or whose
    /// distance to the rectangle is less than its radius; a box that intersects it. O(1).
    @inlinable public func intersects(_ rect: ScreenBox) -> Bool {
        switch self {
        case .circle(let center, let radius):
            return rect.contains(center) || rect.distance(to: center) < radius
        case .boxes(let icon, let text):
            return (icon?.intersects(rect) ?? false) || (text?.intersects(rect) ?? false)
        }
    }

    /// The distance from `p` to the footprint's edge (0 when `p` is on or inside it). O(1).
    @inlinable public func distance(to p: SIMD2<Double>) -> Double {
        switch self {
        case .circle(let center, let radius):
            let d = p - center
            return Swift.max(0, (d * d).sum().squareRoot() - radius)
        case .boxes(let icon, let text):
            return Swift.min(icon?.distance(to: p) ?? .infinity, text?.distance(to: p) ?? .infinity)
        }
    }

    /// The footprint's bounding box. O(1).
    @inlinable public var bounds: ScreenBox {
        switch self {
        case .circle(let center, let radius):
            return ScreenBox(minX: center.x - radius, minY: center.y - radius, maxX: center.x + radius, maxY: center.y + radius)
        case .boxes(let icon, let text):
            switch (icon, text) {
            case let (i?, t?): return i.union(t)
            case let (i?, nil): return i
            case let (nil, t?): return t
            case (nil, nil): return ScreenBox(minX: .nan, minY: .nan, maxX: .nan, maxY: .nan)
            }
        }
    }
}
