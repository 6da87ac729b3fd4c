import Foundation
import Testing
@testable import SpatialCore

/// Properties that hold at every zoom of every dataset, whatever the algorithm's details.
@Suite("Clustering: invariants")
struct ClusterInvariantTests {
    /// Checks that pages of `leaves(of:limit:offset:)` are slices of the whole list, in its order
    /// (whole sub-clusters are skipped while they fit in the offset, so a wrong skip shows as a
    /// page that starts elsewhere). In `.double` the order is the index's own, not MapLibre
    /// Native's: this is what lets an app page through every point of a cluster.
    static func checkPages(_ index: ClusterIndex, cluster c: Cluster, label: String) throws {
        let all = try index.leaves(of: c.id, limit: nil).map(\.index)
        for k in [1, 3, 7] {
            let offsets = all.count <= 60
                ? Array(stride(from: 0, through: all.count, by: k))
                : [0, 1, k, all.count / 3, all.count / 2 + 1, all.count - k, all.count - 1, all.count]
            for offset in offsets {
                let page = try index.leaves(of: c.id, limit: k, offset: offset).map(\.index)
                let expected = Array(all[Swift.min(offset, all.count) ..< Swift.min(offset + k, all.count)])
                #expect(page == expected, "\(label) cluster \(c.id): limit \(k) offset \(offset)")
            }
        }
    }

    /// Checks every zoom: counts sum to the number of points, every point is a leaf of exactly one
    /// item, `leaves(of:)` has `point_count` distinct points and its pages are slices of it (for
    /// the first clusters of each zoom), and `expansionZoom` is the first zoom at which the
    /// cluster's points are spread over more than one item.
    static func checkInvariants(_ index: ClusterIndex, label: String) throws {
        let o = index.options
        // owner[z][pointRow] = rawID of the item of level z that holds the point.
        var owner: [Int: [Int: Int]] = [:]
        for z in o.minZoom...(o.maxZoom + 1) {
            let items = index.clusters(in: [-180, -90, 180, 90], zoom: Double(z))
            #expect(items.reduce(0) { $0 + $1.pointCount } == index.pointCount, "\(label) z\(z)")
            var seen: [Int: Int] = [:]
            for item in items {
                switch item {
                case .point(let p):
                    #expect(seen[p.index] == nil, "\(label) z\(z): point \(p.index) twice")
                    seen[p.index] = p.index
                case .cluster(let c):
                    let leaves = try index.leaves(of: c.id, limit: nil)
                    #expect(leaves.count == c.pointCount, "\(label) z\(z) cluster \(c.id)")
                    for l in leaves {
                        #expect(seen[l.index] == nil, "\(label) z\(z): point \(l.index) twice")
                        seen[l.index] = c.id.rawValue
                    }
                    #expect(try index.children(of: c.id).reduce(0) { $0 + $1.pointCount } == c.pointCount)
                }
            }
            #expect(seen.count == index.pointCount, "\(label) z\(z): \(seen.count) leaves")
            owner[z] = seen
            for case .cluster(let c) in items.prefix(25) { try checkPages(index, cluster: c, label: "\(label) z\(z)") }
        }
        for z in o.minZoom...o.maxZoom {
            for item in index.clusters(in: [-180, -90, 180, 90], zoom: Double(z)) {
                guard case .cluster(let c) = item else { continue }
                let leaves = try index.leaves(of: c.id, limit: nil).map(\.index)
                let ez = try index.expansionZoom(of: c.id)
                #expect(ez > z && ez <= o.maxZoom + 1, "\(label) z\(z) cluster \(c.id): expansion zoom \(ez)")
                // First zoom after z with more than one owner.
                var first = o.maxZoom + 1
                for zz in (z + 1)...(o.maxZoom + 1) where Set(leaves.map { owner[zz]![$0]! }).count > 1 {
                    first = zz
                    break
                }
                #expect(ez == first, "\(label) z\(z) cluster \(c.id): expansion zoom \(ez), first split at \(first)")
            }
        }
    }

    @Test("invariants on the real datasets, both precisions",
          arguments: ["places.json", "earthquakes.geojson", "dc-fire-hydrants.geojson"], [ClusterPrecision.double, .float32])
    func realData(file: String, precision: ClusterPrecision) throws {
        guard let features = ClusterTestSupport.dataset(file) else { return }
        let index = try ClusterIndex(features: features, options: ClusterOptions(maxZoom: 14, precision: precision))
        try Self.checkInvariants(index, label: "\(file) \(precision)")
    }

