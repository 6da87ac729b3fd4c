import Testing
@testable import SpatialCore

/// The `.double` build's per-level grid, against brute force over the same items: radius searches
/// and the neighbour marking, in the dense (a start per cell) and sparse (a start per row) lookups,
/// on grids laid out for searches and for sweeps; the pair sweep, its limits and its sample.
@Suite("Clustering: level grid")
struct LevelGridTests {
    /// Rows 0 ..< n: points in a square of side `spread` around the map's centre, every fifth a
    /// copy of an earlier one (exact duplicates); the grid is built over the odd rows and every
    /// fourth even one, so its items are not all rows.
    static func points(count n: Int, spread: Double, seed: UInt64)
        -> (x: ContiguousArray<Double>, y: ContiguousArray<Double>, items: ContiguousArray<UInt32>) {
        var random = SplitMix(seed: seed)
        var x = ContiguousArray<Double>(), y = ContiguousArray<Double>()
        for i in 0 ..< n {
            if i % 5 == 4 {
                let j = Int(random.next() % UInt64(i))
                x.append(x[j])
                y.append(y[j])
            } else {
                x.append(random.uniform(0.5 - spread / 2, 0.5 + spread / 2))
                y.append(random.uniform(0.5 - spread / 2, 0.5 + spread / 2))
            }
        }
        var items = ContiguousArray<UInt32>()
        for i in 0 ..< n where i % 2 == 1 || i % 8 == 0 { items.append(UInt32(i)) }
        return (x, y, items)
    }

    @Test("searches and marks find exactly the items within r",
          arguments: [(2_000, 1e-3, 1e-5), (2_000, 0.5, 1e-5), (3_000, 0.9, 3e-4), (500, 1e-4, 0.2), (1, 0.1, 0.01)])
    func matchesBruteForce(count n: Int, spread: Double, radius r: Double) {
        let (x, y, items) = Self.points(count: n, spread: spread, seed: UInt64(n) ^ r.bitPattern)
        for (parallel, forSweeps) in [(false, false), (true, false), (false, true), (true, true)] {
            var grid = LevelGrid(items: items, x: x, y: y, radius: r, forSweeps: forSweeps, parallel: Parallelism(parallel))
            grid.prepareSearches()
            #expect(grid.keys.count == items.count)
            // The item in slot k.
            func item(_ k: Int) -> UInt32 { items[grid.order(k)] }
            // Searches around every item and around random points.
            var random = SplitMix(seed: 7)
            var queries: [(Double, Double)] = items.map { (x[Int($0)], y[Int($0)]) }
            for _ in 0 ..< 200 { queries.append((random.uniform(0.4, 0.6), random.uniform(0.4, 0.6))) }
            var wrong = 0, wrongSkipping = 0
            let rank = Dictionary(uniqueKeysWithValues: items.enumerated().map { ($1, $0) })
            // By slot: skip none, or the items of even rank.
            let none = [Bool](repeating: false, count: items.count)
            let evenRanks = (0 ..< items.count).map { grid.order($0) % 2 == 0 }
            var reached = ScratchBuffer<Int32>(capacity: 1)
            defer { reached.deallocate() }
            for (qx, qy) in queries {
                let expected = items.filter {
                    let dx = x[Int($0)] - qx, dy = y[Int($0)] - qy
                    return dx * dx + dy * dy <= r * r
                }
                // Every item within r, appended after what the buffer holds.
                reached.removeAll()
                reached.append(-1)
                none.withUnsafeBufferPointer { grid.appendSlotsWithin(x: qx, y: qy, radius: r, to: &reached, skipping: $0) }
                let found = reached.elements.dropFirst().map { item(Int($0)) }
                if reached[0] != -1 || found.sorted() != expected.sorted() { wrong += 1 }
                // Only those not skipped (items of odd rank).
                reached.removeAll()
                evenRanks.withUnsafeBufferPointer { grid.appendSlotsWithin(x: qx, y: qy, radius: r, to: &reached, skipping: $0) }
                let kept = reached.elements.map { item(Int($0)) }
                if kept.sorted() != expected.filter({ rank[$0]! % 2 == 1 }).sorted() { wrongSkipping += 1 }
            }
            #expect(wrong == 0, "\(wrong) of \(queries.count) searches differ (parallel \(parallel), for sweeps \(forSweeps))")
            #expect(wrongSkipping == 0, "\(wrongSkipping) of \(queries.count) searches skipping items differ")
            // Marking: an item gets its own slot exactly when another item lies within r.
            var slots = [Int32](repeating: -1, count: items.count)
            slots.withUnsafeMutableBufferPointer {
                grid.markItemsWithNeighbours(radius: r, slots: $0, parallel: Parallelism(parallel))
            }
            var wrongMarks = 0
            for (i, it) in items.enumerated() {
                let hasNeighbour = items.contains { other in
                    guard other != it else { return false }
                    let dx = x[Int(other)] - x[Int(it)], dy = y[Int(other)] - y[Int(it)]
                    return dx * dx + dy * dy <= r * r
                }
                let slot = Int(slots[i])
                if hasNeighbour != (slot >= 0) || (slot >= 0 && item(slot) != it) { wrongMarks += 1 }
            }
            #expect(wrongMarks == 0, "\(wrongMarks) of \(items.count) marks differ (parallel \(parallel), for sweeps \(forSweeps))")
        }
    }

