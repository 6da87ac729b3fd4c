extension ClusterBuilder {
    /// What a level that shared its sweep with the next one hands over: the pairs within r(z − 1)
    /// of its own items, the grid they came from, and the clusters it formed.
    struct SharedSweep {
        /// The items of level z + 1 (the grid's `items`, in level order).
        let items: ContiguousArray<UInt32>
        /// Over `items`, cells wider than r(z − 1); its coordinates dropped.
        let grid: LevelGrid
        /// Pairs of indices into `items` within r(z − 1) of each other (i << 32 | j), each once.
        let pairs: ContiguousArray<UInt64>
        /// The rows of the clusters level z formed.
        let formed: Range<Int>
    }

    /// Whether level z may share one sweep with level z − 1: both are likely to take pair lists,
    /// there is a level below, and no isolation pre-pass leaves items out of the grid (the next
    /// level's grid would then hold items this one does not). `density`: the mean number of items
    /// within r of an item (itself included) on the last level that took lists, nil before the
    /// first; then `level` holds every point, whose spread over their bounding box decides.
    /// O(1) with `density`, else O(n).
    func sharesSweep(_ level: ContiguousArray<UInt32>, zoom z: Int, isolation: IsolationBound?, density: Double?) -> Bool {
        guard z > options.minZoom, isolation == nil, !searchedLastLevel else { return false }
        if let forced = options.sharedSweeps { return forced }
        let pairsBelow = pairListThreshold(items: level.count)
        guard pairsBelow > 0 else { return false }
        guard let density else {
            // The first level: points spread evenly over their bounding box would have fewer than
            // half a point within r(z − 1) of each. Real data is denser where it lies (the DC
            // hydrants, 0.44 by this measure, have 1.55 within r(15) in the sweep's sample; the
            // Tulsa hydrants 0.20 and 1.31, and with a radius of 75, 0.69 and 3.7, too many to
            // share).
            let bounds = ItemBounds(x: x, y: y, count: level.count)
            let area = (bounds.maxX - bounds.minX) * (bounds.maxY - bounds.minY)
            let wider = options.searchRadius(atZoom: z - 1)
            return area > 0 && Double(level.count) * Double.pi * wider * wider < area / 2
        }
        // r doubles from level to level: the neighbours within r of an item grow about fourfold
        // in even data, and faster where it clusters; the level below the next must stay sparse.
        return 1 + 16 * (density - 1) < pairsBelow
    }

    /// Level z of the `.double` build over a grid whose cells are wide enough for level z − 1,
    /// and one sweep within r(z − 1) whose nearer pairs (within r(z)) give level z its pair lists.
    /// Returns the next level and, when level z − 1 can take its pairs from the same sweep, what
    /// ``clusterLevel(sharing:level:zoom:)`` needs for that; nil for the sharing when the sample
    /// at r(z − 1) is too dense for lists or the sweep passes its limits (level z then takes pair
    /// lists from this grid when its own sample allows, else the path of
    /// ``clusterLevelOnGrid(_:zoom:isolation:parallelFrom:)`` with a grid of its own). The sweep
    /// runs on one core: the levels that take this path have no isolation pre-pass, which the
    /// build skips only for inputs dense over their bounding box, and those form few list levels.
    ///
    /// - Complexity: O(n) for n items plus the sweep's candidates and pairs.
    mutating func clusterLevelSharingSweep(_ level: ContiguousArray<UInt32>, zoom z: Int, parallelFrom: Int)
        -> (next: ContiguousArray<UInt32>, shared: SharedSweep?) {
        let r = options.searchRadius(atZoom: z), wider = options.searchRadius(atZoom: z - 1)
        let n = level.count
        let parallel = parallelism(items: n, from: parallelFrom)
        let pairsBelow = pairListThreshold(items: n)
        var grid = LevelGrid(items: level, x: x, y: y, radius: wider, forSweeps: true, parallel: parallel,
                             prefetchFrom: options.prefetchThreshold)
        var near = ContiguousArray<UInt64>(), far = ContiguousArray<UInt64>()
        var swept = false
        if pairsBelow == .infinity || options.sharedSweeps == true || grid.sampledNeighbourCountBySweep(radius: wider) < pairsBelow {
            (swept, near, far) = grid.pairsWithin(radius: wider, nearer: r, candidateLimit: 32 * n + 4096, pairLimit: 2 * n + 1024)
        }
        if !swept {
            // Too dense for level z − 1: level z alone. Its own pairs come from this grid when it
            // is sparse enough for lists (the cells are only wider than it needs: more
            // candidates, but no second grid); otherwise it searches a grid of its own.
            if pairsBelow == .infinity || grid.sampledNeighbourCountBySweep(radius: r) < pairsBelow,
               let lists = grid.neighbourLists(radius: r, candidateLimit: 32 * n + 4096, pairLimit: 2 * n + 1024, parallel: parallel) {
                return (walkWithLists(level, lists: lists, radius: r, zoom: z), nil)
            }
            return (clusterLevelOnGrid(level, zoom: z, isolation: nil, parallelFrom: parallelFrom), nil)
        }
        // The level below reads only the grid's cells (its new clusters' candidates are read by
        // their rows): the coordinates go before this level's walk, as a grid of its own would.
        grid.dropCoordinates()
        let lists = near.withUnsafeBufferPointer { NeighbourLists(items: n, pairs: [$0]) }
        let base = x.count
        let next = walkWithLists(level, lists: lists, radius: r, zoom: z)
        near.append(contentsOf: far)
        return (next, SharedSweep(items: level, grid: grid, pairs: near, formed: base ..< x.count))
    }

    /// Level z − 1 from the sweep level z shared (see
    /// ``clusterLevelSharingSweep(_:zoom:parallelFrom:)``), over `level`, the items level z left.
    /// Its pairs are the swept pairs whose items both stayed, those between a new cluster and an
    /// item that stayed (the candidates in the shared grid's block around the cluster: its cells
    /// are wide enough), and those between two new clusters (a sweep over them sorted by x). Sets
    /// `listDensity`; returns the items of the level it forms.
    ///
    /// - Complexity: O(n + pairs + clusters formed × their blocks + their sort).
    mutating func clusterLevel(sharing shared: SharedSweep, level: ContiguousArray<UInt32>, zoom z: Int)
        -> ContiguousArray<UInt32> {
        let r = options.searchRadius(atZoom: z)
        let r2 = r * r
        let n = level.count
        // Each row's index in this level (−1: not in it).
        var index = ContiguousArray<Int32>(repeating: -1, count: x.count)
        var pairs = ContiguousArray<UInt64>()
        pairs.reserveCapacity(shared.pairs.count + 4 * shared.formed.count)
        index.withUnsafeMutableBufferPointer { index in
            level.withUnsafeBufferPointer { level in
                for k in 0 ..< n { index[Int(level[k])] = Int32(truncatingIfNeeded: k) }
            }
            shared.items.withUnsafeBufferPointer { items in
                // Swept pairs whose items both stayed.
                shared.pairs.withUnsafeBufferPointer { swept in
                    for v in swept {
                        let a = index[Int(items[Int(truncatingIfNeeded: v >> 32)])]
                        let b = index[Int(items[Int(truncatingIfNeeded: v & 0xffff_ffff)])]
                        if a >= 0 && b >= 0 { pairs.append(Self.pair(a, b)) }
                    }
                }
                // A new cluster and the items that stayed: the candidates of the shared grid's
                // block around it (its cells are wide enough), read by their rows.
                let grid = shared.grid
                for c in shared.formed {
                    let q = SIMD2(x[c], y[c])
                    grid.forEachSlot(around: q, radius: r) { k in
                        let row = Int(items[grid.order(k)])
                        let b = index[row]
                        let d = SIMD2(x[row], y[row]) - q
                        if b >= 0 && d.x * d.x + d.y * d.y <= r2 { pairs.append(Self.pair(index[c], b)) }
                    }
                }
            }
            // Two new clusters: sorted by x, each against those after it while the gap in x alone
            // keeps them within r (compared squared, as the distance is: a gap whose square
            // rounds to r² may still be within r).
            let formed = shared.formed.sorted { x[$0] < x[$1] }
            for (i, c) in formed.enumerated() {
                var j = i + 1
                while j < formed.count {
                    let d = SIMD2(x[formed[j]], y[formed[j]]) - SIMD2(x[c], y[c])
                    if d.x * d.x > r2 { break }
                    if d.x * d.x + d.y * d.y <= r2 {
                        pairs.append(Self.pair(index[c], index[formed[j]]))
                    }
                    j += 1
                }
            }
        }
        let lists = pairs.withUnsafeBufferPointer { NeighbourLists(items: n, pairs: [$0]) }
        return walkWithLists(level, lists: lists, radius: r, zoom: z)
    }
}

