extension ClusterBuilder {
    /// One level of the `.double` build: the greedy step of ``clusterLevelOnTree(_:zoom:tree:)``,
    /// over a `LevelGrid` of the items that may have a neighbour, taking each seed's neighbours
    /// in ascending row order (so the result does not depend on the search structure; the tree
    /// step keeps kdbush's order, as supercluster). Returns level z.
    ///
    /// - Items that no other item lies within `r` of are copied in runs without a search (nobody
    ///   can take them either).
    /// - Which items were taken at this level, and their counts and positions, live in slot order
    ///   beside the grid's runs: a search then finds everything about its neighbours in the cache
    ///   lines it has just read, instead of one random row per neighbour.
    ///
    /// - Complexity: O(n) for n items plus the 3×3 block scans.
    mutating func clusterLevelOnGrid(
        _ level: ContiguousArray<UInt32>, zoom z: Int, isolation: IsolationBound?, parallelFrom: Int
    ) -> ContiguousArray<UInt32> {
        let r = options.searchRadius(atZoom: z)
        let minPoints = options.minPoints
        let isolated2 = isolation?.isolatedSquaredDistance(radius: r) ?? .infinity
        // The items that may have a neighbour within r: isolated raw points can be nobody's.
        var active = ContiguousArray<UInt32>()
        var activePositions = ContiguousArray<UInt32>()
        active.reserveCapacity(level.count)
        activePositions.reserveCapacity(level.count)
        for pos in 0..<level.count {
            let it = level[pos]
            if Int(it) >= pointCount || isolation == nil || !(isolation!.nearest2[Int(it)] > isolated2) {
                active.append(it)
                activePositions.append(UInt32(pos))
            }
        }
        let parallel = active.count >= parallelFrom
        let grid = LevelGrid(items: active, x: x, y: y, counts: count, radius: r, parallel: parallel)
        // Per level position: the item's grid slot when some item lies within r of it, else -1.
        var slotOf = ContiguousArray<Int32>(repeating: -1, count: level.count)
        slotOf.withUnsafeMutableBufferPointer {
            grid.markItemsWithNeighbours(radius: r, positions: activePositions, slots: $0, parallel: parallel)
        }
        var taken = ContiguousArray<Bool>(repeating: false, count: active.count)
        var next = ContiguousArray<UInt32>()
        next.reserveCapacity(level.count)
        // A neighbour as (row << 32 | slot): sorting by it gives ascending row order.
        var neighbours = ContiguousArray<UInt64>()
        neighbours.reserveCapacity(256)
        grid.ids.withUnsafeBufferPointer { ids in
        grid.xy.withUnsafeBufferPointer { xy in
        grid.weights.withUnsafeBufferPointer { weights in
        taken.withUnsafeMutableBufferPointer { taken in
            var pos = 0
            while pos < level.count {
                let slot = Int(slotOf[pos])
                if slot < 0 {
                    // A run of items without neighbours: kept as they are.
                    var end = pos + 1
                    while end < level.count && slotOf[end] < 0 { end += 1 }
                    next.append(contentsOf: level[pos..<end])
                    pos = end
                    continue
                }
                pos += 1
                if taken[slot] { continue }
                taken[slot] = true
                let it = Int(ids[slot])
                let p = xy[slot]
                neighbours.removeAll(keepingCapacity: true)
                grid.forEachSlotWithin(x: p.x, y: p.y, radius: r) { k in
                    neighbours.append(UInt64(ids[k]) << 32 | UInt64(k))
                }
                if neighbours.count > 1 { sortSmall(&neighbours) }

                let n0 = Int(weights[slot])
                var n = n0
                for v in neighbours where !taken[Int(v & 0xffff_ffff)] { n += Int(weights[Int(v & 0xffff_ffff)]) }

                if n > n0 && n >= minPoints {
                    let c = x.count
                    let id = Int32(((pos - 1) << 5) + (z + 1) + featureCount)
                    var wx = p.x * Double(n0), wy = p.y * Double(n0)
                    let firstChild = childList.count
                    var seedSeen = false
                    beginProperties(seed: it)
                    for v in neighbours {
                        let b = Int(v >> 32), k = Int(v & 0xffff_ffff)
                        if b == it { seedSeen = true; childList.append(Int32(b)); continue }
                        if taken[k] { continue }
                        taken[k] = true
                        let nb = Double(weights[k])
                        wx += xy[k].x * nb
                        wy += xy[k].y * nb
                        addMember(b, cluster: c, zoom: z)
                    }
                    let row = appendCluster(seed: it, x: wx / Double(n), y: wy / Double(n), count: n, id: id,
                                            zoom: z, firstChild: firstChild, seedSeen: seedSeen)
                    next.append(UInt32(row))
                } else {
                    next.append(UInt32(it))
                    if n > n0 {
                        for v in neighbours where !taken[Int(v & 0xffff_ffff)] {
                            taken[Int(v & 0xffff_ffff)] = true
                            next.append(UInt32(v >> 32))
                        }
                    }
                }
            }
        }
        }
        }
        }
        return next
    }
}
