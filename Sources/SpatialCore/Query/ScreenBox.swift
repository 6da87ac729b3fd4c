import Foundation

/// An axis-aligned rectangle in view points (origin top-left, y down), edges included.
public struct ScreenBox: Hashable, Sendable {
    /// The left edge, in points from the view's left.
    public var minX: Double
    /// The top edge, in points from the view's top.
    public var minY: Double
    /// The right edge, in points from the view's left.
    public var maxX: Double
    /// The bottom edge, in points from the view's top.
    public var maxY: Double

    /// A box from its edges. O(1).
    @inlinable public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The box of a `CGRect` (standardised, so a negative width or height is allowed). O(1).
    public init(_ rect: CGRect) {
        let r = rect.standardized
        self.init(minX: Double(r.minX), minY: Double(r.minY), maxX: Double(r.maxX), maxY: Double(r.maxY))
    }

    /// The box as a `CGRect`. O(1).
    public var rect: CGRect { CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) }

    /// The box moved by a vector. O(1).
    @inlinable public func offsetBy(_ d: SIMD2<Double>) -> ScreenBox {
        ScreenBox(minX: minX + d.x, minY: minY + d.y, maxX: maxX + d.x, maxY: maxY + d.y)
    }

    /// The box grown by `amount` on every side (shrunk when negative). O(1).
    @inlinable public func insetBy(_ amount: Double) -> ScreenBox {
        ScreenBox(minX: minX - amount, minY: minY - amount, maxX: maxX + amount, maxY: maxY + amount)
    }

    /// The box grown by `sides` = (top, right, bottom, left) (shrunk where negative). O(1).
    @inlinable public func insetBy(sides: SIMD4<Double>) -> ScreenBox {
        ScreenBox(minX: minX - sides[3], minY: minY - sides[0], maxX: maxX + sides[1], maxY: maxY + sides[2])
    }

    /// Whether the point lies inside or on the edge. O(1).
    @inlinable public func contains(_ p: SIMD2<Double>) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }

    /// Whether the boxes share at least one point (touching counts). O(1).
    @inlinable public func intersects(_ other: ScreenBox) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    /// The distance from a point to the box (0 inside). O(1).
    @inlinable public func distance(to p: SIMD2<Double>) -> Double {
        let dx = max(minX - p.x, 0, p.x - maxX)
        let dy = max(minY - p.y, 0, p.y - maxY)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The smallest box holding both. O(1).
    @inlinable public func union(_ other: ScreenBox) -> ScreenBox {
        ScreenBox(
            minX: min(minX, other.minX), minY: min(minY, other.minY),
            maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }

    /// The envelope of this box turned by `degrees` clockwise (screen y is down) about `pivot`. O(1).
    public func envelopeRotated(by degrees: Double, about pivot: SIMD2<Double>) -> ScreenBox {
        guard degrees.truncatingRemainder(dividingBy: 360) != 0 else { return self }
        let radians = degrees * Double.pi / 180
        let c = cos(radians), s = sin(radians)
        var result = ScreenBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for corner in [SIMD2(minX, minY), SIMD2(maxX, minY), SIMD2(minX, maxY), SIMD2(maxX, maxY)] {
            let d = corner - pivot
            // Clockwise on a y-down screen: x' = x·cos − y·sin, y' = x·sin + y·cos.
            let turned = pivot + SIMD2(d.x * c - d.y * s, d.x * s + d.y * c)
            result.minX = min(result.minX, turned.x)
            result.minY = min(result.minY, turned.y)
            result.maxX = max(result.maxX, turned.x)
            result.maxY = max(result.maxY, turned.y)
        }
        return result
    }
}
