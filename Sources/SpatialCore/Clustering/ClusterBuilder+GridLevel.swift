extension ClusterBuilder {
    /// One level of the `.double` build: the greedy step of ``clusterLevelOnTree(_:zoom:tree:)``,
    /// over a `LevelGrid` of the items that may have a neighbour, taking each seed's neighbours
    /// in ascending row order (so the result does not depend on the search structure; the tree
    /// step keeps kdbush's order, as supercluster). Returns level z.
    ///
    /// Raw points the isolation bound rules out are left out of the grid; they and the items no
    /// other item lies within r of are copied in runs. A seed's neighbours come one of two ways,
    /// with the same result:
    /// - from pair lists (``LevelGrid/neighbourLists(radius:candidateLimit:pairLimit:parallel:)``):
    ///   one sweep in cell order finds every pair within r, each once. Sparse levels, where an
    ///   item has few neighbours: most items then cost one pass over sorted memory, no search;
    /// - from a search of the seed's block, after marking the items that have a neighbour: dense
    ///   levels, where a seed takes many items and the pairs would be many.
    ///
    /// - Complexity: O(n) for n items plus the sweep's or the searches' block scans.
    mutating func clusterLevelOnGrid(
        _ level: ContiguousArray<UInt32>, zoom z: Int, isolation: IsolationBound?, parallelFrom: Int
    ) -> ContiguousArray<UInt32> {
        let r = options.searchRadius(atZoom: z)
        let isolated2 = isolation?.isolatedSquaredDistance(radius: r) ?? .infinity
        // The items that may have a neighbour within r: isolated raw points can be nobody's.
        var activePositions = ContiguousArray<UInt32>()
        activePositions.reserveCapacity(level.count)
        // The grid and the item list it is built from live only in this block: they are freed
        // before the new rows are appended and the next level's list is copied, which can then
        // reuse their pages.
        let rows: LevelRows
        do {
            var active = ContiguousArray<UInt32>()
            active.reserveCapacity(level.count)
            for pos in 0..<level.count {
                let it = level[pos]
                if Int(it) >= pointCount || isolation == nil || !(isolation!.nearest2[Int(it)] > isolated2) {
                    active.append(it)
                    activePositions.append(UInt32(pos))
                }
            }
            let parallel = active.count >= parallelFrom
            let n = active.count
            // A level takes pair lists when a sample of the sweep finds fewer than 3 items within
            // r of an item, itself included. Once a level was too dense for them, the next ones
            // (twice the radius, fewer items) are taken to be too: their grids are laid out for
            // searches at once.
            let pairsBelow = options.pairsBelow ?? 3
            let sweeps = pairsBelow > 0 && !searchedLastLevel
            var grid = LevelGrid(items: active, x: x, y: y, counts: count, radius: r, forSweeps: sweeps, parallel: parallel)
            var lists: NeighbourLists? = nil
            // (`.infinity`, a test's setting: lists wherever the sweep's own limits allow.)
            if sweeps && (pairsBelow == .infinity || grid.sampledNeighbourCountBySweep(radius: r) < pairsBelow) {
                lists = grid.neighbourLists(radius: r, candidateLimit: 32 * n + 4096, pairLimit: 2 * n + 1024, parallel: parallel)
            }
            if lists == nil { grid.prepareSearches() }
            searchedLastLevel = lists == nil
            rows = greedyInLevelOrder(level, grid: grid, positions: activePositions, lists: lists, radius: r, zoom: z, parallel: parallel)
        }
        defer { rows.deallocate() }
        // The new cluster rows.
        let formed = rows.x.count
        x.append(contentsOf: rows.x.elements)
        y.append(contentsOf: rows.y.elements)
        count.append(contentsOf: rows.count.elements)
        ref.append(contentsOf: rows.ref.elements)
        parent.append(contentsOf: repeatElement(-1, count: formed))
        lowLevel.append(contentsOf: repeatElement(Int8(options.minZoom), count: formed))
        highLevel.append(contentsOf: repeatElement(Int8(z), count: formed))
        childList.append(contentsOf: rows.children.elements)
        childStart.append(contentsOf: rows.childEnd.elements)
        return ContiguousArray(rows.next.elements)
    }

    /// The greedy step walked in level order: each untaken item with a neighbour takes the
    /// untaken items within r, read from `lists` when given, else found by a search of its block
    /// (the grid's run lookup must be built). `positions`: the level position of each item the
    /// grid was built from; `parallel`: the neighbour marking uses both cores.
    private mutating func greedyInLevelOrder(
        _ level: ContiguousArray<UInt32>, grid: LevelGrid, positions activePositions: ContiguousArray<UInt32>,
        lists: NeighbourLists?, radius r: Double, zoom z: Int, parallel: Bool
    ) -> LevelRows {
        let minPoints = options.minPoints
        // Per level position: the item's grid slot when some item lies within r of it, else -1.
        var slotOf = ContiguousArray<Int32>(repeating: -1, count: level.count)
        slotOf.withUnsafeMutableBufferPointer { slotOf in
            if let lists {
                for k in 0 ..< grid.ids.count where lists.hasNeighbours(k) {
                    slotOf[Int(activePositions[grid.order(k)])] = Int32(truncatingIfNeeded: k)
                }
            } else {
                grid.markItemsWithNeighbours(radius: r, positions: activePositions, slots: slotOf, parallel: parallel)
            }
        }
        let listStart = lists?.start ?? [], listed = lists?.neighbours ?? []
        var taken = ContiguousArray<Bool>(repeating: false, count: grid.ids.count)
        // The level's clusters become rows base, base + 1, … and are appended after the loop;
        // meanwhile the rows of level z + 1 get their parent and last level through pointers (the
        // two arrays are moved out of `self` for the loop).
        let base = x.count
        let childBase = childList.count
        let hasProperties = !numeric.isEmpty || !custom.isEmpty || expressions.count > 0
        let lastLevelOfMembers = Int8(z + 1)
        var rows = LevelRows(levelCount: level.count)
        // A neighbour as (row << 32 | slot): sorting by it gives ascending row order.
        var neighbours = ScratchBuffer<UInt64>(capacity: 256)
        defer { neighbours.deallocate() }
        var parentRows = ContiguousArray<Int32>(), lastLevelRows = ContiguousArray<Int8>()
        swap(&parentRows, &parent)
        swap(&lastLevelRows, &lowLevel)
        parentRows.withUnsafeMutableBufferPointer { parentOf in
        lastLevelRows.withUnsafeMutableBufferPointer { lastLevel in
        level.withUnsafeBufferPointer { level in
        slotOf.withUnsafeBufferPointer { slotOf in
        grid.ids.withUnsafeBufferPointer { ids in
        grid.xy.withUnsafeBufferPointer { xy in
        grid.weights.withUnsafeBufferPointer { weights in
        taken.withUnsafeMutableBufferPointer { taken in
        listStart.withUnsafeBufferPointer { listStart in
        listed.withUnsafeBufferPointer { listed in
            var pos = 0
            while pos < level.count {
                let slot = Int(slotOf[pos])
                if slot < 0 {
                    // A run of items without neighbours: kept as they are.
                    repeat {
                        rows.next.append(level[pos])
                        pos += 1
                    } while pos < level.count && slotOf[pos] < 0
                    continue
                }
                pos += 1
                if taken[slot] { continue }
                taken[slot] = true
                let it = Int(ids[slot])
                let p = xy[slot]
                neighbours.removeAll()
                if lists != nil {
                    // The seed and its untaken neighbours.
                    neighbours.append(UInt64(it) << 32 | UInt64(slot))
                    for e in Int(listStart[slot]) ..< Int(listStart[slot + 1]) {
                        let k = Int(listed[e])
                        if !taken[k] { neighbours.append(UInt64(ids[k]) << 32 | UInt64(k)) }
                    }
                } else {
                    grid.forEachSlotWithin(x: p.x, y: p.y, radius: r) { k in
                        neighbours.append(UInt64(ids[k]) << 32 | UInt64(k))
                    }
                }
                let found = neighbours.elements
                sortSmall(found)

                let n0 = Int(weights[slot])
                var n = n0
                for v in found where !taken[Int(v & 0xffff_ffff)] { n += Int(weights[Int(v & 0xffff_ffff)]) }

                if n > n0 && n >= minPoints {
                    let c = base + rows.x.count
                    let id = Int32(((pos - 1) << 5) + (z + 1) + featureCount)
                    var wx = p.x * Double(n0), wy = p.y * Double(n0)
                    let firstChild = rows.children.count
                    var seedSeen = false
                    if hasProperties { beginProperties(seed: it) }
                    for v in found {
                        let b = Int(v >> 32), k = Int(v & 0xffff_ffff)
                        if b == it { seedSeen = true; rows.children.append(Int32(b)); continue }
                        if taken[k] { continue }
                        taken[k] = true
                        let nb = Double(weights[k])
                        wx += xy[k].x * nb
                        wy += xy[k].y * nb
                        parentOf[b] = Int32(c)
                        lastLevel[b] = lastLevelOfMembers
                        rows.children.append(Int32(b))
                        if hasProperties { addProperties(member: b, cluster: c) }
                    }
                    if !seedSeen { rows.children.insert(Int32(it), at: firstChild) }
                    if expressions.count > 0 { expressionValues.append(contentsOf: accumulated) }
                    parentOf[it] = Int32(c)
                    lastLevel[it] = lastLevelOfMembers
                    rows.appendCluster(row: c, x: wx / Double(n), y: wy / Double(n), count: n, id: id, childBase: childBase)
                } else {
                    rows.next.append(UInt32(it))
                    if n > n0 {
                        for v in found where !taken[Int(v & 0xffff_ffff)] {
                            taken[Int(v & 0xffff_ffff)] = true
                            rows.next.append(UInt32(v >> 32))
                        }
                    }
                }
            }
        }
        }
        }
        }
        }
        }
        }
        }
        }
        }
        swap(&parentRows, &parent)
        swap(&lastLevelRows, &lowLevel)
        return rows
    }
}
