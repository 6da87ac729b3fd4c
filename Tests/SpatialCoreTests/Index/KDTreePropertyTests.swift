import Foundation
import Testing
@testable import SpatialCore

/// The k-d tree against brute force on seeded random data: every query type, every node size for
/// small inputs, degenerate inputs (empty, one point, all identical, points on query borders),
/// both storage types, and a byte round trip.
@Suite("KDTree properties")
struct KDTreePropertyTests {
    static func randomPoints(_ n: Int, seed: UInt32, grid: Bool = false) -> [SIMD2<Double>] {
        var rng = TestLCG(seed: seed)
        return (0..<n).map { _ in
            // On a coarse grid many points share coordinates and sit on query borders.
            grid ? SIMD2(Double(rng.below(20)), Double(rng.below(20)))
                : SIMD2(rng.uniform(-180, 180), rng.uniform(-85, 85))
        }
    }

    static func bruteRange(_ p: [SIMD2<Double>], _ b: (Double, Double, Double, Double)) -> [Int] {
        p.indices.filter { p[$0].x >= b.0 && p[$0].x <= b.2 && p[$0].y >= b.1 && p[$0].y <= b.3 }
    }

    static func sqDist(_ a: SIMD2<Double>, _ x: Double, _ y: Double) -> Double {
        let dx = a.x - x, dy = a.y - y
        return dx * dx + dy * dy
    }

    static func bruteWithin(_ p: [SIMD2<Double>], _ x: Double, _ y: Double, _ r: Double) -> [Int] {
        p.indices.filter { sqDist(p[$0], x, y) <= r * r }
    }

    /// Checks the structural invariant of the layout: each middle item splits its range.
    static func checkLayout<S>(_ tree: KDTree<S>) -> Bool {
        var stack = [(0, tree.count - 1, 0)]
        while let (left, right, axis) = stack.popLast() {
            if right - left <= tree.nodeSize { continue }
            let m = (left + right) >> 1
            let pivot = tree.coords[2 * m + axis]
            for i in left..<m where tree.coords[2 * i + axis] > pivot { return false }
            for i in (m + 1)...right where tree.coords[2 * i + axis] < pivot { return false }
            stack.append((left, m - 1, 1 - axis))
            stack.append((m + 1, right, 1 - axis))
        }
        return Set(tree.ids).count == tree.count
    }

    func checkQueries(_ points: [SIMD2<Double>], nodeSize: Int, seed: UInt32) throws {
        let tree = try KDTree<Double>(points, nodeSize: nodeSize)
        #expect(tree.count == points.count)
        #expect(Self.checkLayout(tree))
        var rng = TestLCG(seed: seed)
        let grid = points.allSatisfy { $0.x == $0.x.rounded() }
        for _ in 0..<20 {
            let x0 = grid ? Double(rng.below(22)) - 1 : rng.uniform(-190, 190)
            let y0 = grid ? Double(rng.below(22)) - 1 : rng.uniform(-95, 95)
            let w = grid ? Double(rng.below(6)) : rng.uniform(0, 60)
            let h = grid ? Double(rng.below(6)) : rng.uniform(0, 60)
            let box = (x0, y0, x0 + w, y0 + h)
            let found = tree.range(minX: box.0, minY: box.1, maxX: box.2, maxY: box.3)
            #expect(found.sorted() == Self.bruteRange(points, box))
            var appended = [-1]
            tree.range(minX: box.0, minY: box.1, maxX: box.2, maxY: box.3, into: &appended)
            #expect(appended == [-1] + found)

            let r = grid ? Double(rng.below(5)) : rng.uniform(0, 40)
            let within = tree.within(x: x0, y: y0, radius: r)
            #expect(within.sorted() == Self.bruteWithin(points, x0, y0, r))
            var visited: [Int] = []
            tree.forEachWithin(x: x0, y: y0, radius: r) { visited.append($0) }
            #expect(visited == within)

            let k = 1 + rng.below(12)
            let nearest = tree.nearest(to: SIMD2(x0, y0), k: k)
            let distances = nearest.map { Self.sqDist(points[$0], x0, y0) }
            #expect(nearest.count == min(k, points.count))
            #expect(distances == distances.sorted())
            #expect(Set(nearest).count == nearest.count)
            let allDistances = points.map { Self.sqDist($0, x0, y0) }.sorted()
            #expect(distances == Array(allDistances.prefix(k)))
        }
    }

