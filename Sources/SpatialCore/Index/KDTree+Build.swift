import Foundation

/// The in-place k-d sort of kdbush 4: Floyd–Rivest selection of the middle item on alternating
/// axes, with the same sub-range choice and the same swaps, so the layout is identical bit for bit.
/// Unsafe code is fenced here; buffer subscripts are bounds-checked in debug builds.
@usableFromInline
internal struct KDSorter<Scalar: KDTreeScalar> {
    @usableFromInline let ids: UnsafeMutableBufferPointer<UInt32>
    @usableFromInline let coords: UnsafeMutableBufferPointer<Scalar>
    @usableFromInline let nodeSize: Int

    @inlinable init(ids: UnsafeMutableBufferPointer<UInt32>, coords: UnsafeMutableBufferPointer<Scalar>, nodeSize: Int) {
        self.ids = ids
        self.coords = coords
        self.nodeSize = nodeSize
    }

    /// Sorts the whole range. After the first split the two halves are sorted on two threads
    /// when the input is large (disjoint ranges, so the layout is the same).
    /// - Complexity: O(n log n).
    @inlinable func sort() {
        let n = ids.count
        guard n > 0 else { return }
        let right = n - 1
        if right <= nodeSize {
            return
        }
        let m = right >> 1
        select(k: m, left: 0, right: right, axis: 0)
        ParallelPair.run(parallel: Parallelism(n >= ParallelPair.threshold),
            { sortRange(left: 0, right: m - 1, axis: 1) }, { sortRange(left: m + 1, right: right, axis: 1) })
    }

    /// Sorts the whole range on the calling thread alone, passing `gate` before each range it
    /// splits (background sorts that step aside while their build runs on both cores; see
    /// ``PauseGate``). The layout is that of ``sort()``.
    ///
    /// Between two passes the sort does one range's selection, linear in its size: a few
    /// microseconds once below the top ranges. A pass takes a lock, about n / nodeSize times a
    /// sort. Passing only before ranges of 256 items or more responded later: cities500 builds
    /// alternating with this (fresh processes, median of 12 pairs) took 0.913 of the time
    /// without a gate, this 0.888.
    /// - Complexity: O(n log n), plus the waits at the gate.
    @inlinable func sort(passing gate: PauseGate) {
        sortRange(left: 0, right: ids.count - 1, axis: 0, passing: gate)
    }

    /// Sorts `left ... right` starting on `axis`, with an explicit stack (no recursion depth
    /// tied to the data); passes `gate`, if any, before each range it splits.
    /// - Complexity: O(n log n).
    @inlinable func sortRange(left: Int, right: Int, axis: Int, passing gate: PauseGate? = nil) {
        // (left, right, axis); every pop pushes at most two, depth ≤ log2(n) + 1.
        var stack: [(Int, Int, Int)] = [(left, right, axis)]
        stack.reserveCapacity(80)
        while let (left, right, axis) = stack.popLast() {
            if right - left <= nodeSize { continue }
            gate?.pass()
            let m = (left + right) >> 1
            select(k: m, left: left, right: right, axis: axis)
            stack.append((m + 1, right, 1 - axis))
            stack.append((left, m - 1, 1 - axis))
        }
    }

    @inlinable @inline(__always)
    func swapItems(_ i: Int, _ j: Int) {
        assert(i >= 0 && i < ids.count && j >= 0 && j < ids.count)
        let idBase = ids.baseAddress.unsafelyUnwrapped
        let id = idBase[i]
        idBase[i] = idBase[j]
        idBase[j] = id
        let pi = coords.baseAddress.unsafelyUnwrapped + 2 &* i
        let pj = coords.baseAddress.unsafelyUnwrapped + 2 &* j
        let x = pi[0], y = pi[1]
        pi[0] = pj[0]
        pi[1] = pj[1]
        pj[0] = x
        pj[1] = y
    }

    /// The coordinate of item `i` on `axis`. Bounds asserted in debug builds.
    @inlinable @inline(__always)
    func value(_ i: Int, _ axis: Int) -> Scalar {
        assert(i >= 0 && i < ids.count)
        return coords.baseAddress.unsafelyUnwrapped[2 &* i &+ axis]
    }

