import Dispatch

/// The per-level query trees of a `.double` build, sorted on a background thread while the build
/// goes on with the next levels (the trees are only read after the build, never during it). The
/// build's trees hold `Float` coordinates (``LevelTrees``); the class serves either scalar.
///
/// The caller hands over each tree's rows; their coordinates are gathered on the background
/// thread too, through a view of the arrays the build keeps appending to (``RowCoordinates``: the
/// build never moves them or changes a row). Trees are built one after another, in the order
/// they were added, so a tree's index is known when it is added. `finish()` waits for all of them.
///
/// Gathering the coordinates there rather than on the build's thread (callgrind, one cities500
/// build: see PERFORMANCE.md, thirty-eighth session) takes their reads at random places off the
/// build's own path.
///
/// Small trees are handed to the background thread in batches: each hand-off wakes that thread
/// (a system call on the build's thread), which costs more than sorting a few hundred items. Trees
/// wait until the waiting ones hold ``batchItems`` items; those still waiting at `finish()` are
/// sorted on the calling thread, which would otherwise only wait.
///
/// The background sorts step aside while the build runs a pass on both cores: the build closes
/// ``gate`` around those passes (``Parallelism``), and each sort passes it between ranges and
/// before each tree. Otherwise the build's half of such a pass, handed to a worker, shared a core
/// with the sort (three threads on two cores) and the build thread waited for it. `perf sched`,
/// cities500, 21 builds in a probe process: the workers' halves waited 407–441 ms in all for a
/// core without the gate, 60–67 ms with it. Builds alternating in fresh processes, with the gate
/// against without (median ratio of 8–12 pairs): cities500 0.888, uniform 1M 0.905, blobs 1M
/// 0.861 (see PERFORMANCE.md, thirty-ninth session).
final class BackgroundTrees<S: KDTreeScalar>: @unchecked Sendable {
    /// A tree waiting to be handed over: its ids (rows) and leaf size.
    private typealias Job = (ids: ContiguousArray<UInt32>, nodeSize: Int)

    /// From how many waiting items the waiting trees are handed over. Measured in one process,
    /// builds alternating with one hand-off per tree (ratio batched / one each, median of 40
    /// adjacent pairs): places 0.69, earthquakes 0.985, DC hydrants 0.987, Tulsa 0.984, cities500
    /// 0.975, the 1M sets and Tulsa r75 with properties within ±1.5%. Batches of up to 4,096 items
    /// lost on Tulsa (1.018): larger trees left for `finish()` then lengthen the build's own path.
    static var batchItems: Int { 512 }

    // `built` is touched only by blocks on `queue`; `added` and `waiting` only by the owning build
    // thread.
    private let queue = DispatchQueue(label: "SpatialCore.ClusterIndex.trees")
    private let group = DispatchGroup()
    private var built: [KDTree<S>]
    private var added: Int
    private var waiting: [Job] = []
    private var waitingItems = 0
    /// Where the trees' coordinates are read.
    private let rows: RowCoordinates
    /// Closed by the build while it runs a pass on both cores; the background sorts wait at it.
    let gate = PauseGate()

    /// Starts with no tree; the first one added gets index 0. `rows`: the build's row
    /// coordinates. O(1).
    init(rows: RowCoordinates) {
        built = []
        added = 0
        self.rows = rows
    }

    /// Queues a tree over the rows `ids` (each already appended); returns its index in
    /// `finish()`'s result. O(1) here (amortized); O(n log n) on the background thread.
    func add(ids: ContiguousArray<UInt32>, nodeSize: Int) -> Int {
        let index = added
        added += 1
        waiting.append((ids, nodeSize))
        waitingItems += ids.count
        if waitingItems >= Self.batchItems { handOver() }
        return index
    }

    /// Hands the waiting trees to the background thread, in order. O(waiting trees).
    private func handOver() {
        let jobs = waiting
        waiting = []
        waitingItems = 0
        queue.async(group: group) {
            for job in jobs {
                self.gate.pass()
                self.built.append(self.tree(job, passing: self.gate))
            }
        }
    }

    /// The tree of `job`: its rows' coordinates gathered, then sorted (passing `gate` between
    /// ranges, if any). O(n log n).
    private func tree(_ job: Job, passing gate: PauseGate? = nil) -> KDTree<S> {
        KDTree(levelIDs: job.ids, coords: rows.gather(job.ids, as: S.self), nodeSize: job.nodeSize, passing: gate)
    }

    /// How many trees the background thread has built so far (for tests): read on its queue, so
    /// it waits for the batch being sorted. O(1) plus that wait.
    var builtCount: Int { queue.sync { built.count } }

    /// Waits for every tree handed over, sorts those still waiting here, and returns them all in
    /// the order they were added. O(waiting items · log) on this thread.
    func finish() -> [KDTree<S>] {
        group.wait()
        var trees = queue.sync { built }
        for job in waiting { trees.append(tree(job)) }
        waiting = []
        waitingItems = 0
        assert(trees.count == added, "a tree went missing")
        return trees
    }
}
