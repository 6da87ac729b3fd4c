extension KDTree {
    /// A tree over one clustering level whose ids are chosen by the caller (the index's item
    /// rows) instead of `0 ..< n`: the same kdbush sort, so results come in kdbush order and map
    /// straight to rows without a per-level lookup array. O(n log n).
    ///
    /// `passing`: a background sort's gate (see ``PauseGate``): the sort then runs on the calling
    /// thread alone and waits at the gate between ranges while it is closed; the layout is the
    /// same.
    /// - Precondition: `coords.count == 2 * ids.count` (asserted in debug; internal callers only).
    init(levelIDs ids: consuming ContiguousArray<UInt32>, coords: consuming ContiguousArray<Scalar>, nodeSize: Int,
         passing gate: PauseGate? = nil) {
        assert(coords.count == 2 * ids.count)
        var ids = ids
        var coords = coords
        ids.withUnsafeMutableBufferPointer { idBuffer in
            coords.withUnsafeMutableBufferPointer { coordBuffer in
                let sorter = KDSorter(ids: idBuffer, coords: coordBuffer, nodeSize: nodeSize)
                if let gate { sorter.sort(passing: gate) } else { sorter.sort() }
            }
        }
        self.init(orderedIDs: ids, coords: coords, nodeSize: nodeSize)
    }
}

extension KDTree {
    /// Writes into `rank[id]` each item's place in the order a radius search of the C++ kdbush
    /// (`kdbush.hpp`, the tree of MapLibre Native's supercluster port) reports items: a node's
    /// middle item, then its lower half, then its upper half; a leaf's items in layout order. A
    /// search reports a subset of the items in this order, whatever the query, so sorting any
    /// search's results by rank gives the port's order. (kdbush 4 in JavaScript, which
    /// ``forEachWithin(x:y:radius:_:)`` follows, visits the upper half first.)
    /// - Precondition: every id is below `rank.count`.
    /// - Complexity: O(n).
    func writeNativeSearchRanks(into rank: UnsafeMutableBufferPointer<Int32>) {
        ids.withUnsafeBufferPointer { ids in
            guard !ids.isEmpty else { return }
            var next: Int32 = 0
            // Ranges still to visit, the next on top: the lower half is pushed last.
            var stack: [(Int, Int)] = [(0, ids.count - 1)]
            while let (left, right) = stack.popLast() {
                if right < left { continue }
                if right - left <= nodeSize {
                    for i in left ... right {
                        rank[Int(ids[i])] = next
                        next &+= 1
                    }
                    continue
                }
                let m = (left + right) >> 1
                rank[Int(ids[m])] = next
                next &+= 1
                stack.append((m + 1, right))
                stack.append((left, m - 1))
            }
        }
    }
}
