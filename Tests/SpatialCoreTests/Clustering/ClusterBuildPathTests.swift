import Testing
@testable import SpatialCore

/// A `.double` level takes a seed's neighbours from pair lists or from searches (see
/// `ClusterBuilder.clusterLevelOnGrid`). Both must give the same index, cluster properties
/// included: the reference tests check the clusters against brute force, this suite checks that
/// the two ways agree item for item, property for property, child for child.
@Suite("Clustering: pair lists and searches build the same index")
struct ClusterBuildPathTests {
    static let expressions: JSONObject = [
        "max": ["max", ["get", "FLOW"]],
        "in_e9": ["any", ["==", ["get", "ENGINEID"], "E-9"]],
        "sum": [["+", ["accumulated"], ["get", "sum"]], ["get", "FLOW"]],
        "names": [["concat", ["accumulated"], ["get", "names"]], ["get", "ENGINEID"]],
    ]

    @Test("same items, properties, children and leaves at every zoom",
          arguments: [ClusterReferenceTests.Scenario.uniform, .blobs, .duplicates], [2, 4])
    func sameIndex(scenario: ClusterReferenceTests.Scenario, minPoints: Int) throws {
        let features = Self.features(scenario, n: 3_000, seed: 77 + UInt32(minPoints), propertySeed: 5)
        let typed = ClusterTestSupport.flowProperties(flow: "FLOW", engine: "ENGINEID", value: "E-9")
        let expressions = try ClusterPropertyExpressions(json: Self.expressions)
        func build(pairsBelow: Double) throws -> ClusterIndex {
            var options = try ClusterOptions(minPoints: minPoints, radius: 60)
            options.parallelThreshold = 0
            options.pairsBelow = pairsBelow
            return try ClusterIndex(features: features, options: options, properties: typed, clusterProperties: expressions)
        }
        let searched = try build(pairsBelow: 0)
        let listed = try build(pairsBelow: .infinity)
        // The data must cluster, or the comparison proves little.
        #expect(try Self.expectSame(searched, listed) > 50)
    }

    /// On levels larger than the core's cache only (`LevelGrid.prefetchFrom`), the build's loops
    /// over items at random places ask for their loads ahead and searched levels mark the items
    /// with a neighbour first; neither changes the result. Forced on every level (and the
    /// isolation pre-pass on, both cores used), the index must equal the one built without.
    /// With the build's own choice of pair lists (`pairsBelow` nil), such levels also take lists
    /// up to a denser sample than the others (see `ClusterBuilder.neighbourSource`).
    @Test("asking for loads ahead and marking first change nothing",
          arguments: [ClusterReferenceTests.Scenario.uniform, .blobs, .duplicates], [0, 3, nil] as [Double?])
    func prefetchingChangesNothing(scenario: ClusterReferenceTests.Scenario, pairsBelow: Double?) throws {
        let n = 4_000
        let (lng, lat) = ClusterReferenceTests.points(scenario, n: n, seed: 41)
        let coordinates = (0 ..< n).map { Coordinate(latitude: lat[$0], longitude: lng[$0]) }
        func build(prefetchFrom: Int) throws -> ClusterIndex {
            var options = try ClusterOptions(minPoints: 2, radius: 60)
            options.parallelThreshold = 0
            options.isolationPrePass = true
            options.pairsBelow = pairsBelow
            options.prefetchFrom = prefetchFrom
            return try ClusterIndex(coordinates: coordinates, options: options)
        }
        #expect(try Self.expectSame(build(prefetchFrom: 0), build(prefetchFrom: .max)) > 50)
    }

    /// A level without the isolation pre-pass may share one pair sweep with the level below (see
    /// `ClusterBuilder.clusterLevelSharingSweep`): forced at every level it can, with cluster
    /// properties, over 1 to 4 minimum points, the index must equal the one built with a sweep
    /// per level.
    @Test("a sweep shared by two levels changes nothing",
          arguments: [ClusterReferenceTests.Scenario.uniform, .blobs, .duplicates], [1, 2, 4])
    func sharedSweepsChangeNothing(scenario: ClusterReferenceTests.Scenario, minPoints: Int) throws {
        let features = Self.features(scenario, n: 3_000, seed: 91 + UInt32(minPoints), propertySeed: 9)
        let typed = ClusterTestSupport.flowProperties(flow: "FLOW", engine: "ENGINEID", value: "E-9")
        let expressions = try ClusterPropertyExpressions(json: Self.expressions)
        func build(shared: Bool, pairsBelow: Double?) throws -> ClusterIndex {
            var options = try ClusterOptions(minPoints: minPoints, radius: 60)
            options.isolationPrePass = false
            options.sharedSweeps = shared
            options.pairsBelow = pairsBelow
            return try ClusterIndex(features: features, options: options, properties: typed, clusterProperties: expressions)
        }
        // Lists wherever their limits allow (so that every level can share), then the build's
        // own choice of lists and searches.
        #expect(try Self.expectSame(build(shared: true, pairsBelow: .infinity), build(shared: false, pairsBelow: .infinity)) > 50)
        #expect(try Self.expectSame(build(shared: true, pairsBelow: nil), build(shared: false, pairsBelow: nil)) > 50)
    }

