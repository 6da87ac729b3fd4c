import Testing
@testable import SpatialCore

/// The `.double` build's query trees, sorted in the background with small ones handed over in
/// batches: every tree comes back, in the order it was added, sorted as if built on the spot.
@Suite("Clustering: background trees")
struct BackgroundTreesTests {
    /// Seeded ids and interleaved unit-Mercator coordinates of `n` items.
    static func job(_ n: Int, rng: inout TestLCG) -> (ids: ContiguousArray<UInt32>, coords: ContiguousArray<Double>) {
        var ids = ContiguousArray<UInt32>(), coords = ContiguousArray<Double>()
        for _ in 0 ..< n {
            ids.append(UInt32(rng.below(1 << 20)))
            coords.append(rng.next53())
            coords.append(rng.next53())
        }
        return (ids, coords)
    }

    @Test("trees of every size come back in order, each as built directly",
          arguments: [[0, 1, 3], [5_000, 2, 40, 700, 1, 300, 300], [BackgroundTrees<Double>.batchItems - 1, 1, 2_000, 7]])
    func inOrder(sizes: [Int]) {
        var rng = TestLCG(seed: UInt32(sizes.count * 31 + sizes.reduce(0, +)))
        let jobs = sizes.map { Self.job($0, rng: &rng) }
        let background = BackgroundTrees<Double>()
        for (k, job) in jobs.enumerated() {
            #expect(background.add(ids: job.ids, coords: job.coords, nodeSize: 16) == k)
        }
        let trees = background.finish()
        #expect(trees.count == jobs.count)
        for (tree, job) in zip(trees, jobs) {
            let direct = KDTree<Double>(levelIDs: job.ids, coords: job.coords, nodeSize: 16)
            #expect(tree.ids == direct.ids)
            #expect(tree.coords == direct.coords)
        }
    }
}
