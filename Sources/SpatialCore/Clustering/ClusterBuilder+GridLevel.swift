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
        // The level's clusters become rows base, base + 1, … and are appended after the loop;
        // meanwhile the rows of level z + 1 get their parent and last level through pointers (the
        // two arrays are moved out of `self` for the loop), and the lists grow in scratch buffers.
        let base = x.count
        let childBase = childList.count
        let hasProperties = !numeric.isEmpty || !custom.isEmpty || expressions.count > 0
        let memberEnd = Int8(z + 1)
        var newX = ScratchBuffer<Double>(capacity: 256), newY = ScratchBuffer<Double>(capacity: 256)
        var newCount = ScratchBuffer<Int32>(capacity: 256), newRef = ScratchBuffer<Int32>(capacity: 256)
        var newChildEnd = ScratchBuffer<Int32>(capacity: 256), children = ScratchBuffer<Int32>(capacity: 1024)
        var next = ScratchBuffer<UInt32>(capacity: level.count)
        // A neighbour as (row << 32 | slot): sorting by it gives ascending row order.
        var neighbours = ScratchBuffer<UInt64>(capacity: 256)
        defer {
            newX.deallocate(); newY.deallocate(); newCount.deallocate(); newRef.deallocate()
            newChildEnd.deallocate(); children.deallocate(); next.deallocate(); neighbours.deallocate()
        }
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
            var pos = 0
            while pos < level.count {
                let slot = Int(slotOf[pos])
                if slot < 0 {
                    // A run of items without neighbours: kept as they are.
                    repeat {
                        next.append(level[pos])
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
                grid.forEachSlotWithin(x: p.x, y: p.y, radius: r) { k in
                    neighbours.append(UInt64(ids[k]) << 32 | UInt64(k))
                }
                let found = neighbours.elements
                sortSmall(found)

                let n0 = Int(weights[slot])
                var n = n0
                for v in found where !taken[Int(v & 0xffff_ffff)] { n += Int(weights[Int(v & 0xffff_ffff)]) }

                if n > n0 && n >= minPoints {
                    let c = base + newX.count
                    let id = Int32(((pos - 1) << 5) + (z + 1) + featureCount)
                    var wx = p.x * Double(n0), wy = p.y * Double(n0)
                    let firstChild = children.count
                    var seedSeen = false
                    if hasProperties { beginProperties(seed: it) }
                    for v in found {
                        let b = Int(v >> 32), k = Int(v & 0xffff_ffff)
                        if b == it { seedSeen = true; children.append(Int32(b)); continue }
                        if taken[k] { continue }
                        taken[k] = true
                        let nb = Double(weights[k])
                        wx += xy[k].x * nb
                        wy += xy[k].y * nb
                        parentOf[b] = Int32(c)
                        lastLevel[b] = memberEnd
                        children.append(Int32(b))
                        if hasProperties { addProperties(member: b, cluster: c) }
                    }
                    if !seedSeen { children.insert(Int32(it), at: firstChild) }
                    if expressions.count > 0 { expressionValues.append(contentsOf: accumulated) }
                    parentOf[it] = Int32(c)
                    lastLevel[it] = memberEnd
                    newX.append(wx / Double(n))
                    newY.append(wy / Double(n))
                    newCount.append(Int32(n))
                    newRef.append(id)
                    newChildEnd.append(Int32(childBase + children.count))
                    next.append(UInt32(c))
                } else {
                    next.append(UInt32(it))
                    if n > n0 {
                        for v in found where !taken[Int(v & 0xffff_ffff)] {
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
        }
        }
        }
        }
        swap(&parentRows, &parent)
        swap(&lastLevelRows, &lowLevel)
        // The new cluster rows.
        let formed = newX.count
        x.append(contentsOf: newX.elements)
        y.append(contentsOf: newY.elements)
        count.append(contentsOf: newCount.elements)
        ref.append(contentsOf: newRef.elements)
        parent.append(contentsOf: repeatElement(-1, count: formed))
        lowLevel.append(contentsOf: repeatElement(Int8(options.minZoom), count: formed))
        highLevel.append(contentsOf: repeatElement(Int8(z), count: formed))
        childList.append(contentsOf: children.elements)
        childStart.append(contentsOf: newChildEnd.elements)
        return ContiguousArray(next.elements)
    }
}
