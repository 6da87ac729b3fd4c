/// For every input point, the squared distance to its nearest other point when that is at most
/// `h`, else +∞ — or the distance to another point found first that lies between the same two
/// level thresholds as the nearest one (no level can tell the two apart) — found by one grid pass
/// or a few of growing cell size (radix-sorted cell keys and a sweep with three monotone pointers;
/// no hashing, no per-point allocation).
///
/// Why it lets the build skip searches: a raw point whose nearest other point is farther than
/// 3r at zoom z has no neighbour within r at level z + 1. A cluster present there was formed at a
/// zoom z' > z; its centre lies within r(z') of its first item and, by induction, all its points
/// lie within 4 r(z') ≤ 2 r(z) of its centre, so a cluster within r(z) would put one of its points
/// within 3 r(z). Such a point is kept unchanged, exactly as the greedy step would keep it, and no
/// other item can find it either (the neighbour relation is symmetric).
///
/// The `.float32` build searches trees whose coordinates are rounded to `Float`: a tree position
/// lies within ε = 2^-25 · √2 of the item's (unit Mercator coordinates are in [0, 1]), so a search
/// finds items up to r + ε away. Every step of the argument above then loses up to 2ε per level:
/// a cluster's points lie within 4 r(z') + 2ε · (levels) of its centre, at most 4 r(z') + 64ε for
/// the 31 levels zooms allow, and a point farther than 3r + 65ε from every other is isolated.
/// ``isolatedSquaredDistance(radius:float32:)`` adds that margin.
struct IsolationBound {
    /// Whether the pre-pass is likely to pay for itself: when a point spread evenly over the
    /// points' bounding box would have other points within 3 r(maxZoom) (`density` ≥ 1/16), it is
    /// isolated at two levels at most, and the passes cost more than the searches they save
    /// (callgrind: the DC hydrants, density 0.44, build with 19% fewer instructions without it,
    /// Tulsa's 16%); sparse data (10k–200k world-wide points: 9–21% more without it) keeps it.
    /// `bounds` are the `m` points' bounds. O(1).
    static func pays(bounds: ItemBounds, count m: Int, options: ClusterOptions) -> Bool {
        guard m > 1 else { return false }
        let (minX, maxX, minY, maxY) = (bounds.minX, bounds.maxX, bounds.minY, bounds.maxY)
        let r3 = 3 * options.searchRadius(atZoom: options.maxZoom)
        let area = (maxX - minX) * (maxY - minY)
        // A zero area (identical points, a line) is as dense as data gets.
        guard area > 0 else { return false }
        let density = Double(m) * Double.pi * r3 * r3 / area
        return density < 1.0 / 16
    }

    /// A pass's key: cell << 27 | resolved << 26 | point, the cell (row << column bits | column)
    /// counted from the lowest point's; a point is resolved once a pass has found its distance
    /// (its `nearest` entry is finite). The flag spares the sweep a random read per point (the
    /// fill reads `nearest` in point order); with at most 2^18 rows and columns, 36 cell bits
    /// fit above it.
    static let cellShift = CellKeySort.indexBits + 1
    static let resolvedBit: UInt64 = 1 << CellKeySort.indexBits
    static let pointMask = CellKeySort.indexMask

    /// How many slots ahead a gather in cell order asks for a point's coordinates.
    static let gatherDistance = 16

    /// Per point row: squared nearest-other-point distance if ≤ h², else +∞; a value may instead
    /// be a farther point's squared distance that every level threshold (``threshold(radius:float32:)``)
    /// compares alike (see ``stopDistance(after:cell:thresholds:)``).
    let nearest2: ContiguousArray<Double>
    /// The last pass's grid cell size (unit Mercator): the threshold (``threshold(radius:float32:)``)
    /// of that pass's zoom, or 2^-18 if larger. Distances up to it are exact.
    let h: Double