    /// Every pair of items within r, as item indices (lower first), by brute force.
    static func pairsWithin(_ items: ContiguousArray<UInt32>, x: ContiguousArray<Double>, y: ContiguousArray<Double>,
                            radius r: Double) -> Set<[Int]> {
        var pairs = Set<[Int]>()
        for a in 0 ..< items.count {
            for b in (a + 1) ..< items.count {
                let dx = x[Int(items[b])] - x[Int(items[a])], dy = y[Int(items[b])] - y[Int(items[a])]
                if dx * dx + dy * dy <= r * r { pairs.insert([a, b]) }
            }
        }
        return pairs
    }

    @Test("the sweep's neighbour lists hold exactly the pairs within r, each once a side",
          arguments: [(2_000, 1e-3, 1e-5), (2_000, 2e-3, 1e-4), (3_000, 0.9, 3e-4), (500, 1e-4, 0.2),
                      (4_000, 0.05, 2e-3), (1, 0.1, 0.01), (2_000, 0.3, 0.004)])
    func neighbourListsMatchBruteForce(count n: Int, spread: Double, radius r: Double) throws {
        let (x, y, items) = Self.points(count: n, spread: spread, seed: UInt64(n) &* 31 ^ r.bitPattern)
        let expected = Self.pairsWithin(items, x: x, y: y, radius: r)
        for parallel in [false, true] {
            let grid = LevelGrid(items: items, x: x, y: y, radius: r, forSweeps: true, parallel: Parallelism(parallel))
            let lists = try #require(grid.neighbourLists(radius: r, candidateLimit: .max, pairLimit: .max, parallel: Parallelism(parallel)))
            var found = Set<[Int]>()
            var entries = 0
            // The items that are in some pair within r.
            let paired = Set(expected.flatMap { $0 })
            var wrongFlags = 0
            // Lists are by item index (the order of `items`).
            for k in 0 ..< items.count {
                for e in Int(lists.start[k]) ..< Int(lists.start[k + 1]) {
                    let j = Int(lists.neighbours[e])
                    entries += 1
                    found.insert([k, j].sorted())
                }
                if lists.hasNeighbours(k) != paired.contains(k) { wrongFlags += 1 }
            }
            #expect(wrongFlags == 0, "parallel \(parallel): \(wrongFlags) items flagged wrongly")
            // Each pair appears in both items' lists, and nothing else does.
            #expect(found == expected, "parallel \(parallel): \(found.symmetricDifference(expected).count) pairs differ")
            #expect(entries == 2 * expected.count)
        }
    }

