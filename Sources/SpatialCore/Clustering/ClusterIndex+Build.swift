/// The greedy clustering of all levels, generic over the k-d tree scalar.
struct ClusterBuilder<S: KDTreeScalar> {
    let options: ClusterOptions
    let featureCount: Int
    let pointCount: Int
    let numeric: [ClusterAggregation]
    let custom: [ClusterReducer]
    let expressions: ClusterPropertyExpressions

    var x = ContiguousArray<Double>()
    var y = ContiguousArray<Double>()
    var count = ContiguousArray<Int32>()
    var ref = ContiguousArray<Int32>()
    var parent = ContiguousArray<Int32>()
    /// The last zoom an item was visited at (build scratch; 127 = never).
    var lastZoom = ContiguousArray<Int8>()
    var childStart = ContiguousArray<Int32>()
    var childList = ContiguousArray<Int32>()
    var zoomClusterStart: [Int] = []
    var trees: [KDTree<S>] = []
    /// `.double`: snapshot trees shared by several levels, and per level the snapshots to search.
    var segments: [KDTree<S>] = []
    var levelSegments: [[Int32]] = []
    /// The levels an item is present at: lowLevel … highLevel.
    var lowLevel = ContiguousArray<Int8>()
    var highLevel = ContiguousArray<Int8>()
    var numericValues = ContiguousArray<Double>()
    var customValues = ContiguousArray<JSONValue>()
    var expressionValues = ContiguousArray<JSONValue>()

    init(options: ClusterOptions, featureCount: Int, input: ClusterInput,
         properties: ContiguousArray<JSONObject>, ids: ContiguousArray<FeatureID?>,
         numeric: [ClusterAggregation], custom: [ClusterReducer], expressions: ClusterPropertyExpressions) {
        self.options = options
        self.featureCount = featureCount
        self.numeric = numeric
        self.custom = custom
        self.expressions = expressions
        let m = input.feature.count
        pointCount = m
        let capacity = m + m / 2 + 16
        x.reserveCapacity(capacity)
        y.reserveCapacity(capacity)
        count.reserveCapacity(capacity)
        ref.reserveCapacity(capacity)
        let round = S.self == Float.self
        for i in 0..<m {
            let lng = UnitMercator.wrap(longitude: input.longitude[i])
            var px = UnitMercator.x(longitude: lng)
            var py = UnitMercator.y(latitude: input.latitude[i])
            if round {
                px = Double(Float(px))
                py = Double(Float(py))
            }
            x.append(px)
            y.append(py)
        }
        count.append(contentsOf: repeatElement(1, count: m))
        ref.append(contentsOf: input.feature)
        parent = ContiguousArray(repeating: -1, count: m)
        parent.reserveCapacity(capacity)
        lastZoom = ContiguousArray(repeating: 127, count: m)
        lastZoom.reserveCapacity(capacity)
        lowLevel = ContiguousArray(repeating: Int8(options.minZoom), count: m)
        lowLevel.reserveCapacity(capacity)
        highLevel = ContiguousArray(repeating: Int8(options.maxZoom + 1), count: m)
        highLevel.reserveCapacity(capacity)
        childStart.append(0)
        if !numeric.isEmpty {
            numericValues.reserveCapacity(numeric.count * capacity)
            for i in 0..<m {
                let p = properties[Int(input.feature[i])]
                for a in numeric { numericValues.append(a.map(p)) }
            }
        }
        if !custom.isEmpty {
            customValues.reserveCapacity(custom.count * capacity)
            for i in 0..<m {
                let p = properties[Int(input.feature[i])]
                for r in custom { customValues.append(r.map(p)) }
            }
        }
        if expressions.count > 0 {
            expressionValues.reserveCapacity(expressions.count * capacity)
            for i in 0..<m {
                let f = Int(input.feature[i])
                let context = JSONObjectExpressionContext(
                    properties: properties[f], featureID: ids.isEmpty ? nil : ids[f], geometryType: "Point")
                for k in 0..<expressions.count { expressionValues.append(expressions.mapValue(k, context)) }
            }
        }
    }

    func makeTree(_ level: ContiguousArray<UInt32>, nodeSize: Int? = nil) -> KDTree<S> {
        Self.makeTree(level, x: x, y: y, nodeSize: nodeSize ?? options.nodeSize)
    }

