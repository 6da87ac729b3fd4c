/// The k best candidates of a nearest-neighbour search: a bounded max-heap on
/// `(squared distance, id)`, so that ties in distance resolve to the smaller id and results are
/// deterministic. Manually managed storage; the owner calls ``release()`` once.
@usableFromInline
internal struct KNearestHeap {
    @usableFromInline var distances: UnsafeMutablePointer<Double>
    @usableFromInline var ids: UnsafeMutablePointer<Int>
    @usableFromInline var count: Int = 0
    @usableFromInline var capacity: Int
    @usableFromInline let limit: Int

    /// A heap that keeps the `limit` smallest entries.
    @inlinable init(limit: Int, expected: Int) {
        self.limit = limit
        capacity = Swift.max(1, Swift.min(limit, expected))
        distances = .allocate(capacity: capacity)
        ids = .allocate(capacity: capacity)
    }

    @inlinable func release() {
        distances.deallocate()
        ids.deallocate()
    }

    @inlinable var isFull: Bool { count == limit }

    /// The largest kept squared distance; the heap must not be empty.
    @inlinable var worst: Double { distances[0] }

    @inlinable static func less(_ d1: Double, _ i1: Int, _ d2: Double, _ i2: Int) -> Bool {
        d1 < d2 || (d1 == d2 && i1 < i2)
    }

    /// Offers a candidate; keeps it when the heap has room or it beats the worst kept one.
    @inlinable mutating func offer(_ distance: Double, _ id: Int) {
        if count < limit {
            if count == capacity {
                let newCapacity = Swift.min(limit, capacity * 2)
                let d = UnsafeMutablePointer<Double>.allocate(capacity: newCapacity)
                let i = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
                d.moveInitialize(from: distances, count: count)
                i.moveInitialize(from: ids, count: count)
                distances.deallocate()
                ids.deallocate()
                distances = d
                ids = i
                capacity = newCapacity
            }
            var pos = count
            count += 1
            while pos > 0 {
                let parent = (pos &- 1) >> 1
                if !Self.less(distances[parent], ids[parent], distance, id) { break }
                distances[pos] = distances[parent]
                ids[pos] = ids[parent]
                pos = parent
            }
            distances[pos] = distance
            ids[pos] = id
            return
        }
        guard Self.less(distance, id, distances[0], ids[0]) else { return }
        // Replace the root and sift down.
        var pos = 0
        let n = count
        while true {
            var child = 2 &* pos &+ 1
            if child >= n { break }
            let right = child &+ 1
            if right < n && Self.less(distances[child], ids[child], distances[right], ids[right]) { child = right }
            if !Self.less(distance, id, distances[child], ids[child]) { break }
            distances[pos] = distances[child]
            ids[pos] = ids[child]
            pos = child
        }
        distances[pos] = distance
        ids[pos] = id
    }

    /// The kept ids, nearest first (ties by id). O(k log k).
    @inlinable func sortedIDs() -> [Int] {
        var pairs: [(Double, Int)] = []
        pairs.reserveCapacity(count)
        for i in 0..<count { pairs.append((distances[i], ids[i])) }
        pairs.sort { Self.less($0.0, $0.1, $1.0, $1.1) }
        return pairs.map(\.1)
    }
}
