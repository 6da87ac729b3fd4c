import Testing
@testable import SpatialCore

/// The `.double` build's per-level grid, against brute force over the same items: radius searches
/// and the neighbour marking, in the dense (a start per cell) and sparse (a start per row) layouts.
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
        let counts = ContiguousArray<Int32>(repeating: 1, count: n)
        for parallel in [false, true] {
            let grid = LevelGrid(items: items, x: x, y: y, counts: counts, radius: r, parallel: parallel)
            #expect(grid.ids.count == items.count)
            // Searches around every item and around random points.
            var random = SplitMix(seed: 7)
            var queries: [(Double, Double)] = items.map { (x[Int($0)], y[Int($0)]) }
            for _ in 0 ..< 200 { queries.append((random.uniform(0.4, 0.6), random.uniform(0.4, 0.6))) }
            var wrong = 0
            for (qx, qy) in queries {
                var found: [UInt32] = []
                grid.forEachSlotWithin(x: qx, y: qy, radius: r) { found.append(grid.ids[$0]) }
                let expected = items.filter {
                    let dx = x[Int($0)] - qx, dy = y[Int($0)] - qy
                    return dx * dx + dy * dy <= r * r
                }
                if found.sorted() != expected.sorted() { wrong += 1 }
            }
            #expect(wrong == 0, "\(wrong) of \(queries.count) searches differ (parallel \(parallel))")
            // Marking: an item gets its own slot exactly when another item lies within r.
            var slots = [Int32](repeating: -1, count: items.count)
            let positions = ContiguousArray((0 ..< items.count).map { UInt32($0) })
            slots.withUnsafeMutableBufferPointer {
                grid.markItemsWithNeighbours(radius: r, positions: positions, slots: $0, parallel: parallel)
            }
            var wrongMarks = 0
            for (i, it) in items.enumerated() {
                let hasNeighbour = items.contains { other in
                    guard other != it else { return false }
                    let dx = x[Int(other)] - x[Int(it)], dy = y[Int(other)] - y[Int(it)]
                    return dx * dx + dy * dy <= r * r
                }
                let slot = Int(slots[i])
                if hasNeighbour != (slot >= 0) || (slot >= 0 && grid.ids[slot] != it) { wrongMarks += 1 }
            }
            #expect(wrongMarks == 0, "\(wrongMarks) of \(items.count) marks differ (parallel \(parallel))")
        }
    }

    @Test("seeds decided in cell order are the greedy walk's, with its owners and groups",
          arguments: [(2_000, 1e-3, 1e-5), (2_000, 2e-3, 1e-4), (3_000, 0.9, 3e-4), (500, 1e-4, 0.2),
                      (4_000, 0.05, 2e-3), (1, 0.1, 0.01)])
    func decidesLikeTheGreedyWalk(count n: Int, spread: Double, radius r: Double) {
        let (x, y, items) = Self.points(count: n, spread: spread, seed: UInt64(n) &* 31 ^ r.bitPattern)
        var random = SplitMix(seed: 11)
        var counts = ContiguousArray<Int32>()
        for _ in 0 ..< n { counts.append(Int32(1 + random.next() % 5)) }
        let m = items.count
        func within(_ a: Int, _ b: Int) -> Bool {
            let dx = x[Int(items[b])] - x[Int(items[a])], dy = y[Int(items[b])] - y[Int(items[a])]
            return dx * dx + dy * dy <= r * r
        }
        // The walk in item order: a seed takes every later untaken item within r.
        var takenBy = [Int](repeating: -1, count: m)
        for i in 0 ..< m where takenBy[i] < 0 {
            takenBy[i] = i
            for j in (i + 1) ..< m where takenBy[j] < 0 && within(i, j) { takenBy[j] = i }
        }
        for parallel in [false, true] {
            let grid = LevelGrid(items: items, x: x, y: y, counts: counts, radius: r, parallel: false)
            var slotOfItem = [Int](repeating: -1, count: m)
            for k in 0 ..< m { slotOfItem[Int(grid.order[k])] = k }
            var owner = [Int32](repeating: 0, count: m)
            owner.withUnsafeMutableBufferPointer { grid.decideSeeds(radius: r, owner: $0, parallel: parallel) }
            var wrong = 0
            for k in 0 ..< m {
                let i = Int(grid.order[k])
                let expected: Int32
                if takenBy[i] == i {
                    let takes = (0 ..< m).contains { $0 != i && takenBy[$0] == i }
                    expected = takes ? LevelGrid.seedWithMembers : LevelGrid.lonelySeed
                } else {
                    expected = Int32(slotOfItem[takenBy[i]])
                }
                if owner[k] != expected { wrong += 1 }
            }
            #expect(wrong == 0, "\(wrong) of \(m) owners differ (parallel \(parallel))")
            // Gathered whole, and in two halves joined as the build joins them.
            for halves in [false, true] {
                var action = [Int32](repeating: -1, count: m)
                var groups = SeedGroups(), second = SeedGroups()
                defer { groups.deallocate(); second.deallocate() }
                let mid = halves ? m / 2 : m
                let firstInSecond = owner[0 ..< mid].filter { $0 == LevelGrid.seedWithMembers }.count
                owner.withUnsafeBufferPointer { owner in
                    action.withUnsafeMutableBufferPointer { action in
                        grid.gatherSeeds(0 ..< mid, radius: r, owner: owner, action: action, firstIndex: 0, into: &groups)
                        grid.gatherSeeds(mid ..< m, radius: r, owner: owner, action: action,
                                         firstIndex: firstInSecond, into: &second)
                    }
                }
                groups.append(contentsOf: second)
                var wrongGroups = 0
                for i in 0 ..< m {
                    let members = (0 ..< m).filter { takenBy[$0] == i }
                    if takenBy[i] != i {
                        if action[i] != -2 { wrongGroups += 1 }
                        continue
                    }
                    if members.count == 1 {
                        if action[i] != -1 { wrongGroups += 1 }
                        continue
                    }
                    let g = Int(action[i])
                    guard g >= 0 && g < groups.count else {
                        wrongGroups += 1
                        continue
                    }
                    let rows = members.map { items[$0] }.sorted()
                    let first = g == 0 ? 0 : Int(groups.memberEnd[g - 1])
                    let got = (first ..< Int(groups.memberEnd[g])).map { groups.memberRows[$0] }
                    let seedRow = Int(items[i])
                    var total = Int(counts[seedRow])
                    var cx = x[seedRow] * Double(total), cy = y[seedRow] * Double(total)
                    for row in rows where Int(row) != seedRow {
                        let w = Int(counts[Int(row)])
                        total += w
                        cx += x[Int(row)] * Double(w)
                        cy += y[Int(row)] * Double(w)
                    }
                    let centre = groups.centre[g]
                    if got != rows || Int(groups.total[g]) != total
                        || centre.x != cx / Double(total) || centre.y != cy / Double(total) {
                        wrongGroups += 1
                    }
                }
                #expect(wrongGroups == 0, "\(wrongGroups) of \(m) items gathered wrongly (parallel \(parallel), halves \(halves))")
            }
        }
    }
}