    @Test("invariants on seeded data", arguments: ClusterReferenceTests.Scenario.allCases)
    func seeded(scenario: ClusterReferenceTests.Scenario) throws {
        let (lng, lat) = ClusterReferenceTests.points(scenario, n: 800, seed: 77)
        for minPoints in 1...5 {
            let index = try ClusterIndex(
                coordinates: zip(lng, lat).map { Coordinate(latitude: $0.1, longitude: $0.0) },
                options: ClusterOptions(maxZoom: 18, minPoints: minPoints, radius: 60))
            try Self.checkInvariants(index, label: "\(scenario) minPoints \(minPoints)")
        }
    }

    @Test("identical points cluster at maxZoom into one cluster, without deep recursion")
    func identicalPoints() throws {
        let n = 20_000
        let coordinates = [Coordinate](repeating: Coordinate(latitude: 38.9, longitude: -77.03), count: n)
        for precision in [ClusterPrecision.double, .float32] {
            let index = try ClusterIndex(coordinates: coordinates, options: ClusterOptions(precision: precision))
            for z in 0...16 {
                let items = index.clusters(in: [-180, -90, 180, 90], zoom: Double(z))
                #expect(items.count == 1)
                #expect(items.first?.pointCount == n)
            }
            let top = try #require(index.clusters(in: [-180, -90, 180, 90], zoom: 0).first?.cluster)
            #expect(try index.leaves(of: top.id, limit: nil).count == n)
            #expect(try index.expansionZoom(of: top.id) == 17)
            // Float-rounded storage moves a point by up to about 1e-5° in `.float32`.
            let tolerance = precision == .double ? 1e-9 : 2e-5
            #expect(abs(top.coordinate.longitude - -77.03) < tolerance && abs(top.coordinate.latitude - 38.9) < tolerance)
            #expect(index.clusters(in: [-180, -90, 180, 90], zoom: 17).count == n)
        }
    }

    @Test("empty input and a single point give valid indexes")
    func emptyAndSingle() throws {
        let empty = try ClusterIndex(features: [])
        #expect(empty.clusters(in: [-180, -90, 180, 90], zoom: 3).isEmpty)
        #expect(empty.tile(z: 0, x: 0, y: 0) == nil)
        #expect(throws: ClusterError.noCluster(ClusterID(rawValue: 0))) { try empty.children(of: ClusterID(rawValue: 0)) }
        let one = try ClusterIndex(coordinates: [Coordinate(latitude: 10, longitude: 20)])
        for z in 0...17 { #expect(one.clusters(in: [-180, -90, 180, 90], zoom: Double(z)).map(\.rawID) == [0]) }
        let nulls = try ClusterIndex(features: [Feature(geometry: nil), Feature(geometry: nil)])
        #expect(nulls.pointCount == 0 && nulls.featureCount == 2)
    }

    @Test("queries agree across 8 threads with a single-threaded run")
    func concurrentQueries() async throws {
        guard let features = ClusterTestSupport.dataset("dc-fire-hydrants.geojson") else { return }
        let index = try ClusterIndex(features: features)
        @Sendable func answers() throws -> [Int] {
            var out: [Int] = []
            for z in 0...17 {
                let items = index.clusters(west: -77.2, south: 38.8, east: -76.9, north: 39.0, zoom: Double(z))
                out += items.map(\.rawID)
                for case .cluster(let c) in items.prefix(5) {
                    out += try index.children(of: c.id).map(\.rawID)
                    out += try index.leaves(of: c.id, limit: 20, offset: 3).map(\.index)
                    out.append(try index.expansionZoom(of: c.id))
                }
            }
            return out
        }
        let expected = try answers()
        try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 { group.addTask { try answers() } }
            for try await result in group { #expect(result == expected) }
        }
    }

    @Test("a build large enough to hand freed memory back between levels keeps every invariant")
    func largeBuild() throws {
        // Above `FreedMemory.worthFrom`, so the hand-back between shrinking levels, the reserved
        // row bound (asserted in debug builds) and the early-freed scratch all run.
        let n = FreedMemory.worthFrom + 4_464
        let (lng, lat) = ClusterReferenceTests.points(.blobs, n: n, seed: 11)
        let index = try ClusterIndex(
            coordinates: zip(lng, lat).map { Coordinate(latitude: $0.1, longitude: $0.0) },
            options: ClusterOptions(maxZoom: 12))
        #expect(index.pointCount == n)
        try Self.checkInvariants(index, label: "blobs \(n)")
    }

    @Test("building is deterministic")
    func deterministic() throws {
        let (lng, lat) = ClusterReferenceTests.points(.blobs, n: 3000, seed: 5)
        let coordinates = zip(lng, lat).map { Coordinate(latitude: $0.1, longitude: $0.0) }
        let a = try ClusterIndex(coordinates: coordinates), b = try ClusterIndex(coordinates: coordinates)
        #expect(a.itemX == b.itemX && a.itemY == b.itemY && a.itemRef == b.itemRef && a.childList == b.childList)
    }
}