    /// The nearest-point distances of the first `m` points, whose bounds are `bounds`, for the
    /// thresholds of a `.float32` build when `float32` (its margin widens the cells);
    /// `singlePass`: only the first pass, whose cell size is then `h` (levels with a threshold
    /// beyond it get no bound); `parallel`: each grid pass uses both cores (the result is the
    /// same). O(passes · m) plus the block scans.
    ///
    /// Which levels a further pass serves is a matter of cost: it settles the points isolated
    /// at a few coarser levels, where each would otherwise be one more item to search. The
    /// `.double` build searches a grid, and a pass costs more than it saves there; the
    /// `.float32` build searches a k-d tree per item, and the passes pay (see the build).
    init(x: ContiguousArray<Double>, y: ContiguousArray<Double>, count m: Int, bounds: ItemBounds,
         options: ClusterOptions, float32: Bool = false, singlePass: Bool = false, parallel: Parallelism) {
        // Passes (the first only when `singlePass`) with cell sizes 3 r(z) (plus margins) for
        // z = maxZoom, maxZoom − 2, …: each resolves the points whose nearest neighbour lies
        // within the cell size, so dense areas are settled by small cells (small 3×3 blocks)
        // before sparse ones meet large cells. The last pass is the coarsest zoom at which a
        // uniform spread would still give about two points per 3r-disc.
        var zStop = options.maxZoom
        while zStop > options.minZoom {
            let r3 = 3 * options.searchRadius(atZoom: zStop - 1)
            if Double.pi * r3 * r3 * Double(m) > 2 { break }
            zStop -= 1
        }
        // The levels' thresholds, ascending: only which of them a point's nearest distance
        // falls under matters (see `stopDistance`).
        let thresholds = (options.minZoom ... options.maxZoom).reversed().map {
            Self.threshold(radius: options.searchRadius(atZoom: $0), float32: float32)
        }
        var nearest = ContiguousArray<Double>(repeating: .infinity, count: m)
        var unresolved = m
        // Each pass writes all of these before reading them (fill, sort, gather): not cleared.
        var keys = ContiguousArray<UInt64>(filling: m) { _ in }
        var scratch = ContiguousArray<UInt64>(filling: m) { _ in }
        var gathered = ContiguousArray<SIMD2<Double>>(filling: m) { _ in }
        // Cells are numbered only between the lowest and highest point (a city's points need a
        // few bits of cell key, not a world-wide grid's 36).
        let (minX, maxX, minY, maxY) = (bounds.minX, bounds.maxX, bounds.minY, bounds.maxY)
        var z = options.maxZoom
        // The finest passes settle only points that close to another: start where a uniform
        // spread over the bounding box would settle about 1 point in 32 (m π h² / area), since
        // clustered data settles more. Where to start changes the cost, not the result (each
        // pass gives exact distances up to its cell size). Measured (callgrind, whole build):
        // starting where 1 in 1,024 would settle, the first pass settled 0.3% of 1M uniform
        // points, 3.6% of 1M blobs and 6.5% of cities500 for a full pass's cost; 1 in 32 (the
        // same start as 1 in 16) took 12% fewer instructions on the blobs (−677 M), 150 M fewer
        // on cities500, 9% fewer on 100k uniform, the same on 1M uniform; 1 in 8 and 1 in 128
        // did worse. Under 65,536 points the coarser start cost more (earthquakes, 6,107 points
        // along the plate boundaries: 13% more for the build, whose coarse pass then scans
        // crowded blocks), and a pass there is cheap: they start where 1 in 1,024 would settle.
        let area = (maxX - minX) * (maxY - minY)
        let settledAtStart = m >= 1 << 16 ? 1.0 / 32 : 1.0 / 1024
        while z > zStop && area > 0 {
            let first = 3 * options.searchRadius(atZoom: z)
            if Double(m) * Double.pi * first * first >= area * settledAtStart { break }
            z -= 1
        }
        var h = 0.0
        while m > 1 {
            let previousH = h
            // A cell as wide as level z's threshold (3r and its margins), so that the last
            // pass's bound serves its own level too: with cells of exactly 3r, the margins put
            // that level's threshold past the cell size, and every raw point counted as active
            // there (uniform 1M, z9: all 988k items instead of about 560k).
            h = Swift.max(Self.threshold(radius: options.searchRadius(atZoom: z), float32: float32), 1.0 / Double(1 << 18))
            let w = Swift.min(Int((1 / h).rounded(.up)) + 1, 1 << 18)
            let cell = { (v: Double) in Swift.min(Swift.max(Int(v / h), 0), w - 1) }
            let firstColumn = cell(minX), firstRow = cell(minY)
            let columns = cell(maxX) - firstColumn + 1, rows = cell(maxY) - firstRow + 1
            let columnShift = Int.bitWidth - (columns - 1).leadingZeroBitCount
            let cellShift = UInt64(Self.cellShift), resolvedBit = Self.resolvedBit
            keys.withUnsafeMutableBufferPointer { k in
                nearest.withUnsafeBufferPointer { nearest in
                    x.withUnsafeBufferPointer { x in
                        y.withUnsafeBufferPointer { y in
                            func fill(_ points: Range<Int>) {
                                for i in points {
                                    let cx = Swift.min(Swift.max(Int(x[i] / h), 0), w - 1) - firstColumn
                                    let cy = Swift.min(Swift.max(Int(y[i] / h), 0), w - 1) - firstRow
                                    k[i] = UInt64(truncatingIfNeeded: cy &<< columnShift | cx) &<< cellShift | (nearest[i] < .infinity ? resolvedBit : 0) | UInt64(i)
                                }
                            }
                            ParallelPair.halves(of: m, parallel: parallel, fill)
                        }
                    }
                }
            }
            // Only the bits a cell number can use.
            let cellBits = Swift.max(1, Int.bitWidth - ((rows - 1) << columnShift | (columns - 1)).leadingZeroBitCount)
            assert(Self.cellShift + cellBits <= 64, "a cell number too wide for the key")
            CellKeySort.radixSort(&keys, scratch: &scratch, lowBit: Self.cellShift, highBit: Self.cellShift + cellBits, parallel: parallel)
            let stop = Self.stopDistance(after: previousH, cell: h, thresholds: thresholds)
            let settled = Self.gatherAndSweep(
                keys: keys, x: x, y: y, h: h, columns: columns, columnShift: columnShift, rows: rows, stop: stop * stop, parallel: parallel,
                prefetchFrom: options.prefetchThreshold, nearest: &nearest, gathered: &gathered)
            // A pass that settles almost nothing (sparse data at a fine cell size) says the next
            // ones would too: skip ahead. Any cell size gives exact distances up to itself, so
            // this changes the cost only.
            let step = settled * 64 < unresolved ? 4 : 2
            unresolved -= settled
            if unresolved == 0 || z <= zStop || singlePass { break }
            z = Swift.max(z - step, zStop)
        }
        self.h = h
        nearest2 = nearest
    }

