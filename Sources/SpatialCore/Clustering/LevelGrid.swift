/// A uniform grid over the items of one level that may have neighbours, for the `.double` build's
/// radius searches: cells at least `r` wide, items sorted by (row, column) with a start offset per
/// grid row, so a search reads at most three short, contiguous runs. Built per level in O(n)
/// (radix sort); no per-item allocation.
struct LevelGrid {
    let w: Int
    /// The grid rows covered by ``rowStart`` (the others are empty).
    let firstRow: Int
    let lastRow: Int
    let rowStart: ContiguousArray<Int32>
    let column: ContiguousArray<Int32>
    let ids: ContiguousArray<UInt32>
    let px: ContiguousArray<Double>
    let py: ContiguousArray<Double>

    /// A grid for searches of radius `r` over `items` (rows into `x`, `y`). O(n).
    init(items: ContiguousArray<UInt32>, x: ContiguousArray<Double>, y: ContiguousArray<Double>, radius r: Double) {
        let n = items.count
        // Cells at least r wide. Row offsets cover only the rows between the lowest and highest
        // item; when that span is large against n (sparse data at a high zoom), cells are widened
        // (a wider cell only lengthens a run, never misses an item).
        var minY = Double.infinity, maxY = -Double.infinity
        for it in items {
            let v = y[Int(it)]
            if v < minY { minY = v }
            if v > maxY { maxY = v }
        }
        var w = Swift.max(1, Swift.min(Int((1 / r).rounded(.down)), 1 << 19))
        while w > 1 && n > 0 && Int((maxY - minY) * Double(w)) + 2 > 4 * n + 64 { w /= 2 }
        self.w = w
        let fw = Double(w)
        let firstRow = n > 0 ? Swift.min(Swift.max(Int(minY * fw), 0), w - 1) : 0
        let lastRow = n > 0 ? Swift.min(Swift.max(Int(maxY * fw), 0), w - 1) : 0
        self.firstRow = firstRow
        self.lastRow = lastRow
        var keys = ContiguousArray<UInt64>(unsafeUninitializedCapacity: n) { buf, count in
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    for i in 0..<n {
                        let it = Int(items[i])
                        let cx = Swift.min(Swift.max(Int(x[it] * fw), 0), w - 1)
                        let cy = Swift.min(Swift.max(Int(y[it] * fw), 0), w - 1) - firstRow
                        buf[i] = UInt64(cy * w + cx) << 26 | UInt64(i)
                    }
                }
            }
            count = n
        }
        var scratch = ContiguousArray<UInt64>(repeating: 0, count: n)
        IsolationBound.radixSort(&keys, scratch: &scratch, lowBit: 26, highBit: 64)
        let rowCount = lastRow - firstRow + 1
        var rowStart = ContiguousArray<Int32>(repeating: 0, count: rowCount + 1)
        var column = ContiguousArray<Int32>(repeating: 0, count: n)
        var ids = ContiguousArray<UInt32>(repeating: 0, count: n)
        var px = ContiguousArray<Double>(repeating: 0, count: n)
        var py = ContiguousArray<Double>(repeating: 0, count: n)
        for k in 0..<n {
            let key = keys[k]
            let cell = Int(key >> 26)
            let it = Int(items[Int(key & 0x3ff_ffff)])
            rowStart[cell / w + 1] += 1
            column[k] = Int32(cell % w)
            ids[k] = UInt32(it)
            px[k] = x[it]
            py[k] = y[it]
        }
        for row in 0..<rowCount { rowStart[row + 1] += rowStart[row] }
        self.rowStart = rowStart
        self.column = column
        self.ids = ids
        self.px = px
        self.py = py
    }

    /// Calls `body` with every item within `r` of (qx, qy) (`d² ≤ r²`), `r` at most the radius the
    /// grid was built for. Order: by grid row, then column. O(items in the 3×3 block).
    @inline(__always)
    func forEachWithin(x qx: Double, y qy: Double, radius r: Double, _ body: (UInt32) -> Void) {
        let fw = Double(w)
        let r2 = r * r
        let cy0 = Swift.max(firstRow, Int((qy - r) * fw)), cy1 = Swift.min(lastRow, Int((qy + r) * fw))
        let cx0 = Int32(Swift.max(0, Int((qx - r) * fw))), cx1 = Int32(Swift.min(w - 1, Int((qx + r) * fw)))
        guard cy0 <= cy1, cx0 <= cx1 else { return }
        rowStart.withUnsafeBufferPointer { rowStart in
            column.withUnsafeBufferPointer { column in
                px.withUnsafeBufferPointer { px in
                    py.withUnsafeBufferPointer { py in
                        ids.withUnsafeBufferPointer { ids in
                            for cy in cy0...cy1 {
                                var lo = Int(rowStart[cy - firstRow]), hi = Int(rowStart[cy - firstRow + 1])
                                let end = hi
                                while lo < hi {
                                    let mid = (lo + hi) >> 1
                                    if column[mid] < cx0 { lo = mid + 1 } else { hi = mid }
                                }
                                var k = lo
                                while k < end && column[k] <= cx1 {
                                    let dx = px[k] - qx, dy = py[k] - qy
                                    if dx * dx + dy * dy <= r2 { body(ids[k]) }
                                    k += 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
