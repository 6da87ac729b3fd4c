extension ClusterBuilder {
    /// The greedy step decided in cell order on both cores (``LevelGrid/decideSeeds(radius:owner:parallel:)``,
    /// ``LevelGrid/gatherSeeds(_:radius:owner:action:firstIndex:into:)``), then emitted in level
    /// order: clusters and kept items, and for the rows of level z + 1 their parent, last level,
    /// child lists and property values, exactly as the walk in level order gives them.
    mutating func greedyInCellOrder(
        _ level: ContiguousArray<UInt32>, grid: LevelGrid, positions activePositions: ContiguousArray<UInt32>,
        radius r: Double, zoom z: Int
    ) -> LevelRows {
        let minPoints = options.minPoints
        let na = grid.ids.count
        // Per active item: copy it (-1: nothing within r, or a seed that takes nothing), skip it
        // (-2: taken by an earlier seed), or emit group `action` (≥ 0).
        var action = ContiguousArray<Int32>(repeating: -1, count: na)
        var groups = SeedGroups()
        defer { groups.deallocate() }
        do {
            // The seed decisions are freed once the groups are gathered.
            var owner = ContiguousArray<Int32>(repeating: LevelGrid.unsettled, count: na)
            owner.withUnsafeMutableBufferPointer { grid.decideSeeds(radius: r, owner: $0, parallel: true) }
            var second = SeedGroups()
            let mid = na / 2
            let firstInSecond = owner[0 ..< mid].reduce(0) { $1 == LevelGrid.seedWithMembers ? $0 + 1 : $0 }
            owner.withUnsafeBufferPointer { owner in
                action.withUnsafeMutableBufferPointer { action in
                    // Each half writes its own items' entries and its own groups.
                    ParallelPair.run(parallel: true, {
                        grid.gatherSeeds(0 ..< mid, radius: r, owner: owner, action: action, firstIndex: 0, into: &groups)
                    }, {
                        grid.gatherSeeds(mid ..< na, radius: r, owner: owner, action: action,
                                         firstIndex: firstInSecond, into: &second)
                    })
                }
            }
            groups.append(contentsOf: second)
            second.deallocate()
        }
        let base = x.count
        let childBase = childList.count
        let hasProperties = !numeric.isEmpty || !custom.isEmpty || expressions.count > 0
        let lastLevelOfMembers = Int8(z + 1)
        var rows = LevelRows(levelCount: level.count)
        var parentRows = ContiguousArray<Int32>(), lastLevelRows = ContiguousArray<Int8>()
        swap(&parentRows, &parent)
        swap(&lastLevelRows, &lowLevel)
        parentRows.withUnsafeMutableBufferPointer { parentOf in
        lastLevelRows.withUnsafeMutableBufferPointer { lastLevel in
        level.withUnsafeBufferPointer { level in
        activePositions.withUnsafeBufferPointer { positions in
        action.withUnsafeBufferPointer { action in
            var pos = 0, next = 0
            while pos < level.count {
                // The items before the next active one are kept as they are, in one copy.
                let stop = next < na ? Int(positions[next]) : level.count
                if pos < stop {
                    rows.next.append(contentsOf: UnsafeBufferPointer(rebasing: level[pos ..< stop]))
                    pos = stop
                    continue
                }
                let a = action[next]
                next += 1
                pos += 1
                if a == -1 {
                    rows.next.append(level[pos - 1])
                    continue
                }
                if a < 0 { continue }
                let s = Int(a)
                let it = Int(level[pos - 1])
                let first = s == 0 ? 0 : Int(groups.memberEnd[s - 1]), end = Int(groups.memberEnd[s])
                let n = Int(groups.total[s])
                if n >= minPoints {
                    let c = base + rows.x.count
                    if hasProperties { beginProperties(seed: it) }
                    for m in first ..< end {
                        let b = Int(groups.memberRows[m])
                        parentOf[b] = Int32(c)
                        lastLevel[b] = lastLevelOfMembers
                        rows.children.append(Int32(b))
                        if hasProperties && b != it { addProperties(member: b, cluster: c) }
                    }
                    if expressions.count > 0 { expressionValues.append(contentsOf: accumulated) }
                    let centre = groups.centre[s]
                    rows.appendCluster(row: c, x: centre.x, y: centre.y, count: n,
                                       id: Int32(((pos - 1) << 5) + (z + 1) + featureCount), childBase: childBase)
                } else {
                    // Too few points: the seed and what it took are kept, seed first.
                    rows.next.append(UInt32(it))
                    for m in first ..< end where Int(groups.memberRows[m]) != it { rows.next.append(groups.memberRows[m]) }
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