    /// One grid pass over keys sorted by cell (see ``cellShift``; cell = row << `columnShift` |
    /// column): for each unresolved point, the nearest point of its
    /// 3×3 block; settled when within h. Returns how many were settled. The coordinates are first
    /// gathered into key order, so the block scans read memory in order. When `parallel`, the
    /// gather and the sweep are split at a cell boundary and the halves run on the two cores
    /// (each writes only its own points' entries).
    /// O(n + Σ block sizes).
    static func gatherAndSweep(
        keys: ContiguousArray<UInt64>, x: ContiguousArray<Double>, y: ContiguousArray<Double>, h: Double,
        columns: Int, columnShift: Int, rows: Int, stop stop2: Double, parallel: Parallelism,
        prefetchFrom: Int, nearest: inout ContiguousArray<Double>,
        gathered: inout ContiguousArray<SIMD2<Double>>
    ) -> Int {
        let m = keys.count
        let h2 = h * h
        var settled = 0
        keys.withUnsafeBufferPointer { keys in
            gathered.withUnsafeMutableBufferPointer { xy in
                x.withUnsafeBufferPointer { x in
                    y.withUnsafeBufferPointer { y in
                        // Points in cell order are at random places: their coordinates are
                        // asked for a few slots ahead, so that the misses overlap.
                        func gather(_ slots: Range<Int>) {
                            guard let px = x.baseAddress, let py = y.baseAddress else { return }
                            let d = m >= prefetchFrom ? Self.gatherDistance : 0
                            Prefetch.forEach(slots, reach: d, ask: { k in
                                let ahead = Int(keys[k &+ d] & Self.pointMask)
                                Prefetch.line(px + ahead)
                                Prefetch.line(py + ahead)
                            }) { k in
                                let i = Int(keys[k] & Self.pointMask)
                                xy[k] = SIMD2(x[i], y[i])
                            }
                        }
                        ParallelPair.halves(of: m, parallel: parallel, gather)
                    }
                }
                // The first key of a cell near the middle: the halves never share a cell.
                let middle = parallel.isEnabled ? CellKeySort.cellStart(atOrAfter: m / 2, in: keys, cellShift: cellShift) : m
                nearest.withUnsafeMutableBufferPointer { nearest in
                    var settledLow = 0, settledHigh = 0
                    ParallelPair.run(
                        parallel: parallel.when(middle < m),
                        { settledLow = sweep(keys: keys, xy: UnsafeBufferPointer(xy), cells: 0 ..< middle, h2: h2, stop2: stop2,
                                             columns: columns, columnShift: columnShift, rows: rows, nearest: nearest) },
                        { settledHigh = sweep(keys: keys, xy: UnsafeBufferPointer(xy), cells: middle ..< m, h2: h2, stop2: stop2,
                                              columns: columns, columnShift: columnShift, rows: rows, nearest: nearest) })
                    settled = settledLow + settledHigh
                }
            }
        }
        return settled
    }

