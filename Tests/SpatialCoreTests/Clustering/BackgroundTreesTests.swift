import Dispatch
import Testing
@testable import SpatialCore

/// The `.double` build's query trees, gathered and sorted in the background with small ones
/// handed over in batches: every tree comes back, in the order it was added, sorted as if built
/// on the spot from its rows' coordinates.
@Suite("Clustering: background trees")
struct BackgroundTreesTests {
    /// Seeded unit-Mercator coordinates of `n` rows, with room reserved for twice as many.
    static func rows(_ n: Int, rng: inout TestLCG) -> (x: ContiguousArray<Double>, y: ContiguousArray<Double>) {
        var x = ContiguousArray<Double>(), y = ContiguousArray<Double>()
        x.reserveCapacity(2 * n)
        y.reserveCapacity(2 * n)
        for _ in 0 ..< n {
            x.append(rng.next53())
            y.append(rng.next53())
        }
        return (x, y)
    }

    /// `n` seeded row ids below `rows`.
    static func job(_ n: Int, rows: Int, rng: inout TestLCG) -> ContiguousArray<UInt32> {
        ContiguousArray((0 ..< n).map { _ in UInt32(rng.below(rows)) })
    }

    /// Checks that `trees` are the trees of `jobs`, in order, each laid out as sorted directly
    /// from its rows' coordinates rounded to `Float`, as the build's trees keep them.
    static func expectBuiltDirectly(_ trees: [KDTree<Float>], jobs: [ContiguousArray<UInt32>],
                                    x: ContiguousArray<Double>, y: ContiguousArray<Double>) {
        #expect(trees.count == jobs.count)
        for (tree, ids) in zip(trees, jobs) {
            let coords = ContiguousArray(ids.flatMap { [Float(x[Int($0)]), Float(y[Int($0)])] })
            let direct = KDTree<Float>(levelIDs: ids, coords: coords, nodeSize: 16)
            #expect(tree.ids == direct.ids)
            #expect(tree.coords == direct.coords)
        }
    }

    @Test("trees of every size come back in order, each as built directly",
          arguments: [[0, 1, 3], [5_000, 2, 40, 700, 1, 300, 300], [BackgroundTrees<Float>.batchItems - 1, 1, 2_000, 7]])
    func inOrder(sizes: [Int]) {
        var rng = TestLCG(seed: UInt32(sizes.count * 31 + sizes.reduce(0, +)))
        let rowCount = 1 << 14
        var (x, y) = Self.rows(rowCount, rng: &rng)
        let background = BackgroundTrees<Float>(rows: RowCoordinates(x: x, y: y))
        var jobs: [ContiguousArray<UInt32>] = []
        for (k, size) in sizes.enumerated() {
            let ids = Self.job(size, rows: x.count, rng: &rng)
            jobs.append(ids)
            #expect(background.add(ids: ids, nodeSize: 16) == k)
            // The build goes on appending rows (within the room reserved) while trees are sorted.
            x.append(rng.next53())
            y.append(rng.next53())
        }
        Self.expectBuiltDirectly(background.finish(), jobs: jobs, x: x, y: y)
    }

    @Test("trees handed over while the build holds the gate closed are sorted once it opens, as built directly")
    func gateClosedDuringAdds() {
        var rng = TestLCG(seed: 2_024)
        let (x, y) = Self.rows(1 << 14, rng: &rng)
        let background = BackgroundTrees<Float>(rows: RowCoordinates(x: x, y: y))
        // Each job is handed over on its own (more than a batch's items), and small enough to be
        // sorted well within the wait below were the gate not kept.
        let jobs = [600, 700].map { Self.job($0, rows: x.count, rng: &rng) }
        background.gate.close()
        for ids in jobs { _ = background.add(ids: ids, nodeSize: 16) }
        // The count of trees built is read on the trees' queue: it comes back only once the
        // handed-over trees are sorted, which they must not be while the gate is closed.
        let counted = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = background.builtCount
            counted.signal()
        }
        let early = counted.wait(timeout: .now() + 0.2) == .success
        #expect(!early, "trees were sorted while the gate was closed")
        // The build opens the gate when its two-core pass ends, before it waits for the trees.
        background.gate.open()
        if !early { #expect(counted.wait(timeout: .now() + 60) == .success, "the trees were not sorted after the gate opened") }
        Self.expectBuiltDirectly(background.finish(), jobs: jobs, x: x, y: y)
    }

    @Test("a view gathers rows' coordinates rounded to the tree's scalar, and knows its arrays")
    func rowView() {
        var rng = TestLCG(seed: 41)
        var (x, y) = Self.rows(1_000, rng: &rng)
        let view = RowCoordinates(x: x, y: y)
        let ids = Self.job(500, rows: 1_000, rng: &rng)
        #expect(view.gather(ids, as: Float.self) == ContiguousArray(ids.flatMap { [Float(x[Int($0)]), Float(y[Int($0)])] }))
        #expect(view.gather(ids, as: Double.self) == ContiguousArray(ids.flatMap { [x[Int($0)], y[Int($0)]] }))
        #expect(view.gather(ContiguousArray<UInt32>(), as: Double.self).isEmpty)
        #expect(view.isView(of: x, y))
        // Appending within the room keeps the storage; a copy (another owner) does not.
        x.append(0.5)
        y.append(0.5)
        #expect(view.isView(of: x, y))
        let copy = x
        x.append(0.25)
        #expect(!view.isView(of: x, y))
        #expect(view.isView(of: copy, y))
    }
}
