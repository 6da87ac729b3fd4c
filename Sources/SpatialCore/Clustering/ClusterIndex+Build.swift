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
    /// `.float32` only (the `.double` levels keep this per grid slot): the last zoom an item was
    /// visited at (build scratch; 127 = never). Empty for `.double`.
    var lastZoom = ContiguousArray<Int8>()
    var childStart = ContiguousArray<Int32>()
    var childList = ContiguousArray<Int32>()
    var zoomClusterStart: [Int] = []
    var trees: [KDTree<S>] = []
    /// `.double`: snapshot trees shared by several levels, and per level the snapshots to search.
    var segments: [KDTree<Float>] = []
    var levelSegments: [[Int32]] = []
    /// The levels an item is present at: lowLevel … highLevel.
    var lowLevel = ContiguousArray<Int8>()
    var highLevel = ContiguousArray<Int8>()
    var numericValues = ContiguousArray<Double>()
    var customValues = ContiguousArray<JSONValue>()
    var expressionValues = ContiguousArray<JSONValue>()
    /// Build scratch: the expression accumulators of the cluster being formed.
    var accumulated: [JSONValue] = []
    /// Build scratch: whether the last `.double` level searched (it was too dense for pair
    /// lists); the next level's grid is then laid out for searches.
    var searchedLastLevel = false
    /// Build scratch: the mean number of items within r of an item (itself included) on the last
    /// `.double` level that took pair lists; nil before the first.
    var listDensity: Double? = nil
    /// `.double`: the gate of the background trees' sorts, closed while a pass of the build runs
    /// on both cores (see ``BackgroundTrees``); nil before `run()` and for `.float32`.
    var backgroundGate: PauseGate? = nil

    /// `feature`: the input's feature index per point, handed over (it becomes the points' rows'
    /// `ref`, without a copy that the whole build would hold twice).
    init(options: ClusterOptions, featureCount: Int, input: ClusterInput, feature: consuming ContiguousArray<Int32>,
         properties: ContiguousArray<JSONObject>, ids: ContiguousArray<FeatureID?>,
         numeric: [ClusterAggregation], custom: [ClusterReducer], expressions: ClusterPropertyExpressions) {
        self.options = options
        self.featureCount = featureCount
        self.numeric = numeric
        self.custom = custom
        self.expressions = expressions
        let m = feature.count
        pointCount = m
        // Every cluster has at least two children, so m points make at most m − 1 clusters: with
        // room for 2m rows the row arrays never grow (a growth copies them while the old copy is
        // still resident). Pages never written are never resident, so the unused room costs
        // address space only.
        let capacity = Self.rowCapacity(points: m)
        count.reserveCapacity(capacity)
        // The projection, written in place; from `projectionParallelFrom` points (or the
        // options' test setting) its two halves run on the two cores (the other core has
        // nothing to do yet).
        let round = S.self == Float.self
        let parallel = Parallelism(m >= (options.parallelThreshold ?? Self.projectionParallelFrom))
        var projectedY = ContiguousArray<Double>()
        x = ContiguousArray(unsafeUninitializedCapacity: capacity) { xs, xCount in
            projectedY = ContiguousArray(unsafeUninitializedCapacity: capacity) { ys, yCount in
                input.longitude.withUnsafeBufferPointer { longitude in
                    input.latitude.withUnsafeBufferPointer { latitude in
                        ParallelPair.halves(of: m, parallel: parallel) { part in
                            for i in part {
                                let lng = UnitMercator.wrap(longitude: longitude[i])
                                var px = UnitMercator.x(longitude: lng)
                                var py = UnitMercator.y(latitude: latitude[i])
                                if round {
                                    px = Double(Float(px))
                                    py = Double(Float(py))
                                }
                                xs.initializeElement(at: i, to: px)
                                ys.initializeElement(at: i, to: py)
                            }
                        }
                    }
                }
                yCount = m
            }
            xCount = m
        }
        y = projectedY
        count.append(contentsOf: repeatElement(1, count: m))
        parent = ContiguousArray(repeating: -1, count: m)
        parent.reserveCapacity(capacity)
        if S.self == Float.self {
            lastZoom = ContiguousArray(repeating: 127, count: m)
            lastZoom.reserveCapacity(capacity)
        }
        lowLevel = ContiguousArray(repeating: Int8(options.minZoom), count: m)
        lowLevel.reserveCapacity(capacity)
        highLevel = ContiguousArray(repeating: Int8(options.maxZoom + 1), count: m)
        highLevel.reserveCapacity(capacity)
        childStart.reserveCapacity(m + 1)
        childStart.append(0)
        childList.reserveCapacity(capacity)
        if !numeric.isEmpty {
            numericValues.reserveCapacity(numeric.count * capacity)
            for i in 0..<m {
                let p = properties.isEmpty ? JSONObject() : properties[Int(feature[i])]
                for a in numeric { numericValues.append(a.map(p)) }
            }
        }
        if !custom.isEmpty {
            customValues.reserveCapacity(custom.count * capacity)
            for i in 0..<m {
                let p = properties.isEmpty ? JSONObject() : properties[Int(feature[i])]
                for r in custom { customValues.append(r.map(p)) }
            }
        }
        if expressions.count > 0 {
            expressionValues.reserveCapacity(expressions.count * capacity)
            for i in 0..<m {
                let f = Int(feature[i])
                let context = JSONObjectExpressionContext(
                    properties: properties.isEmpty ? JSONObject() : properties[f], featureID: ids.isEmpty ? nil : ids[f], geometryType: "Point")
                for k in 0..<expressions.count { expressionValues.append(expressions.mapValue(k, context)) }
            }
        }
        // The only reference: growing it moves the indices and frees the input's buffer.
        ref = consume feature
        ref.reserveCapacity(capacity)
    }

    /// The room the row arrays reserve for a build over `m` points: every cluster has at least
    /// two children, so the points and their clusters are fewer than 2m rows. O(1).
    static func rowCapacity(points m: Int) -> Int { 2 * m + 16 }

    /// From how many points the projection splits over the two cores. A point costs a sine
    /// and a logarithm (about 25 ns here), far more than a grid pass's work per item, so the
    /// hand-off pays from far fewer items than `ParallelPair.threshold`. Measured in one
    /// process, builds with a split from 4,096 points alternating with builds without it (20
    /// adjacent pairs each): DC hydrants 0.99 (faster in 16 pairs), Tulsa 0.97 (17). O(1).
    static var projectionParallelFrom: Int { 1 << 12 }

    /// `.double`: whether the order in which a seed takes its neighbours can change the result
    /// beyond rounding, so that the walk takes them in the order a search of the level's k-d tree
    /// (leaves of `nodeSize`) reports them in MapLibre Native's engine. That is so with
    /// `minPoints` ≥ 4 (a seed that keeps its neighbours without forming a cluster keeps two or
    /// more, and the next level's order, hence its clusters, depends on theirs), and with a
    /// custom reducer or a reduce expression other than `+`, `*`, `max`, `min`, `any` or `all` of
    /// the accumulated and the member's value (`concat` above all). Elsewhere the walk takes them
    /// in row order, which needs no tree: counts, minimum, maximum, any and all come out the same,
    /// and sums (like the weighted centres) differ from the engine's by rounding only, as the
    /// `.double` target allows. O(properties).
    var reducesInSearchOrder: Bool {
        options.minPoints >= 4 || !custom.isEmpty || !expressions.reduces.allSatisfy { Self.reducesInAnyOrder($0.root) }
    }

    /// Whether `reduce` combines the accumulated value and the member's value with an operation
    /// whose result does not depend on the members' order (up to the rounding of `+` and `*`).
    /// O(1).
    static func reducesInAnyOrder(_ reduce: Node) -> Bool {
        func operands(_ a: Node, _ b: Node) -> Bool {
            switch (a, b) {
            case (.accumulated, .get), (.get, .accumulated): true
            default: false
            }
        }
        switch reduce {
        case .arithmetic(let op, let args) where args.count == 2:
            return [.add, .multiply, .min, .max].contains(op) && operands(args[0], args[1])
        case .all(let args) where args.count == 2, .any(let args) where args.count == 2:
            return operands(args[0], args[1])
        default:
            return false
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
        guard !level.isEmpty else { return [] }
        return x.withUnsafeBufferPointer { x in
            y.withUnsafeBufferPointer { y in
                RowCoordinates.gather(level, x: x.baseAddress.unsafelyUnwrapped, y: y.baseAddress.unsafelyUnwrapped,
                                      capacity: Swift.min(x.count, y.count))
            }
        }
    }

    /// Starts the property values of the cluster about to be appended from its seed's (row `it`).
    /// O(properties).
    mutating func beginProperties(seed it: Int) {
        let nn = numeric.count, nc = custom.count, ne = expressions.count
        if nn > 0 { for k in 0..<nn { numericValues.append(numericValues[it * nn + k]) } }
        if nc > 0 { for k in 0..<nc { customValues.append(customValues[it * nc + k]) } }
        if ne > 0 {
            accumulated.removeAll(keepingCapacity: true)
            accumulated.append(contentsOf: expressionValues[(it * ne)..<(it * ne + ne)])
        }
    }

    /// Makes row `b` (not the seed) a child of cluster row `c`, being formed at level `z`: its
    /// parent, the level it ends at, its place in `childList` and its property values.
    /// O(properties).
    mutating func addMember(_ b: Int, cluster c: Int, zoom z: Int) {
        parent[b] = Int32(c)
        lowLevel[b] = Int8(z + 1)
        childList.append(Int32(b))
        addProperties(member: b, cluster: c)
    }

    /// Reduces member `b`'s property values into those of cluster row `c` (being formed).
    /// O(properties).
    mutating func addProperties(member b: Int, cluster c: Int) {
        let nn = numeric.count, nc = custom.count, ne = expressions.count
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

    /// Appends the cluster row seeded by `it` at level `z` once its members are in `childList`
    /// from `firstChild` on (the seed among them when `seedSeen`, else it goes first), with
    /// weighted centre (`cx`, `cy`), `n` points and tile id `id`. Returns the row. O(1) amortized.
    mutating func appendCluster(seed it: Int, x cx: Double, y cy: Double, count n: Int, id: Int32,
                                zoom z: Int, firstChild: Int, seedSeen: Bool) -> Int {
        let c = x.count
        if !seedSeen { childList.insert(Int32(it), at: firstChild) }
        if expressions.count > 0 { expressionValues.append(contentsOf: accumulated) }
        parent[it] = Int32(c)
        lowLevel[it] = Int8(z + 1)
        childStart.append(Int32(childList.count))
        x.append(cx)
        y.append(cy)
        count.append(Int32(n))
        ref.append(id)
        parent.append(-1)
        if S.self == Float.self { lastZoom.append(127) }
        lowLevel.append(Int8(options.minZoom))
        highLevel.append(Int8(z))
        return c
    }

    /// How many of the items `level` are rows below `row`. O(n), without a branch per item.
    ///
    /// Rows are below 2^31 (a build holds fewer than 2^27), and so is the bound once clamped: the
    /// difference `item − bound` wraps to 2^31 or more exactly when the item is below, so its top
    /// bit is the test. Written that way, over a pointer and a `while`, the compiler counts
    /// eight items a step in vector registers. (Written as `c &+= item < bound ? 1 : 0` over the
    /// buffer, it compiled to a compare and a branch per item: callgrind, cities500, about
    /// 7.4 M instructions a build; see PERFORMANCE.md, thirty-eighth session.)
    static func count(of level: ContiguousArray<UInt32>, below row: Int) -> Int {
        let bound = UInt32(truncatingIfNeeded: Swift.max(0, Swift.min(row, 1 << 31)))
        return level.withUnsafeBufferPointer { level in
            guard let p = level.baseAddress else { return 0 }
            let n = level.count
            var c: UInt32 = 0
            var i = 0
            while i < n {
                assert(p[i] < 1 << 31, "a row number of 2^31 or more")
                c &+= (p[i] &- bound) &>> 31
                i &+= 1
            }
            return Int(c)
        }
    }

    /// The items of `level` that are rows at or above `row`, in level order; `count` must be
    /// their number (the level's size less ``count(of:below:)``). O(n).
    static func items(of level: ContiguousArray<UInt32>, from row: Int, count: Int) -> ContiguousArray<UInt32> {
        let bound = rowBound(row)
        return ContiguousArray(fillingUpTo: count) { out in
            level.withUnsafeBufferPointer { level in
                var c = 0
                for it in level where it >= bound {
                    out[c] = it
                    c &+= 1
                }
                return c
            }
        }
    }

    /// `row` as a row number to compare items with, clamped to 0 … 2^32 − 1 (rows fit in 32
    /// bits: a build holds fewer than 2^27 of them). O(1).
    private static func rowBound(_ row: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: Swift.max(0, Swift.min(row, Int(UInt32.max))))
    }

    /// Whether a pass over `n` items uses both cores (from `parallelFrom` items), pausing the
    /// background trees' sorts meanwhile. O(1).
    func parallelism(items n: Int, from parallelFrom: Int) -> Parallelism {
        Parallelism(n >= parallelFrom, yielding: backgroundGate)
    }

    mutating func run() {
        let minZoom = options.minZoom, maxZoom = options.maxZoom
        var level = ContiguousArray<UInt32>(filling: pointCount) { buf in
            for i in 0..<pointCount { buf[i] = UInt32(i) }
        }
        // Both precisions: raw points whose nearest other point is beyond 3 r (plus a margin for
        // `.float32`'s rounded trees) are kept without a search (see `IsolationBound`; sparse
        // inputs only, where it pays). `.double` (fast): searches use a grid over the other items only; the public
        // per-level trees are snapshots shared between levels, their coordinates rounded to
        // `Float` (the queries' own check is exact; see `LevelTrees`). `.float32`: supercluster's exact
        // per-level trees and searches.
        let fast = S.self == Double.self
        // `.double` trees are only searched, never compared with supercluster's order: leaves of
        // at most 64 (supercluster's default). Measured against leaves of 16 (callgrind): the
        // background sorts cost 150 M instructions less on the blobs 1M (−3.2% of the build),
        // 36 M less on cities500, for 1.8% more instructions in the z12 screen queries of
        // spatial-bench; leaves of 32 saved half as much (blobs −80 M) for +0.2%.
        let fastNodeSize = Swift.min(options.nodeSize, 64)
        // Grid passes over at least this many items split their work over the two cores.
        let parallelFrom = options.parallelThreshold ?? ParallelPair.threshold
        // `.double`: the query trees (index 0: the points) are sorted on a background thread
        // while the levels are built; nothing in the build reads them. `.float32`: each level is
        // searched in the tree of the level above, as supercluster does.
        // (The rows' arrays were reserved at init and are not shared: the trees' coordinates are
        // gathered on the background thread through a view of them; see `RowCoordinates`.)
        x.reserveCapacity(Self.rowCapacity(points: pointCount))
        y.reserveCapacity(Self.rowCapacity(points: pointCount))
        let rowView = RowCoordinates(x: x, y: y)
        let background = BackgroundTrees<Float>(rows: rowView)
        if fast { backgroundGate = background.gate }
        var tree: KDTree<S>? = nil
        var levelTrees: [KDTree<S>] = []
        var isolation: IsolationBound? = nil
        let bounds = ItemBounds(x: x, y: y, count: pointCount)
        // `.double`: the pre-pass's first grid pass only. Its later passes settle points that
        // coarser levels would otherwise search, and a grid search there costs less than the
        // pass: builds alternating the two in one process (adjacent pairs, ratio one pass / all
        // passes, median of 20): earthquakes 0.90, blobs 1M 0.92, cities500 0.96, uniform 100k
        // 0.98, uniform 1M 1.00 (callgrind, `run()` on one core: 4–10% fewer instructions).
        // `.float32` searches a tree per item: all passes (see PERFORMANCE.md, twenty-fourth
        // session).
        if options.isolationPrePass ?? IsolationBound.pays(bounds: bounds, count: pointCount, options: options) {
            isolation = IsolationBound(x: x, y: y, count: pointCount, bounds: bounds, options: options,
                                       float32: !fast, singlePass: fast, parallel: parallelism(items: pointCount, from: parallelFrom))
        }
        if fast {
            _ = background.add(ids: level, nodeSize: fastNodeSize)
            levelSegments = [[Int32]](repeating: [], count: maxZoom - minZoom + 2)
            levelSegments[maxZoom + 1 - minZoom] = [0]
        } else {
            let points = makeTree(level)
            tree = points
            levelTrees = [KDTree<S>](repeating: points, count: maxZoom - minZoom + 2)
        }
        var snapshot = 0, snapshotSize = pointCount, rowsAtSnapshot = pointCount
        var clusterStarts = [Int](repeating: 0, count: maxZoom - minZoom + 1)
        // Each level frees its scratch. While the levels keep about the same number of items,
        // the next one reuses those pages; once the levels have shrunk (the first below 5/8 of
        // the points), the holes they cannot fill would stay resident, so the free pages are
        // returned to the system there, once (see `FreedMemory`). Not when that level is already
        // below an eighth of the points: the peak is then behind, and what is left fits in the
        // pages the levels freed. A released page costs a fault when a later level touches it
        // again (about 1.9 µs on the machine of PERFORMANCE.md), so each release trades time for
        // peak. Measured with the query trees in `Float` (forty-second session; MiB a build adds
        // in the memory probe; time as the median ratio of builds alternating in fresh
        // processes), releasing at every level that fell below 5/8 of the last release (as the
        // build did before) / once / never: cities500 32.8 / 38.1 / 40.2 MiB, blobs 1M 133.8 /
        // 134.9 / 154.5, uniform 1M 140.6 / 149.1 / 157–161; cities500 once against every 0.948
        // (12 rounds), never against once 0.935 (20 rounds). Never would leave cities500 within
        // 2% of its goal (a quarter of the C++ port's 164 MiB); once keeps 7–10%.
        var released = false
        let releasesFreedMemory = pointCount >= FreedMemory.worthFrom
        // What a level that shared its sweep with the next one hands over.
        var shared: SharedSweep? = nil
        for z in stride(from: maxZoom, through: minZoom, by: -1) {
            if releasesFreedMemory && !released && level.count * 8 < pointCount * 5 {
                if level.count * 8 >= pointCount { FreedMemory.release() }
                released = true
            }
            clusterStarts[z - minZoom] = x.count
            assert(rowView.isView(of: x, y), "the rows' arrays moved while the background thread reads them")
            if fast {
                if let sweep = shared.take() {
                    level = clusterLevel(sharing: sweep, level: level, zoom: z)
                } else if sharesSweep(level, zoom: z, isolation: isolation, density: listDensity) {
                    (level, shared) = clusterLevelSharingSweep(level, zoom: z, parallelFrom: parallelFrom)
                } else {
                    level = clusterLevelOnGrid(level, zoom: z, isolation: isolation, parallelFrom: parallelFrom)
                }
                // Snapshot policy: search the current snapshot (filtered by presence) plus a tree
                // of the clusters formed since; take a new snapshot when the additions pass a
                // quarter of it or fewer than half of its items remain.
                // Counted without a branch first (which items are new follows no pattern the
                // processor can predict); the new items are gathered only for the one case that
                // needs them, into an array of their exact size (appended one by one, the array
                // grew by copies). callgrind, `run()` with the grid passes on one core, against
                // that loop: cities500 649.5 M → 645.9 M instructions, blobs 1M 2,788.5 M →
                // 2,774.0 M, uniform 100k 278.0 M → 275.2 M, DC hydrants 12.57 M → 12.42 M.
                let inSnapshot = Self.count(of: level, below: rowsAtSnapshot)
                let addedCount = level.count - inSnapshot
                if addedCount * 4 > snapshotSize || inSnapshot * 2 < snapshotSize {
                    snapshot = background.add(ids: level, nodeSize: fastNodeSize)
                    snapshotSize = level.count
                    rowsAtSnapshot = x.count
                    levelSegments[z - minZoom] = [Int32(snapshot)]
                } else if addedCount == 0 {
                    levelSegments[z - minZoom] = [Int32(snapshot)]
                } else {
                    let added = Self.items(of: level, from: rowsAtSnapshot, count: addedCount)
                    let extra = background.add(ids: added, nodeSize: fastNodeSize)
                    levelSegments[z - minZoom] = [Int32(snapshot), Int32(extra)]
                }
            } else {
                if let next = clusterLevelOnTree(level, zoom: z, tree: tree!, isolation: isolation) {
                    level = next
                    tree = makeTree(level)
                }
                levelTrees[z - minZoom] = tree!
            }
        }
        assert(rowView.isView(of: x, y), "the rows' arrays moved while the background thread reads them")
        if fast { segments = background.finish() }
        assert(x.count < Self.rowCapacity(points: pointCount), "more rows than the reservation's bound")
        zoomClusterStart = clusterStarts
        trees = levelTrees
    }
}

