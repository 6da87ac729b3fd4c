/// A node of a best-first k-d traversal: `left ... right` of the layout, its split `axis` and its
/// bounding box (`nearest` queues these; `around` queues two-word entries and rebuilds the box).
@usableFromInline
internal struct KDQueueEntry {
    @usableFromInline var left: Int
    @usableFromInline var right: Int
    @usableFromInline var axis: Int
    @usableFromInline var minX: Double
    @usableFromInline var minY: Double
    @usableFromInline var maxX: Double
    @usableFromInline var maxY: Double

    @inlinable init(left: Int, right: Int, axis: Int, minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.left = left
        self.right = right
        self.axis = axis
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }
}

extension KDTree {
    /// The ids of the `k` points nearest to `point` (Euclidean), nearest first, at distance
    /// ≤ `maxDistance`, skipping ids for which `filter` returns `false`. Points at equal distance
    /// come in id order, so the result is deterministic.
    ///
    /// Best-first search: a priority queue of k-d nodes keyed by the distance to their bounding
    /// box (a lower bound for their points), and a bounded heap of the k best points; the search
    /// stops when the nearest unvisited node is farther than the k-th best point.
    /// `k <= 0` or a negative or NaN `maxDistance` finds nothing.
    ///
    /// - Complexity: O((k + log n) · nodeSize · log n) typical.
    @inlinable public func nearest(
        to point: SIMD2<Double>, k: Int = 1, maxDistance: Double = .infinity,
        filter: ((Int) -> Bool)? = nil
    ) -> [Int] {
        var result: [Int] = []
        nearest(to: point, k: k, maxDistance: maxDistance, filter: filter, into: &result)
        return result
    }

    /// Appends to `result` (kept as is before them) the ids of the `k` points nearest to `point`,
    /// as ``nearest(to:k:maxDistance:filter:)`` orders them. No allocation beyond `result`'s growth
    /// while the search keeps at most 128 candidates and 18 queued nodes (their room is on the
    /// machine stack, see `StackRoom`; a k = 1 query on a million points stays well within it);
    /// beyond that the candidates or the queue move to the heap for the rest of the query.
    ///
    /// - Complexity: O((k + log n) · nodeSize · log n) typical.
    @inlinable public func nearest(
        to point: SIMD2<Double>, k: Int = 1, maxDistance: Double = .infinity,
        filter: ((Int) -> Bool)? = nil, into result: inout [Int]
    ) {
        let n = ids.count
        guard n > 0, k > 0, maxDistance >= 0 else { return }
        let qx = point.x, qy = point.y
        let maxD2 = maxDistance * maxDistance
        let nodeSize = self.nodeSize
        let bestRoom = Swift.min(k, StackRoom.capacity(of: Int.self))
        let queueRoom = StackRoom.capacity(of: KDQueueEntry.self)
        withUnsafeTemporaryAllocation(of: Double.self, capacity: bestRoom) { bestDistances in
        withUnsafeTemporaryAllocation(of: Int.self, capacity: bestRoom) { bestIDs in
        withUnsafeTemporaryAllocation(of: Double.self, capacity: queueRoom) { queueKeys in
        withUnsafeTemporaryAllocation(of: KDQueueEntry.self, capacity: queueRoom) { queueEntries in
            var best = KNearestHeap(limit: k, distances: bestDistances.baseAddress.unsafelyUnwrapped,
                                    ids: bestIDs.baseAddress.unsafelyUnwrapped, capacity: bestRoom)
            defer { best.release() }
            var queue = PriorityQueue<KDQueueEntry>(keys: queueKeys.baseAddress.unsafelyUnwrapped,
                                                    payloads: queueEntries.baseAddress.unsafelyUnwrapped, capacity: queueRoom)
            defer { queue.release() }
            ids.withUnsafeBufferPointer { ids in
                coords.withUnsafeBufferPointer { coords in
                    @inline(__always) func bound() -> Double { best.isFull ? best.worst : maxD2 }
                    @inline(__always) func consider(_ i: Int) {
                        let dx = coords[2 &* i].indexDouble - qx
                        let dy = coords[2 &* i &+ 1].indexDouble - qy
                        let d2 = dx * dx + dy * dy
                        if d2 > bound() { return }
                        let id = Int(ids[i])
                        if let filter, !filter(id) { return }
                        best.offer(d2, id)
                    }
                    @inline(__always) func pushIfNear(_ child: KDQueueEntry) {
                        let dx = Swift.max(child.minX - qx, 0, qx - child.maxX)
                        let dy = Swift.max(child.minY - qy, 0, qy - child.maxY)
                        let d2 = dx * dx + dy * dy
                        if d2 <= bound() { queue.push(child, key: d2) }
                    }
                    var node = KDQueueEntry(
                        left: 0, right: n - 1, axis: 0,
                        minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
                    while true {
                        let left = node.left, right = node.right
                        if right - left <= nodeSize {
                            var i = left
                            while i <= right {
                                consider(i)
                                i &+= 1
                            }
                        } else {
                            let m = (left + right) >> 1
                            consider(m)
                            let midX = coords[2 &* m].indexDouble
                            let midY = coords[2 &* m &+ 1].indexDouble
                            var lower = node, upper = node
                            lower.right = m - 1
                            upper.left = m + 1
                            lower.axis = 1 - node.axis
                            upper.axis = 1 - node.axis
                            if node.axis == 0 {
                                lower.maxX = midX
                                upper.minX = midX
                            } else {
                                lower.maxY = midY
                                upper.minY = midY
                            }
                            pushIfNear(lower)
                            pushIfNear(upper)
                        }
                        if queue.isEmpty || queue.minKey > bound() { break }
                        node = queue.pop()
                    }
                }
            }
            best.appendSortedIDs(to: &result)
        }
        }
        }
        }
    }
}
