import Testing
@testable import SpatialCore

/// The two-core build of large R-trees (at least `ParallelPair.threshold` boxes) against a
/// one-core reference written from flatbush's definition: the sort split into pieces sorts as the
/// single stack does, and the leaves gathered together with their parents give the layout of a
/// plain pack.
@Suite("PackedRTree build path")
struct PackedRTreeBuildPathTests {
    /// The tree's boxes and indices built the plain way: Hilbert keys, the sequential partial
    /// quicksort, the leaves in that order, then every level packed from the one below.
    static func referenceLayout(_ boxes: [SIMD4<Double>], nodeSize: Int) -> (boxes: [Double], indices: [UInt32]) {
        let n = boxes.count
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for b in boxes {
            if b.x < minX { minX = b.x }
            if b.y < minY { minY = b.y }
            if b.z > maxX { maxX = b.z }
            if b.w > maxY { maxY = b.w }
        }
        let sx = 65535 / (maxX - minX), sy = 65535 / (maxY - minY)
        var keys = boxes.indices.map { i -> UInt64 in
            let b = boxes[i]
            let h = Hilbert.value(Hilbert.toInt32(sx * ((b.x + b.z) / 2 - minX)), Hilbert.toInt32(sy * ((b.y + b.w) / 2 - minY)))
            return UInt64(h) << 32 | UInt64(i)
        }
        keys.withUnsafeMutableBufferPointer { HilbertSorter(keys: $0, nodeSize: nodeSize).sortRange(left: 0, right: n - 1) }
        var outBoxes: [Double] = []
        var outIndices: [UInt32] = []
        for k in keys {
            let b = boxes[Int(k & 0xFFFF_FFFF)]
            outBoxes += [b.x, b.y, b.z, b.w]
            outIndices.append(UInt32(k & 0xFFFF_FFFF))
        }
        // Each level: one parent per run of nodeSize nodes, its union and its first child's offset.
        var levelStart = 0, levelCount = n
        while levelCount > 1 {
            var parents = 0
            var first = 0
            while first < levelCount {
                let p = 4 * (levelStart + first)
                var lo = SIMD2(outBoxes[p], outBoxes[p + 1]), hi = SIMD2(outBoxes[p + 2], outBoxes[p + 3])
                for c in first + 1 ..< min(first + nodeSize, levelCount) {
                    let q = 4 * (levelStart + c)
                    lo = SIMD2(min(lo.x, outBoxes[q]), min(lo.y, outBoxes[q + 1]))
                    hi = SIMD2(max(hi.x, outBoxes[q + 2]), max(hi.y, outBoxes[q + 3]))
                }
                outBoxes += [lo.x, lo.y, hi.x, hi.y]
                outIndices.append(UInt32(p))
                parents += 1
                first += nodeSize
            }
            levelStart += levelCount
            levelCount = parents
        }
        return (outBoxes, outIndices)
    }

    /// The first position where `a` and `b` differ (the shorter length if one is a prefix), or
    /// nil when they are equal: a failure names a place instead of printing both arrays.
    static func firstDifference<T: Equatable>(_ a: [T], _ b: [T]) -> Int? {
        if let i = (0 ..< min(a.count, b.count)).first(where: { a[$0] != b[$0] }) { return i }
        return a.count == b.count ? nil : min(a.count, b.count)
    }

    @Test("the sort split into pieces on both cores equals the sequential sort",
          arguments: [2, 7, 1_000, 1 << 30])
    func piecesEqualOneStack(distinct: Int) {
        var rng = TestLCG(seed: UInt32(distinct % 65_521))
        let n = ParallelPair.threshold * 3 + 17
        let keys = (0 ..< n).map { i in UInt64(rng.below(distinct)) << 32 | UInt64(i) }
        for nodeSize in [4, 16] {
            var split = keys, single = keys
            split.withUnsafeMutableBufferPointer { HilbertSorter(keys: $0, nodeSize: nodeSize).sort() }
            single.withUnsafeMutableBufferPointer { HilbertSorter(keys: $0, nodeSize: nodeSize).sortRange(left: 0, right: n - 1) }
            #expect(Self.firstDifference(split, single) == nil, "nodeSize \(nodeSize)")
        }
    }

    @Test("a large tree has the layout of a plain sort and pack", arguments: [4, 16, 33])
    func largeTreeMatchesPlainPack(nodeSize: Int) throws {
        let n = ParallelPair.threshold + 4_321
        // Many duplicates and grid ties (equal Hilbert values, equal extremes), then random boxes.
        for grid in [true, false] {
            let boxes = PackedRTreePropertyTests.randomBoxes(n, seed: UInt32(nodeSize), grid: grid)
            let tree = try PackedRTree(boxes, nodeSize: nodeSize)
            let reference = Self.referenceLayout(boxes, nodeSize: nodeSize)
            #expect(Self.firstDifference(Array(tree.boxes), reference.boxes) == nil, "grid \(grid)")
            #expect(Self.firstDifference(Array(tree.indices), reference.indices) == nil, "grid \(grid)")
        }
    }
}
