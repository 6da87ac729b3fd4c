import Foundation
import Testing
import SpatialCore

/// Scale and degenerate inputs (reliability.md "Limits"): no crash, no stack growth (every build
/// runs on a thread with a 1 MiB stack, where recursion per point or per level of a degenerate
/// tree would overflow), no quadratic work (bounded by output sizes: every zoom accounts for all
/// points, and cluster counts obey a packing bound). Never wall time.
///
/// Full sizes (1M identical, 1M on a line, 5M uniform) run in release builds: `.ci/run` runs
/// `swift test -c release --filter Scale`. Debug builds (and the sanitizer runs) use 1/100 of them.
@Suite("Reliability: Scale and degenerate inputs", .serialized)
struct ScaleTests {
    #if DEBUG
    static let million = 10_000
    #else
    static let million = 1_000_000
    #endif
    static let world = [-180.0, -90, 180, 90]

    /// Runs `body` on a thread with a 1 MiB stack and waits for it.
    static func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let box = ConcurrencyTests.Results<Result<T, any Error>>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.append(Result { try body() })
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        done.wait()
        return try box.values[0].get()
    }

    /// Every zoom from 0 to maxZoom + 1 accounts for all `n` points exactly once.
    static func expectConservation(_ index: ClusterIndex, _ n: Int, zooms: ClosedRange<Int>) {
        for z in zooms {
            let items = index.clusters(in: world, zoom: Double(z))
            #expect(items.reduce(0) { $0 + $1.pointCount } == n, "zoom \(z)")
        }
    }

    @Test("1M identical points: one cluster at every zoom up to maxZoom, all its leaves after")
    func millionIdenticalPoints() throws {
        let n = Self.million
        let index = try Self.onSmallStack {
            try ClusterIndex(coordinates: [Coordinate](repeating: Coordinate(latitude: 48.85, longitude: 2.35), count: n))
        }
        for z in 0 ... 16 {
            let items = index.clusters(in: Self.world, zoom: Double(z))
            #expect(items.count == 1 && items.first?.pointCount == n && items.first?.cluster != nil, "zoom \(z)")
        }
        let top = try #require(index.clusters(in: Self.world, zoom: 0).first?.cluster)
        #expect(try index.expansionZoom(of: top.id) == 17)
        let leaves = try Self.onSmallStack { try index.leaves(of: top.id, limit: nil) }
        #expect(leaves.count == n)
        #expect(index.clusters(in: Self.world, zoom: 17).count == n)
        let kd = try Self.onSmallStack { try KDTree<Double>([SIMD2<Double>](repeating: SIMD2(0.3, 0.3), count: n), nodeSize: 2) }
        #expect(kd.within(x: 0.3, y: 0.3, radius: 0).count == n)
        #expect(kd.nearest(to: SIMD2(0, 0), k: 3).count == 3)
    }

    @Test("1M points on one line: builds and accounts for every point at every zoom")
    func millionPointsOnALine() throws {
        let n = Self.million
        // A meridian (all x equal) and a parallel (all y equal): the degenerate axes of a k-d tree.
        for meridian in [true, false] {
            let coordinates = (0 ..< n).map { i in
                let t = Double(i) / Double(n)
                return meridian ? Coordinate(latitude: -80 + 160 * t, longitude: 10) : Coordinate(latitude: 10, longitude: -179 + 358 * t)
            }
            let index = try Self.onSmallStack { try ClusterIndex(coordinates: coordinates) }
            Self.expectConservation(index, n, zooms: 0 ... 17)
            // Clusters on a line of length ≤ 1 world are separated by about a radius: at zoom z at
            // most 2^z · extent / radius of them (×4 for slack), however many points.
            for z in 0 ... 8 {
                let count = index.clusters(in: Self.world, zoom: Double(z)).count
                #expect(count <= 4 * ((1 << z) * 512 / 40 + 2), "zoom \(z): \(count)")
            }
            let points = coordinates.map { SIMD2($0.longitude, $0.latitude) }
            let kd = try Self.onSmallStack { try KDTree<Double>(points, nodeSize: 4) }
            let rt = try Self.onSmallStack { try PackedRTree(points.map { SIMD4($0.x, $0.y, $0.x, $0.y) }, nodeSize: 4) }
            #expect(kd.range(minX: -200, minY: -100, maxX: 200, maxY: 100).count == n)
            #expect(rt.search(minX: -200, minY: -100, maxX: 200, maxY: 100).count == n)
        }
    }

    @Test("5M uniform points: indexes and clusters build; cluster counts obey the packing bound")
    func fiveMillionUniformPoints() throws {
        let n = 5 * Self.million
        var rng = SplitMix(seed: 2026)
        let coordinates = (0 ..< n).map { _ in Coordinate(latitude: rng.uniform(-85, 85), longitude: rng.uniform(-180, 180)) }
        let index = try Self.onSmallStack { try ClusterIndex(coordinates: coordinates) }
        Self.expectConservation(index, n, zooms: 0 ... 17)
        // Clusters at zoom z are about a radius apart: at most (2^z · extent / radius + 2)² · 4 of them.
        for z in 0 ... 5 {
            let side = (1 << z) * 512 / 40 + 2
            #expect(index.clusters(in: Self.world, zoom: Double(z)).count <= 4 * side * side, "zoom \(z)")
        }
        let points = coordinates.map { SIMD2($0.longitude, $0.latitude) }
        let kd = try Self.onSmallStack { try KDTree<Double>(points) }
        let inBox = points.reduce(0) { $0 + ($1.x >= 0 && $1.x <= 10 && $1.y >= 0 && $1.y <= 10 ? 1 : 0) }
        #expect(kd.range(minX: 0, minY: 0, maxX: 10, maxY: 10).count == inBox)
        let rt = try Self.onSmallStack { try PackedRTree(points.map { SIMD4($0.x, $0.y, $0.x, $0.y) }) }
        #expect(rt.search(minX: 0, minY: 0, maxX: 10, maxY: 10).count == inBox)
    }

    @Test("maxZoom 30: 31 levels build, ids decode at every zoom, points appear at zoom 31")
    func maxZoomThirty() throws {
        let n = Self.million / 10
        var rng = SplitMix(seed: 30)
        // Pairs about 1 cm apart: they separate only at the deepest zooms.
        let coordinates = (0 ..< n).map { i -> Coordinate in
            let base = Coordinate(latitude: rng.uniform(-60, 60), longitude: rng.uniform(-170, 170))
            return i % 2 == 0 ? base : Coordinate(latitude: base.latitude, longitude: base.longitude + 1e-7)
        }
        let index = try Self.onSmallStack { try ClusterIndex(coordinates: coordinates, options: ClusterOptions(maxZoom: 30)) }
        Self.expectConservation(index, n, zooms: 0 ... 31)
        #expect(index.clusters(in: Self.world, zoom: 31).count == n)
        for z in [0, 15, 25, 30] {
            for case .cluster(let c) in index.clusters(in: [-20, -20, 20, 20], zoom: Double(z)).prefix(20) {
                let children = try index.children(of: c.id)
                #expect(children.reduce(0) { $0 + $1.pointCount } == c.pointCount)
                #expect(try index.expansionZoom(of: c.id) > z)
            }
        }
    }

    @Test("radius tiny and huge: nothing merges, or everything merges into one cluster")
    func tinyAndHugeRadius() throws {
        let n = Self.million / 10
        var rng = SplitMix(seed: 99)
        let coordinates = (0 ..< n).map { _ in Coordinate(latitude: rng.uniform(-80, 80), longitude: rng.uniform(-180, 180)) }
        let tiny = try Self.onSmallStack { try ClusterIndex(coordinates: coordinates, options: ClusterOptions(radius: 1e-12)) }
        for z in [0, 8, 16] { #expect(tiny.clusters(in: Self.world, zoom: Double(z)).count == n) }
        let huge = try Self.onSmallStack { try ClusterIndex(coordinates: coordinates, options: ClusterOptions(radius: 1e12)) }
        for z in 0 ... 16 {
            let items = huge.clusters(in: Self.world, zoom: Double(z))
            #expect(items.count == 1 && items.first?.pointCount == n, "zoom \(z)")
        }
        Self.expectConservation(huge, n, zooms: 17 ... 17)
    }
}