    /// The sweep of the cells whose keys are `keys[cells]` (whole cells); the blocks read all keys.
    private static func sweep(
        keys: UnsafeBufferPointer<UInt64>, xy: UnsafeBufferPointer<SIMD2<Double>>, cells: Range<Int>, h2: Double, stop2: Double,
        columns: Int, columnShift: Int, rows: Int,
        nearest: UnsafeMutableBufferPointer<Double>
    ) -> Int {
        let m = keys.count
        var settled = 0
        guard !cells.isEmpty else { return 0 }
        let shift = UInt64(cellShift), cs = UInt64(columnShift)
        let resolvedBit = Self.resolvedBit, pointMask = Self.pointMask
        let columnMask = UInt64(1) &<< cs &- 1
        // The three row pointers start at the first key at or after the first block's lowest
        // cell (binary search), then only move forward.
        var q = cells.lowerBound
        let firstCell = keys[q] &>> shift
        let firstRow = firstCell &>> cs, firstColumn = firstCell & columnMask
        let lowest = firstRow == 0 ? 0 : (firstRow - 1) &<< cs | (firstColumn == 0 ? 0 : firstColumn - 1)
        let start = CellKeySort.firstIndex(ofCellAtLeast: lowest, in: keys, to: q, cellShift: cellShift)
        var lo0 = start, lo1 = start, lo2 = start
        var block = ScratchBuffer<SIMD2<Double>>(capacity: 256)
        defer { block.deallocate() }
        while q < cells.upperBound {
            let cell = keys[q] &>> shift
            var qe = q + 1
            // Whether the cell holds an unresolved point (the flag is clear).
            var open = keys[q] & resolvedBit == 0
            while qe < m && keys[qe] &>> shift == cell {
                if keys[qe] & resolvedBit == 0 { open = true }
                qe += 1
            }
            let cx = Int(truncatingIfNeeded: cell & columnMask), cy = Int(truncatingIfNeeded: cell &>> cs)
            // Start and end of the block's three row ranges (monotone pointers).
            var starts = (0, 0, 0), ends = (0, 0, 0)
            for dy in -1...1 {
                let ry = cy + dy
                guard ry >= 0 && ry < rows else { continue }
                let lowKey = UInt64(truncatingIfNeeded: ry &<< columnShift | Swift.max(cx - 1, 0))
                let highKey = UInt64(truncatingIfNeeded: ry &<< columnShift | Swift.min(cx + 1, columns - 1))
                var p = dy == -1 ? lo0 : dy == 0 ? lo1 : lo2
                while p < m && keys[p] &>> shift < lowKey { p += 1 }
                if dy == -1 { lo0 = p } else if dy == 0 { lo1 = p } else { lo2 = p }
                guard open else { continue }
                var e = p
                while e < m && keys[e] &>> shift <= highKey { e += 1 }
                if dy == -1 { starts.0 = p; ends.0 = e } else if dy == 0 { starts.1 = p; ends.1 = e } else { starts.2 = p; ends.2 = e }
            }
            if open {
                // The block's coordinates copied together, in scan order (the own row first, where
                // nearer points are likelier, then the rows above and below): each point then
                // scans one run, with one loop exit to mispredict instead of three. The point
                // itself is at `own + (a − q)`.
                block.removeAll()
                block.append(contentsOf: UnsafeBufferPointer(rebasing: xy[starts.1 ..< ends.1]))
                block.append(contentsOf: UnsafeBufferPointer(rebasing: xy[starts.0 ..< ends.0]))
                block.append(contentsOf: UnsafeBufferPointer(rebasing: xy[starts.2 ..< ends.2]))
                let run = UnsafeBufferPointer(block.elements)
                let own = q - starts.1
                for a in q..<qe {
                    if keys[a] & resolvedBit != 0 { continue }
                    let ia = Int(truncatingIfNeeded: keys[a] & pointMask)
                    let itself = own &+ (a &- q)
                    let pa = run[itself]
                    var best = Double.infinity
                    // A point within `stop` is as good as the nearest: no level's test tells the
                    // two apart (see `stopDistance`). Stopping there also keeps a cell of n
                    // identical or crowded points (or any data under a huge radius) O(n), not O(n²).
                    for j in 0 ..< run.count where j != itself {
                        let d = run[j] - pa
                        let d2 = d.x * d.x + d.y * d.y
                        // The smaller kept without a branch (a scan of n points finds a nearer
                        // one about ln n times, at no place the processor can predict); the
                        // stop is rarely taken.
                        best = d2 < best ? d2 : best
                        if d2 <= stop2 { break }
                    }
                    if best <= h2 {
                        nearest[ia] = best
                        settled += 1
                    }
                }
            }
            q = qe
        }
        return settled
    }

