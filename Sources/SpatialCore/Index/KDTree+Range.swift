extension KDTree {
    /// Room for the (left, right, axis) triples of the traversal stack: 40 triples. Each visit
    /// pops one node and pushes at most two, so the stack holds at most one pending half per level
    /// of the current path plus two: 35 for the 33 levels that `UInt32` ids allow. 120 `Int`s fit
    /// in `StackRoom` (960 bytes), so the stack never leaves the machine stack.
    @inlinable static var traversalStackCapacity: Int { 3 * 40 }

    /// kdbush's traversal, shared by `range` and `within`: depth first with an explicit stack,
    /// the middle item of each node tested before its halves, the upper half visited first. Each
    /// visited node's middle item goes to `one` when the query contains it; each leaf's accepted
    /// items go to `many` as one batch, in order. No allocation for node sizes up to 127 (see
    /// `StackRoom`).
    ///
    /// The work is memory-bound on large trees (a leaf of 64 `Double` points is 16 cache lines of
    /// coordinates that a random query finds in DRAM), so the loop is shaped to keep several
    /// misses in flight instead of meeting them one by one: a pushed half's middle item is loaded
    /// when it is pushed, a leaf's lines are all touched before it is scanned, the scan tests two
    /// points per step with `SIMD2` compares and records positions branch-free, and ids are read
    /// only for the accepted points. The nodes visited and the order of the results are kdbush's.
    @inlinable @inline(__always)
    internal func traverse<Query: KDQueryShape>(
        _ query: Query, one: (Int) -> Void, many: (UnsafeBufferPointer<Int>) -> Void
    ) {
        let n = ids.count
        guard n > 0 else { return }
        let nodeSize = self.nodeSize
        let capacity = Self.traversalStackCapacity
        ids.withUnsafeBufferPointer { ids in
            coords.withUnsafeBufferPointer { coords in
                let points = KDPoints(coords)
                // Two allocations, each within `StackRoom` (the scratch for node sizes up to 127),
                // rather than one that would go to the heap on every query.
                withUnsafeTemporaryAllocation(of: Int.self, capacity: capacity) { stack in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: nodeSize &+ 1) { scratch in
                    stack[0] = 0
                    stack[1] = n &- 1
                    stack[2] = 0
                    var top = 3
                    var touched: UInt8 = 0
                    while top > 0 {
                        let axis = stack[top &- 1]
                        let right = stack[top &- 2]
                        let left = stack[top &- 3]
                        top &-= 3
                        if right &- left <= nodeSize {
                            touched |= points.touch(from: left, through: right)
                            var found = 0
                            var i = left
                            while i < right {
                                let a = query.contains(points[i])
                                let b = query.contains(points[i &+ 1])
                                scratch[found] = i
                                found &+= a ? 1 : 0
                                scratch[found] = i &+ 1
                                found &+= b ? 1 : 0
                                i &+= 2
                            }
                            if i == right {
                                scratch[found] = i
                                found &+= query.contains(points[i]) ? 1 : 0
                            }
                            if found > 0 {
                                var k = 0
                                while k < found {
                                    scratch[k] = Int(ids[scratch[k]])
                                    k &+= 1
                                }
                                many(UnsafeBufferPointer(rebasing: scratch[0 ..< found]))
                            }
                            continue
                        }
                        let m = (left &+ right) >> 1
                        let p = points[m]
                        if query.contains(p) { one(Int(ids[m])) }
                        let split = axis == 0 ? p.x : p.y
                        if query.reachesBelow(split, axis: axis) {
                            stack[top] = left
                            stack[top &+ 1] = m &- 1
                            stack[top &+ 2] = 1 &- axis
                            top &+= 3
                            touched |= points.touch((left &+ m &- 1) >> 1)
                        }
                        if query.reachesAbove(split, axis: axis) {
                            stack[top] = m &+ 1
                            stack[top &+ 1] = right
                            stack[top &+ 2] = 1 &- axis
                            top &+= 3
                            touched |= points.touch((m &+ 1 &+ right) >> 1)
                        }
                    }
                    CacheTouch.keep(touched)
                }
                }
            }
        }
    }

    /// `range` as batches (see ``traverse(_:one:many:)``).
    @inlinable @inline(__always)
    internal func rangeBatches(
        minX: Double, minY: Double, maxX: Double, maxY: Double,
        one: (Int) -> Void, many: (UnsafeBufferPointer<Int>) -> Void
    ) {
        traverse(KDBoxQuery(minX: minX, minY: minY, maxX: maxX, maxY: maxY), one: one, many: many)
    }

    /// `within` as batches (see ``traverse(_:one:many:)``).
    @inlinable @inline(__always)
    internal func withinBatches(
        x qx: Double, y qy: Double, radius r: Double,
        one: (Int) -> Void, many: (UnsafeBufferPointer<Int>) -> Void
    ) {
        traverse(KDCircleQuery(x: qx, y: qy, radius: r), one: one, many: many)
    }

    /// Calls `body` with the id of every point inside the box, bounds inclusive, in kdbush's
    /// `range()` order. No allocation.
    ///
    /// - Complexity: O(√n + k) for k results on average.
    @inlinable
    public func forEachInRange(minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int) -> Void) {
        rangeBatches(minX: minX, minY: minY, maxX: maxX, maxY: maxY, one: body, many: { for id in $0 { body(id) } })
    }

    /// The ids of the points inside the box, bounds inclusive, in kdbush's `range()` order.
    /// An inverted box (min > max) finds nothing.
    ///
    /// - Complexity: O(√n + k) for k results on average.
    @inlinable
    public func range(minX: Double, minY: Double, maxX: Double, maxY: Double) -> [Int] {
        var result: [Int] = []
        range(minX: minX, minY: minY, maxX: maxX, maxY: maxY, into: &result)
        return result
    }

    /// Appends the ids of the points inside the box to `result` (kept as is before them), in
    /// kdbush's `range()` order. No allocation beyond `result`'s growth.
    ///
    /// - Complexity: O(√n + k) for k results on average.
    @inlinable
    public func range(minX: Double, minY: Double, maxX: Double, maxY: Double, into result: inout [Int]) {
        rangeBatches(minX: minX, minY: minY, maxX: maxX, maxY: maxY,
            one: { result.append($0) }, many: { result.append(contentsOf: $0) })
    }

    /// Calls `body` with the id of every point at distance ≤ `radius` from `(x, y)`
    /// (`dx² + dy² ≤ radius²`), in kdbush's `within()` order. No allocation.
    ///
    /// - Complexity: O(√n + k) for k results on average.
    @inlinable
    public func forEachWithin(x: Double, y: Double, radius: Double, _ body: (Int) -> Void) {
        withinBatches(x: x, y: y, radius: radius, one: body, many: { for id in $0 { body(id) } })
    }

    /// The ids of the points at distance ≤ `radius` from `(x, y)`, in kdbush's `within()` order.
    ///
    /// - Complexity: O(√n + k) for k results on average.
    @inlinable
    public func within(x: Double, y: Double, radius: Double) -> [Int] {
        var result: [Int] = []
        within(x: x, y: y, radius: radius, into: &result)
        return result
    }

    /// Appends the ids of the points at distance ≤ `radius` from `(x, y)` to `result`, in
    /// kdbush's `within()` order.
    ///
    /// - Complexity: O(√n + k) for k results on average.
    @inlinable
    public func within(x: Double, y: Double, radius: Double, into result: inout [Int]) {
        withinBatches(x: x, y: y, radius: radius, one: { result.append($0) }, many: { result.append(contentsOf: $0) })
    }
}

