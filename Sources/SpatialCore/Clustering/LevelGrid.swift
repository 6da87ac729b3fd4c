/// A uniform grid over the items of one level that may have neighbours, for the `.double` build's
/// radius searches: cells wider than `r` (by ``blockMargin``), items sorted by (row, column) with
/// their coordinates interleaved in that order, so the items within r of an item lie in its own
/// cell and the eight around it, and a row of cells is one contiguous run. Only the rows and
/// columns between the lowest and highest item are numbered (a city's points need a small grid,
/// not a world-wide one).
///
/// Two ways to read it:
/// - sweeps in cell order (``forEachPairWithin(_:radius:limit:pairLimit:_:)``), which need only the
///   sorted keys;
/// - searches at random places (``appendSlotsWithin(x:y:radius:to:skipping:)``, marking), which
///   need a run lookup built by ``prepareSearches()``: when the numbered cells are few against n,
///   a start offset per cell (a run is found in O(1)); otherwise one per row and a binary search
///   over the row's columns.
/// Built per level in O(n) (radix sort); no per-item allocation.
struct LevelGrid {
    let w: Int
    /// The grid rows and columns that hold items (the others are empty).
    let firstRow: Int
    let lastRow: Int
    let firstColumn: Int
    let lastColumn: Int
    /// A grid laid out for sweeps: a key's cell is (row − firstRow) << columnShift | (column −
    /// firstColumn), so rows and columns are read with a shift and a mask. Otherwise it is
    /// (row − firstRow) × columns + (column − firstColumn), the index of its start offset.
    let forSweeps: Bool
    let columnShift: Int
    /// Per slot, in cell order: cell << 26 | the item's index in the `items` the grid was built
    /// from.
    let keys: ContiguousArray<UInt64>
    /// After ``prepareSearches()``, dense mode: start offset per cell of rows firstRow…lastRow ×
    /// columns firstColumn…lastColumn (+ end). Else empty.
    private(set) var cellStart = ContiguousArray<Int32>()
    /// After ``prepareSearches()``, sparse mode: start offset per row (+ end) and the column (from
    /// firstColumn) of every item. Else empty.
    private(set) var rowStart = ContiguousArray<Int32>()
    private(set) var column = ContiguousArray<Int32>()
    /// Item coordinates in cell order, x then y (empty after ``dropCoordinates()``).
    private(set) var xy: ContiguousArray<SIMD2<Double>>

    /// How many slots ahead a gather in cell order asks for an item's entries.
    static let gatherDistance = 8
    /// From how many items a level is taken to be larger than the core's own cache (32,768
    /// coordinate pairs are 512 KiB): the build's loops over items at random places then ask for
    /// their loads ahead (below, asking would only add instructions), the build takes pair lists
    /// up to a denser sample (`ClusterBuilder.neighbourSource`: a search there misses the cache),
    /// and a searched level marks the items that have a neighbour before its walk (below, the
    /// walk searches every item: a search in cache costs what marking does).
    static let prefetchFrom = 1 << 15

    /// The bits of a key below its cell: the item's index in `items`.
    static let indexBits = CellKeySort.indexBits
    static let indexMask = CellKeySort.indexMask

    /// Slot k's index in the `items` the grid was built from (its rank in level order). O(1).
    @inline(__always) func order(_ k: Int) -> Int { Int(truncatingIfNeeded: keys[k] & Self.indexMask) }