    /// `n` seeded points of `scenario` as features with a `FLOW` number and an `ENGINEID` string
    /// (drawn from `propertySeed`).
    static func features(_ scenario: ClusterReferenceTests.Scenario, n: Int, seed: UInt32, propertySeed: UInt32) -> [Feature] {
        let (lng, lat) = ClusterReferenceTests.points(scenario, n: n, seed: seed)
        var rng = TestLCG(seed: propertySeed)
        return (0 ..< n).map { i in
            let flow = Double(Int(rng.uniform(0, 3000)))
            let engine = "E-\(Int(rng.uniform(0, 12)))"
            return Feature(geometry: .point(Position(longitude: lng[i], latitude: lat[i])),
                           properties: ["FLOW": .number(flow), "ENGINEID": .string(engine)])
        }
    }

    /// Expects `a` and `b` to hold the same items at zooms 0…17, and every cluster the same
    /// children, leaves and expansion zoom. Returns the number of clusters compared.
    static func expectSame(_ a: ClusterIndex, _ b: ClusterIndex) throws -> Int {
        var clusters = 0
        for z in 0 ... 17 {
            let itemsA = a.clusters(in: [-180, -90, 180, 90], zoom: Double(z))
            let itemsB = b.clusters(in: [-180, -90, 180, 90], zoom: Double(z))
            let same = itemsA == itemsB
            #expect(same, "zoom \(z): the items differ (\(itemsA.count) against \(itemsB.count))")
            guard same else { continue }
            for item in itemsA {
                guard let c = item.cluster else { continue }
                clusters += 1
                let children = try a.children(of: c.id) == b.children(of: c.id)
                let leaves = try a.leaves(of: c.id, limit: nil) == b.leaves(of: c.id, limit: nil)
                let expansion = try a.expansionZoom(of: c.id) == b.expansionZoom(of: c.id)
                #expect(children && leaves && expansion, "cluster \(c.id.rawValue) at zoom \(z)")
            }
        }
        return clusters
    }

    /// A build from bare coordinates stores no property objects (see
    /// `ClusterIndex.properties(ofFeature:)`); it must answer exactly as a build given an empty
    /// object per point: the same items with the same (empty) point properties and the same
    /// reduced cluster properties, typed and expression ones mapping missing values.
    @Test("bare coordinates answer as coordinates with empty property objects")
    func bareCoordinatesAsEmptyProperties() throws {
        let n = 2_000
        let (lng, lat) = ClusterReferenceTests.points(.blobs, n: n, seed: 91)
        let coordinates = (0 ..< n).map { Coordinate(latitude: lat[$0], longitude: lng[$0]) }
        let typed = ClusterTestSupport.flowProperties(flow: "FLOW", engine: "ENGINEID", value: "E-9")
        let expressions = try ClusterPropertyExpressions(json: Self.expressions)
        let options = try ClusterOptions(radius: 60)
        let bare = try ClusterIndex(coordinates: coordinates, options: options, clusterProperties: typed,
                                    expressions: expressions)
        let empty = try ClusterIndex(coordinates: coordinates, properties: Array(repeating: JSONObject(), count: n),
                                     options: options, clusterProperties: typed, expressions: expressions)
        var points = 0, clusters = 0
        for z in 0 ... 17 {
            let a = bare.clusters(in: [-180, -90, 180, 90], zoom: Double(z))
            #expect(a == empty.clusters(in: [-180, -90, 180, 90], zoom: Double(z)), "zoom \(z)")
            for item in a {
                if let p = item.point {
                    points += 1
                    #expect(p.properties == JSONObject())
                } else {
                    clusters += 1
                }
            }
        }
        #expect(points > 100 && clusters > 100)
    }