/// A query region for the k-d traversal: membership, and whether it reaches below or above a
/// split value on an axis (kdbush's tests, same comparisons, so the same nodes are visited).
@usableFromInline
internal protocol KDQueryShape {
    func contains(_ p: SIMD2<Double>) -> Bool
    func reachesBelow(_ split: Double, axis: Int) -> Bool
    func reachesAbove(_ split: Double, axis: Int) -> Bool
}

/// A box, bounds inclusive.
@usableFromInline
internal struct KDBoxQuery: KDQueryShape {
    @usableFromInline let minX: Double, minY: Double, maxX: Double, maxY: Double
    @usableFromInline let low: SIMD2<Double>, high: SIMD2<Double>

    @inlinable init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
        low = SIMD2(minX, minY)
        high = SIMD2(maxX, maxY)
    }

    /// `minX ≤ x ≤ maxX && minY ≤ y ≤ maxY` as two lane-wise compares (false for NaN, as the
    /// scalar comparisons are).
    @inlinable @inline(__always) func contains(_ p: SIMD2<Double>) -> Bool {
        all((p .>= low) .& (p .<= high))
    }

    @inlinable @inline(__always) func reachesBelow(_ split: Double, axis: Int) -> Bool {
        (axis == 0 ? minX : minY) <= split
    }

    @inlinable @inline(__always) func reachesAbove(_ split: Double, axis: Int) -> Bool {
        (axis == 0 ? maxX : maxY) >= split
    }
}

