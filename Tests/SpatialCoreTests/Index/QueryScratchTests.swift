import Testing
@testable import SpatialCore

/// The query loops' temporary buffers stay on the machine stack: each loop's room fits
/// ``StackRoom`` (whose premise `StackRoomTests` checks) for the trees these indexes can hold, and
/// the deepest traversals stay inside their stacks (the buffers are bounds-checked in debug
/// builds) while giving brute force's answers.
@Suite("Query scratch on the stack")
struct QueryScratchTests {
    @Test("every query loop's room fits StackRoom for the largest trees")
    func roomsFit() throws {
        let ints = StackRoom.capacity(of: Int.self)
        // k-d traversal: the triple stack, and the leaf scratch at kdbush's default node size.
        #expect(KDTree<Double>.traversalStackCapacity <= ints)
        #expect(64 + 1 <= ints)
        // R-tree search at flatbush's default node size, up to the largest tree (2^29 boxes).
        for n in [1, 16, 17, 1_000, 1_000_000, 1 << 24, 1 << 29] {
            let levels = try RTreeLayout(count: n, nodeSize: 16).levelBounds.count
            #expect(PackedRTree.searchStackCapacity(levels: levels, nodeSize: 16) <= ints, "n \(n)")
            #expect(PackedRTree.neighborQueueRoom(count: n, nodeSize: 16, levels: levels) <= ints, "n \(n)")
        }
    }

    /// Boxes that all cross the line x = 50, so that a query along it meets every node without
    /// containing any: the search visits the whole tree, its stack at its deepest.
    static func crossingBoxes(_ n: Int, seed: UInt32) -> [SIMD4<Double>] {
        var rng = TestLCG(seed: seed)
        return (0..<n).map { _ in
            let y = rng.uniform(0, 1000)
            return SIMD4(50 - rng.uniform(0.5, 5), y, 50 + rng.uniform(0.5, 5), y + rng.uniform(0, 3))
        }
    }

    /// Node sizes with a box count that fills every node, so that the first path down is full at
    /// every level and the stack reaches ``PackedRTree/searchStackCapacity(levels:nodeSize:)``
    /// exactly (one entry less and the debug build's bounds check stops the search).
    static let fullTrees: [(nodeSize: Int, count: Int)] = [(2, 1 << 14), (3, 19_683), (4, 1 << 14), (16, 1 << 16), (5, 3_000)]

    @Test("the R-tree search with every node partly inside finds every box", arguments: fullTrees)
    func rtreeDeepestSearch(nodeSize: Int, count: Int) throws {
        let boxes = Self.crossingBoxes(count, seed: 7)
        let tree = try PackedRTree(boxes, nodeSize: nodeSize)
        let found = tree.search(minX: 50, minY: -1, maxX: 50, maxY: 2000).sorted()
        #expect(found == Array(0..<boxes.count))
        // A band in the middle: partly inside nodes on two sides, brute force's answer.
        let band = tree.search(minX: 49, minY: 300, maxX: 51, maxY: 700).sorted()
        let expected = boxes.indices.filter { boxes[$0].x <= 51 && boxes[$0].y <= 700 && boxes[$0].z >= 49 && boxes[$0].w >= 300 }
        #expect(band == expected)
    }

    @Test("the k-d traversal over the whole of a deep tree finds every point", arguments: [2, 3, 64])
    func kdDeepestTraversal(nodeSize: Int) throws {
        var rng = TestLCG(seed: 11)
        let points = (0..<100_000).map { _ in SIMD2(rng.uniform(-180, 180), rng.uniform(-85, 85)) }
        let tree = try KDTree<Double>(points, nodeSize: nodeSize)
        #expect(tree.range(minX: -180, minY: -85, maxX: 180, maxY: 85).sorted() == Array(0..<points.count))
        #expect(tree.within(x: 0, y: 0, radius: 1_000).sorted() == Array(0..<points.count))
    }
}