    /// A grid for radius `r` over `items` (rows into `x` and `y`). `forSweeps`: laid out
    /// for ``forEachPairWithin(_:radius:limit:pairLimit:_:)`` (searches need
    /// ``prepareSearches()`` first); otherwise for searches, with the run lookup built and cells
    /// widened up to 4× where that allows a start offset per cell. `parallel`: its item passes
    /// (bounds, keys, coordinates) and its sort use both cores. O(n) plus, for searches, O(cells).
    init(items: ContiguousArray<UInt32>, x: ContiguousArray<Double>, y: ContiguousArray<Double>,
         radius r: Double, forSweeps: Bool, parallel: Parallelism, prefetchFrom: Int = LevelGrid.prefetchFrom) {
        self.forSweeps = forSweeps
        let n = items.count
        // A level holds at most ClusterIndex.maximumFeatureCount items, fewer than 2^26.
        assert(n < 1 << Self.indexBits, "a level holds more items than a grid key can index")
        // Cells wider than r by the block margin. Offsets cover only the rows between the lowest
        // and highest item; when that span is large against n (sparse data at a high zoom), cells
        // are widened (a wider cell only lengthens a run, never misses an item).
        // The item loops below (bounds, keys, coordinates) split over the two cores when
        // `parallel`: each half writes only its own entries.
        var lowHalf = ItemBounds(), highHalf = ItemBounds()
        x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                items.withUnsafeBufferPointer { items in
                    func bounds(_ part: Range<Int>) -> ItemBounds {
                        var b = ItemBounds()
                        for i in part {
                            let it = Int(items[i])
                            b.include(x[it], y[it])
                        }
                        return b
                    }
                    ParallelPair.run(parallel: parallel, { lowHalf = bounds(0 ..< n / 2) }, { highHalf = bounds(n / 2 ..< n) })
                }
            }
        }
        let bounds = lowHalf.union(highHalf)
        let (minX, maxX, minY, maxY) = (bounds.minX, bounds.maxX, bounds.minY, bounds.maxY)
        // Clamp in Double first: for a tiny radius the quotient exceeds Int.max. At most 2^19
        // columns and rows: a cell number then fits the 38 bits above a key's index.
        var w = Swift.max(1, Int(Swift.min((1 / (r + Self.blockMargin)).rounded(.down), Double(1 << 19))))
        while w > 1 && n > 0 && Int((maxY - minY) * Double(w)) + 2 > 4 * n + 64 { w /= 2 }
        // Dense offsets need at most about 8 cells per item; cells may be widened up to 4× for that
        // (a few more items per run beat a binary search per row).
        var halvings = 0
        while !forSweeps && halvings < 2 && w > 1 && n > 0
            && (Int((maxY - minY) * Double(w)) + 2) * (Int((maxX - minX) * Double(w)) + 2) > 8 * n + 1024 {
            w /= 2
            halvings += 1
        }
        self.w = w
        let fw = Double(w)
        let firstRow = n > 0 ? Swift.min(Swift.max(Int(minY * fw), 0), w - 1) : 0
        let lastRow = n > 0 ? Swift.min(Swift.max(Int(maxY * fw), 0), w - 1) : 0
        let firstColumn = n > 0 ? Swift.min(Swift.max(Int(minX * fw), 0), w - 1) : 0
        let lastColumn = n > 0 ? Swift.min(Swift.max(Int(maxX * fw), 0), w - 1) : 0
        self.firstRow = firstRow
        self.lastRow = lastRow
        self.firstColumn = firstColumn
        self.lastColumn = lastColumn
        let rowCount = lastRow - firstRow + 1
        let columnCount = lastColumn - firstColumn + 1
        let columnShift = forSweeps ? Int.bitWidth - (columnCount - 1).leadingZeroBitCount : 0
        self.columnShift = columnShift
        // The cell number of (row, column) relative to the first ones.
        let rowFactor = forSweeps ? 1 << columnShift : columnCount
        // The key loop's steps cannot overflow (cells are below 2^19 a side, indices below
        // 2^26): they wrap instead of checking, and a coordinate's cell is taken without the
        // checks of `Int(_:)` (see `floor(_:within:)`). Checked, with `w − 1` read again per
        // item, the loop took about 34 instructions an item (callgrind, DC hydrants; see
        // PERFORMANCE.md, thirty-eighth session).
        let top = Double(w - 1)
        var keys = ContiguousArray<UInt64>(filling: n) { buf in
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    items.withUnsafeBufferPointer { items in
                        ParallelPair.halves(of: n, parallel: parallel) { part in
                            for i in part {
                                let it = Int(items[i])
                                let cx = Self.floor(x[it] * fw, within: top) &- firstColumn
                                let cy = Self.floor(y[it] * fw, within: top) &- firstRow
                                buf[i] = UInt64(truncatingIfNeeded: cy &* rowFactor &+ cx) &<< 26 | UInt64(truncatingIfNeeded: i)
                            }
                        }
                    }
                }
            }
        }
        do {
            // Every pass of the sort writes all of it before reading it: no need to clear it.
            var scratch = ContiguousArray<UInt64>(filling: n) { _ in }
            // Only the bits a cell number can use.
            let cellBits = Swift.max(1, Int.bitWidth - ((rowCount - 1) * rowFactor + columnCount - 1).leadingZeroBitCount)
            CellKeySort.radixSort(&keys, scratch: &scratch, lowBit: 26, highBit: 26 + cellBits, parallel: parallel)
        }
        let xy = ContiguousArray<SIMD2<Double>>(filling: n) { buf in
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    items.withUnsafeBufferPointer { items in
                        keys.withUnsafeBufferPointer { keys in
                            // Items in cell order are at random places in `items` and in the
                            // rows: both loads are asked for ahead, in two stages.
                            guard n > 0, let pItems = items.baseAddress, let px = x.baseAddress, let py = y.baseAddress else { return }
                            let d = n >= prefetchFrom ? Self.gatherDistance : 0
                            @inline(__always) func slot(_ k: Int) -> Int { Int(truncatingIfNeeded: keys[k] & Self.indexMask) }
                            ParallelPair.halves(of: n, parallel: parallel) { part in
                                Prefetch.forEach(part, reach: 2 * d, ask: { k in
                                    Prefetch.line(pItems + slot(k &+ 2 &* d))
                                    let ahead = Int(items[slot(k &+ d)])
                                    Prefetch.line(px + ahead)
                                    Prefetch.line(py + ahead)
                                }) { k in
                                    let it = Int(items[slot(k)])
                                    buf[k] = SIMD2(x[it], y[it])
                                }
                            }
                        }
                    }
                }
            }
        }
        self.keys = keys
        self.xy = xy
        if !forSweeps { prepareSearches() }
    }

    /// Frees the coordinates, for a grid kept only for its cells. O(1).
    mutating func dropCoordinates() { xy = [] }

    /// Builds the run lookup that searches at random places need: a start offset per cell when
    /// the numbered cells are at most 8n + 1024, else per row with each item's column. O(n + cells).
    mutating func prepareSearches() {
        guard cellStart.isEmpty && rowStart.isEmpty else { return }
        (cellStart, rowStart, column) = Self.lookup(keys: keys, rows: lastRow - firstRow + 1, columns: lastColumn - firstColumn + 1,
                                                    columnShift: forSweeps ? columnShift : nil)
    }

    /// The run lookup of sorted `keys` over `rows` × `columns` cells, whose cell numbers are
    /// row << columnShift | column, or row × columns + column when `columnShift` is nil:
    /// (cellStart, [], []) or ([], rowStart, column). O(n + cells).
    private static func lookup(keys: ContiguousArray<UInt64>, rows rowCount: Int, columns columnCount: Int, columnShift: Int?)
        -> (ContiguousArray<Int32>, ContiguousArray<Int32>, ContiguousArray<Int32>) {
        let n = keys.count
        let cellCount = rowCount * columnCount
        let shift = UInt64(indexBits)
        // Row and column of a key's cell.
        @inline(__always) func place(_ key: UInt64) -> (row: Int, column: Int) {
            let cell = Int(truncatingIfNeeded: key &>> shift)
            guard let columnShift else { return (cell / columnCount, cell % columnCount) }
            return (cell &>> columnShift, cell & (1 &<< columnShift &- 1))
        }
        if cellCount <= 8 * n + 1024 {
            // Each cell's start is the first slot at or after it (empty cells share the next
            // one's): the number of keys in the cells before it, counted then summed. (Filled in
            // one ordered pass instead, a loop over the cells up to each key's ran a count that
            // changes from key to key: callgrind's branch model missed its end for four keys in
            // five on the Tulsa hydrants, 19.8k of the build's 255k misses; the counts
            // take none.)
            var cellStart = ContiguousArray<Int32>(repeating: 0, count: cellCount + 1)
            cellStart.withUnsafeMutableBufferPointer { cs in
                keys.withUnsafeBufferPointer { keys in
                    for k in 0..<n {
                        let cell: Int
                        if columnShift == nil {
                            cell = Int(truncatingIfNeeded: keys[k] &>> shift)
                        } else {
                            let (row, column) = place(keys[k])
                            cell = row * columnCount + column
                        }
                        cs[cell &+ 1] &+= 1
                    }
                }
                var sum: Int32 = 0
                for c in 0 ... cellCount {
                    sum &+= cs[c]
                    cs[c] = sum
                }
            }
            return (cellStart, [], [])
        }
        var rowStart = ContiguousArray<Int32>(repeating: 0, count: rowCount + 1)
        let column = ContiguousArray<Int32>(filling: n) { column in
            rowStart.withUnsafeMutableBufferPointer { rowStart in
                keys.withUnsafeBufferPointer { keys in
                    for k in 0..<n {
                        let (row, c) = place(keys[k])
                        rowStart[row + 1] &+= 1
                        column[k] = Int32(truncatingIfNeeded: c)
                    }
                }
                for row in 0..<rowCount { rowStart[row + 1] &+= rowStart[row] }
            }
        }
        return ([], rowStart, column)
    }

    /// Sets `slots[i]` to item `i`'s slot for every item `i` (in the order of `items` at init)
    /// that has another item within `r` (`d² ≤ r²`, the test `appendSlotsWithin` applies);
    /// the other entries are left as they are. Scans the items in cell order, so memory is read
    /// in order, and stops at an item's first neighbour.
    ///
    /// Each scan covers a block a hair wider than a search's (``block(around:radius:)``), so that an item left
    /// unmarked can be found by no search at all, whatever the rounding of the cell bounds: on
    /// the levels it marks (those larger than the core's cache), the build copies unmarked items
    /// without searching. `parallel`: the two halves of the slots are
    /// scanned on the two cores (each slot writes only its own item's entry).
    /// O(n + Σ scanned block sizes).
    func markItemsWithNeighbours(radius r: Double, slots: UnsafeMutableBufferPointer<Int32>, parallel: Parallelism) {
        assert(slots.count == xy.count)
        let fw = Double(w)
        let r2 = r * r
        let n = xy.count
        assert(!cellStart.isEmpty || !rowStart.isEmpty || n == 0, "prepareSearches() first")
        xy.withUnsafeBufferPointer { xy in
            keys.withUnsafeBufferPointer { keys in
                // Each slot writes only its own item's entry: the two halves run on the two cores.
                func mark(_ part: Range<Int>) {
                    for k in part {
                        let q = xy[k]
                        func near(_ j: Int) -> Bool {
                            guard j != k else { return false }
                            let d = xy[j] - q
                            return d.x * d.x + d.y * d.y <= r2
                        }
                        // The block, the item's own row first.
                        func nearInBlock() -> Bool {
                            guard let block = block(around: q, radius: r) else { return false }
                            let cy0 = block.rows.lowerBound, cy1 = block.rows.upperBound
                            let (cx0, cx1) = block.columns
                            let own = Swift.min(Swift.max(cell(q.y, fw), cy0), cy1)
                            return forAnySlot(rows: own, own, columns: cx0, cx1, near)
                                || forAnySlot(rows: cy0, own &- 1, columns: cx0, cx1, near)
                                || forAnySlot(rows: own &+ 1, cy1, columns: cx0, cx1, near)
                        }
                        // Nearest first: in dense data the slots beside k are in its cell and
                        // nearly always within r.
                        if (k &+ 1 < n && near(k &+ 1)) || (k > 0 && near(k &- 1)) || nearInBlock() {
                            slots[Int(truncatingIfNeeded: keys[k] & Self.indexMask)] = Int32(truncatingIfNeeded: k)
                        }
                    }
                }
                ParallelPair.halves(of: n, parallel: parallel, mark)
            }
        }
    }

    /// Whether `test` holds for a slot of the cells in `rows` × `columns` (grid rows and columns,
    /// clamped by the caller to the numbered ones; an empty range finds nothing). Stops at the
    /// first. O(items in the cells).
    @inline(__always)
    private func forAnySlot(rows cy0: Int, _ cy1: Int, columns gx0: Int, _ gx1: Int, _ test: (Int) -> Bool) -> Bool {
        guard cy0 <= cy1, gx0 <= gx1 else { return false }
        let cx0 = gx0 &- firstColumn, cx1 = gx1 &- firstColumn
        let columnCount = lastColumn &- firstColumn &+ 1
        if !cellStart.isEmpty {
            return cellStart.withUnsafeBufferPointer { cellStart in
                for cy in cy0...cy1 {
                    let base = (cy &- firstRow) &* columnCount
                    var k = Int(cellStart[base &+ cx0])
                    let end = Int(cellStart[base &+ cx1 &+ 1])
                    while k < end {
                        if test(k) { return true }
                        k &+= 1
                    }
                }
                return false
            }
        }
        let c0 = Int32(cx0), c1 = Int32(cx1)
        return rowStart.withUnsafeBufferPointer { rowStart in
            column.withUnsafeBufferPointer { column in
                for cy in cy0...cy1 {
                    var lo = Int(rowStart[cy - firstRow]), hi = Int(rowStart[cy - firstRow + 1])
                    let end = hi
                    while lo < hi {
                        let mid = (lo + hi) >> 1
                        if column[mid] < c0 { lo = mid + 1 } else { hi = mid }
                    }
                    var k = lo
                    while k < end && column[k] <= c1 {
                        if test(k) { return true }
                        k &+= 1
                    }
                }
                return false
            }
        }
    }

    /// The slots of the cells in grid row `cy` × columns `gx0 … gx1` (clamped by the caller to
    /// the numbered rows and columns; they are one contiguous run). O(1) dense, O(log n) sparse.
    @inline(__always)
    func slots(row cy: Int, columns gx0: Int, _ gx1: Int) -> Range<Int> {
        // Rows and columns are below 2^19: the index steps wrap instead of checking.
        let cx0 = gx0 &- firstColumn, cx1 = gx1 &- firstColumn
        if !cellStart.isEmpty {
            let base = (cy &- firstRow) &* (lastColumn &- firstColumn &+ 1)
            return cellStart.withUnsafeBufferPointer { Int($0[base &+ cx0]) ..< Int($0[base &+ cx1 &+ 1]) }
        }
        let c0 = Int32(cx0), c1 = Int32(cx1)
        return rowStart.withUnsafeBufferPointer { rowStart in
            column.withUnsafeBufferPointer { column in
                var lo = Int(rowStart[cy - firstRow]), hi = Int(rowStart[cy - firstRow + 1])
                let end = hi
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if column[mid] < c0 { lo = mid + 1 } else { hi = mid }
                }
                var stop = lo
                while stop < end && column[stop] <= c1 { stop += 1 }
                return lo ..< stop
            }
        }
    }

    /// How far beyond `r` cells and the blocks of the marking and the searches reach (unit Mercator),
    /// so that an item within `r` of another is in its block whatever the rounding of the cell
    /// bounds.
    static let blockMargin = 1e-9

    /// The grid rows and columns of the block holding every item within `r` of `q` (the block
    /// reaches ``blockMargin`` further), clamped to the numbered ones; nil when it misses them all.
    /// O(1).
    @inline(__always)
    func block(around q: SIMD2<Double>, radius r: Double) -> (rows: ClosedRange<Int>, columns: (Int, Int))? {
        let fw = Double(w)
        let reach = r + Self.blockMargin
        let cy0 = Swift.max(firstRow, cell(q.y - reach, fw)), cy1 = Swift.min(lastRow, cell(q.y + reach, fw))
        let cx0 = Swift.max(firstColumn, cell(q.x - reach, fw)), cx1 = Swift.min(lastColumn, cell(q.x + reach, fw))
        guard cy0 <= cy1, cx0 <= cx1 else { return nil }
        return (cy0 ... cy1, (cx0, cx1))
    }

    /// The grid column (or row) of coordinate `v`, clamped in `Double` to 0 … w before the
    /// conversion, so that a query reaching far off the map (a huge radius) cannot overflow `Int`.
    /// (Every caller clamps the result to the numbered rows and columns, all at or above 0: a
    /// coordinate below the map gives the first of them either way.)
    @inline(__always)
    private func cell(_ v: Double, _ fw: Double) -> Int {
        Self.floor(v * fw, within: fw)
    }

    /// ⌊v⌋ of `v` clamped to 0 … `top` (a NaN counts as 0), for `top` an integer below 2^51:
    /// a cell number, without the three tests `Int(_:)` makes before it converts (not finite,
    /// too low, too high). The clamped value plus 2^52 lies where doubles are exactly the
    /// integers, so the sum rounds it to the nearest one, which its bits then hold; one less
    /// when that went up. No branch. O(1).
    @inline(__always)
    static func floor(_ v: Double, within top: Double) -> Int {
        let c = v > 0 ? (v < top ? v : top) : 0
        let shifted = c + 0x1p52
        let nearest = Int(truncatingIfNeeded: shifted.bitPattern &- (0x1p52 as Double).bitPattern)
        return nearest &- (Double(nearest) > c ? 1 : 0)
    }

    /// The grid rows cy0…cy1 and columns cx0…cx1 a search within `r` of `q` scans, clamped to
    /// the numbered ones (empty when it misses them). O(1).
    @inline(__always)
    private func searchCells(around q: SIMD2<Double>, radius r: Double) -> (Int, Int, Int, Int) {
        let fw = Double(w)
        return (Swift.max(firstRow, cell(q.y - r, fw)), Swift.min(lastRow, cell(q.y + r, fw)),
                Swift.max(firstColumn, cell(q.x - r, fw)), Swift.min(lastColumn, cell(q.x + r, fw)))
    }

    /// Starts loading the run lookup entries of a search around `q` (see
    /// ``appendSlotsWithin(x:y:radius:to:skipping:)``), without waiting for them.
    /// O(rows of the block).
    @inline(__always)
    func prefetchLookup(around q: SIMD2<Double>, radius r: Double) {
        let (cy0, cy1, cx0, cx1) = searchCells(around: q, radius: r)
        guard cy0 <= cy1, cx0 <= cx1 else { return }
        let columnCount = lastColumn - firstColumn + 1
        if !cellStart.isEmpty {
            cellStart.withUnsafeBufferPointer { cellStart in
                let base = cellStart.baseAddress.unsafelyUnwrapped
                for cy in cy0...cy1 {
                    let row = (cy - firstRow) * columnCount
                    Prefetch.line(base + row + cx0 - firstColumn)
                    Prefetch.line(base + row + cx1 - firstColumn + 1)
                }
            }
        } else {
            rowStart.withUnsafeBufferPointer { rowStart in
                Prefetch.line(rowStart.baseAddress.unsafelyUnwrapped + cy0 - firstRow)
                Prefetch.line(rowStart.baseAddress.unsafelyUnwrapped + cy1 - firstRow + 1)
            }
        }
    }

    /// Starts loading the first coordinates of each row run of a search around `q` (dense run
    /// lookup only; its entries should be loaded by now), without waiting for them. O(rows of the block).
    @inline(__always)
    func prefetchRuns(around q: SIMD2<Double>, radius r: Double) {
        guard !cellStart.isEmpty else { return }
        let (cy0, cy1, cx0, cx1) = searchCells(around: q, radius: r)
        guard cy0 <= cy1, cx0 <= cx1 else { return }
        let columnCount = lastColumn - firstColumn + 1
        cellStart.withUnsafeBufferPointer { cellStart in
            xy.withUnsafeBufferPointer { xy in
                let base = xy.baseAddress.unsafelyUnwrapped
                for cy in cy0...cy1 {
                    let row = (cy - firstRow) * columnCount
                    let start = Int(cellStart[row + cx0 - firstColumn])
                    let end = Int(cellStart[row + cx1 - firstColumn + 1])
                    // The run's first two lines (four coordinate pairs each); the processor's own
                    // prefetcher follows a longer run.
                    if start < end { Prefetch.line(base + start) }
                    if start &+ 4 < end { Prefetch.line(base + (start &+ 4)) }
                }
            }
        }
    }

    /// Appends to `found` the slot (index into `xy` and `keys`) of every item within `r` of
    /// (qx, qy) (`d² ≤ r²`) whose `skipped` entry (by slot) is false, in slot order along each
    /// row of the block. Neither test branches: every candidate is written, and kept by
    /// advancing the count (on the Tulsa hydrants' searched levels callgrind's branch model
    /// missed the distance test for about two candidates in five; see PERFORMANCE.md, twentieth
    /// session, for the times). O(the block's slots).
    @inline(__always)
    func appendSlotsWithin(x qx: Double, y qy: Double, radius r: Double, to found: inout ScratchBuffer<Int32>,
                           skipping skipped: UnsafeBufferPointer<Bool>) {
        assert(skipped.count == xy.count)
        let r2 = r * r
        let q = SIMD2(qx, qy)
        let (cy0, cy1, cx0, cx1) = searchCells(around: q, radius: r)
        guard cy0 <= cy1, cx0 <= cx1 else { return }
        xy.withUnsafeBufferPointer { xy in
            for cy in cy0 ... cy1 {
                let run = slots(row: cy, columns: cx0, cx1)
                found.append(upTo: run.count) { out in
                    var kept = 0
                    for k in run {
                        let d = xy[k] - q
                        // Both tests' bytes (0 or 1) combined and added as numbers.
                        let within = unsafeBitCast(d.x * d.x + d.y * d.y <= r2, to: UInt8.self)
                        let free = unsafeBitCast(skipped[k], to: UInt8.self) ^ 1
                        out[kept] = Int32(truncatingIfNeeded: k)
                        kept &+= Int(truncatingIfNeeded: within & free)
                    }
                    return kept
                }
            }
        }
    }
}
