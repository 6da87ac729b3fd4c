extension PackedRTree {
    /// The room the neighbour queue starts with, in entries: enough for the usual queries, and
    /// never more than `StackRoom` keeps on the machine stack (128 entries of keys and of
    /// entries, in two allocations). A queue that outgrows it moves to the heap. O(1).
    internal static func neighborQueueRoom(count: Int, nodeSize: Int, levels: Int) -> Int {
        Swift.max(16, Swift.min(count, 4 &* nodeSize &* levels &+ 64, StackRoom.capacity(of: Int.self)))
    }

    /// Calls `body` with the ids of the boxes nearest to `(x, y)` in order of box distance (0 for
    /// a point inside a box), at most `maxResults` of them, within `maxDistance`, skipping ids for
    /// which `filter` returns `false`; stops early when `body` returns `false`.
    ///
    /// Best-first traversal with a binary heap holding nodes and items, as flatbush 4, except that
    /// at equal distance items leave the queue before nodes. Boxes at equal distance come in an
    /// unspecified order.
    ///
    /// - Complexity: O((k + log n) · nodeSize · log n) typical.
    public func forEachNeighbor(
        x: Double, y: Double, maxResults: Int = .max, maxDistance: Double = .infinity,
        filter: ((Int) -> Bool)? = nil, _ body: (Int) -> Bool
    ) {
        guard count > 0, maxResults > 0, maxDistance >= 0 else { return }
        let nodeSize4 = nodeSize * 4
        let numItems4 = count * 4
        let maxDistSquared = maxDistance * maxDistance
        // With one result wanted, nothing farther than the nearest item queued so far can matter.
        let single = maxResults == 1
        var cut = maxDistSquared
        var found = 0
        let point = SIMD2(x, y)
        // The queue starts on the stack (a local, so its fields stay in registers).
        let queueRoom = Self.neighborQueueRoom(count: count, nodeSize: nodeSize, levels: levelBounds.count)
        withUnsafeTemporaryAllocation(of: Double.self, capacity: queueRoom) { keyRoom in
        withUnsafeTemporaryAllocation(of: Int.self, capacity: queueRoom) { entryRoom in
            var queue = NeighborQueue(keys: keyRoom.baseAddress.unsafelyUnwrapped,
                                      entries: entryRoom.baseAddress.unsafelyUnwrapped, capacity: queueRoom)
            defer { queue.release() }
            boxes.withUnsafeBufferPointer { boxes in
                indices.withUnsafeBufferPointer { indices in
                  levelBounds.withUnsafeBufferPointer { levelBounds in
                    var nodeIndex = boxes.count - 4
                    outer: while true {
                        // The end of this node's children, capped at the end of their level.
                        var level = 0
                        while levelBounds[level] <= nodeIndex { level += 1 }
                        let levelEnd = levelBounds[level]
                        let end = Swift.min(nodeIndex + nodeSize4, levelEnd)
                        let isLeafLevel = nodeIndex < numItems4
                        var pos = nodeIndex
                        while pos < end {
                            let index = Int(indices[pos >> 2])
                            let low = SIMD2(boxes[pos], boxes[pos &+ 1]), high = SIMD2(boxes[pos &+ 2], boxes[pos &+ 3])
                            // Per axis: low − q below the box, q − high above it, else 0 (branch-free;
                            // the same values as the comparisons written out).
                            var d = SIMD2<Double>(repeating: 0)
                            d.replace(with: point - high, where: point .> high)
                            d.replace(with: low - point, where: point .< low)
                            let d2 = d * d
                            let dist = d2.x + d2.y
                            pos &+= 4
                            if dist > cut { continue }
                            if !isLeafLevel {
                                queue.push(index << 1, key: dist)
                            } else if filter == nil || filter!(index) {
                                queue.push((index << 1) | 1, key: dist)
                                if single { cut = dist }
                            }
                        }
                        while !queue.isEmpty && queue.minEntry & 1 == 1 {
                            if queue.minKey > maxDistSquared { break outer }
                            found += 1
                            if !body(queue.pop() >> 1) { break outer }
                            if found == maxResults { break outer }
                        }
                        if queue.isEmpty { break }
                        nodeIndex = queue.pop() >> 1
                    }
                  }
                }
            }
        }
        }
    }

    /// The ids of the boxes nearest to `(x, y)` in order of box distance, at most `maxResults`,
    /// within `maxDistance`, skipping ids for which `filter` returns `false`.
    ///
    /// - Complexity: O((k + log n) · nodeSize · log n) typical.
    public func neighbors(
        x: Double, y: Double, maxResults: Int = .max, maxDistance: Double = .infinity,
        filter: ((Int) -> Bool)? = nil
    ) -> [Int] {
        var result: [Int] = []
        neighbors(x: x, y: y, maxResults: maxResults, maxDistance: maxDistance, filter: filter, into: &result)
        return result
    }

    /// Appends to `result` the ids of the boxes nearest to `(x, y)`, as
    /// ``neighbors(x:y:maxResults:maxDistance:filter:)`` returns them.
    ///
    /// - Complexity: O((k + log n) · nodeSize · log n) typical.
    public func neighbors(
        x: Double, y: Double, maxResults: Int = .max, maxDistance: Double = .infinity,
        filter: ((Int) -> Bool)? = nil, into result: inout [Int]
    ) {
        forEachNeighbor(x: x, y: y, maxResults: maxResults, maxDistance: maxDistance, filter: filter) {
            result.append($0)
            return true
        }
    }
}