    @Test(arguments: [0, 1, 2, 3, 5, 17, 64, 65, 66, 200, 1000, 3000])
    func randomSizes(n: Int) throws {
        try checkQueries(Self.randomPoints(n, seed: UInt32(n) + 1), nodeSize: 64, seed: 9)
        try checkQueries(Self.randomPoints(n, seed: UInt32(n) + 1, grid: true), nodeSize: 4, seed: 10)
    }

    @Test(arguments: 2...64)
    func everyNodeSize(nodeSize: Int) throws {
        try checkQueries(Self.randomPoints(300, seed: UInt32(nodeSize)), nodeSize: nodeSize, seed: 11)
        try checkQueries(Self.randomPoints(150, seed: UInt32(nodeSize), grid: true), nodeSize: nodeSize, seed: 12)
    }

    @Test func emptyTree() throws {
        let tree = try KDTree<Double>([SIMD2<Double>](), nodeSize: 64)
        #expect(tree.count == 0)
        #expect(tree.range(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity) == [])
        #expect(tree.within(x: 0, y: 0, radius: 1e300) == [])
        #expect(tree.nearest(to: .zero, k: 5) == [])
        #expect(tree.around(longitude: 0, latitude: 0) == [])
        let reread = try KDTree<Double>(data: tree.data)
        #expect(reread.count == 0)
        #expect(tree.data.count == 8)
    }

    @Test func onePoint() throws {
        let tree = try KDTree<Float>([SIMD2(1.5, -2.5)])
        #expect(tree.range(minX: 1.5, minY: -2.5, maxX: 1.5, maxY: -2.5) == [0])
        #expect(tree.range(minX: 1.6, minY: -2.5, maxX: 2, maxY: -2.5) == [])
        #expect(tree.within(x: 1.5, y: -2.5, radius: 0) == [0])
        #expect(tree.within(x: 0, y: 0, radius: 1e308) == [0])
        #expect(tree.nearest(to: SIMD2(100, 100), k: 3) == [0])
        #expect(tree.nearest(to: SIMD2(1.5, -1.5), k: 1, maxDistance: 0.999) == [])
        #expect(tree.nearest(to: SIMD2(1.5, -1.5), k: 1, maxDistance: 1) == [0])
        #expect(tree.nearest(to: SIMD2(1.5, -2.5), filter: { $0 != 0 }) == [])
        #expect(tree.nearest(to: SIMD2(1.5, -2.5), k: 0) == [])
    }

    @Test func identicalPoints() throws {
        let points = [SIMD2<Double>](repeating: SIMD2(3, 4), count: 5000)
        let tree = try KDTree<Double>(points, nodeSize: 8)
        #expect(Self.checkLayout(tree))
        #expect(tree.range(minX: 3, minY: 4, maxX: 3, maxY: 4).sorted() == Array(0..<5000))
        #expect(tree.range(minX: 3.0000001, minY: 4, maxX: 5, maxY: 5) == [])
        #expect(tree.within(x: 3, y: 4, radius: 0).count == 5000)
        #expect(tree.nearest(to: SIMD2(0, 0), k: 10).count == 10)
    }

    /// A million identical points: the build uses an explicit stack, so depth is no risk.
    @Test func millionIdenticalPoints() throws {
        let n = 1_000_000
        let xs = [Double](repeating: 7, count: n)
        let tree = try xs.withUnsafeBufferPointer { x in try KDTree<Float>(x: x, y: x, nodeSize: 64) }
        #expect(tree.count == n)
        var count = 0
        tree.forEachWithin(x: 7, y: 7, radius: 0) { _ in count += 1 }
        #expect(count == n)
    }

