/// The pairs of items within r of each other on one level, found by one sweep over the grid in
/// cell order: what the greedy step of a sparse level needs, without a search per item.
///
/// Cells are wider than r (``LevelGrid/blockMargin``), so two items within r lie in the same cell
/// or in adjacent ones. The sweep pairs each item with the items after it in its own cell and the
/// cell to its right (one contiguous run), and with the three cells below (a second run, found by
/// a pointer that only moves forward): every pair is tested once, and no cell needs a lookup.
extension LevelGrid {
    /// Calls `found(i, j)` for every pair of slots i < j within r of each other (`d² ≤ r²`, the
    /// test ``forEachSlotWithin(x:y:radius:_:)`` applies) whose lower slot lies in `part`, a run of
    /// whole cells, in order of i. Stops and returns false once more than `limit` candidates have
    /// been tested (data far denser than the grid's cells: a cell of many identical points) or
    /// more than `pairLimit` pairs found.
    ///
    /// - Complexity: O(|part| + candidates tested), at most O(|part| + `limit`).
    @inline(__always)
    func forEachPairWithin(_ part: Range<Int>, radius r: Double, limit: Int, pairLimit: Int = .max,
                           _ found: (Int, Int) -> Void) -> Bool {
        let n = keys.count
        guard !part.isEmpty else { return true }
        precondition(forSweeps, "a grid laid out for searches")
        let r2 = r * r
        let rowCount = lastRow - firstRow + 1
        let columnCount = lastColumn - firstColumn + 1
        let shift = UInt64(Self.indexBits)
        let columnShift = UInt64(self.columnShift)
        let columnMask = UInt64(1) &<< columnShift &- 1
        return keys.withUnsafeBufferPointer { keys in
            xy.withUnsafeBufferPointer { xy in
                var tested = 0
                var pairs = 0
                var a = part.lowerBound
                // The first slot of the row below at or after the current cell's lower-left
                // neighbour: it only moves forward, as the cells do.
                var below = -1
                while a < part.upperBound {
                    let cell = keys[a] &>> shift
                    var e = a + 1
                    while e < n && keys[e] &>> shift == cell { e += 1 }
                    let cy = Int(truncatingIfNeeded: cell &>> columnShift)
                    let cx = Int(truncatingIfNeeded: cell & columnMask)
                    // Own cell and the one to its right: one run.
                    var right = e
                    if cx + 1 < columnCount {
                        while right < n && keys[right] &>> shift == cell + 1 { right += 1 }
                    }
                    // The three cells below: a second run.
                    var lowStart = 0, lowEnd = 0
                    if cy + 1 < rowCount {
                        let low = UInt64(truncatingIfNeeded: (cy + 1) &<< self.columnShift | Swift.max(cx - 1, 0))
                        let high = UInt64(truncatingIfNeeded: (cy + 1) &<< self.columnShift | Swift.min(cx + 1, columnCount - 1))
                        if below < 0 { below = CellKeySort.firstIndex(ofCellAtLeast: low, in: keys, from: e) }
                        while below < n && keys[below] &>> shift < low { below += 1 }
                        lowStart = below
                        lowEnd = below
                        while lowEnd < n && keys[lowEnd] &>> shift <= high { lowEnd += 1 }
                    }
                    for i in a ..< e {
                        tested &+= (right - i - 1) &+ (lowEnd - lowStart)
                        if tested > limit || pairs > pairLimit { return false }
                        let q = xy[i]
                        // Item i against the slots of one run.
                        @inline(__always) func pair(with run: Range<Int>) {
                            for j in run {
                                let d = xy[j] - q
                                if d.x * d.x + d.y * d.y <= r2 {
                                    found(i, j)
                                    pairs &+= 1
                                }
                            }
                        }
                        pair(with: i + 1 ..< right)
                        pair(with: lowStart ..< lowEnd)
                    }
                    a = e
                }
                return pairs <= pairLimit
            }
        }
    }

    /// The first slot at or after `k` that begins a cell (`n` past the last). O(cell).
    private func cellStart(atOrAfter k: Int) -> Int {
        keys.withUnsafeBufferPointer { CellKeySort.cellStart(atOrAfter: k, in: $0) }
    }

