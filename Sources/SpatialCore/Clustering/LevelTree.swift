import Foundation

/// The scalar a level's k-d tree stores positions in (`Float` in `.float32`, else `Double`).
protocol LevelScalar: BinaryFloatingPoint, Sendable {
    init(_ value: Double)
    var double: Double { get }
}

extension Float: LevelScalar {
    @inline(__always) var double: Double { Double(self) }
}

extension Double: LevelScalar {
    @inline(__always) var double: Double { self }
}

/// A static 2-D k-d tree over one zoom level, with kdbush 4's exact build (Floyd–Rivest select,
/// alternating axes) and traversal order, so that neighbour and range results come in the order
/// supercluster sees them. Item ids are given by the caller (the index's global item numbers).
///
/// TODO(indexes): the project's public `KDTree` (branch `indexes`) has the same build and order;
/// this private copy exists because the clustering levels want caller-chosen ids without a
/// per-level mapping array. Replace once `KDTree` offers ids-on-build.
struct LevelTree<Scalar: LevelScalar>: Sendable {
    let nodeSize: Int
    /// Item ids in kd order.
    let ids: ContiguousArray<UInt32>
    /// Interleaved x, y in kd order.
    let coords: ContiguousArray<Scalar>

    /// Builds from ids and interleaved coordinates (consumed). O(n log n).
    init(ids: consuming ContiguousArray<UInt32>, coords: consuming ContiguousArray<Scalar>, nodeSize: Int) {
        assert(coords.count == 2 * ids.count)
        self.nodeSize = nodeSize
        var ids = ids
        var coords = coords
        let n = ids.count
        if n > 0 {
            ids.withUnsafeMutableBufferPointer { idp in
                coords.withUnsafeMutableBufferPointer { cp in
                    var sorter = KDSorter(ids: idp, coords: cp, nodeSize: nodeSize)
                    sorter.sort(0, n - 1, 0)
                }
            }
        }
        self.ids = ids
        self.coords = coords
    }

    var count: Int { ids.count }

    /// Calls `body` with the id of every item within `r` of (qx, qy) (`d² ≤ r²`), in kdbush order. O(√n + k).
    @inline(__always)
    func forEachWithin(_ qx: Double, _ qy: Double, _ r: Double, _ body: (UInt32) -> Void) {
        let n = ids.count
        guard n > 0 else { return }
        let r2 = r * r
        let nodeSize = self.nodeSize
        ids.withUnsafeBufferPointer { ids in
            coords.withUnsafeBufferPointer { c in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * 128) { stack in
                    var sp = 0
                    stack[0] = 0; stack[1] = n - 1; stack[2] = 0; sp = 3
                    while sp > 0 {
                        let axis = stack[sp - 1], right = stack[sp - 2], left = stack[sp - 3]
                        sp -= 3
                        if right - left <= nodeSize {
                            var i = left
                            while i <= right {
                                let dx = c[2 * i].double - qx, dy = c[2 * i + 1].double - qy
                                if dx * dx + dy * dy <= r2 { body(ids[i]) }
                                i += 1
                            }
                            continue
                        }
                        let m = (left + right) >> 1
                        let x = c[2 * m].double, y = c[2 * m + 1].double
                        let dx = x - qx, dy = y - qy
                        if dx * dx + dy * dy <= r2 { body(ids[m]) }
                        if axis == 0 ? qx - r <= x : qy - r <= y {
                            stack[sp] = left; stack[sp + 1] = m - 1; stack[sp + 2] = 1 - axis; sp += 3
                        }
                        if axis == 0 ? qx + r >= x : qy + r >= y {
                            stack[sp] = m + 1; stack[sp + 1] = right; stack[sp + 2] = 1 - axis; sp += 3
                        }
                    }
                }
            }
        }
    }

    /// Calls `body` with the id of every item inside the closed box, in kdbush order. O(√n + k).
    @inline(__always)
    func forEachInRange(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double, _ body: (UInt32) -> Void) {
        let n = ids.count
        guard n > 0 else { return }
        let nodeSize = self.nodeSize
        ids.withUnsafeBufferPointer { ids in
            coords.withUnsafeBufferPointer { c in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * 128) { stack in
                    var sp = 0
                    stack[0] = 0; stack[1] = n - 1; stack[2] = 0; sp = 3
                    while sp > 0 {
                        let axis = stack[sp - 1], right = stack[sp - 2], left = stack[sp - 3]
                        sp -= 3
                        if right - left <= nodeSize {
                            var i = left
                            while i <= right {
                                let x = c[2 * i].double, y = c[2 * i + 1].double
                                if x >= minX && x <= maxX && y >= minY && y <= maxY { body(ids[i]) }
                                i += 1
                            }
                            continue
                        }
                        let m = (left + right) >> 1
                        let x = c[2 * m].double, y = c[2 * m + 1].double
                        if x >= minX && x <= maxX && y >= minY && y <= maxY { body(ids[m]) }
                        if axis == 0 ? minX <= x : minY <= y {
                            stack[sp] = left; stack[sp + 1] = m - 1; stack[sp + 2] = 1 - axis; sp += 3
                        }
                        if axis == 0 ? maxX >= x : maxY >= y {
                            stack[sp] = m + 1; stack[sp + 1] = right; stack[sp + 2] = 1 - axis; sp += 3
                        }
                    }
                }
            }
        }
    }
}

