extension KDTree {
    /// A tree over one clustering level whose ids are chosen by the caller (the index's item
    /// rows) instead of `0 ..< n`: the same kdbush sort, so results come in kdbush order and map
    /// straight to rows without a per-level lookup array. O(n log n).
    /// - Precondition: `coords.count == 2 * ids.count` (asserted in debug; internal callers only).
    init(levelIDs ids: consuming ContiguousArray<UInt32>, coords: consuming ContiguousArray<Scalar>, nodeSize: Int) {
        assert(coords.count == 2 * ids.count)
        var ids = ids
        var coords = coords
        ids.withUnsafeMutableBufferPointer { idBuffer in
            coords.withUnsafeMutableBufferPointer { coordBuffer in
                KDSorter(ids: idBuffer, coords: coordBuffer, nodeSize: nodeSize).sort()
            }
        }
        self.init(orderedIDs: ids, coords: coords, nodeSize: nodeSize)
    }
}