/// A disc: `dx² + dy² ≤ r²`; it reaches a split when `q ∓ r` does.
@usableFromInline
internal struct KDCircleQuery: KDQueryShape {
    @usableFromInline let centre: SIMD2<Double>, r2: Double
    @usableFromInline let minX: Double, minY: Double, maxX: Double, maxY: Double

    @inlinable init(x: Double, y: Double, radius: Double) {
        centre = SIMD2(x, y)
        r2 = radius * radius
        minX = x - radius
        minY = y - radius
        maxX = x + radius
        maxY = y + radius
    }

    /// `dx * dx + dy * dy <= r²`, the same operations in the same order as the scalar form.
    @inlinable @inline(__always) func contains(_ p: SIMD2<Double>) -> Bool {
        let d = p - centre
        let d2 = d * d
        return d2.x + d2.y <= r2
    }

    @inlinable @inline(__always) func reachesBelow(_ split: Double, axis: Int) -> Bool {
        (axis == 0 ? minX : minY) <= split
    }

    @inlinable @inline(__always) func reachesAbove(_ split: Double, axis: Int) -> Bool {
        (axis == 0 ? maxX : maxY) >= split
    }
}

/// The interleaved coordinates of a ``KDTree`` as `SIMD2<Double>` points, read without bounds
/// checks (callers index inside the tree) and without per-access conversions for `Double`.
@usableFromInline
internal struct KDPoints<Scalar: KDTreeScalar> {
    @usableFromInline let base: UnsafePointer<Scalar>
    @usableFromInline let count: Int

    @inlinable @inline(__always) init(_ coords: UnsafeBufferPointer<Scalar>) {
        base = coords.baseAddress ?? UnsafePointer(bitPattern: MemoryLayout<Scalar>.alignment).unsafelyUnwrapped
        count = coords.count / 2
    }

    /// Point `i` (`0 ..< count`, asserted in debug builds), widened to `Double`.
    @inlinable @inline(__always) subscript(i: Int) -> SIMD2<Double> {
        assert(i >= 0 && i < count)
        if Scalar.self == Double.self {
            return UnsafeRawPointer(base).loadUnaligned(fromByteOffset: 16 &* i, as: SIMD2<Double>.self)
        }
        return SIMD2(base[2 &* i].indexDouble, base[2 &* i &+ 1].indexDouble)
    }

    /// Loads one byte of point `i`, so that its cache line is on its way before it is needed.
    @inlinable @inline(__always) func touch(_ i: Int) -> UInt8 {
        assert(i >= 0 && i < count)
        return UnsafeRawPointer(base + 2 &* i).load(as: UInt8.self)
    }

    /// Loads one byte per cache line of points `first ... last` (see ``CacheTouch``).
    @inlinable @inline(__always) func touch(from first: Int, through last: Int) -> UInt8 {
        assert(first >= 0 && last < count)
        return CacheTouch.lines(UnsafeRawPointer(base + 2 &* first),
                                bytes: (last &- first &+ 1) &* 2 &* MemoryLayout<Scalar>.stride)
    }
}