extension ClusterIndex {
    init(
        input: consuming ClusterInput, properties: ContiguousArray<JSONObject>, ids: ContiguousArray<FeatureID?>,
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
        // The builder takes the feature indices over (see `ClusterBuilder.init`).
        let feature = input.feature
        input.feature = []

        func finish<S: KDTreeScalar>(_ b: ClusterBuilder<S>) -> (ClusterBuilder<S>) {
            var b = b
            b.run()
            return b
        }
        switch options.precision {
        case .float32:
            let b = finish(ClusterBuilder<Float>(
                options: options, featureCount: input.featureCount, input: input, feature: consume feature, properties: properties, ids: ids,
                numeric: numeric.map(\.1), custom: custom.map(\.1), expressions: expressions))
            trees = .float(b.trees)
            itemX = b.x; itemY = b.y; itemCount = b.count; itemRef = b.ref; itemParent = b.parent
            childStart = b.childStart; childList = b.childList; zoomClusterStart = b.zoomClusterStart
            numericValues = b.numericValues; customValues = b.customValues
            expressionValues = b.expressionValues
            itemLowLevel = b.lowLevel; itemHighLevel = b.highLevel
        case .double:
            let b = finish(ClusterBuilder<Double>(
                options: options, featureCount: input.featureCount, input: input, feature: consume feature, properties: properties, ids: ids,
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
