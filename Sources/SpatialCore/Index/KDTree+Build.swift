import Foundation

/// The in-place k-d sort of kdbush 4: Floyd–Rivest selection of the middle item on alternating
/// axes, with the same sub-range choice and the same swaps, so the layout is identical bit for bit.
/// Unsafe code is fenced here; buffer subscripts are bounds-checked in debug builds.
@usableFromInline
internal struct KDSorter<Scalar: KDTreeScalar> {
    let ids: UnsafeMutableBufferPointer<UInt32>
    let coords: UnsafeMutableBufferPointer<Scalar>
    let nodeSize: Int

    /// Sorts the whole range with an explicit stack (no recursion depth tied to the data).
    /// - Complexity: O(n log n).
    func sort() {
        let n = ids.count
        guard n > 0 else { return }
        // (left, right, axis); every pop pushes at most two, depth ≤ log2(n) + 1.
        var stack: [(Int, Int, Int)] = [(0, n - 1, 0)]
        stack.reserveCapacity(80)
        while let (left, right, axis) = stack.popLast() {
            if right - left <= nodeSize { continue }
            let m = (left + right) >> 1
            select(k: m, left: left, right: right, axis: axis)
            // Same visiting order as a recursive left-then-right sort (the order does not change
            // the result: the halves are disjoint).
            stack.append((m + 1, right, 1 - axis))
            stack.append((left, m - 1, 1 - axis))
        }
    }

    @inline(__always)
    func swapItems(_ i: Int, _ j: Int) {
        let id = ids[i]
        ids[i] = ids[j]
        ids[j] = id
        let x = coords[2 * i], y = coords[2 * i + 1]
        coords[2 * i] = coords[2 * j]
        coords[2 * i + 1] = coords[2 * j + 1]
        coords[2 * j] = x
        coords[2 * j + 1] = y
    }

    /// Rearranges `left...right` so that item `k` is the k-th smallest on `axis`, smaller ones
    /// before it and larger ones after (Floyd–Rivest). Recursion only on a sample of size about
    /// n^(2/3), so its depth is a handful of levels for any n.
    func select(k: Int, left: Int, right: Int, axis: Int) {
        var left = left
        var right = right
        while right > left {
            if right - left > 600 {
                let n = Double(right - left + 1)
                let m = Double(k - left + 1)
                let z = log(n)
                let s = 0.5 * exp(2 * z / 3)
                let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (m - n / 2 < 0 ? -1 : 1)
                let newLeft = Swift.max(left, Int((Double(k) - m * s / n + sd).rounded(.down)))
                let newRight = Swift.min(right, Int((Double(k) + (n - m) * s / n + sd).rounded(.down)))
                select(k: k, left: newLeft, right: newRight, axis: axis)
            }

            let t = coords[2 * k + axis]
            var i = left
            var j = right

            swapItems(left, k)
            if coords[2 * right + axis] > t { swapItems(left, right) }

            while i < j {
                swapItems(i, j)
                i += 1
                j -= 1
                while coords[2 * i + axis] < t { i += 1 }
                while coords[2 * j + axis] > t { j -= 1 }
            }

            if coords[2 * left + axis] == t {
                swapItems(left, j)
            } else {
                j += 1
                swapItems(j, right)
            }

            if j <= k { left = j + 1 }
            if k <= j { right = j - 1 }
        }
    }
}
