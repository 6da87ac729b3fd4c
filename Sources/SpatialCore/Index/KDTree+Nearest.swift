/// A queued entry of a best-first k-d traversal: a point (`left < 0`, id `-1 - left`) or a node
/// (`left ... right` of the layout, split `axis`, bounding box).
@usableFromInline
internal struct KDQueueEntry {
    var left: Int
    var right: Int
    var axis: Int
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double
}

extension KDTree {
    /// The ids of the `k` points nearest to `point` (Euclidean), nearest first, at distance
    /// ≤ `maxDistance`, skipping ids for which `filter` returns `false`. Points at equal distance
    /// come in an unspecified order.
    ///
    /// Best-first search: a priority queue holds both points and k-d nodes, keyed by the distance
    /// (a node's key is the distance to its bounding box, a lower bound for its points).
    /// `k <= 0` or a negative or NaN `maxDistance` finds nothing.
    ///
    /// - Complexity: O((k + log n) · nodeSize · log n) typical.
    public func nearest(
        to point: SIMD2<Double>, k: Int = 1, maxDistance: Double = .infinity,
        filter: ((Int) -> Bool)? = nil
    ) -> [Int] {
        var result: [Int] = []
        let n = ids.count
        guard n > 0, k > 0, maxDistance >= 0 else { return result }
        let qx = point.x, qy = point.y
        let maxD2 = maxDistance * maxDistance
        var queue = PriorityQueue<KDQueueEntry>()
        var node: KDQueueEntry? = KDQueueEntry(
            left: 0, right: n - 1, axis: 0,
            minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
        ids.withUnsafeBufferPointer { ids in
            coords.withUnsafeBufferPointer { coords in
                @inline(__always) func pushPoint(_ i: Int) {
                    let id = Int(ids[i])
                    if let filter, !filter(id) { return }
                    let dx = coords[2 * i].indexDouble - qx
                    let dy = coords[2 * i + 1].indexDouble - qy
                    let d2 = dx * dx + dy * dy
                    if d2 <= maxD2 {
                        queue.push(KDQueueEntry(left: -1 - id, right: 0, axis: 0, minX: 0, minY: 0, maxX: 0, maxY: 0), key: d2)
                    }
                }
                @inline(__always) func pushNode(_ entry: KDQueueEntry) {
                    let dx = Swift.max(entry.minX - qx, 0, qx - entry.maxX)
                    let dy = Swift.max(entry.minY - qy, 0, qy - entry.maxY)
                    let d2 = dx * dx + dy * dy
                    if d2 <= maxD2 { queue.push(entry, key: d2) }
                }
                while let current = node {
                    let left = current.left, right = current.right
                    if right - left <= nodeSize {
                        var i = left
                        while i <= right { pushPoint(i); i += 1 }
                    } else {
                        let m = (left + right) >> 1
                        pushPoint(m)
                        let midX = coords[2 * m].indexDouble
                        let midY = coords[2 * m + 1].indexDouble
                        var lower = current, upper = current
                        lower.left = left; lower.right = m - 1; lower.axis = 1 - current.axis
                        upper.left = m + 1; upper.right = right; upper.axis = 1 - current.axis
                        if current.axis == 0 { lower.maxX = midX; upper.minX = midX } else { lower.maxY = midY; upper.minY = midY }
                        pushNode(lower)
                        pushNode(upper)
                    }
                    node = nil
                    while !queue.isEmpty {
                        if queue.minPayload.left < 0 {
                            result.append(-1 - queue.pop().left)
                            if result.count == k { return }
                        } else {
                            node = queue.pop()
                            break
                        }
                    }
                }
            }
        }
        return result
    }
}