    @Test("the sweep finds every pair within r along long rows, from any slot it starts at",
          arguments: [(1_500, 3, 1e-5), (1_500, 1, 1e-5), (900, 40, 2e-5)])
    func sweepAlongLongRows(count n: Int, lines: Int, radius r: Double) throws {
        // Points along `lines` parallels r / 2 apart (each a grid row or two: pairs in the row
        // and the one below), 0.1 r to 1.9 r apart along each, some at the same place: rows of
        // hundreds of items, longer than the sweep's steps to a row's end.
        var random = SplitMix(seed: UInt64(n * lines))
        var x = ContiguousArray<Double>(), y = ContiguousArray<Double>()
        for i in 0 ..< n {
            let line = i % lines
            let previous = i >= lines ? x[i - lines] : 0.3
            x.append(i % 7 == 6 ? previous : previous + r * random.uniform(0.1, 1.9))
            y.append(0.6 + Double(line) * r / 2)
        }
        let items = ContiguousArray((0 ..< n).map { UInt32($0) })
        let expected = Self.pairsWithin(items, x: x, y: y, radius: r)
        let grid = LevelGrid(items: items, x: x, y: y, radius: r, forSweeps: true, parallel: false)
        // The whole sweep, and the sweep in parts cut at arbitrary slots (mid-row, mid-cell).
        var cuts = [0, n]
        for _ in 0 ..< 9 { cuts.append(Int(random.next() % UInt64(n))) }
        cuts.sort()
        for parts in [[0 ..< n], zip(cuts, cuts.dropFirst()).map { $0.0 ..< $0.1 }] {
            var found = Set<[Int]>(), calls = 0
            for part in parts {
                let done = grid.forEachPairWithin(part, radius: r, limit: .max) { i, j in
                    calls += 1
                    found.insert([grid.order(i), grid.order(j)].sorted())
                }
                #expect(done)
            }
            #expect(found == expected, "\(parts.count) parts: \(found.symmetricDifference(expected).count) pairs differ")
            #expect(calls == expected.count, "each pair once")
        }
        let lists = try #require(grid.neighbourLists(radius: r, candidateLimit: .max, pairLimit: .max, parallel: true))
        #expect(lists.neighbours.count == 2 * expected.count)
    }

    @Test("the sweep gives up past its limits, and its sample tells sparse levels from dense ones")
    func sweepLimitsAndSample() throws {
        // 600 copies of one point: every pair is within any radius.
        let n = 600
        let x = ContiguousArray<Double>(repeating: 0.25, count: n), y = ContiguousArray<Double>(repeating: 0.75, count: n)
        let items = ContiguousArray((0 ..< n).map { UInt32($0) })
        let grid = LevelGrid(items: items, x: x, y: y, radius: 1e-6, forSweeps: true, parallel: false)
        let all = n * (n - 1) / 2
        #expect(grid.neighbourLists(radius: 1e-6, candidateLimit: .max, pairLimit: all, parallel: false)?.neighbours.count == 2 * all)
        #expect(grid.neighbourLists(radius: 1e-6, candidateLimit: .max, pairLimit: all - 1, parallel: false) == nil)
        #expect(grid.neighbourLists(radius: 1e-6, candidateLimit: all - 1, pairLimit: .max, parallel: false) == nil)
        #expect(grid.sampledNeighbourCountBySweep(radius: 1e-6) > 3)
        // Points 10 r apart on a line: no pairs, a sample of exactly 1 (each item alone).
        let spaced = ContiguousArray((0 ..< n).map { 0.1 + Double($0) * 1e-5 })
        let mid = ContiguousArray<Double>(repeating: 0.5, count: n)
        let sparse = LevelGrid(items: items, x: spaced, y: mid, radius: 1e-6, forSweeps: true, parallel: false)
        #expect(sparse.sampledNeighbourCountBySweep(radius: 1e-6) == 1)
        let lists = try #require(sparse.neighbourLists(radius: 1e-6, candidateLimit: 64, pairLimit: 0, parallel: false))
        #expect(lists.neighbours.isEmpty)
        // Neighbours about r apart along the line (a grid cell is wider than r by a margin): every
        // pair is found, and the sample counts at most the two neighbours of each item.
        let r = 1e-5
        let touching = LevelGrid(items: items, x: spaced, y: mid, radius: r, forSweeps: true, parallel: true)
        let all2 = try #require(touching.neighbourLists(radius: r, candidateLimit: .max, pairLimit: .max, parallel: true))
        #expect(all2.neighbours.count == Self.pairsWithin(items, x: spaced, y: mid, radius: r).count * 2)
        let sampled = touching.sampledNeighbourCountBySweep(radius: r)
        #expect(sampled >= 1 && sampled <= 3)
    }