    /// How near a point found by a pass with cells `h` must be for the scan to stop there: the
    /// smallest level threshold beyond `previousH`, the previous pass's cell size (at most `h`).
    /// A point the pass scans is farther than `previousH` from every other (or it would have
    /// been settled), so its nearest distance and any distance up to that threshold lie above
    /// the same thresholds and below the same ones: every level tests them alike. The first
    /// pass (`previousH` 0) stops at the finest level's threshold. O(levels).
    static func stopDistance(after previousH: Double, cell h: Double, thresholds: [Double]) -> Double {
        Swift.min(thresholds.first { $0 > previousH } ?? h, h)
    }

    /// The squared distance beyond which a raw point is isolated at search radius `r`: (3r)² with
    /// a small absolute margin for rounding, or +∞ (nothing known) when that exceeds the grid cell;
    /// `float32`: for the `.float32` build, 3r + 65ε (see the type's notes). O(1).
    @inline(__always) func isolatedSquaredDistance(radius r: Double, float32: Bool = false) -> Double {
        let t = Self.threshold(radius: r, float32: float32)
        return t <= h ? t * t : .infinity
    }

    /// The distance beyond which a raw point is isolated at search radius `r`: 3r plus the
    /// margins of ``isolatedSquaredDistance(radius:float32:)``. O(1).
    @inline(__always) static func threshold(radius r: Double, float32: Bool) -> Double {
        3 * r + (float32 ? float32Margin : 0) + 1e-13
    }

    /// 65 times the largest distance between a unit-Mercator position and its `Float` rounding.
    static let float32Margin = 65 * 0x1p-25 * 2.0.squareRoot()
}
