/// The smallest and largest unit-Mercator coordinates of some points or level items: the extent
/// a grid numbers its cells over. Infinite (min +∞, max −∞) while empty.
struct ItemBounds {
    var minX = Double.infinity, maxX = -Double.infinity
    var minY = Double.infinity, maxY = -Double.infinity

    /// No item yet.
    init() {}

    /// The bounds of the first `m` points of `x` and `y`. O(m).
    init(x: ContiguousArray<Double>, y: ContiguousArray<Double>, count m: Int) {
        x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                for i in 0..<m { include(x[i], y[i]) }
            }
        }
    }

    /// Widens the bounds to hold (u, v). O(1).
    @inline(__always) mutating func include(_ u: Double, _ v: Double) {
        if u < minX { minX = u }
        if u > maxX { maxX = u }
        if v < minY { minY = v }
        if v > maxY { maxY = v }
    }

    /// The bounds of both sets of items. O(1).
    func union(_ other: ItemBounds) -> ItemBounds {
        var b = self
        b.minX = Swift.min(minX, other.minX)
        b.maxX = Swift.max(maxX, other.maxX)
        b.minY = Swift.min(minY, other.minY)
        b.maxY = Swift.max(maxY, other.maxY)
        return b
    }
}
