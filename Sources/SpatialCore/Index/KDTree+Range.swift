extension KDTree {
    /// The most (left, right, axis) triples the traversal stack can hold: each visit pushes at most
    /// two children and the tree is at most 33 levels deep for `UInt32` ids.
    @inlinable static var traversalStackCapacity: Int { 3 * 80 }

    /// kdbush's traversal, shared by `range` and `within`: depth first with an explicit stack,
    /// the middle item of each node tested before its halves, the upper half visited first. Each
    /// visited node's middle item goes to `one` when the query contains it; each leaf's accepted
    /// items go to `many` as one batch (collected branch-free into a scratch buffer), in order.
    /// No allocation for the usual node sizes.
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
                withUnsafeTemporaryAllocation(of: Int.self, capacity: capacity &+ nodeSize &+ 1) { memory in
                    let stack = UnsafeMutableBufferPointer(rebasing: memory[0 ..< capacity])
                    let scratch = UnsafeMutableBufferPointer(rebasing: memory[capacity...])
                    stack[0] = 0
                    stack[1] = n &- 1
                    stack[2] = 0
                    var top = 3
                    while top > 0 {
                        let axis = stack[top &- 1]
                        let right = stack[top &- 2]
                        let left = stack[top &- 3]
                        top &-= 3
                        if right &- left <= nodeSize {
                            var found = 0
                            var i = left
                            while i <= right {
                                let hit = query.contains(coords[2 &* i].indexDouble, coords[2 &* i &+ 1].indexDouble)
                                scratch[found] = Int(ids[i])
                                found &+= hit ? 1 : 0
                                i &+= 1
                            }
                            if found > 0 { many(UnsafeBufferPointer(rebasing: scratch[0 ..< found])) }
                            continue
                        }
                        let m = (left &+ right) >> 1
                        let x = coords[2 &* m].indexDouble
                        let y = coords[2 &* m &+ 1].indexDouble
                        if query.contains(x, y) { one(Int(ids[m])) }
                        if query.reachesBelow(axis == 0 ? x : y, axis: axis) {
                            stack[top] = left
                            stack[top &+ 1] = m &- 1
                            stack[top &+ 2] = 1 &- axis
                            top &+= 3
                        }
                        if query.reachesAbove(axis == 0 ? x : y, axis: axis) {
                            stack[top] = m &+ 1
                            stack[top &+ 1] = right
                            stack[top &+ 2] = 1 &- axis
                            top &+= 3
                        }
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
    func contains(_ x: Double, _ y: Double) -> Bool
    func reachesBelow(_ split: Double, axis: Int) -> Bool
    func reachesAbove(_ split: Double, axis: Int) -> Bool
}

/// A box, bounds inclusive.
@usableFromInline
internal struct KDBoxQuery: KDQueryShape {
    @usableFromInline let minX: Double, minY: Double, maxX: Double, maxY: Double

    @inlinable init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    @inlinable @inline(__always) func contains(_ x: Double, _ y: Double) -> Bool {
        (x >= minX) && (x <= maxX) && (y >= minY) && (y <= maxY)
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
    @usableFromInline let x: Double, y: Double, r2: Double
    @usableFromInline let minX: Double, minY: Double, maxX: Double, maxY: Double

    @inlinable init(x: Double, y: Double, radius: Double) {
        self.x = x
        self.y = y
        r2 = radius * radius
        minX = x - radius
        minY = y - radius
        maxX = x + radius
        maxY = y + radius
    }

    @inlinable @inline(__always) func contains(_ px: Double, _ py: Double) -> Bool {
        let dx = px - x, dy = py - y
        return dx * dx + dy * dy <= r2
    }

    @inlinable @inline(__always) func reachesBelow(_ split: Double, axis: Int) -> Bool {
        (axis == 0 ? minX : minY) <= split
    }

    @inlinable @inline(__always) func reachesAbove(_ split: Double, axis: Int) -> Bool {
        (axis == 0 ? maxX : maxY) >= split
    }
}
