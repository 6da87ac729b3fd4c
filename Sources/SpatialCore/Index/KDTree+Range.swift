extension KDTree {
    /// The most (left, right, axis) triples the traversal stack can hold: each visit pushes at most
    /// two children and the tree is at most 33 levels deep for `UInt32` ids.
    @usableFromInline static var traversalStackCapacity: Int { 3 * 80 }

    /// Calls `body` with the id of every point inside the box, bounds inclusive, in kdbush's
    /// `range()` order. No allocation.
    ///
    /// - Complexity: O(√n + k) for k results on average.
    @inlinable
    public func forEachInRange(minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int) -> Void) {
        let n = ids.count
        guard n > 0 else { return }
        let nodeSize = self.nodeSize
        ids.withUnsafeBufferPointer { ids in
            coords.withUnsafeBufferPointer { coords in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.traversalStackCapacity) { stack in
                    stack[0] = 0
                    stack[1] = n - 1
                    stack[2] = 0
                    var top = 3
                    while top > 0 {
                        let axis = stack[top - 1]
                        let right = stack[top - 2]
                        let left = stack[top - 3]
                        top -= 3
                        if right - left <= nodeSize {
                            var i = left
                            while i <= right {
                                let x = coords[2 * i].indexDouble
                                let y = coords[2 * i + 1].indexDouble
                                if x >= minX && x <= maxX && y >= minY && y <= maxY { body(Int(ids[i])) }
                                i += 1
                            }
                            continue
                        }
                        let m = (left + right) >> 1
                        let x = coords[2 * m].indexDouble
                        let y = coords[2 * m + 1].indexDouble
                        if x >= minX && x <= maxX && y >= minY && y <= maxY { body(Int(ids[m])) }
                        if axis == 0 ? minX <= x : minY <= y {
                            stack[top] = left
                            stack[top + 1] = m - 1
                            stack[top + 2] = 1 - axis
                            top += 3
                        }
                        if axis == 0 ? maxX >= x : maxY >= y {
                            stack[top] = m + 1
                            stack[top + 1] = right
                            stack[top + 2] = 1 - axis
                            top += 3
                        }
                    }
                }
            }
        }
    }

    /// The ids of the points inside the box, bounds inclusive, in kdbush's `range()` order.
    /// An inverted box (min > max) finds nothing.
    ///
    /// - Complexity: O(√n + k) for k results on average.
    public func range(minX: Double, minY: Double, maxX: Double, maxY: Double) -> [Int] {
        var result: [Int] = []
        range(minX: minX, minY: minY, maxX: maxX, maxY: maxY, into: &result)
        return result
    }

    /// Appends the ids of the points inside the box to `result` (kept as is before them), in
    /// kdbush's `range()` order. No allocation beyond `result`'s growth.
    ///
    /// - Complexity: O(√n + k) for k results on average.
    public func range(minX: Double, minY: Double, maxX: Double, maxY: Double, into result: inout [Int]) {
        forEachInRange(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { result.append($0) }
    }

    /// Calls `body` with the id of every point at distance ≤ `radius` from `(x, y)`
    /// (`dx² + dy² ≤ radius²`), in kdbush's `within()` order. No allocation.
    ///
    /// - Complexity: O(√n + k) for k results on average.
    @inlinable
    public func forEachWithin(x qx: Double, y qy: Double, radius r: Double, _ body: (Int) -> Void) {
        let n = ids.count
        guard n > 0 else { return }
        let nodeSize = self.nodeSize
        let r2 = r * r
        let minX = qx - r, maxX = qx + r, minY = qy - r, maxY = qy + r
        ids.withUnsafeBufferPointer { ids in
            coords.withUnsafeBufferPointer { coords in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.traversalStackCapacity) { stack in
                    stack[0] = 0
                    stack[1] = n - 1
                    stack[2] = 0
                    var top = 3
                    while top > 0 {
                        let axis = stack[top - 1]
                        let right = stack[top - 2]
                        let left = stack[top - 3]
                        top -= 3
                        if right - left <= nodeSize {
                            var i = left
                            while i <= right {
                                let dx = coords[2 * i].indexDouble - qx
                                let dy = coords[2 * i + 1].indexDouble - qy
                                if dx * dx + dy * dy <= r2 { body(Int(ids[i])) }
                                i += 1
                            }
                            continue
                        }
                        let m = (left + right) >> 1
                        let x = coords[2 * m].indexDouble
                        let y = coords[2 * m + 1].indexDouble
                        let dx = x - qx, dy = y - qy
                        if dx * dx + dy * dy <= r2 { body(Int(ids[m])) }
                        if axis == 0 ? minX <= x : minY <= y {
                            stack[top] = left
                            stack[top + 1] = m - 1
                            stack[top + 2] = 1 - axis
                            top += 3
                        }
                        if axis == 0 ? maxX >= x : maxY >= y {
                            stack[top] = m + 1
                            stack[top + 1] = right
                            stack[top + 2] = 1 - axis
                            top += 3
                        }
                    }
                }
            }
        }
    }

    /// The ids of the points at distance ≤ `radius` from `(x, y)`, in kdbush's `within()` order.
    ///
    /// - Complexity: O(√n + k) for k results on average.
    public func within(x: Double, y: Double, radius: Double) -> [Int] {
        var result: [Int] = []
        within(x: x, y: y, radius: radius, into: &result)
        return result
    }

    /// Appends the ids of the points at distance ≤ `radius` from `(x, y)` to `result`, in
    /// kdbush's `within()` order.
    ///
    /// - Complexity: O(√n + k) for k results on average.
    public func within(x: Double, y: Double, radius: Double, into result: inout [Int]) {
        forEachWithin(x: x, y: y, radius: radius) { result.append($0) }
    }
}
