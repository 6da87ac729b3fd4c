import Dispatch

/// The per-level query trees of a `.double` build, sorted on a background thread while the build
/// goes on with the next levels (the trees are only read after the build, never during it).
///
/// The caller gathers each tree's coordinates itself (they are read from arrays the build keeps
/// appending to), then hands the copies over; trees are built one after another, in the order
/// they were added, so a tree's index is known when it is added. `finish()` waits for all of them.
final class BackgroundTrees<S: KDTreeScalar>: @unchecked Sendable {
    // `built` is touched only by blocks on `queue`; `added` only by the owning build thread.
    private let queue = DispatchQueue(label: "SpatialCore.ClusterIndex.trees")
    private let group = DispatchGroup()
    private var built: [KDTree<S>]
    private var added: Int

    /// Starts with no tree; the first one added gets index 0.
    init() {
        built = []
        added = 0
    }

    /// Queues a tree over `ids` with interleaved `coords`; returns its index in `finish()`'s
    /// result. O(1) here; O(n log n) on the background thread.
    func add(ids: ContiguousArray<UInt32>, coords: ContiguousArray<S>, nodeSize: Int) -> Int {
        let index = added
        added += 1
        queue.async(group: group) {
            let tree = KDTree(levelIDs: ids, coords: coords, nodeSize: nodeSize)
            self.built.append(tree)
        }
        return index
    }

    /// Waits for every queued tree and returns them in the order they were added.
    func finish() -> [KDTree<S>] {
        group.wait()
        return queue.sync { built }
    }
}
