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
        let n = 3_000
        let (lng, lat) = ClusterReferenceTests.points(scenario, n: n, seed: 77 + UInt32(minPoints))
        var rng = TestLCG(seed: 5)
        var features: [Feature] = []
        for i in 0 ..< n {
            let flow = Double(Int(rng.uniform(0, 3000)))
            let engine = "E-\(Int(rng.uniform(0, 12)))"
            features.append(Feature(geometry: .point(Position(longitude: lng[i], latitude: lat[i])),
                                    properties: ["FLOW": .number(flow), "ENGINEID": .string(engine)]))
        }
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
        var clusters = 0
        for z in 0 ... 17 {
            let a = searched.clusters(in: [-180, -90, 180, 90], zoom: Double(z))
            let b = listed.clusters(in: [-180, -90, 180, 90], zoom: Double(z))
            let same = a == b
            #expect(same, "zoom \(z): the items differ (\(a.count) against \(b.count))")
            guard same else { continue }
            for item in a {
                guard let c = item.cluster else { continue }
                clusters += 1
                let children = try searched.children(of: c.id) == listed.children(of: c.id)
                let leaves = try searched.leaves(of: c.id, limit: nil) == listed.leaves(of: c.id, limit: nil)
                let expansion = try searched.expansionZoom(of: c.id) == listed.expansionZoom(of: c.id)
                #expect(children && leaves && expansion, "cluster \(c.id.rawValue) at zoom \(z)")
            }
        }
        // The data must cluster, or the comparison proves little.
        #expect(clusters > 50)
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
}