    /// Rearranges `left...right` so that item `k` is the k-th smallest on `axis`, smaller ones
    /// before it and larger ones after (Floyd–Rivest, kdbush's sub-range choice and swap order).
    /// Recursion only on a sample of size about n^(2/3), so its depth is a handful of levels.
    @inlinable func select(k: Int, left: Int, right: Int, axis: Int) {
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

            let t = value(k, axis)
            var j: Int
            if right &- left > 2 &* Self.block {
                swapItems(left, k)
                if value(right, axis) > t { swapItems(left, right) }
                swapItems(left, right)
                j = blockScan(left: left, right: right, axis: axis, pivot: t)
            } else {
                j = hoareScan(left: left, right: right, k: k, axis: axis, pivot: t)
            }

            if value(left, axis) == t {
                swapItems(left, j)
            } else {
                j &+= 1
                swapItems(j, right)
            }

            if j <= k { left = j &+ 1 }
            if k <= j { right = j &- 1 }
        }
    }

    /// kdbush's partition loop as written: the initial swaps, then Hoare scans from both ends.
    /// Returns the final `j`.
    @inlinable @inline(__always)
    func hoareScan(left: Int, right: Int, k: Int, axis: Int, pivot t: Scalar) -> Int {
        var i = left
        var j = right
        swapItems(left, k)
        if value(right, axis) > t { swapItems(left, right) }
        while i < j {
            swapItems(i, j)
            i &+= 1
            j &-= 1
            while value(i, axis) < t { i &+= 1 }
            while value(j, axis) > t { j &-= 1 }
        }
        return j
    }

    /// The block size of the branch-free scans.
    @inlinable static var block: Int { 64 }

    /// The same swaps as the loop of ``hoareScan(left:right:k:axis:pivot:)`` once its initial
    /// swaps and its first unconditional swap of `left` and `right` are done, without the
    /// unpredictable branches. From there the loop is Hoare's: its k-th swap exchanges the k-th
    /// position after `left` whose value is ≥ pivot (`A[k]`, `right` itself is a sentinel) with the
    /// k-th position before `right` whose value is ≤ pivot (`B[k]`, `left` is a sentinel) while
    /// `A[k] < B[k]`, and no scan reads a swapped position before that point; so candidates are
    /// listed a block at a time and paired in order. The loop's final `j` is `max(B[K+1], A[K])`
    /// after K swaps, `B[1]` without any. Entries read past the crossing point never pair.
    @inlinable @inline(__always)
    func blockScan(left: Int, right: Int, axis: Int, pivot t: Scalar) -> Int {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 &* Self.block) { scratch in
            let block = Self.block
            let aBuffer = scratch.baseAddress.unsafelyUnwrapped
            let bBuffer = aBuffer + block
            var aCount = 0, aNext = 0, bCount = 0, bNext = 0
            var leftScan = left &+ 1, rightScan = right &- 1  // next positions to list
            var lastA = Int.min
            while true {
                if aNext == aCount {
                    let end = Swift.min(leftScan &+ block, right &+ 1)
                    aCount = 0
                    aNext = 0
                    var q = leftScan
                    while q < end {
                        aBuffer[aCount] = q
                        aCount &+= value(q, axis) >= t ? 1 : 0
                        q &+= 1
                    }
                    leftScan = end
                }
                if bNext == bCount {
                    let end = Swift.max(rightScan &- block, left &- 1)
                    bCount = 0
                    bNext = 0
                    var q = rightScan
                    while q > end {
                        bBuffer[bCount] = q
                        bCount &+= value(q, axis) <= t ? 1 : 0
                        q &-= 1
                    }
                    rightScan = end
                }
                let a = aNext < aCount ? aBuffer[aNext] : (leftScan > right ? Int.max : -1)
                let b = bNext < bCount ? bBuffer[bNext] : (rightScan < left ? Int.min : -1)
                if a == -1 || b == -1 { continue }  // an empty block: list the next one
                if a < b {
                    swapItems(a, b)
                    lastA = a
                    aNext &+= 1
                    bNext &+= 1
                    continue
                }
                return Swift.max(b, lastA)
            }
        }
    }
}
