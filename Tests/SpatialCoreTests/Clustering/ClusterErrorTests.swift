import Foundation
import Testing
@testable import SpatialCore

/// Every clustering error path of reliability.md: a typed error (or a defined result), never a trap.
@Suite("Clustering: errors and edge cases")
struct ClusterErrorTests {
    @Test("options out of range are ClusterOptionsError")
    func options() {
        #expect(throws: ClusterOptionsError.maxZoomOutOfRange(31)) { try ClusterOptions(maxZoom: 31) }
        #expect(throws: ClusterOptionsError.maxZoomOutOfRange(-1)) { try ClusterOptions(maxZoom: -1) }
        #expect(throws: ClusterOptionsError.minZoomOutOfRange(5, maxZoom: 4)) { try ClusterOptions(minZoom: 5, maxZoom: 4) }
        #expect(throws: ClusterOptionsError.minZoomOutOfRange(-1, maxZoom: 16)) { try ClusterOptions(minZoom: -1) }
        #expect(throws: ClusterOptionsError.minPointsOutOfRange(0)) { try ClusterOptions(minPoints: 0) }
        #expect(throws: ClusterOptionsError.invalidRadius(0)) { try ClusterOptions(radius: 0) }
        #expect(throws: ClusterOptionsError.invalidRadius(-3)) { try ClusterOptions(radius: -3) }
        #expect(throws: ClusterOptionsError.self) { try ClusterOptions(radius: .nan) }
        #expect(throws: ClusterOptionsError.invalidRadius(.infinity)) { try ClusterOptions(radius: .infinity) }
        #expect(throws: ClusterOptionsError.invalidExtent(0)) { try ClusterOptions(extent: 0) }
        #expect(throws: ClusterOptionsError.nodeSizeOutOfRange(1)) { try ClusterOptions(nodeSize: 1) }
        #expect(throws: ClusterOptionsError.nodeSizeOutOfRange(65536)) { try ClusterOptions(nodeSize: 65536) }
        #expect((try? ClusterOptions(minZoom: 30, maxZoom: 30)) != nil)
    }

    @Test("options are equal by their public values; the internal build overrides do not count")
    func optionsEquality() throws {
        let plain = try ClusterOptions(radius: 60)
        var tuned = plain
        tuned.isolationPrePass = true
        tuned.parallelThreshold = 0
        tuned.pairsBelow = .infinity
        #expect(tuned == plain)
        #expect(Set([plain, tuned]).count == 1)
        #expect(try ClusterOptions(radius: 61) != plain)
        #expect(try ClusterOptions(radius: 60, precision: .float32) != plain)
        #expect(try ClusterOptions(radius: 60, generateId: true) != plain)
    }

