/// The pairs of items within r of each other on one level, found by one sweep over the grid in
/// cell order: what the greedy step of a sparse level needs, without a search per item.
///
/// Cells are wider than r (``LevelGrid/blockMargin``), so two items within r lie in the same cell
/// or in adjacent ones. Slots are in (row, column) order, so the sweep pairs each item with the
/// slots after it in its row up to the next column (the rest of its own cell and the cell to its
/// right), and with the slots of the row below from the previous column to the next (the three
/// cells below, found by a pointer that only moves forward along that row): every pair is tested
/// once, and no cell needs a lookup. Per item rather than per cell: on sparse levels (about one
/// item a cell) finding each cell's and its neighbours' runs cost more than testing the few
/// candidates (callgrind, `ClusterBuilder.run()`: DC hydrants 13.45 M → 12.27 M instructions).
extension LevelGrid {
    /// Calls `found(i, j)` for every pair of slots i < j within r of each other (`d² ≤ r²`, the
    /// test ``appendSlotsWithin(x:y:radius:to:skipping:)`` applies) whose lower slot lies in
    /// `part` (any run of slots), in order of i. Stops and returns false once more than `limit`
    /// candidates have been tested (data far denser than the grid's cells: a cell of many
    /// identical points) or more than `pairLimit` pairs found.
    ///
    /// - Complexity: O(|part| + candidates tested + log n per row), at most O(|part| + `limit` +
    ///   log n per row).
    @inline(__always)
    func forEachPairWithin(_ part: Range<Int>, radius r: Double, limit: Int, pairLimit: Int = .max,
                           _ found: (Int, Int) -> Void) -> Bool {
        forEachCandidatePair(part, radius: r, limit: limit, pairLimit: pairLimit) { i, j, within in
            if within { found(i, j) }
        }
    }

    /// The sweep of ``forEachPairWithin(_:radius:limit:pairLimit:_:)``, calling `visit(i, j,
    /// within)` for every candidate pair of slots i < j it tests, with whether they are within r:
    /// callers that keep a pair by advancing a count, without a branch on the test, take this
    /// (the test goes either way in no pattern the processor can predict). Same limits.
    ///
    /// - Complexity: as ``forEachPairWithin(_:radius:limit:pairLimit:_:)``.
    @inline(__always)
    func forEachCandidatePair(_ part: Range<Int>, radius r: Double, limit: Int, pairLimit: Int = .max,
                              _ visit: (Int, Int, Bool) -> Void) -> Bool {
        let n = keys.count
        guard !part.isEmpty else { return true }
        precondition(forSweeps, "a grid laid out for searches")
        let r2 = r * r
        let columnShift = UInt64(Self.indexBits), rowShift = UInt64(Self.indexBits + self.columnShift)
        let columnMask = UInt64(1) &<< UInt64(self.columnShift) &- 1
        return keys.withUnsafeBufferPointer { keys in
            xy.withUnsafeBufferPointer { xy in
                @inline(__always) func row(_ k: Int) -> UInt64 { keys[k] &>> rowShift }
                @inline(__always) func column(_ k: Int) -> UInt64 { keys[k] &>> columnShift & columnMask }
                // The end of the slots of row y from slot k on: a few steps, then a binary search
                // (a row of many items, such as points along one parallel, is not read whole by
                // each of the sample's short runs).
                @inline(__always) func end(ofRow y: UInt64, from k: Int) -> Int {
                    var e = k
                    let stepsEnd = Swift.min(n, k &+ 8)
                    while e < stepsEnd && row(e) == y { e &+= 1 }
                    guard e == stepsEnd && e < n && row(e) == y else { return e }
                    return CellKeySort.firstIndex(ofCellAtLeast: (y &+ 1) &<< UInt64(self.columnShift), in: keys, from: e)
                }
                var tested = 0
                var pairs = 0
                var i = part.lowerBound
                // Slot i's row y ends at rowEnd.
                var y = row(i)
                var rowEnd = end(ofRow: y, from: i &+ 1)
                while i < part.upperBound {
                    // The row below: slots rowEnd ..< belowEnd (none when it holds no item).
                    let belowEnd = rowEnd < n && row(rowEnd) == y &+ 1 ? end(ofRow: y &+ 1, from: rowEnd &+ 1) : rowEnd
                    // The first slot of the row below whose column is at least the current
                    // item's minus one: it only moves forward, as the columns do.
                    var low = rowEnd
                    let stop = Swift.min(rowEnd, part.upperBound)
                    while i < stop {
                        let c = column(i)
                        let q = xy[i]
                        // Item i against the slots of a run, up to the first beyond column c + 1.
                        @inline(__always) func pair(from start: Int, to runEnd: Int) -> Bool {
                            var j = start
                            while j < runEnd && column(j) <= c &+ 1 {
                                tested &+= 1
                                if tested > limit { return false }
                                let d = xy[j] - q
                                let within = d.x * d.x + d.y * d.y <= r2
                                visit(i, j, within)
                                pairs &+= within ? 1 : 0
                                j &+= 1
                            }
                            return true
                        }
                        // The rest of its own cell and the cell to its right, then the three
                        // cells below.
                        guard pair(from: i &+ 1, to: rowEnd) else { return false }
                        while low < belowEnd && column(low) &+ 1 < c { low &+= 1 }
                        guard pair(from: low, to: belowEnd) else { return false }
                        if pairs > pairLimit { return false }
                        i &+= 1
                    }
                    guard i < part.upperBound else { break }
                    // The next row with items.
                    y = row(i)
                    rowEnd = i < belowEnd ? belowEnd : end(ofRow: y, from: i &+ 1)
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
    /// Every candidate's pair is written and kept by advancing the count, without a branch on the
    /// distance test (see ``forEachCandidatePair(_:radius:limit:pairLimit:_:)``): on the levels
    /// that take lists, denser than the hydrants' (which share their sweeps instead), the test
    /// goes either way in no pattern. Measured in alternating fresh processes (time probe,
    /// medians; see PERFORMANCE.md, twenty-eighth session): cities500 0.92–0.98×, uniform 100k
    /// 0.92×, uniform 1M 0.94×, blobs 1M 0.97×; the hydrant files do not take this path.
    ///
    /// - Complexity: O(n + candidates tested + pairs).
    func neighbourLists(radius r: Double, candidateLimit: Int, pairLimit: Int, parallel: Parallelism) -> NeighbourLists? {
        let n = keys.count
        var low = ScratchBuffer<UInt64>(capacity: 1024)
        var high = ScratchBuffer<UInt64>(capacity: 1024)
        defer {
            low.deallocate()
            high.deallocate()
        }
        let middle = parallel.isEnabled ? cellStart(atOrAfter: n / 2) : n
        var lowDone = true, highDone = true
        keys.withUnsafeBufferPointer { keys in
            // A pair of slots as the items' indices, order(i) << 32 | order(j).
            @inline(__always) func pair(_ i: Int, _ j: Int) -> UInt64 {
                (keys[i] & Self.indexMask) << 32 | (keys[j] & Self.indexMask)
            }
            ParallelPair.run(parallel: parallel.when(middle < n), {
                lowDone = forEachCandidatePair(0 ..< middle, radius: r, limit: candidateLimit, pairLimit: pairLimit) { i, j, within in
                    low.append(pair(i, j), keeping: within)
                }
            }, {
                highDone = forEachCandidatePair(middle ..< n, radius: r, limit: candidateLimit, pairLimit: pairLimit) { i, j, within in
                    high.append(pair(i, j), keeping: within)
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
