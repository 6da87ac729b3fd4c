/// The k best candidates of a nearest-neighbour search: a bounded max-heap on
/// `(squared distance, id)`, so that ties in distance resolve to the smaller id and results are
/// deterministic. Manually managed storage, which may start in caller-provided room; the owner
/// calls ``release()`` once.
@usableFromInline
internal struct KNearestHeap {
    @usableFromInline var distances: UnsafeMutablePointer<Double>
    @usableFromInline var ids: UnsafeMutablePointer<Int>
    @usableFromInline var count: Int = 0
    @usableFromInline var capacity: Int
    @usableFromInline let limit: Int
    /// Whether `distances` and `ids` were allocated here (and so are freed by ``release()``).
    @usableFromInline var ownsStorage: Bool

    /// A heap that keeps the `limit` smallest entries, in caller-provided room for `capacity`
    /// of them (for example temporary allocations within `StackRoom`); it moves to the heap
    /// only if it needs more.
    @inlinable init(limit: Int, distances: UnsafeMutablePointer<Double>, ids: UnsafeMutablePointer<Int>, capacity: Int) {
        self.limit = limit
        self.distances = distances
        self.ids = ids
        self.capacity = Swift.max(1, capacity)
        ownsStorage = false
    }

    @inlinable func release() {
        guard ownsStorage else { return }
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
                release()
                distances = d
                ids = i
                capacity = newCapacity
                ownsStorage = true
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
        replaceRoot(distance, id, heapCount: count)
    }

    /// Puts `(distance, id)` at the root of the heap of the first `n` entries and sifts it down.
    /// O(log n).
    @inlinable @inline(__always) func replaceRoot(_ distance: Double, _ id: Int, heapCount n: Int) {
        var pos = 0
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

    /// Appends the kept ids to `result`, nearest first (ties by id), sorting the heap in place
    /// (heapsort: the heap is empty afterwards). O(k log k), no allocation beyond `result`.
    @inlinable mutating func appendSortedIDs(to result: inout [Int]) {
        let kept = count
        // Move the worst kept entry behind the shrinking heap, k − 1 times: ascending order.
        var n = kept
        while n > 1 {
            n -= 1
            let distance = distances[n], id = ids[n]
            distances[n] = distances[0]
            ids[n] = ids[0]
            replaceRoot(distance, id, heapCount: n)
        }
        count = 0
        result.append(contentsOf: UnsafeBufferPointer(start: ids, count: kept))
    }
}