    /// The snapshot policy of `ClusterBuilder.run()` counts a level's items below the snapshot's
    /// rows without a branch and gathers the others only when it needs them: both must agree
    /// with a plain filter, at the bounds too (no row, every row, rows equal to the bound, bounds
    /// outside the rows' range).
    @Test("the snapshot policy's count and gather agree with a filter")
    func snapshotCountAndGather() {
        var rng = TestLCG(seed: 23)
        for trial in 0 ..< 44 {
            let n = trial == 0 ? 0 : rng.below(5_000) + 1
            // The last trials take rows up to the largest a build can hold (below 2^27), with
            // the bound at 2^31 and past it too.
            let rows = trial >= 40 ? (1 << 27) - rng.below(1_000) : rng.below(20_000) + 1
            let level = ContiguousArray((0 ..< n).map { _ in UInt32(rows - 1 - rng.below(Swift.min(rows, 30_000))) })
            for bound in [-1, 0, 1, rows / 3, rows / 2, rows - 2, rows, rows + 1, Int(level.first ?? 0), 1 << 31, (1 << 31) + 1,
                          Int(UInt32.max) + 5] {
                let below = level.filter { Int($0) < bound }.count
                #expect(ClusterBuilder<Double>.count(of: level, below: bound) == below, "trial \(trial), bound \(bound)")
                let expected = ContiguousArray(level.filter { Int($0) >= bound })
                #expect(ClusterBuilder<Double>.items(of: level, from: bound, count: n - below) == expected,
                        "trial \(trial), bound \(bound)")
            }
        }
    }

    /// A cluster reduces its members in the order a search of the level's k-d tree reports them
    /// (clustering.md), in both precisions. Four points: at zoom 11, 1 and 2 (0.0001° apart) form
    /// a cluster, so level 11 is [0, (1 2), 3]; at zoom 10, point 0 takes both neighbours. Four
    /// items lie in one leaf, searched in layout order (level order) by either engine: the
    /// cluster's concatenation is "0" + "12" + "3", not "0" + "3" + "12" (ascending rows).
    @Test("cluster properties reduce in the k-d tree's order in both precisions")
    func reduceInSearchOrder() throws {
        let features = [(0.0, "0"), (0.02, "1"), (0.0201, "2"), (-0.02, "3")].map { lng, i in
            Feature(geometry: .point(Position(longitude: lng, latitude: 0)), properties: ["i": .string(i)])
        }
        let concat = try ClusterPropertyExpressions(json: ["s": [["concat", ["accumulated"], ["get", "s"]], ["get", "i"]]])
        for precision in [ClusterPrecision.double, .float32] {
            let index = try ClusterIndex(features: features, options: try ClusterOptions(precision: precision),
                                         clusterProperties: concat)
            let at11 = index.clusters(in: [-180, -90, 180, 90], zoom: 11).compactMap(\.cluster)
            #expect(at11.map { $0.properties["s"] } == [.string("12")], "\(precision)")
            let at10 = index.clusters(in: [-180, -90, 180, 90], zoom: 10).compactMap(\.cluster)
            #expect(at10.map { $0.properties["s"] } == [.string("0123")], "\(precision)")
        }
    }

    /// The reduces whose result is the same in any order (up to the rounding of `+` and `*`) let
    /// the `.double` walk skip the level trees; every other reduce takes the tree's order.
    @Test("which reduce expressions come out the same in any order")
    func reducesInAnyOrder() throws {
        let anyOrder: JSONObject = [
            "a": ["max", ["get", "FLOW"]], "b": ["min", ["get", "FLOW"]], "c": ["+", ["get", "FLOW"]],
            "d": ["*", ["get", "FLOW"]], "e": ["any", ["==", ["get", "ENGINEID"], "E-9"]], "f": ["all", ["get", "ok"]],
            "g": [["+", ["get", "g"], ["accumulated"]], ["get", "FLOW"]],
        ]
        let ordered: JSONObject = [
            "h": ["concat", ["get", "ENGINEID"]], "i": [["-", ["accumulated"], ["get", "i"]], ["get", "FLOW"]],
            "j": [["+", ["accumulated"], ["get", "j"], 1], ["get", "FLOW"]],
            "k": [["max", ["accumulated"], ["*", 2, ["get", "k"]]], ["get", "FLOW"]],
        ]
        for (json, expected) in [(anyOrder, true), (ordered, false)] {
            let properties = try ClusterPropertyExpressions(json: json)
            for (name, reduce) in zip(properties.names, properties.reduces) {
                #expect(ClusterBuilder<Double>.reducesInAnyOrder(reduce.root) == expected, "\(name)")
            }
        }
    }
}
