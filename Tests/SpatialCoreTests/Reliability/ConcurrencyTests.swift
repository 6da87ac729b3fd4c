import Foundation
import Testing
import SpatialCore

/// Built indexes are immutable `Sendable` values: queried from 8 threads at once, every answer
/// equals the single-threaded one; building twice gives the same bytes and the same answers.
/// (The clustering suite has a task-group variant on the real hydrant data; this one runs on
/// seeded data, always, on 8 real threads, and adds tiles and the two spatial indexes.)
/// `.ci/run` runs this suite under ThreadSanitizer.
@Suite("Reliability: concurrency and determinism")
struct ConcurrencyTests {
    /// Runs `body` on `threads` threads started together and returns their answers.
    static func onThreads<T: Sendable>(_ threads: Int = 8, run body: @escaping @Sendable () -> T) -> [T] {
        let results = Results<T>()
        let start = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        for _ in 0 ..< threads {
            let thread = Thread {
                start.wait()
                results.append(body())
                done.signal()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        for _ in 0 ..< threads { start.signal() }
        for _ in 0 ..< threads { done.wait() }
        return results.values
    }

    final class Results<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [T] = []
        func append(_ value: T) { lock.lock(); stored.append(value); lock.unlock() }
        var values: [T] { lock.lock(); defer { lock.unlock() }; return stored }
    }

    static func seededCoordinates(_ n: Int, seed: UInt64) -> [Coordinate] {
        var rng = SplitMix(seed: seed)
        // Blobs and a uniform background, so that clusters of every size exist.
        let centres = (0 ..< 12).map { _ in (rng.uniform(-150, 150), rng.uniform(-60, 60)) }
        return (0 ..< n).map { i in
            if i % 4 == 0 { return Coordinate(latitude: rng.uniform(-80, 80), longitude: rng.uniform(-180, 180)) }
            let c = centres[i % centres.count], r = rng.uniform(0, 3)
            let a = rng.uniform(0, 2 * .pi)
            return Coordinate(latitude: c.1 + r * sin(a), longitude: c.0 + r * cos(a))
        }
    }

    /// Every query kind of a cluster index, flattened into one comparable answer.
    static func clusterAnswers(_ index: ClusterIndex) -> [String] {
        var out: [String] = []
        for z in 0 ... index.options.maxZoom + 1 {
            let items = index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: Double(z))
            out.append("z\(z):" + items.map { "\($0.rawID)/\($0.pointCount)" }.joined(separator: ","))
            for case .cluster(let c) in items.prefix(6) {
                out.append("c\(c.id.rawValue):" + ((try? index.children(of: c.id)) ?? []).map { "\($0.rawID)" }.joined(separator: ","))
                out.append("l:" + ((try? index.leaves(of: c.id, limit: 25, offset: 2)) ?? []).map { "\($0.index)" }.joined(separator: ","))
                out.append("e:\((try? index.expansionZoom(of: c.id)) ?? -1)")
            }
            let n = 1 << min(z, 3)
            for x in 0 ..< n {
                let tile = index.tile(z: z, x: x, y: n / 2)
                out.append("t\(z)/\(x):" + (tile?.features.map { "\($0.item.rawID)" }.joined(separator: ",") ?? "-"))
            }
        }
        return out
    }

    @Test("one cluster index queried from 8 threads: clusters, children, leaves, expansion zoom, tiles")
    func clusterIndexFromEightThreads() throws {
        for precision in [ClusterPrecision.double, .float32] {
            let index = try ClusterIndex(
                coordinates: Self.seededCoordinates(6000, seed: 41), options: ClusterOptions(maxZoom: 14, precision: precision))
            let expected = Self.clusterAnswers(index)
            #expect(expected.count > 50)
            for answer in Self.onThreads(run: { Self.clusterAnswers(index) }) { #expect(answer == expected) }
        }
    }

    @Test("one k-d tree and one R-tree queried from 8 threads")
    func spatialIndexesFromEightThreads() throws {
        var rng = SplitMix(seed: 77)
        let points = (0 ..< 20_000).map { _ in SIMD2(rng.uniform(0, 100), rng.uniform(0, 100)) }
        let kd = try KDTree<Double>(points, nodeSize: 16)
        let rt = try PackedRTree(points.map { SIMD4($0.x, $0.y, $0.x + 0.5, $0.y + 0.5) })
        @Sendable func answers() -> [[Int]] {
            var out: [[Int]] = []
            for q in stride(from: 0.0, to: 100, by: 9.5) {
                out.append(kd.range(minX: q, minY: 100 - q - 5, maxX: q + 5, maxY: 100 - q))
                out.append(kd.within(x: q, y: q, radius: 3))
                out.append(kd.nearest(to: SIMD2(q, 50), k: 7))
                out.append(rt.search(minX: q, minY: q, maxX: q + 4, maxY: q + 2))
                out.append(rt.neighbors(x: 50, y: q, maxResults: 9))
            }
            return out
        }
        let expected = answers()
        for answer in Self.onThreads(run: answers) { #expect(answer == expected) }
    }

    @Test("building is deterministic: same input and options give the same bytes and answers")
    func buildIsDeterministic() throws {
        var rng = SplitMix(seed: 5)
        // Many duplicates and ties, where an unstable choice would show.
        let points = (0 ..< 30_000).map { _ in SIMD2((rng.uniform(0, 50)).rounded(), (rng.uniform(0, 50)).rounded()) }
        let boxes = points.map { SIMD4($0.x, $0.y, $0.x + 1, $0.y) }
        for nodeSize in [2, 16, 64] {
            #expect(try KDTree<Double>(points, nodeSize: nodeSize).data == KDTree<Double>(points, nodeSize: nodeSize).data)
            #expect(try KDTree<Float>(points, nodeSize: nodeSize).data == KDTree<Float>(points, nodeSize: nodeSize).data)
            #expect(try PackedRTree(boxes, nodeSize: nodeSize).data == PackedRTree(boxes, nodeSize: nodeSize).data)
        }
        // A tree read back from its bytes writes the same bytes.
        let kd = try KDTree<Double>(points)
        #expect(try KDTree<Double>(data: kd.data).data == kd.data)
        let rt = try PackedRTree(boxes)
        #expect(try PackedRTree(data: rt.data).data == rt.data)
        // Cluster indexes built on several threads at once answer identically.
        let coordinates = Self.seededCoordinates(4000, seed: 8)
        let builds = Self.onThreads(4, run: { () -> [String] in
            guard let index = try? ClusterIndex(coordinates: coordinates, options: .default) else { return [] }
            return Self.clusterAnswers(index)
        })
        #expect(builds.count == 4 && !builds[0].isEmpty)
        for b in builds { #expect(b == builds[0]) }
    }
}