    /// A k-d tree over the items `level` (rows into `x`, `y`). O(n log n).
    static func makeTree(_ level: ContiguousArray<UInt32>, x: ContiguousArray<Double>, y: ContiguousArray<Double>,
                         nodeSize: Int) -> KDTree<S> {
        KDTree(levelIDs: level, coords: coordinates(of: level, x: x, y: y), nodeSize: nodeSize)
    }

    /// The interleaved coordinates of the items `level`, as a tree over them stores them. O(n).
    static func coordinates(of level: ContiguousArray<UInt32>, x: ContiguousArray<Double>, y: ContiguousArray<Double>)
        -> ContiguousArray<S> {
        var coords = ContiguousArray<S>()
        coords.reserveCapacity(2 * level.count)
        x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                for it in level {
                    coords.append(S(indexValue: x[Int(it)]))
                    coords.append(S(indexValue: y[Int(it)]))
                }
            }
        }
        return coords
    }

    mutating func run() {
        let minZoom = options.minZoom, maxZoom = options.maxZoom
        let minPoints = options.minPoints
        var level = ContiguousArray<UInt32>(filling: pointCount) { buf in
            for i in 0..<pointCount { buf[i] = UInt32(i) }
        }
        // `.double` (fast): raw points whose nearest other point is beyond 3 r are copied without a
        // search (see `IsolationBound`; sparse inputs only, where it pays); searches use a grid over the other items only; the public
        // per-level trees are snapshots shared between levels. `.float32`: supercluster's exact
        // per-level trees and searches.
        let fast = S.self == Double.self
        // `.double` trees are only searched, never compared with supercluster's order: small leaves.
        let fastNodeSize = Swift.min(options.nodeSize, 16)
        // The tree over the points (for queries) and the isolation pre-pass read the same
        // coordinates and write nothing shared: one on each core.
        var isolation: IsolationBound? = nil
        var firstTree: KDTree<S>? = nil
        // Grid passes over at least this many items split their work over the two cores.
        let parallelFrom = options.parallelThreshold ?? ParallelPair.threshold
        do {
            let points = level, px = x, py = y, options = options, count = pointCount
            let nodeSize = fast ? fastNodeSize : options.nodeSize
            ParallelPair.run(
                parallel: fast && count >= parallelFrom,
                { firstTree = Self.makeTree(points, x: px, y: py, nodeSize: nodeSize) },
                { if fast && (options.isolationPrePass ?? IsolationBound.pays(x: px, y: py, count: count, options: options)) {
                    isolation = IsolationBound(x: px, y: py, count: count, options: options, parallel: count >= parallelFrom)
                } })
        }
        var tree = firstTree!
        var levelTrees = [KDTree<S>](repeating: tree, count: fast ? 0 : maxZoom - minZoom + 2)
        // `.double`: the query trees of the levels (index 0: the points) are sorted in the background.
        let background = BackgroundTrees<S>(first: tree)
        if fast {
            levelSegments = [[Int32]](repeating: [], count: maxZoom - minZoom + 2)
            levelSegments[maxZoom + 1 - minZoom] = [0]
        }
        var snapshot = 0, snapshotSize = pointCount, rowsAtSnapshot = pointCount
        var clusterStarts = [Int](repeating: 0, count: maxZoom - minZoom + 1)
        var neighbours = ContiguousArray<UInt32>()
        neighbours.reserveCapacity(256)
        var searchFlags = ContiguousArray<Bool>()
        let nn = numeric.count, nc = custom.count, ne = expressions.count
        var accumulated: [JSONValue] = []
        // `.double` visits neighbours in ascending row order (independent of the search structure);
        // `.float32` keeps kdbush's order, as supercluster.
        let canonicalOrder = S.self == Double.self

        for z in stride(from: maxZoom, through: minZoom, by: -1) {
            clusterStarts[z - minZoom] = x.count
            let r = options.searchRadius(atZoom: z)
            let z8 = Int8(z)
            var next = ContiguousArray<UInt32>()
            next.reserveCapacity(level.count)
            var changed = false
            // Fast path: the items that may have a neighbour within r, and a tree over them.
            let isolated2 = isolation?.isolatedSquaredDistance(radius: r) ?? .infinity
            // Fast path: searches go to a grid over the items of level z + 1 that may have a
            // neighbour (isolated points can be nobody's neighbour).
            var grid: LevelGrid? = nil
            if fast {
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
                let g = LevelGrid(items: active, x: x, y: y, radius: r, parallel: parallel)
                searchFlags = ContiguousArray(repeating: false, count: level.count)
                searchFlags.withUnsafeMutableBufferPointer {
                    g.markItemsWithNeighbours(radius: r, positions: activePositions, flags: $0, parallel: parallel)
                }
                grid = g
            }
            var copiedUntil = 0
            for pos in 0..<level.count {
                if pos < copiedUntil { continue }
                let it = Int(level[pos])
                // Fast path: items without neighbours are kept as they are, and nobody can take
                // them: the whole run of them is copied at once.
                if fast && !searchFlags[pos] {
                    var end = pos + 1
                    while end < level.count && !searchFlags[end] { end += 1 }
                    next.append(contentsOf: level[pos..<end])
                    copiedUntil = end
                    continue
                }
                if lastZoom[it] <= z8 { continue }
                lastZoom[it] = z8
                let sx = x[it], sy = y[it]
                neighbours.removeAll(keepingCapacity: true)
                if let grid {
                    grid.forEachWithin(x: sx, y: sy, radius: r) { neighbours.append($0) }
                } else {
                    tree.forEachWithin(x: sx, y: sy, radius: r) { neighbours.append(UInt32(truncatingIfNeeded: $0)) }
                }
                if canonicalOrder && neighbours.count > 1 { sortSmall(&neighbours) }

                let n0 = Int(count[it])
                var n = n0
                for b in neighbours where lastZoom[Int(b)] > z8 { n += Int(count[Int(b)]) }

                if n > n0 && n >= minPoints {
                    changed = true
                    let c = x.count
                    let id = Int32((pos << 5) + (z + 1) + featureCount)
                    var wx = sx * Double(n0), wy = sy * Double(n0)
                    let firstChild = childList.count
                    var seedSeen = false
                    if nn > 0 { for k in 0..<nn { numericValues.append(numericValues[it * nn + k]) } }
                    if nc > 0 { for k in 0..<nc { customValues.append(customValues[it * nc + k]) } }
                    if ne > 0 {
                        accumulated.removeAll(keepingCapacity: true)
                        accumulated.append(contentsOf: expressionValues[(it * ne)..<(it * ne + ne)])
                    }
                    for bu in neighbours {
                        let b = Int(bu)
                        if b == it { seedSeen = true; childList.append(Int32(b)); continue }
                        if lastZoom[b] <= z8 { continue }
                        lastZoom[b] = z8
                        let nb = Double(count[b])
                        wx += x[b] * nb
                        wy += y[b] * nb
                        parent[b] = Int32(c)
                        lowLevel[b] = Int8(z + 1)
                        childList.append(Int32(b))
                        if nn > 0 {
                            for k in 0..<nn {
                                numericValues[c * nn + k] = numeric[k].reduce(numericValues[c * nn + k], numericValues[b * nn + k])
                            }
                        }
                        if nc > 0 {
                            for k in 0..<nc {
                                customValues[c * nc + k] = custom[k].reduce(customValues[c * nc + k], customValues[b * nc + k])
                            }
                        }
                        if ne > 0 {
                            expressions.reduce(&accumulated, member: expressionValues[(b * ne)..<(b * ne + ne)])
                        }
                    }
                    if !seedSeen { childList.insert(Int32(it), at: firstChild) }
                    if ne > 0 { expressionValues.append(contentsOf: accumulated) }
                    parent[it] = Int32(c)
                    lowLevel[it] = Int8(z + 1)
                    childStart.append(Int32(childList.count))
                    x.append(wx / Double(n))
                    y.append(wy / Double(n))
                    count.append(Int32(n))
                    ref.append(id)
                    parent.append(-1)
                    lastZoom.append(127)
                    lowLevel.append(Int8(minZoom))
                    highLevel.append(z8)
                    next.append(UInt32(c))
                } else {
                    next.append(UInt32(it))
                    if n > n0 {
                        changed = true
                        for b in neighbours where lastZoom[Int(b)] > z8 {
                            lastZoom[Int(b)] = z8
                            next.append(b)
                        }
                    }
                }
            }
            if fast {
                level = next
                // Snapshot policy: search the current snapshot (filtered by presence) plus a tree
                // of the clusters formed since; take a new snapshot when the additions pass a
                // quarter of it or fewer than half of its items remain.
                var added = ContiguousArray<UInt32>()
                var inSnapshot = 0
                for it in level { if Int(it) < rowsAtSnapshot { inSnapshot += 1 } else { added.append(it) } }
                if added.count * 4 > snapshotSize || inSnapshot * 2 < snapshotSize {
                    snapshot = background.add(ids: level, coords: Self.coordinates(of: level, x: x, y: y), nodeSize: fastNodeSize)
                    snapshotSize = level.count
                    rowsAtSnapshot = x.count
                    levelSegments[z - minZoom] = [Int32(snapshot)]
                } else if added.isEmpty {
                    levelSegments[z - minZoom] = [Int32(snapshot)]
                } else {
                    let extra = background.add(ids: added, coords: Self.coordinates(of: added, x: x, y: y), nodeSize: fastNodeSize)
                    levelSegments[z - minZoom] = [Int32(snapshot), Int32(extra)]
                }
            } else {
                if changed {
                    level = next
                    tree = makeTree(level)
                }
                levelTrees[z - minZoom] = tree
            }
        }
        if fast { segments = background.finish() }
        zoomClusterStart = clusterStarts
        trees = levelTrees
    }
}

