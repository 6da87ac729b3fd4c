import Foundation
import Testing
@testable import SpatialCore

/// The R-tree against brute force on seeded random boxes: searches (with filters, border
/// contact, huge and zero-size queries), neighbours (with maxResults, maxDistance, filters), every
/// node size for small inputs, degenerate inputs, the builders' agreement and byte round trips.
@Suite("PackedRTree properties")
struct PackedRTreePropertyTests {
    static func randomBoxes(_ n: Int, seed: UInt32, grid: Bool = false) -> [SIMD4<Double>] {
        var rng = TestLCG(seed: seed)
        return (0..<n).map { _ in
            if grid {
                // Integer boxes on a small grid: many shared edges, corners and duplicates.
                let x = Double(rng.below(20)), y = Double(rng.below(20))
                return SIMD4(x, y, x + Double(rng.below(3)), y + Double(rng.below(3)))
            }
            let x = rng.uniform(0, 99), y = rng.uniform(0, 99)
            return SIMD4(x, y, x + rng.uniform(0, 2), y + rng.uniform(0, 2))
        }
    }

    static func intersects(_ b: SIMD4<Double>, _ q: SIMD4<Double>) -> Bool {
        b.x <= q.z && b.y <= q.w && b.z >= q.x && b.w >= q.y
    }

    static func sqDist(_ b: SIMD4<Double>, _ x: Double, _ y: Double) -> Double {
        PackedRTreeOracleTests.sqDist(b, x, y)
    }

    func check(_ boxes: [SIMD4<Double>], nodeSize: Int, seed: UInt32) throws {
        let tree = try PackedRTree(boxes, nodeSize: nodeSize)
        #expect(tree.count == boxes.count)
        var rng = TestLCG(seed: seed)
        let grid = boxes.allSatisfy { $0.x == $0.x.rounded() }
        for _ in 0..<20 {
            let x = grid ? Double(rng.below(24)) - 2 : rng.uniform(-5, 105)
            let y = grid ? Double(rng.below(24)) - 2 : rng.uniform(-5, 105)
            let w = grid ? Double(rng.below(5)) : rng.uniform(0, 30)
            let h = grid ? Double(rng.below(5)) : rng.uniform(0, 30)
            let q = SIMD4(x, y, x + w, y + h)
            let expected = boxes.indices.filter { Self.intersects(boxes[$0], q) }
            let found = tree.search(minX: q.x, minY: q.y, maxX: q.z, maxY: q.w)
            #expect(found.sorted() == expected)
            #expect(Set(found).count == found.count)
            let filtered = tree.search(minX: q.x, minY: q.y, maxX: q.z, maxY: q.w, filter: { $0 & 1 == 0 })
            #expect(filtered == found.filter { $0 & 1 == 0 })
            var appended = [-7]
            tree.search(minX: q.x, minY: q.y, maxX: q.z, maxY: q.w, into: &appended)
            #expect(appended == [-7] + found)

            let k = 1 + rng.below(15)
            let maxDistance = rng.next53() < 0.5 ? Double.infinity : (grid ? Double(rng.below(4)) : rng.uniform(0, 10))
            let near = tree.neighbors(x: x, y: y, maxResults: k, maxDistance: maxDistance, filter: { $0 % 3 != 1 })
            let candidates = boxes.indices.filter { $0 % 3 != 1 && Self.sqDist(boxes[$0], x, y) <= maxDistance * maxDistance }
            let expectedDistances = candidates.map { Self.sqDist(boxes[$0], x, y) }.sorted().prefix(k)
            #expect(near.map { Self.sqDist(boxes[$0], x, y) } == Array(expectedDistances))
            #expect(Set(near).count == near.count && near.allSatisfy { $0 % 3 != 1 })
        }
    }

    @Test(arguments: [1, 2, 3, 15, 16, 17, 100, 257, 2000])
    func randomSizes(n: Int) throws {
        try check(Self.randomBoxes(n, seed: UInt32(n)), nodeSize: 16, seed: 1)
        try check(Self.randomBoxes(n, seed: UInt32(n), grid: true), nodeSize: 3, seed: 2)
    }