    @Test func bufferInitMatchesCollectionInit() throws {
        let points = Self.randomPoints(2000, seed: 77)
        let xs = points.map(\.x), ys = points.map(\.y)
        let a = try KDTree<Double>(points, nodeSize: 16)
        let b = try xs.withUnsafeBufferPointer { x in
            try ys.withUnsafeBufferPointer { y in try KDTree<Double>(x: x, y: y, nodeSize: 16) }
        }
        #expect(a.data == b.data)
    }

    @Test func hugeAndZeroQueries() throws {
        let points = Self.randomPoints(5000, seed: 5)
        let tree = try KDTree<Double>(points)
        #expect(tree.range(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity).count == 5000)
        #expect(tree.within(x: 0, y: 0, radius: .infinity).count == 5000)
        #expect(tree.range(minX: 10, minY: 10, maxX: -10, maxY: -10) == [])
        #expect(tree.within(x: 0, y: 0, radius: -1) == Self.bruteWithin(points, 0, 0, -1))
        let p = points[1234]
        #expect(tree.range(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y) == [1234])
        #expect(tree.within(x: p.x, y: p.y, radius: 0) == [1234])
        #expect(tree.nearest(to: p) == [1234])
        #expect(tree.range(minX: .nan, minY: 0, maxX: 1, maxY: 1) == [])
    }

    @Test func nearestWithFilterAndMaxDistance() throws {
        let points = Self.randomPoints(4000, seed: 21)
        let tree = try KDTree<Double>(points, nodeSize: 16)
        var rng = TestLCG(seed: 3)
        for _ in 0..<50 {
            let q = SIMD2(rng.uniform(-180, 180), rng.uniform(-85, 85))
            let maxDistance = rng.uniform(0, 30)
            let found = tree.nearest(to: q, k: 7, maxDistance: maxDistance, filter: { $0 % 3 == 0 })
            let expected = points.indices
                .filter { $0 % 3 == 0 && Self.sqDist(points[$0], q.x, q.y) <= maxDistance * maxDistance }
                .map { Self.sqDist(points[$0], q.x, q.y) }.sorted().prefix(7)
            #expect(found.map { Self.sqDist(points[$0], q.x, q.y) } == Array(expected))
            #expect(found.allSatisfy { $0 % 3 == 0 })
        }
        #expect(tree.nearest(to: .zero, k: 5, maxDistance: -1) == [])
        #expect(tree.nearest(to: .zero, k: .max).count == 4000)
    }

    /// `nearest(into:)` keeps up to 128 candidates and 18 queued nodes on the stack and moves
    /// either to the heap when a query needs more: k on both sides of 128, and a deep tree (node
    /// size 2) on a grid (ties everywhere), whose queue outgrows its room. The order is brute
    /// force's: distance, then id.
    @Test(arguments: [1, 18, 19, 127, 128, 129, 700])
    func nearestIntoBufferBeyondStackRoom(k: Int) throws {
        let points = Self.randomPoints(2000, seed: 41, grid: true)
        for nodeSize in [2, 64] {
            let tree = try KDTree<Double>(points, nodeSize: nodeSize)
            var rng = TestLCG(seed: 5)
            for _ in 0..<10 {
                let q = SIMD2(rng.uniform(-5, 25), rng.uniform(-5, 25))
                let ranked: [(distance: Double, id: Int)] = points.indices.map { (Self.sqDist(points[$0], q.x, q.y), $0) }
                let sorted = ranked.sorted { a, b in a.distance < b.distance || (a.distance == b.distance && a.id < b.id) }
                let expected: [Int] = sorted.prefix(k).map { $0.id }
                var result = [-7, -8]
                tree.nearest(to: q, k: k, into: &result)
                #expect(result == [-7, -8] + expected, "k \(k), node size \(nodeSize)")
                #expect(tree.nearest(to: q, k: k) == Array(expected))
            }
        }
    }