    @Test("MapLibre options map onto cluster options; clusterMaxZoom ≥ maxzoom is rejected")
    func mapLibre() throws {
        let o = try MapLibreOptions().clusterOptions()
        #expect(o.radius == 50 && o.maxZoom == 17 && o.minPoints == 2 && o.extent == 512)
        #expect(throws: ClusterOptionsError.clusterMaxZoomNotBelowSourceMaxZoom(clusterMaxZoom: 18, maxzoom: 18)) {
            try MapLibreOptions(clusterMaxZoom: 18).clusterOptions()
        }
        #expect(throws: ClusterOptionsError.minPointsOutOfRange(0)) { try MapLibreOptions(clusterMinPoints: 0).clusterOptions() }
    }

    @Test("non-point geometry names the feature and type; null geometry is skipped but numbered")
    func geometry() throws {
        let p = Geometry.point(Position(longitude: 1, latitude: 2))
        let line = Geometry.lineString([Position(longitude: 0, latitude: 0), Position(longitude: 1, latitude: 1)])
        #expect(throws: ClusterError.unsupportedGeometry(featureIndex: 2, type: "LineString")) {
            try ClusterIndex(features: [Feature(geometry: p), Feature(geometry: nil), Feature(geometry: line)])
        }
        #expect(throws: ClusterError.unsupportedGeometry(featureIndex: 0, type: "MultiPoint")) {
            try ClusterIndex(features: [Feature(geometry: .multiPoint([]))])
        }
        let index = try ClusterIndex(features: [Feature(geometry: nil), Feature(geometry: p)])
        #expect(index.clusters(in: [-180, -90, 180, 90], zoom: 0).map(\.rawID) == [1])
        #expect("\(ClusterError.unsupportedGeometry(featureIndex: 2, type: "LineString"))".contains("feature 2"))
    }

    @Test("NaN, infinity and latitude beyond ±90 are errors; longitude beyond ±180 is wrapped")
    func coordinates() throws {
        for (lng, lat) in [(Double.nan, 0.0), (0, .nan), (.infinity, 0), (0, -.infinity), (0, 90.5), (0, -91)] {
            #expect(throws: ClusterError.self) {
                try ClusterIndex(coordinates: [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: lat, longitude: lng)])
            }
            do {
                _ = try ClusterIndex(coordinates: [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: lat, longitude: lng)])
            } catch {
                guard case .invalidCoordinate(let i, _, _) = error else { Issue.record("\(error)"); continue }
                #expect(i == 1)
            }
        }
        // Skipped and counted, when asked.
        let lenient = try ClusterIndex(
            coordinates: [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: .nan, longitude: 0), Coordinate(latitude: 95, longitude: 1)],
            invalidCoordinates: .skip)
        #expect(lenient.skippedFeatureIndices == [1, 2] && lenient.pointCount == 1 && lenient.featureCount == 3)
        #expect(lenient.clusters(in: [-180, -90, 180, 90], zoom: 0).map(\.rawID) == [0])
        let wrapped = try ClusterIndex(coordinates: [Coordinate(latitude: 10, longitude: 190), Coordinate(latitude: 10, longitude: -550)])
        let items = wrapped.clusters(in: [-180, -90, 180, 90], zoom: 17)
        #expect(items.count == 2)
        #expect(items.allSatisfy { $0.point!.mercator.x >= 0 && $0.point!.mercator.x <= 1 })
        // 190 wraps to -170 and -550 to 170: found by boxes around them.
        #expect(wrapped.clusters(in: [-171, 9, -169, 11], zoom: 17).map(\.rawID) == [0])
        #expect(wrapped.clusters(in: [169, 9, 171, 11], zoom: 17).map(\.rawID) == [1])
        #expect(throws: ClusterError.propertyCountMismatch(coordinates: 1, properties: 2)) {
            try ClusterIndex(coordinates: [Coordinate(latitude: 0, longitude: 0)], properties: [[:], [:]])
        }
    }

    @Test("a collection without contiguous storage is read as an array is: same errors, skips and clusters")
    func nonContiguousCoordinates() throws {
        let raw = [(0.0, 0.0), (0.01, 0.01), (.nan, 5), (3, 95), (40, 40)]
        let array = raw.map { Coordinate(latitude: $0.1, longitude: $0.0) }
        // A lazy map offers no contiguous storage: the generic path.
        let lazy = raw.lazy.map { Coordinate(latitude: $0.1, longitude: $0.0) }
        #expect(lazy.withContiguousStorageIfAvailable { _ in 0 } == nil)
        func failure(_ body: () throws(ClusterError) -> ClusterIndex) -> Int? {
            do { _ = try body(); return nil } catch {
                guard case .invalidCoordinate(let i, _, _) = error else { return -1 }
                return i
            }
        }
        #expect(failure { () throws(ClusterError) in try ClusterIndex(coordinates: array) } == 2)
        #expect(failure { () throws(ClusterError) in try ClusterIndex(coordinates: lazy) } == 2)
        let a = try ClusterIndex(coordinates: array, invalidCoordinates: .skip)
        let b = try ClusterIndex(coordinates: lazy, invalidCoordinates: .skip)
        #expect(a.skippedFeatureIndices == [2, 3] && b.skippedFeatureIndices == [2, 3])
        for z in [0.0, 3, 10] {
            let ia = a.clusters(in: [-180, -90, 180, 90], zoom: z), ib = b.clusters(in: [-180, -90, 180, 90], zoom: z)
            #expect(ia.map(\.rawID) == ib.map(\.rawID))
            #expect(ia.map(\.pointCount) == ib.map(\.pointCount))
        }
        // The two nearby points cluster at zoom 0; the far one stays alone.
        #expect(a.clusters(in: [-180, -90, 180, 90], zoom: 0).map(\.pointCount).sorted() == [1, 2])
    }

    @Test("unknown, stale and malformed cluster ids; negative limit or offset")
    func ids() throws {
        let (lng, lat) = ClusterReferenceTests.points(.blobs, n: 500, seed: 9)
        let index = try ClusterIndex(coordinates: zip(lng, lat).map { Coordinate(latitude: $0.1, longitude: $0.0) })
        let real = try #require(index.clusters(in: [-180, -90, 180, 90], zoom: 2).compactMap(\.cluster).first)
        for raw in [-1, 0, 499, 500, 501, 500 + 31, 500 + (3 << 5) + 18, Int.max, Int.min, 500 + (1 << 40) + 3] {
            let id = ClusterID(rawValue: raw)
            #expect(throws: ClusterError.noCluster(id)) { try index.children(of: id) }
            #expect(throws: ClusterError.noCluster(id)) { try index.leaves(of: id) }
            #expect(throws: ClusterError.noCluster(id)) { try index.expansionZoom(of: id) }
            #expect(throws: ClusterError.noCluster(id)) { try index.cluster(id) }
        }
        #expect(throws: ClusterError.negativeLimit(-1)) { try index.leaves(of: real.id, limit: -1) }
        #expect(throws: ClusterError.negativeOffset(-2)) { try index.leaves(of: real.id, offset: -2) }
        #expect(try index.leaves(of: real.id, limit: 0).isEmpty)
        #expect(try index.leaves(of: real.id, limit: 3, offset: real.pointCount).isEmpty)
        #expect(try index.leaves(of: real.id).count == min(10, real.pointCount))
        #expect(try index.cluster(real.id) == real)
        // A stale id: valid in an index over other data.
        let other = try ClusterIndex(coordinates: Array(zip(lng, lat).map { Coordinate(latitude: $0.1, longitude: $0.0) }.prefix(500).reversed()))
        let foreign = other.clusters(in: [-180, -90, 180, 90], zoom: 2).compactMap(\.cluster).map(\.id)
        for id in foreign where (try? index.cluster(id)) == nil {
            #expect(throws: ClusterError.noCluster(id)) { try index.children(of: id) }
        }
        #expect("\(ClusterError.noCluster(ClusterID(rawValue: 7)))" == "no cluster with id 7")
    }

    @Test("odd queries: NaN or out-of-range zoom, NaN box, short box, tiles outside the grid")
    func oddQueries() throws {
        let index = try ClusterIndex(coordinates: [Coordinate(latitude: 10, longitude: 20), Coordinate(latitude: 10.0001, longitude: 20)])
        #expect(index.clusters(in: [-180, -90, 180, 90], zoom: .nan).count == 1)
        #expect(index.clusters(in: [-180, -90, 180, 90], zoom: -.infinity).count == 1)
        #expect(index.clusters(in: [-180, -90, 180, 90], zoom: .infinity).count == 2)
        #expect(index.clusters(in: [.nan, -90, 180, 90], zoom: 3).isEmpty)
        #expect(index.clusters(in: [1, 2, 3], zoom: 3).isEmpty)
        #expect(index.clusters(in: [-.infinity, -90, .infinity, 90], zoom: 3).count == 1)
        #expect(index.tile(z: -1, x: 0, y: 0) == nil)
        #expect(index.tile(z: 1, x: 2, y: 0) == nil)
        #expect(index.tile(z: 99, x: 0, y: 0) == nil)
        #expect(index.tile(z: 0, x: 0, y: 0)?.features.count == 1)
        // An extent or radius near the largest double is valid: tile positions clamp to ±2^62
        // instead of overflowing Int.
        for (extent, radius) in [(Double.greatestFiniteMagnitude, 40.0), (1e11, 1e22), (512, Double.greatestFiniteMagnitude)] {
            let huge = try ClusterIndex(coordinates: [Coordinate(latitude: 10, longitude: 20)],
                                        options: ClusterOptions(maxZoom: 30, radius: radius, extent: extent))
            for z in [0, 30] {
                for f in huge.tile(z: z, x: 0, y: 0)?.features ?? [] {
                    #expect(abs(f.x) <= 1 << 62 && abs(f.y) <= 1 << 62)
                }
            }
        }
        let big = try ClusterIndex(coordinates: [Coordinate(latitude: 10, longitude: 20)], options: ClusterOptions(extent: 1e20))
        #expect(big.tile(z: 0, x: 0, y: 0)?.features.first?.x == 1 << 62)
    }

    @Test("point_count_abbreviated")
    func abbreviation() {
        #expect(Cluster.abbreviate(999) == .number(999))
        #expect(Cluster.abbreviate(1000) == .string("1k"))
        #expect(Cluster.abbreviate(1049) == .string("1k"))
        #expect(Cluster.abbreviate(1150) == .string("1.2k"))
        #expect(Cluster.abbreviate(1950) == .string("2k"))
        #expect(Cluster.abbreviate(9999) == .string("10k"))
        #expect(Cluster.abbreviate(12_345) == .string("12k"))
        #expect(Cluster.abbreviate(12_500) == .string("13k"))
    }

    @Test("cluster ids encode and decode")
    func clusterID() {
        let id = ClusterID(originIndex: 37, zoom: 4, featureCount: 163)
        #expect(id.rawValue == (37 << 5) + 5 + 163)
        #expect(id.origin(featureCount: 163)! == (37, 5))
        #expect(ClusterID(rawValue: 10).origin(featureCount: 163) == nil)
    }
}