    /// The mean number of items within r of an item (itself included), over about `samples`
    /// slots (default: n/16, from 128 to 1,024) in 16 runs of whole cells spread evenly in cell
    /// order; +∞ when the runs test more than 64 candidates a slot (far denser than any level the
    /// sweep suits). O(samples) candidates at most.
    func sampledNeighbourCountBySweep(radius r: Double, samples: Int? = nil) -> Double {
        let n = keys.count
        guard n > 0 else { return 0 }
        let samples = samples ?? Swift.min(1024, Swift.max(128, n / 16))
        let runs = Swift.min(16, Swift.max(1, n / 64))
        let length = Swift.max(1, Swift.min(samples, n) / runs)
        var items = 0, pairs = 0
        var start = 0
        for t in 0 ..< runs {
            let first = Swift.max(cellStart(atOrAfter: n * t / runs), start)
            guard first < n else { break }
            let last = cellStart(atOrAfter: Swift.min(first + length, n))
            let done = forEachPairWithin(first ..< last, radius: r, limit: 64 * Swift.max(length, last - first)) { _, _ in pairs += 1 }
            guard done else { return .infinity }
            items += last - first
            start = last
        }
        return items == 0 ? 0 : 1 + 2 * Double(pairs) / Double(items)
    }

    /// The neighbour lists of every item, by its index in the `items` the grid was built from
    /// (level order: the greedy walk then reads its seeds' lists in order): all pairs within r,
    /// found by one sweep (split at a cell boundary over the two cores when `parallel`). Nil when
    /// the sweep tests more than
    /// `candidateLimit` candidates or finds more than `pairLimit` pairs: the level is too dense
    /// for lists, and its greedy step searches instead.
    ///
    /// - Complexity: O(n + candidates tested + pairs).
    func neighbourLists(radius r: Double, candidateLimit: Int, pairLimit: Int, parallel: Bool) -> NeighbourLists? {
        let n = keys.count
        var low = ScratchBuffer<UInt64>(capacity: 1024)
        var high = ScratchBuffer<UInt64>(capacity: 1024)
        defer {
            low.deallocate()
            high.deallocate()
        }
        let middle = parallel ? cellStart(atOrAfter: n / 2) : n
        var lowDone = true, highDone = true
        keys.withUnsafeBufferPointer { keys in
            // A pair of slots as the items' indices, order(i) << 32 | order(j).
            @inline(__always) func pair(_ i: Int, _ j: Int) -> UInt64 {
                (keys[i] & Self.indexMask) << 32 | (keys[j] & Self.indexMask)
            }
            ParallelPair.run(parallel: parallel && middle < n, {
                lowDone = forEachPairWithin(0 ..< middle, radius: r, limit: candidateLimit, pairLimit: pairLimit) { i, j in
                    low.append(pair(i, j))
                }
            }, {
                highDone = forEachPairWithin(middle ..< n, radius: r, limit: candidateLimit, pairLimit: pairLimit) { i, j in
                    high.append(pair(i, j))
                }
            })
        }
        guard lowDone && highDone && low.count + high.count <= pairLimit else { return nil }
        return NeighbourLists(items: n, pairs: [UnsafeBufferPointer(low.elements), UnsafeBufferPointer(high.elements)])
    }
}

/// Every item's neighbours within r on one level (compressed rows: item k's are
/// `neighbours[start[k] ..< start[k + 1]]`, in no particular order).
struct NeighbourLists {
    let start: ContiguousArray<Int32>
    let neighbours: ContiguousArray<Int32>

    /// The lists of `items` items from pairs (i << 32 | j), each pair once. O(items + pairs).
    init(items n: Int, pairs: [UnsafeBufferPointer<UInt64>]) {
        let total = pairs.reduce(0) { $0 + $1.count }
        // Counts, then running ends; each entry is placed by moving its item's end down, which
        // leaves every item's start behind.
        var start = ContiguousArray<Int32>(repeating: 0, count: n + 1)
        start.withUnsafeMutableBufferPointer { start in
            for list in pairs {
                for v in list {
                    start[Int(truncatingIfNeeded: v >> 32)] &+= 1
                    start[Int(truncatingIfNeeded: v & 0xffff_ffff)] &+= 1
                }
            }
            var sum: Int32 = 0
            for k in 0 ... n {
                sum &+= start[k]
                start[k] = sum
            }
        }
        neighbours = ContiguousArray(filling: 2 * total) { neighbours in
            start.withUnsafeMutableBufferPointer { start in
                for list in pairs {
                    for v in list {
                        let i = Int(truncatingIfNeeded: v >> 32), j = Int(truncatingIfNeeded: v & 0xffff_ffff)
                        start[i] &-= 1
                        neighbours[Int(start[i])] = Int32(truncatingIfNeeded: j)
                        start[j] &-= 1
                        neighbours[Int(start[j])] = Int32(truncatingIfNeeded: i)
                    }
                }
            }
        }
        self.start = start
    }

    /// Whether item `k` has a neighbour. O(1).
    @inline(__always) func hasNeighbours(_ k: Int) -> Bool { start[k + 1] > start[k] }
}
