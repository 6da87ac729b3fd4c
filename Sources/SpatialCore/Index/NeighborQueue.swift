/// The priority queue of ``PackedRTree``'s best-first neighbour search: entries are encoded ids
/// (`id << 1 | 1` for an item, `offset << 1` for a node) keyed by squared box distance. At equal
/// distance an item comes before a node and a deeper node before a shallower one, so results
/// surface as soon as they are certain instead of after every node at the same distance is
/// expanded (points inside many boxes make long runs of distance 0). Manually managed storage:
/// it starts in caller-provided room (on the stack, so a query allocates nothing) and moves to the
/// heap only if it outgrows it; the owner calls ``release()`` once.
internal struct NeighborQueue {
    var keys: UnsafeMutablePointer<Double>
    var entries: UnsafeMutablePointer<Int>
    var count = 0
    var capacity: Int
    /// Whether `keys` and `entries` were allocated by ``grow()`` (and so are freed by `release`).
    var ownsStorage = false

    /// An empty queue in caller-provided room for `capacity` entries (for example a temporary
    /// stack allocation, so that a query allocates nothing unless the queue outgrows it).
    init(keys: UnsafeMutablePointer<Double>, entries: UnsafeMutablePointer<Int>, capacity: Int) {
        self.keys = keys
        self.entries = entries
        self.capacity = capacity
    }

    func release() {
        guard ownsStorage else { return }
        keys.deallocate()
        entries.deallocate()
    }

    var isEmpty: Bool { count == 0 }
    var minKey: Double { keys[0] }
    var minEntry: Int { entries[0] }

    /// Whether `(k1, e1)` comes out before `(k2, e2)`.
    @inline(__always) static func before(_ k1: Double, _ e1: Int, _ k2: Double, _ e2: Int) -> Bool {
        k1 < k2 || (k1 == k2 && rank(e1) < rank(e2))
    }

    /// Items first, then nodes by box offset: deeper levels (lower offsets) first, which walks
    /// straight down through runs of nodes at equal distance.
    @inline(__always) static func rank(_ entry: Int) -> Int { entry & 1 == 1 ? -1 : entry }

    @inline(never) mutating func grow() {
        let newCapacity = capacity * 2
        let k = UnsafeMutablePointer<Double>.allocate(capacity: newCapacity)
        let e = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
        k.moveInitialize(from: keys, count: count)
        e.moveInitialize(from: entries, count: count)
        release()
        keys = k
        entries = e
        capacity = newCapacity
        ownsStorage = true
    }

    /// Adds an entry. O(log n).
    @inline(__always) mutating func push(_ entry: Int, key: Double) {
        if count == capacity { grow() }
        var pos = count
        count &+= 1
        while pos > 0 {
            let parent = (pos &- 1) >> 1
            if !Self.before(key, entry, keys[parent], entries[parent]) { break }
            keys[pos] = keys[parent]
            entries[pos] = entries[parent]
            pos = parent
        }
        keys[pos] = key
        entries[pos] = entry
    }

    /// Removes and returns the first entry; the queue must not be empty. O(log n).
    @inline(__always) mutating func pop() -> Int {
        let top = entries[0]
        count &-= 1
        let n = count
        if n > 0 {
            let lastKey = keys[n], lastEntry = entries[n]
            var pos = 0
            let half = n >> 1
            while pos < half {
                var best = 2 &* pos &+ 1
                let right = best &+ 1
                if right < n && Self.before(keys[right], entries[right], keys[best], entries[best]) { best = right }
                if !Self.before(keys[best], entries[best], lastKey, lastEntry) { break }
                keys[pos] = keys[best]
                entries[pos] = entries[best]
                pos = best
            }
            keys[pos] = lastKey
            entries[pos] = lastEntry
        }
        return top
    }
}