extension ClusterBuilder {
    /// Two indices in a level as one `NeighbourLists` pair, i << 32 | j. O(1).
    @inline(__always) static func pair(_ i: Int32, _ j: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: i)) << 32 | UInt64(UInt32(bitPattern: j))
    }
}

extension LevelGrid {
    /// Every pair of slots within `r` of each other (`d² ≤ r²`), as the items' indices
    /// (i << 32 | j), split into those within `nearer` too and the others; false when the sweep's
    /// limits are passed (see ``forEachPairWithin(_:radius:limit:pairLimit:_:)``). One core.
    /// O(n + candidates + pairs).
    func pairsWithin(radius r: Double, nearer: Double, candidateLimit: Int, pairLimit: Int)
        -> (Bool, ContiguousArray<UInt64>, ContiguousArray<UInt64>) {
        let near2 = nearer * nearer
        var near = ContiguousArray<UInt64>(), far = ContiguousArray<UInt64>()
        let done = keys.withUnsafeBufferPointer { keys in
            xy.withUnsafeBufferPointer { xy in
                forEachPairWithin(0 ..< keys.count, radius: r, limit: candidateLimit, pairLimit: pairLimit) { i, j in
                    let pair = (keys[i] & Self.indexMask) << 32 | (keys[j] & Self.indexMask)
                    let d = xy[j] - xy[i]
                    if d.x * d.x + d.y * d.y <= near2 { near.append(pair) } else { far.append(pair) }
                }
            }
        }
        return (done, near, far)
    }
}

extension LevelGrid {
    /// Calls `body` with every slot of the block around `q` that holds every item within `r`
    /// (see ``block(around:radius:)``), row by row, on a grid laid out for sweeps and without
    /// its run lookup: each row's run is found by a binary search of the keys. The caller tests
    /// the distances. O(block rows · log n + slots).
    func forEachSlot(around q: SIMD2<Double>, radius r: Double, _ body: (Int) -> Void) {
        precondition(forSweeps, "a grid laid out for searches")
        guard let block = block(around: q, radius: r) else { return }
        let (cx0, cx1) = block.columns
        keys.withUnsafeBufferPointer { keys in
            for cy in block.rows {
                let row = UInt64(cy - firstRow) << UInt64(columnShift)
                let last = row | UInt64(cx1 - firstColumn)
                var k = CellKeySort.firstIndex(ofCellAtLeast: row | UInt64(cx0 - firstColumn), in: keys)
                while k < keys.count && keys[k] >> UInt64(Self.indexBits) <= last {
                    body(k)
                    k += 1
                }
            }
        }
    }
}
