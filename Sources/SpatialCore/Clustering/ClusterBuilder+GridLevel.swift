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
    /// - from a search of the seed's block: dense levels, where a seed takes many items and the
    ///   pairs would be many. Levels larger than the core's cache first mark the items that have a
    ///   neighbour in one pass in cell order, so that the walk's searches at random places skip
    ///   the others.
    ///
    /// - Complexity: O(n) for n items plus the sweep's or the searches' block scans.
    mutating func clusterLevelOnGrid(
        _ level: ContiguousArray<UInt32>, zoom z: Int, isolation: IsolationBound?, parallelFrom: Int
    ) -> ContiguousArray<UInt32> {
        let r = options.searchRadius(atZoom: z)
        // The grid, the lists and the walk's arrays live only in this block: they are freed
        // before the new rows are appended and the next level's list is copied, which can then
        // reuse their pages.
        let rows: LevelRows
        do {
            // The items that may have a neighbour within r (isolated raw points can be nobody's),
            // in level order, and their level positions (nil: every item, in place).
            let (active, positions) = activeItems(of: level, isolation: isolation, radius: r)
            let n = active.count
            let parallel = parallelism(items: n, from: parallelFrom)
            let source = neighbourSource(of: active, radius: r, parallel: parallel)
            let walk: WalkItems
            switch source {
            case .lists:
                // The walk reads seeds in level order: items by their index in `active`, with
                // coordinates and weights gathered in that order (the grid is freed by now).
                walk = WalkItems(ids: active, x: x, y: y, counts: count)
            case .searches(let grid, _):
                // Walk indices are grid slots: a search's neighbours are read from the runs it loads.
                walk = WalkItems(grid: grid, items: active, counts: count, prefetchFrom: options.prefetchThreshold)
            }
            if case .lists(let lists) = source { listDensity = 1 + Double(lists.neighbours.count) / Double(Swift.max(n, 1)) }
            rows = greedyInLevelOrder(level, positions: positions, walk: walk, neighbours: source, radius: r, zoom: z)
        }
        return appendLevel(rows, zoom: z)
    }

    /// Appends the rows level z formed to the builder's, frees them, and returns the level's
    /// items in order. O(rows + items).
    mutating func appendLevel(_ rows: LevelRows, zoom z: Int) -> ContiguousArray<UInt32> {
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

    /// The items of `level` that may have a neighbour within r, in level order, and their level
    /// positions: all but the raw points `isolation` rules out. Without `isolation`: the whole
    /// level, and nil positions (item j is at position j). O(n).
    private func activeItems(of level: ContiguousArray<UInt32>, isolation: IsolationBound?, radius r: Double)
        -> (items: ContiguousArray<UInt32>, positions: ContiguousArray<UInt32>?) {
        let m = level.count
        guard let isolation else { return (level, nil) }
        let isolated2 = isolation.isolatedSquaredDistance(radius: r)
        let pointCount = UInt32(truncatingIfNeeded: self.pointCount)
        // Written in place into arrays with room for the whole level (no growth, no copy).
        var positions = ContiguousArray<UInt32>()
        let items = ContiguousArray<UInt32>(fillingUpTo: m) { items in
            positions = ContiguousArray(fillingUpTo: m) { positions in
                var c = 0
                level.withUnsafeBufferPointer { level in
                    isolation.nearest2.withUnsafeBufferPointer { nearest2 in
                        // Every item is written at the next free place and kept by advancing the
                        // count, without a branch on the test (which raw points are isolated follows
                        // no pattern the processor can predict). A cluster row has no entry in
                        // `nearest2`: its index is clamped to a raw point's, whose value the test
                        // then ignores.
                        let last = Int(pointCount) - 1
                        for pos in 0 ..< m {
                            let it = level[pos]
                            let raw = it < pointCount ? 1 : 0
                            let isolated = nearest2[Swift.min(Int(it), last)] > isolated2 ? 1 : 0
                            items[c] = it
                            positions[c] = UInt32(truncatingIfNeeded: pos)
                            c &+= 1 &- (raw & isolated)
                        }
                    }
                }
                return c
            }
            return positions.count
        }
        return (items, positions)
    }

    /// How the greedy step of a level over `items` finds neighbours within r. A level takes pair
    /// lists when a sample of the sweep finds fewer than 3 items within r of an item, itself
    /// included, or fewer than 6 when the level is larger than the core's cache (and the sweep
    /// stays within its limits); otherwise it searches, after marking the items with a neighbour
    /// when the level is larger than the core's cache (`ClusterOptions.prefetchThreshold`;
    /// callgrind, marking every searched level against this: DC hydrants −0.65 M instructions
    /// for the process, Tulsa −1.5 M, earthquakes −2.2 M, uniform 100k −1.1 M). Once a level was
    /// too dense for lists, the next ones (twice the radius, fewer items) are taken to be too:
    /// their grids are laid out for searches at once.
    ///
    /// Why large levels take lists up to a denser sample: there a search reads its block at a
    /// random place (misses the core's cache), while the sweep and the walk read the lists in
    /// order. callgrind, `ClusterBuilder.run()` on one core, below 6 against below 3 on such
    /// levels: cities500 687.5 M → 662.3 M instructions (its z7 then takes lists), blobs 1M
    /// 2,883.6 M → 2,801.5 M; below 12 saved no more (see PERFORMANCE.md, twenty-second session).
    /// O(n) plus the sweep's or the marking's block scans.
    private mutating func neighbourSource(of items: ContiguousArray<UInt32>, radius r: Double, parallel: Parallelism) -> NeighbourSource {
        let n = items.count
        let pairsBelow = pairListThreshold(items: n)
        let sweeps = pairsBelow > 0 && !searchedLastLevel
        var grid = LevelGrid(items: items, x: x, y: y, radius: r, forSweeps: sweeps, parallel: parallel,
                             prefetchFrom: options.prefetchThreshold)
        // (`.infinity`, a test's setting: lists wherever the sweep's own limits allow.)
        if sweeps && (pairsBelow == .infinity || grid.sampledNeighbourCountBySweep(radius: r) < pairsBelow),
           let lists = grid.neighbourLists(radius: r, candidateLimit: 32 * n + 4096, pairLimit: 2 * n + 1024, parallel: parallel) {
            searchedLastLevel = false
            return .lists(lists)
        }
        searchedLastLevel = true
        grid.prepareSearches()
        if n >= options.prefetchThreshold {
            var slotOf = ContiguousArray<Int32>(repeating: -1, count: n)
            slotOf.withUnsafeMutableBufferPointer { grid.markItemsWithNeighbours(radius: r, slots: $0, parallel: parallel) }
            return .searches(grid, slotOf)
        }
        // Every item's slot (the keys are a permutation of the indices: each entry written once).
        let slotOf = ContiguousArray<Int32>(filling: n) { slotOf in
            grid.keys.withUnsafeBufferPointer { keys in
                for k in 0 ..< n { slotOf[Int(truncatingIfNeeded: keys[k] & LevelGrid.indexMask)] = Int32(truncatingIfNeeded: k) }
            }
        }
        return .searches(grid, slotOf)
    }

    /// Below what sampled number of items within r of an item (itself included) a level of `n`
    /// items takes pair lists: the options' test setting, else 6 for levels larger than the
    /// core's cache and 3 for the others (see ``neighbourSource(of:radius:parallel:)``). O(1).
    func pairListThreshold(items n: Int) -> Double {
        options.pairsBelow ?? (n >= options.prefetchThreshold ? 6 : 3)
    }

    /// The greedy walk of a level whose neighbours come from `lists` (by index in `level`, every
    /// item of the level in the grid): notes the lists' density for the next level's choices,
    /// appends the rows the level forms and returns its items in order. O(n + pairs).
    mutating func walkWithLists(_ level: ContiguousArray<UInt32>, lists: NeighbourLists, radius r: Double, zoom z: Int)
        -> ContiguousArray<UInt32> {
        listDensity = 1 + Double(lists.neighbours.count) / Double(Swift.max(level.count, 1))
        searchedLastLevel = false
        let walk = WalkItems(ids: level, x: x, y: y, counts: count)
        return appendLevel(greedyInLevelOrder(level, positions: nil, walk: walk, neighbours: .lists(lists), radius: r, zoom: z), zoom: z)
    }

    /// Where a walk takes a seed's neighbours from: its pair list (walk index = the item's index
    /// in level order), or a search of the grid (walk index = grid slot; with each item's slot, or
    /// −1 for items marked as having no other within r, by index in level order).
    enum NeighbourSource {
        case lists(NeighbourLists)
        case searches(LevelGrid, ContiguousArray<Int32>)
    }

    /// The greedy step walked in level order: each untaken item with a neighbour takes the
    /// untaken items within r, read from its pair list or found by a search of its block (the
    /// grid's run lookup must be built). `positions`: the level position of each item that may
    /// have a neighbour (the others, and the runs between them, are copied as they are), nil when
    /// that is every item of the level; `walk`: those items' rows, coordinates and weights by walk
    /// index.
    mutating func greedyInLevelOrder(
        _ level: ContiguousArray<UInt32>, positions: ContiguousArray<UInt32>?, walk: WalkItems,
        neighbours source: NeighbourSource, radius r: Double, zoom z: Int
    ) -> LevelRows {
        let minPoints = options.minPoints
        let n = walk.ids.count
        let inPlace = positions == nil, positions = positions ?? []
        var taken = ContiguousArray<Bool>(repeating: false, count: walk.ids.count)
        // The level's clusters become rows base, base + 1, … and are appended after the loop;
        // meanwhile the rows of level z + 1 get their parent and last level through pointers (the
        // two arrays are moved out of `self` for the loop).
        let base = x.count
        let childBase = childList.count
        let hasProperties = !numeric.isEmpty || !custom.isEmpty || expressions.count > 0
        let lastLevelOfMembers = Int8(z + 1)
        var rows = LevelRows(levelCount: level.count)
        // A seed's untaken neighbours (and the seed), with the coordinates and weights they are
        // summed with: read in the same loop as `taken` and the row, so that a neighbour that
        // misses the cache costs one wait, not one per array read in a later loop.
        var neighbours = ScratchBuffer<WalkNeighbour>(capacity: 256)
        // A search's untaken slots within r.
        var reached = ScratchBuffer<Int32>(capacity: 256)
        defer {
            neighbours.deallocate()
            reached.deallocate()
        }
        // Bound once, not optional: binding an optional grid per seed copied it (four array
        // retains and a generic destroy a seed).
        let hasLists: Bool, grid: LevelGrid, slotOf: ContiguousArray<Int32>
        let listStart: ContiguousArray<Int32>, listed: ContiguousArray<Int32>
        switch source {
        case .lists(let l):
            hasLists = true; listStart = l.start; listed = l.neighbours; slotOf = []
            grid = LevelGrid(items: [], x: [], y: [], radius: r, forSweeps: true, parallel: false)
        case .searches(let g, let s):
            hasLists = false; listStart = []; listed = []; slotOf = s; grid = g
        }
        // Where the order of a seed's neighbours can change the result (see
        // `reducesInSearchOrder`): each row's place in the search order of the level's k-d tree.
        let inSearchOrder = reducesInSearchOrder
        var searchRank = ContiguousArray<Int32>()
        if inSearchOrder {
            searchRank = ContiguousArray(repeating: 0, count: x.count)
            let tree = ClusterBuilder<Double>.makeTree(level, x: x, y: y, nodeSize: options.nodeSize)
            searchRank.withUnsafeMutableBufferPointer { tree.writeNativeSearchRanks(into: $0) }
        }
        var parentRows = ContiguousArray<Int32>(), lastLevelRows = ContiguousArray<Int8>()
        swap(&parentRows, &parent)
        swap(&lastLevelRows, &lowLevel)
        parentRows.withUnsafeMutableBufferPointer { parentOf in
        lastLevelRows.withUnsafeMutableBufferPointer { lastLevel in
        level.withUnsafeBufferPointer { level in
        positions.withUnsafeBufferPointer { positions in
        slotOf.withUnsafeBufferPointer { slotOf in
        walk.ids.withUnsafeBufferPointer { ids in
        walk.xy.withUnsafeBufferPointer { xy in
        walk.weights.withUnsafeBufferPointer { weights in
        searchRank.withUnsafeBufferPointer { searchRank in
        taken.withUnsafeMutableBufferPointer { taken in
        listStart.withUnsafeBufferPointer { listStart in
        listed.withUnsafeBufferPointer { listed in
            // The next level position not yet carried over.
            var carried = 0
            // Only levels too large for the core's own cache ask for loads ahead.
            let prefetches = n >= options.prefetchThreshold
            let lookahead = WalkPrefetch(count: n, lists: hasLists, listStart: listStart, listed: listed, slotOf: slotOf,
                                         taken: UnsafeBufferPointer(taken), ids: ids, xy: xy, weights: weights, grid: grid, radius: r)
            for j in 0 ..< n {
                // Seeds come in level order, at random places in memory: the loads of the seeds
                // a few steps ahead are started now, in stages (each stage's addresses come from
                // the lines the previous one loaded), so that their misses overlap this seed's work.
                if prefetches { lookahead.ahead(of: j) }
                // Its walk index, or −1 when no item lies within r of it: then it is kept as it
                // is, and stays in the run carried over at the next item that is not.
                let seed = hasLists ? (listStart[j &+ 1] > listStart[j] ? j : -1) : Int(slotOf[j])
                if seed < 0 { continue }
                let pos = inPlace ? j : Int(positions[j])
                // The items before it that no other item lies within r of: kept as they are.
                if pos > carried { rows.next.append(contentsOf: UnsafeBufferPointer(rebasing: level[carried ..< pos])) }
                carried = pos &+ 1
                if taken[seed] { continue }
                taken[seed] = true
                let it = Int(ids[seed])
                let p = xy[seed]
                let n0 = Int(weights[seed])
                var n = n0
                neighbours.removeAll()
                // The seed and its untaken neighbours.
                neighbours.append(WalkNeighbour(row: it, walkIndex: seed, xy: p, weight: n0))
                if !hasLists {
                    // The untaken slots within r (the seed is taken already).
                    reached.removeAll()
                    grid.appendSlotsWithin(x: p.x, y: p.y, radius: r, to: &reached, skipping: UnsafeBufferPointer(taken))
                    for f in reached.elements {
                        let k = Int(f)
                        let w = Int(weights[k])
                        n &+= w
                        neighbours.append(WalkNeighbour(row: Int(ids[k]), walkIndex: k, xy: xy[k], weight: w))
                    }
                } else {
                    // Each pair is listed once. Every listed neighbour is written and kept only
                    // when untaken, without a branch on `taken` (it goes either way in no pattern).
                    for e in Int(listStart[seed]) ..< Int(listStart[seed &+ 1]) {
                        let k = Int(listed[e])
                        let untaken = !taken[k]
                        let w = Int(weights[k])
                        n &+= untaken ? w : 0
                        neighbours.append(WalkNeighbour(row: Int(ids[k]), walkIndex: k, xy: xy[k], weight: w), keeping: untaken)
                    }
                }
                // In the order a search of the level's k-d tree reports them where that order
                // can change the result; elsewhere in ascending row order, which needs no tree.
                let found = neighbours.elements
                if inSearchOrder {
                    WalkNeighbour.sort(found, by: ByRank(rank: searchRank))
                } else {
                    WalkNeighbour.sort(found, by: ByRow())
                }

                if n > n0 && n >= minPoints {
                    let c = base &+ rows.x.count
                    // Below 2^31: positions and the feature count are at most `ClusterIndex.maximumFeatureCount`.
                    let id = Int32(truncatingIfNeeded: pos &<< 5 &+ (z &+ 1) &+ featureCount)
                    var wx = p.x * Double(n0), wy = p.y * Double(n0)
                    if hasProperties { beginProperties(seed: it) }
                    // The seed is among them, in its row's place.
                    for v in found {
                        let b = v.row, k = v.walkIndex
                        if k == seed { rows.children.append(Int32(truncatingIfNeeded: b)); continue }
                        taken[k] = true
                        let nb = Double(v.weight)
                        wx += v.xy.x * nb
                        wy += v.xy.y * nb
                        parentOf[b] = Int32(truncatingIfNeeded: c)
                        lastLevel[b] = lastLevelOfMembers
                        rows.children.append(Int32(truncatingIfNeeded: b))
                        if hasProperties { addProperties(member: b, cluster: c) }
                    }
                    if expressions.count > 0 { expressionValues.append(contentsOf: accumulated) }
                    parentOf[it] = Int32(truncatingIfNeeded: c)
                    lastLevel[it] = lastLevelOfMembers
                    rows.appendCluster(row: c, x: wx / Double(n), y: wy / Double(n), count: n, id: id, childBase: childBase)
                } else {
                    rows.next.append(UInt32(it))
                    for v in found where v.walkIndex != seed {
                        taken[v.walkIndex] = true
                        rows.next.append(UInt32(truncatingIfNeeded: v.row))
                    }
                }
            }
            if carried < level.count { rows.next.append(contentsOf: UnsafeBufferPointer(rebasing: level[carried...])) }
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

/// The greedy walk's loads asked for ahead: seeds come in level order, at random places in
/// memory, so the loads of the seeds a few steps ahead are started early, in stages (each stage's
/// addresses come from lines the previous stage loaded), and their misses overlap the current
/// seed's work.
private struct WalkPrefetch {
    /// How far ahead of the current seed (in walk steps) each stage works.
    static let listDistance = 8
    static let slotDistance = 12
    static let lookupDistance = 8
    static let runDistance = 4

    /// The walk's steps and arrays, as `greedyInLevelOrder` binds them (walk indices: level
    /// order with pair lists, grid slots with searches).
    let count: Int, lists: Bool, listStart: UnsafeBufferPointer<Int32>, listed: UnsafeBufferPointer<Int32>
    let slotOf: UnsafeBufferPointer<Int32>, taken: UnsafeBufferPointer<Bool>, ids: UnsafeBufferPointer<UInt32>
    let xy: UnsafeBufferPointer<SIMD2<Double>>, weights: UnsafeBufferPointer<Int32>, grid: LevelGrid, radius: Double

    /// Asks for the loads of the seeds ahead of step `j`: with pair lists, the entries of the
    /// neighbours listed for step j + 8; with searches, the entries of the seed of step j + 12,
    /// the run lookup of step j + 8's block and the first coordinates of step j + 4's runs.
    /// Kept out of the walk's loop (never inlined): levels that fit the cache do not call it, and
    /// the loop's own code stays as compact as without it (callgrind, DC hydrants, where no level
    /// calls it: 14.47–14.63 M instructions for the build against 14.22 M without any of it; with the
    /// stages inlined in the loop, 14.59–14.92 M). O(neighbours or block rows).
    @inline(never)
    func ahead(of j: Int) {
        let n = count, r = radius
        @inline(__always) func entries(_ k: Int) {
            Prefetch.line(taken.baseAddress.unsafelyUnwrapped + k)
            Prefetch.line(xy.baseAddress.unsafelyUnwrapped + k)
            Prefetch.line(ids.baseAddress.unsafelyUnwrapped + k)
            Prefetch.line(weights.baseAddress.unsafelyUnwrapped + k)
        }
        if lists {
            let a = j &+ Self.listDistance
            guard a < n else { return }
            for e in Int(listStart[a]) ..< Int(listStart[a &+ 1]) { entries(Int(listed[e])) }
            return
        }
        let a = j &+ Self.slotDistance
        if a < n {
            let k = Int(slotOf[a])
            if k >= 0 { entries(k) }
        }
        let b = j &+ Self.lookupDistance
        if b < n {
            let k = Int(slotOf[b])
            if k >= 0 && !taken[k] { grid.prefetchLookup(around: xy[k], radius: r) }
        }
        let c = j &+ Self.runDistance
        if c < n {
            let k = Int(slotOf[c])
            if k >= 0 && !taken[k] { grid.prefetchRuns(around: xy[k], radius: r) }
        }
    }
}

/// The items a greedy walk reads, by walk index: rows, coordinates and point counts.
struct WalkItems {
    let ids: ContiguousArray<UInt32>
    let xy: ContiguousArray<SIMD2<Double>>
    let weights: ContiguousArray<Int32>

    /// By index in `items` (level order): coordinates and counts gathered from the rows. O(n).
    init(ids items: ContiguousArray<UInt32>, x: ContiguousArray<Double>, y: ContiguousArray<Double>, counts: ContiguousArray<Int32>) {
        let n = items.count
        ids = items
        xy = ContiguousArray(filling: n) { xy in
            items.withUnsafeBufferPointer { items in
                x.withUnsafeBufferPointer { x in
                    y.withUnsafeBufferPointer { y in
                        for j in 0 ..< n { xy[j] = SIMD2(x[Int(items[j])], y[Int(items[j])]) }
                    }
                }
            }
        }
        weights = ContiguousArray(filling: n) { weights in
            items.withUnsafeBufferPointer { items in
                counts.withUnsafeBufferPointer { counts in
                    for j in 0 ..< n { weights[j] = counts[Int(items[j])] }
                }
            }
        }
    }

    /// By slot of `grid`, built over `items`: the grid's coordinates, rows and counts gathered in
    /// cell order. O(n).
    init(grid: LevelGrid, items: ContiguousArray<UInt32>, counts: ContiguousArray<Int32>, prefetchFrom: Int) {
        let n = grid.keys.count
        // Items in cell order are at random places: their entries are asked for ahead.
        let d = n >= prefetchFrom ? LevelGrid.gatherDistance : 0
        let ids = ContiguousArray<UInt32>(filling: n) { ids in
            items.withUnsafeBufferPointer { items in
                grid.keys.withUnsafeBufferPointer { keys in
                    guard n > 0, let pItems = items.baseAddress else { return }
                    @inline(__always) func slot(_ k: Int) -> Int { Int(truncatingIfNeeded: keys[k] & LevelGrid.indexMask) }
                    Prefetch.forEach(0 ..< n, reach: d, ask: { k in Prefetch.line(pItems + slot(k &+ d)) }) { k in
                        ids[k] = items[slot(k)]
                    }
                }
            }
        }
        weights = ContiguousArray(filling: n) { weights in
            ids.withUnsafeBufferPointer { ids in
                counts.withUnsafeBufferPointer { counts in
                    guard n > 0, let pCounts = counts.baseAddress else { return }
                    Prefetch.forEach(0 ..< n, reach: d, ask: { k in Prefetch.line(pCounts + Int(ids[k &+ d])) }) { k in
                        weights[k] = counts[Int(ids[k])]
                    }
                }
            }
        }
        self.ids = ids
        xy = grid.xy
    }
}

/// One of a seed's untaken neighbours (or the seed) in the greedy walk: its row, walk index,
/// coordinates and point count, gathered while the walk's arrays are read for it.
private struct WalkNeighbour {
    var key: UInt64
    var weight: Int
    var xy: SIMD2<Double>

    @inline(__always) init(row: Int, walkIndex: Int, xy: SIMD2<Double>, weight: Int) {
        key = UInt64(truncatingIfNeeded: row) << 32 | UInt64(truncatingIfNeeded: walkIndex)
        self.xy = xy
        self.weight = weight
    }

    /// The item's row.
    @inline(__always) var row: Int { Int(truncatingIfNeeded: key >> 32) }
    /// The item's walk index.
    @inline(__always) var walkIndex: Int { Int(truncatingIfNeeded: key & 0xffff_ffff) }

    /// Sorts a seed's neighbours by ascending `order` key (unique within a level): insertion sort
    /// up to 32, the standard sort above. Generic over the order so that each is specialised, no
    /// closure in the loop. O(k²) for k ≤ 32, O(k log k) above.
    @inline(__always) static func sort<Order: WalkNeighbourOrder>(_ b: UnsafeMutableBufferPointer<WalkNeighbour>, by order: Order) {
        let n = b.count
        guard n > 1 else { return }
        if n > 32 {
            var all = b
            all.sort { order.key($0) < order.key($1) }
            return
        }
        for i in 1..<n {
            let v = b[i]
            let key = order.key(v)
            var j = i &- 1
            while j >= 0 && order.key(b[j]) > key {
                b[j &+ 1] = b[j]
                j &-= 1
            }
            b[j &+ 1] = v
        }
    }
}

/// The order in which a seed takes its neighbours: a key per neighbour, unique within a level.
private protocol WalkNeighbourOrder {
    func key(_ v: WalkNeighbour) -> UInt64
}

/// Ascending row (the row is the key's high half, above the walk index).
private struct ByRow: WalkNeighbourOrder {
    @inline(__always) func key(_ v: WalkNeighbour) -> UInt64 { v.key }
}

/// Ascending rank of the row in a k-d tree's search order (``KDTree/writeNativeSearchRanks(into:)``).
private struct ByRank: WalkNeighbourOrder {
    let rank: UnsafeBufferPointer<Int32>
    @inline(__always) func key(_ v: WalkNeighbour) -> UInt64 { UInt64(truncatingIfNeeded: rank[v.row]) }
}
