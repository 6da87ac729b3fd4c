/// flatbush's partial quicksort of items by Hilbert value: ranges that fall within one node are
/// left unsorted, since order inside a node does not matter to the tree. It reproduces flatbush
/// 4.6's pivots (median of three) and swaps exactly, so the layout and bytes are identical, but it
/// moves 8-byte keys (`value << 32 | item`) instead of whole boxes; the boxes are gathered once at
/// the end. Unsafe code is fenced here; subscripts are bounds-checked in debug builds.
internal struct HilbertSorter {
    /// `hilbertValue << 32 | originalPosition` per item.
    let keys: UnsafeMutableBufferPointer<UInt64>
    let nodeSize: Int

    /// Sorts `0 ..< keys.count`; after the first partition the two sides are sorted on two
    /// threads when the input is large (disjoint ranges, so the result is the same).
    func sort() {
        let n = keys.count
        guard n > 1 else { return }
        if let j = partition(left: 0, right: n - 1) {
            ParallelPair.run(parallel: n >= ParallelPair.threshold,
                { sortRange(left: 0, right: j) }, { sortRange(left: j + 1, right: n - 1) })
        }
    }

    /// Sorts `left ... right` with an explicit stack. O(n log n) expected.
    func sortRange(left: Int, right: Int) {
        var stack: [(Int, Int)] = [(left, right)]
        stack.reserveCapacity(128)
        while let (l, r) = stack.popLast() {
            guard let j = partition(left: l, right: r) else { continue }
            stack.append((j + 1, r))
            stack.append((l, j))
        }
    }

    /// One Hoare partition step of flatbush's sort, or nil when the range needs no sorting.
    @inline(__always)
    func partition(left: Int, right: Int) -> Int? {
        let keys = self.keys
        if right - left <= nodeSize && left / nodeSize >= right / nodeSize { return nil }
        let a = keys[left] >> 32, b = keys[(left + right) >> 1] >> 32, c = keys[right] >> 32
        let pivot = (a > b) != (a > c) ? a : (b < a) != (b < c) ? b : c
        // value < pivot  ⇔  key < pivot << 32;  value > pivot  ⇔  key ≥ (pivot + 1) << 32.
        let below = pivot << 32
        let above = pivot == 0xFFFF_FFFF ? UInt64.max : (pivot + 1) << 32
        var i = left &- 1
        var j = right &+ 1
        while true {
            repeat { i &+= 1 } while keys[i] < below
            repeat { j &-= 1 } while keys[j] >= above
            if i >= j { break }
            keys.swapAt(i, j)
        }
        return j
    }
}