    @Test(arguments: 2...64)
    func everyNodeSize(nodeSize: Int) throws {
        try check(Self.randomBoxes(300, seed: UInt32(nodeSize) &+ 100), nodeSize: nodeSize, seed: 3)
        try check(Self.randomBoxes(120, seed: UInt32(nodeSize) &+ 200, grid: true), nodeSize: nodeSize, seed: 4)
    }

    @Test func emptyTree() throws {
        let tree = try PackedRTree([SIMD4<Double>]())
        #expect(tree.count == 0)
        #expect(tree.search(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity) == [])
        #expect(tree.neighbors(x: 0, y: 0) == [])
        #expect(tree.data.count == 8)
        #expect(try PackedRTree(data: tree.data).count == 0)
        #expect(tree.bounds.x == .infinity)
    }

    @Test func oneBox() throws {
        let tree = try PackedRTree([SIMD4(1, 2, 3, 4)])
        #expect(tree.bounds == SIMD4(1, 2, 3, 4))
        #expect(tree.search(minX: 3, minY: 4, maxX: 10, maxY: 10) == [0])  // touching corner
        #expect(tree.search(minX: 3.0001, minY: 4, maxX: 10, maxY: 10) == [])
        #expect(tree.search(minX: 2, minY: 3, maxX: 2, maxY: 3) == [0])  // zero-size inside
        #expect(tree.neighbors(x: 2, y: 3) == [0])
        #expect(tree.neighbors(x: 6, y: 8, maxDistance: 4.999) == [])
        #expect(tree.neighbors(x: 6, y: 8, maxDistance: 5) == [0])
        #expect(tree.neighbors(x: 2, y: 3, maxResults: 0) == [])
        #expect(tree.box(of: 0) == SIMD4(1, 2, 3, 4))
        #expect(tree.box(of: 1) == nil)
    }

    @Test func identicalBoxes() throws {
        let boxes = [SIMD4<Double>](repeating: SIMD4(5, 5, 5, 5), count: 3000)
        let tree = try PackedRTree(boxes, nodeSize: 4)
        #expect(tree.search(minX: 5, minY: 5, maxX: 5, maxY: 5).sorted() == Array(0..<3000))
        #expect(tree.search(minX: 5.5, minY: 5, maxX: 6, maxY: 6) == [])
        #expect(tree.neighbors(x: 0, y: 0, maxResults: 10).count == 10)
        #expect(try PackedRTree(data: tree.data).data == tree.data)
    }

    @Test func hugeAndZeroQueries() throws {
        let boxes = Self.randomBoxes(5000, seed: 9)
        let tree = try PackedRTree(boxes)
        #expect(tree.search(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity).count == 5000)
        #expect(tree.search(minX: -1e300, minY: -1e300, maxX: 1e300, maxY: 1e300).sorted() == Array(0..<5000))
        #expect(tree.search(minX: 200, minY: 200, maxX: 300, maxY: 300) == [])
        #expect(tree.search(minX: 50, minY: 50, maxX: 40, maxY: 40) == [])
        let b = boxes[777]
        #expect(tree.search(minX: b.z, minY: b.w, maxX: b.z, maxY: b.w).contains(777))
        // Every box, nearest first: the queue outgrows its stack room (1,024 entries) on the way.
        let all = tree.neighbors(x: 50, y: 50)
        #expect(all.count == 5000 && Set(all).count == 5000)
        #expect(all.map { Self.sqDist(boxes[$0], 50, 50) } == boxes.map { Self.sqDist($0, 50, 50) }.sorted())
    }