extension ClusterIndex {
    init(
        input: ClusterInput, properties: ContiguousArray<JSONObject>, ids: ContiguousArray<FeatureID?>,
        options: ClusterOptions, clusterProperties: [ClusterProperty], expressions: ClusterPropertyExpressions
    ) {
        var numeric: [(String, ClusterAggregation)] = []
        var custom: [(String, ClusterReducer)] = []
        for p in clusterProperties {
            switch p.kind {
            case .typed(let a): numeric.append((p.name, a))
            case .custom(let r): custom.append((p.name, r))
            }
        }
        self.options = options
        self.clusterProperties = clusterProperties
        self.featureCount = input.featureCount
        self.pointCount = input.feature.count
        self.skippedFeatureIndices = input.skipped
        self.numericProperties = numeric.map { (name: $0.0, aggregation: $0.1) }
        self.customProperties = custom.map { (name: $0.0, reducer: $0.1) }
        self.pointLongitude = input.longitude
        self.pointLatitude = input.latitude
        self.featureProperties = properties
        self.featureIDs = ids
        self.expressionProperties = expressions

        func finish<S: KDTreeScalar>(_ b: ClusterBuilder<S>) -> (ClusterBuilder<S>) {
            var b = b
            b.run()
            return b
        }
        switch options.precision {
        case .float32:
            let b = finish(ClusterBuilder<Float>(
                options: options, featureCount: input.featureCount, input: input, properties: properties, ids: ids,
                numeric: numeric.map(\.1), custom: custom.map(\.1), expressions: expressions))
            trees = .float(b.trees)
            itemX = b.x; itemY = b.y; itemCount = b.count; itemRef = b.ref; itemParent = b.parent
            childStart = b.childStart; childList = b.childList; zoomClusterStart = b.zoomClusterStart
            numericValues = b.numericValues; customValues = b.customValues
            expressionValues = b.expressionValues
            itemLowLevel = b.lowLevel; itemHighLevel = b.highLevel
        case .double:
            let b = finish(ClusterBuilder<Double>(
                options: options, featureCount: input.featureCount, input: input, properties: properties, ids: ids,
                numeric: numeric.map(\.1), custom: custom.map(\.1), expressions: expressions))
            trees = .double(segments: b.segments, levels: b.levelSegments)
            itemX = b.x; itemY = b.y; itemCount = b.count; itemRef = b.ref; itemParent = b.parent
            childStart = b.childStart; childList = b.childList; zoomClusterStart = b.zoomClusterStart
            numericValues = b.numericValues; customValues = b.customValues
            expressionValues = b.expressionValues
            itemLowLevel = b.lowLevel; itemHighLevel = b.highLevel
        }
    }
}

/// Sorts a short neighbour list ascending (insertion sort; falls back to the standard sort). O(k²) for k ≤ 32.
@inline(__always) func sortSmall(_ a: inout ContiguousArray<UInt32>) {
    let n = a.count
    if n > 32 {
        a.sort()
        return
    }
    a.withUnsafeMutableBufferPointer { b in
        for i in 1..<n {
            let v = b[i]
            var j = i - 1
            while j >= 0 && b[j] > v {
                b[j + 1] = b[j]
                j -= 1
            }
            b[j + 1] = v
        }
    }
}