    @Test func aroundMatchesBruteForce() throws {
        let points = Self.randomPoints(3000, seed: 31)
        let tree = try KDTree<Double>(points, nodeSize: 8)
        var rng = TestLCG(seed: 4)
        for _ in 0..<40 {
            let lng = rng.uniform(-180, 180), lat = rng.uniform(-89, 89)
            let maxDistance = rng.uniform(10, 3000)
            let distance = { (i: Int) in
                greatCircleDistance(longitude1: lng, latitude1: lat, longitude2: points[i].x, latitude2: points[i].y)
            }
            let found = tree.around(longitude: lng, latitude: lat, maxResults: 10, maxDistance: maxDistance, filter: { $0 % 2 == 1 })
            let expected = points.indices.filter { $0 % 2 == 1 && distance($0) <= maxDistance }
                .map(distance).sorted().prefix(10)
            let got = found.map(distance)
            #expect(got.count == expected.count)
            for (a, b) in zip(got, expected) { #expect(abs(a - b) <= 1e-6) }
            #expect(got == got.sorted())
        }
        #expect(tree.around(longitude: 0, latitude: 0).count == 3000)
        #expect(tree.around(longitude: 0, latitude: 0, maxDistance: 30_000).count == 3000)
        #expect(tree.around(longitude: 0, latitude: 0, maxResults: 0) == [])
    }

    /// `around(…, into:)` against brute force ranked by the same haversine key, ids compared
    /// exactly (random coordinates: no ties), at node sizes whose leaves fit the queue's stack
    /// room (2) and overflow it (64: a leaf pushes 65 points), with results far past 128.
    @Test(arguments: [2, 64])
    func aroundIntoMatchesBruteForceBeyondItsRoom(nodeSize: Int) throws {
        let points = Self.randomPoints(20_000, seed: 77)
        let tree = try KDTree<Double>(points, nodeSize: nodeSize)
        var rng = TestLCG(seed: 12)
        var buffer: [Int] = []
        for query in 0..<24 {
            let lng = rng.uniform(-180, 180), lat = rng.uniform(-85, 85)
            let maxResults = [1, 10, 300, Int.max][query % 4]
            let maxDistance = query % 3 == 0 ? Double.infinity : rng.uniform(100, 4000)
            let odd = query % 2 == 1
            let filter: ((Int) -> Bool)? = odd ? { $0 % 2 == 1 } : nil
            let key = { (i: Int) in
                Geodesic.haverSinDistance(Geodesic.haverSin((lng - points[i].x) * Geodesic.radians), lat, points[i].y)
            }
            let limit = maxDistance.isInfinite ? Double.infinity
                : Geodesic.haverSin(maxDistance / Geodesic.earthRadius)
            let expected = points.indices.filter { (!odd || $0 % 2 == 1) && key($0) <= limit }
                .map { (key($0), $0) }.sorted { $0 < $1 }.prefix(maxResults).map(\.1)
            buffer = [-7]
            tree.around(longitude: lng, latitude: lat, maxResults: maxResults, maxDistance: maxDistance,
                        filter: filter, into: &buffer)
            #expect(buffer == [-7] + expected, "query \(query), node size \(nodeSize)")
            #expect(tree.around(longitude: lng, latitude: lat, maxResults: maxResults, maxDistance: maxDistance,
                                filter: filter) == Array(expected))
        }
    }

    @Test(arguments: [10, 500, 70_000])
    func byteRoundTrip(n: Int) throws {
        let points = Self.randomPoints(n, seed: 8)
        for nodeSize in [2, 64] {
            let d = try KDTree<Double>(points, nodeSize: nodeSize)
            let f = try KDTree<Float>(points, nodeSize: nodeSize)
            let d2 = try KDTree<Double>(data: d.data)
            let f2 = try KDTree<Float>(data: f.data[...])
            #expect(d2.data == d.data && d2.nodeSize == nodeSize && d2.count == n)
            #expect(f2.data == f.data)
            #expect(d.data.count == 8 + n * (n < 65_536 ? 2 : 4) + (8 - n * (n < 65_536 ? 2 : 4) % 8) % 8 + 16 * n)
            let q = points[n / 2]
            #expect(d2.within(x: q.x, y: q.y, radius: 3) == d.within(x: q.x, y: q.y, radius: 3))
            #expect(f2.within(x: q.x, y: q.y, radius: 3) == f.within(x: q.x, y: q.y, radius: 3))
        }
    }

    /// Float storage: a query compares against the stored value widened to Double.
    @Test func floatStorageComparesWidenedValues() throws {
        let points = Self.randomPoints(1000, seed: 13)
        let tree = try KDTree<Float>(points, nodeSize: 10)
        let stored = points.map { SIMD2(Double(Float($0.x)), Double(Float($0.y))) }
        let p = stored[17]
        #expect(tree.range(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y).contains(17))
        #expect(tree.within(x: 10, y: 10, radius: 50).sorted() == Self.bruteWithin(stored, 10, 10, 50))
    }
}