    @Test func builderForms() throws {
        let boxes = Self.randomBoxes(3000, seed: 12)
        let a = try PackedRTree(boxes, nodeSize: 8)
        let columns = (0..<4).map { c in boxes.map { $0[c] } }
        let b = try columns[0].withUnsafeBufferPointer { x0 in
            try columns[1].withUnsafeBufferPointer { y0 in
                try columns[2].withUnsafeBufferPointer { x1 in
                    try columns[3].withUnsafeBufferPointer { y1 in
                        try PackedRTree(minX: x0, minY: y0, maxX: x1, maxY: y1, nodeSize: 8)
                    }
                }
            }
        }
        #expect(a.data == b.data)
    }

    @Test(arguments: [1, 16, 17, 5000, 20_000])
    func byteRoundTrip(n: Int) throws {
        let boxes = Self.randomBoxes(n, seed: 4)
        for nodeSize in [2, 16, 100] {
            let tree = try PackedRTree(boxes, nodeSize: nodeSize)
            let reread = try PackedRTree(data: tree.data[...])
            #expect(reread.data == tree.data && reread.count == n && reread.nodeSize == nodeSize)
            #expect(reread.search(minX: 10, minY: 10, maxX: 30, maxY: 30) == tree.search(minX: 10, minY: 10, maxX: 30, maxY: 30))
            #expect(reread.neighbors(x: 40, y: 40, maxResults: 5) == tree.neighbors(x: 40, y: 40, maxResults: 5))
        }
    }

    @Test func neighborVisitorStopsEarly() throws {
        let tree = try PackedRTree(Self.randomBoxes(1000, seed: 6))
        var seen: [Int] = []
        tree.forEachNeighbor(x: 50, y: 50) { seen.append($0); return seen.count < 3 }
        #expect(seen == tree.neighbors(x: 50, y: 50, maxResults: 3))
    }

    /// The bounds are the root box, as flatbush writes it. Above one node the root is packed with
    /// `Math.min` / `Math.max`, where −0 is below +0 whichever comes first (boxes scanned in two
    /// halves on two cores included). A tree of one node has for root the bounds `add()`
    /// accumulates with strict `<` / `>`, which keep the first of equal extremes.
    @Test func boundsOfSignedZerosAsFlatbushWritesThem() throws {
        for (first, later) in [(0.0, -0.0), (-0.0, 0.0)] {
            var boxes = [SIMD4<Double>](repeating: SIMD4(5, 5, 6, 6), count: 100_000)
            boxes[3] = SIMD4(first, first, 1, 1)
            boxes[90_000] = SIMD4(later, later, 1, 1)
            let bounds = try PackedRTree(boxes).bounds
            #expect(bounds.x.bitPattern == (-0.0).bitPattern)
            #expect(bounds.y.bitPattern == (-0.0).bitPattern)
            #expect(bounds.z == 6 && bounds.w == 6)
            let one = try PackedRTree([SIMD4(first, first, 1, 1), SIMD4(later, later, 1, 1)]).bounds
            #expect(one.x.bitPattern == first.bitPattern && one.y.bitPattern == first.bitPattern)
        }
    }

    @Test func hilbertIsAContinuousCurve() {
        // An aligned 256 × 256 block is one contiguous stretch of the curve, and consecutive
        // values are edge-adjacent cells: the defining properties of a Hilbert curve.
        var cells: [(value: UInt32, x: Int, y: Int)] = []
        for x in 0..<256 {
            for y in 0..<256 { cells.append((Hilbert.value(Int32(x), Int32(y)), x, y)) }
        }
        cells.sort { $0.value < $1.value }
        #expect(cells.last!.value - cells.first!.value == 65_535)
        var adjacent = true
        for i in 1..<cells.count where abs(cells[i].x - cells[i - 1].x) + abs(cells[i].y - cells[i - 1].y) != 1 {
            adjacent = false
        }
        #expect(adjacent)
        #expect(Hilbert.toInt32(.nan) == 0 && Hilbert.toInt32(.infinity) == 0 && Hilbert.toInt32(-3.9) == -3)
        #expect(Hilbert.toInt32(4_294_967_296 + 5.5) == 5)
    }