/// kdbush's in-place kd sort over two buffers (fenced unsafe code; bounds asserted in debug).
struct KDSorter<Scalar: LevelScalar> {
    let ids: UnsafeMutableBufferPointer<UInt32>
    let coords: UnsafeMutableBufferPointer<Scalar>
    let nodeSize: Int

    init(ids: UnsafeMutableBufferPointer<UInt32>, coords: UnsafeMutableBufferPointer<Scalar>, nodeSize: Int) {
        self.ids = ids
        self.coords = coords
        self.nodeSize = nodeSize
    }

    mutating func sort(_ left: Int, _ right: Int, _ axis: Int) {
        if right - left <= nodeSize { return }
        let m = (left + right) >> 1
        select(m, left, right, axis)
        sort(left, m - 1, 1 - axis)
        sort(m + 1, right, 1 - axis)
    }

    @inline(__always) func swapItem(_ i: Int, _ j: Int) {
        assert(i >= 0 && j >= 0 && i < ids.count && j < ids.count)
        let t = ids[i]; ids[i] = ids[j]; ids[j] = t
        let x = coords[2 * i]; coords[2 * i] = coords[2 * j]; coords[2 * j] = x
        let y = coords[2 * i + 1]; coords[2 * i + 1] = coords[2 * j + 1]; coords[2 * j + 1] = y
    }

    func select(_ k: Int, _ left: Int, _ right: Int, _ axis: Int) {
        var left = left, right = right
        while right > left {
            if right - left > 600 {
                let n = Double(right - left + 1)
                let m = Double(k - left + 1)
                let z = log(n)
                let s = 0.5 * exp(2 * z / 3)
                let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (m - n / 2 < 0 ? -1 : 1)
                let newLeft = Swift.max(left, Int((Double(k) - m * s / n + sd).rounded(.down)))
                let newRight = Swift.min(right, Int((Double(k) + (n - m) * s / n + sd).rounded(.down)))
                select(k, newLeft, newRight, axis)
            }
            let t = coords[2 * k + axis]
            var i = left
            var j = right
            swapItem(left, k)
            if coords[2 * right + axis] > t { swapItem(left, right) }
            while i < j {
                swapItem(i, j)
                i += 1
                j -= 1
                while coords[2 * i + axis] < t { i += 1 }
                while coords[2 * j + axis] > t { j -= 1 }
            }
            if coords[2 * left + axis] == t {
                swapItem(left, j)
            } else {
                j += 1
                swapItem(j, right)
            }
            if j <= k { left = j + 1 }
            if k <= j { right = j - 1 }
        }
    }
}