/// The library's k-d sort (block scans, explicit stack, two threads) against a plain reference
/// written from kdbush's description: the same layout on data full of duplicates.
@Suite("KDTree layout reference")
struct KDTreeLayoutReferenceTests {
    /// kdbush's sort, written plainly (recursive, scalar scans).
    static func referenceLayout(_ points: [SIMD2<Double>], nodeSize: Int) -> [Int] {
        var ids = Array(points.indices)
        var coords = points.flatMap { [$0.x, $0.y] }
        func swapItems(_ i: Int, _ j: Int) {
            ids.swapAt(i, j)
            coords.swapAt(2 * i, 2 * j)
            coords.swapAt(2 * i + 1, 2 * j + 1)
        }
        func select(_ k: Int, _ left: Int, _ right: Int, _ axis: Int) {
            var left = left, right = right
            while right > left {
                if right - left > 600 {
                    let n = Double(right - left + 1), m = Double(k - left + 1)
                    let z = log(n), s = 0.5 * exp(2 * z / 3)
                    let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (m - n / 2 < 0 ? -1 : 1)
                    select(k, max(left, Int((Double(k) - m * s / n + sd).rounded(.down))),
                        min(right, Int((Double(k) + (n - m) * s / n + sd).rounded(.down))), axis)
                }
                let t = coords[2 * k + axis]
                var i = left, j = right
                swapItems(left, k)
                if coords[2 * right + axis] > t { swapItems(left, right) }
                while i < j {
                    swapItems(i, j)
                    i += 1
                    j -= 1
                    while coords[2 * i + axis] < t { i += 1 }
                    while coords[2 * j + axis] > t { j -= 1 }
                }
                if coords[2 * left + axis] == t { swapItems(left, j) } else { j += 1; swapItems(j, right) }
                if j <= k { left = j + 1 }
                if k <= j { right = j - 1 }
            }
        }
        func sort(_ left: Int, _ right: Int, _ axis: Int) {
            if right - left <= nodeSize { return }
            let m = (left + right) >> 1
            select(m, left, right, axis)
            sort(left, m - 1, 1 - axis)
            sort(m + 1, right, 1 - axis)
        }
        sort(0, points.count - 1, 0)
        return ids
    }

    @Test(arguments: [3, 40, 100_000])
    func sameLayoutAsReference(distinct: Int) throws {
        var rng = TestLCG(seed: UInt32(distinct))
        for n in [700, 5000, 70_000] {
            let points = (0..<n).map { _ in SIMD2(Double(rng.below(distinct)), Double(rng.below(distinct))) }
            for nodeSize in n > 10_000 ? [64] : [2, 16, 64] {
                let tree = try KDTree<Double>(points, nodeSize: nodeSize)
                #expect(tree.ids.map { Int($0) } == Self.referenceLayout(points, nodeSize: nodeSize), "n \(n) nodeSize \(nodeSize)")
            }
        }
    }
}