    /// The cell numbers of the grid's keys come from `LevelGrid.floor(_:within:)`, which converts
    /// without `Int(_:)`'s checks: it must equal `Int(_:)` of the value clamped to 0 … top on
    /// every value a key or a search can meet (integers, their neighbours, the ends, halves that
    /// round either way) and clamp what lies outside (negatives, past the top, infinities, NaN).
    @Test("a cell's floor agrees with Int of the clamped value")
    func cellFloor() {
        var random = SplitMix(seed: 77)
        for top in [0.0, 1, 2, 7, 1_000, Double((1 << 19) - 1), Double(1 << 19)] {
            var values: [Double] = [0, -0.0, 0.5, 1, 1.5, 2.5, top, top - 0.5, top + 0.5, top + 1, -0.5, -1, -1e300, 1e300,
                                    .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude]
            for k in 0 ... Swift.min(Int(top) + 1, 64) {
                let v = Double(k)
                values += [v, v.nextUp, v.nextDown, v + 0.5, (v + 0.5).nextDown, (v + 0.5).nextUp]
            }
            for _ in 0 ..< 2_000 { values.append(random.uniform(-2, top + 2)) }
            for v in values {
                let expected = v > 0 ? Int(Swift.min(v, top)) : 0
                #expect(LevelGrid.floor(v, within: top) == expected, "v \(v), top \(top)")
            }
            #expect(LevelGrid.floor(.nan, within: top) == 0)
        }
    }

    /// Each key's cell is the one its item's coordinates fall in (rows and columns counted from
    /// the first numbered ones), on grids of either layout.
    @Test("every key holds its item's cell", arguments: [(3_000, 0.9, 3e-4), (2_000, 1e-3, 1e-5), (500, 1e-4, 0.2)])
    func keysHoldCells(count n: Int, spread: Double, radius r: Double) {
        let (x, y, items) = Self.points(count: n, spread: spread, seed: UInt64(n) &* 31 ^ r.bitPattern)
        for forSweeps in [false, true] {
            let grid = LevelGrid(items: items, x: x, y: y, radius: r, forSweeps: forSweeps, parallel: false)
            let fw = Double(grid.w)
            let columns = grid.lastColumn - grid.firstColumn + 1
            for k in 0 ..< grid.keys.count {
                let it = Int(items[grid.order(k)])
                let column = Swift.min(Swift.max(Int(x[it] * fw), 0), grid.w - 1) - grid.firstColumn
                let row = Swift.min(Swift.max(Int(y[it] * fw), 0), grid.w - 1) - grid.firstRow
                let cell = Int(grid.keys[k] >> UInt64(LevelGrid.indexBits))
                let expected = forSweeps ? row << grid.columnShift | column : row * columns + column
                #expect(cell == expected, "slot \(k)")
            }
        }
    }
}