    /// Parent boxes take `Math.min` / `Math.max` of their children as flatbush does, where −0 is
    /// below +0 whichever comes first (`Swift.min` would keep the first). Two boxes at the origin,
    /// one written −0 and one +0, share a node (nodeSize 2, the other two far away): its box is
    /// (−0, −0, +0, +0) in either order.
    @Test("parent boxes order −0 below +0 as JavaScript's Math.min and Math.max")
    func signedZerosInParents() throws {
        for zeroFirst in [SIMD4<Double>(-0.0, -0.0, -0.0, -0.0), SIMD4<Double>(0, 0, 0, 0)] {
            let other = zeroFirst.x.sign == .minus ? SIMD4<Double>(0, 0, 0, 0) : SIMD4<Double>(-0.0, -0.0, -0.0, -0.0)
            let tree = try PackedRTree([zeroFirst, other, SIMD4(5, 5, 5, 5), SIMD4(5, 5.1, 5, 5.1)], nodeSize: 2)
            let bytes = tree.data
            func box(_ k: Int) -> [Double] {
                (0..<4).map { c in
                    Double(bitPattern: (0..<8).reduce(UInt64(0)) { v, b in v | UInt64(bytes[8 + 32 * k + 8 * c + b]) << (8 * b) })
                }
            }
            // Boxes 0–3 are the items, 4 and 5 their parents, 6 the root.
            let parents = [box(4), box(5)]
            let atOrigin = try #require(parents.first { $0[2] == 0 })
            #expect(atOrigin.map { $0.sign } == [.minus, .minus, .plus, .plus], "\(zeroFirst)")
            #expect(box(6)[0].sign == .minus && box(6)[1].sign == .minus)
        }
    }
}

@Suite("HilbertSorter partition")
struct HilbertSorterPartitionTests {
    /// Partitions `values` around the value at `pivotIndex` with Hoare's loop and with
    /// `partition` (given the sorter over a copy, `below` and `above`), and expects the same
    /// final `j` and the same order.
    static func expectHoareSwaps(
        _ values: [UInt64], pivotIndex: Int, _ partition: (HilbertSorter, UInt64, UInt64) -> Int
    ) {
        let n = values.count
        var a = values, b = values
        let pivotValue = values[pivotIndex] >> 32
        let below = pivotValue << 32
        let above = (pivotValue + 1) << 32
        let ja = a.withUnsafeMutableBufferPointer { keys in
            HilbertSorter(keys: keys, nodeSize: 16).hoarePartition(left: 0, right: n - 1, below: below, above: above)
        }
        let jb = b.withUnsafeMutableBufferPointer { keys in partition(HilbertSorter(keys: keys, nodeSize: 16), below, above) }
        #expect(ja == jb, "n \(n)")
        #expect(a == b, "n \(n)")
    }

    @Test(arguments: [1, 2, 3, 50])
    func maskPartitionEqualsHoare(distinct: Int) {
        var rng = TestLCG(seed: UInt32(100 + distinct))
        for trial in 0..<2_000 {
            // Every length from 1 to 64, the pivot one of the range's values (as the sort picks it).
            let n = 1 + trial % 64
            let values = (0..<n).map { i in UInt64(rng.below(distinct)) << 32 | UInt64(i) }
            Self.expectHoareSwaps(values, pivotIndex: rng.below(n)) { sorter, below, above in
                sorter.maskPartition(left: 0, right: n - 1, below: below, above: above)
            }
        }
    }

    @Test(arguments: [2, 3, 50, 1000])
    func blockPartitionEqualsHoare(distinct: Int) {
        var rng = TestLCG(seed: UInt32(distinct))
        for trial in 0..<200 {
            let n = 2 + rng.below(trial < 100 ? 300 : 3000)
            let values = (0..<n).map { i in UInt64(rng.below(distinct)) << 32 | UInt64(i) }
            Self.expectHoareSwaps(values, pivotIndex: rng.below(n)) { sorter, below, above in
                sorter.withScratch { sorter.blockPartition(left: 0, right: n - 1, below: below, above: above, scratch: $0) }
            }
        }
    }
}
