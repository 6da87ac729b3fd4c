/// A binary min-heap of payloads keyed by a `Double` priority, for best-first traversals.
///
/// Keys and payloads live in two parallel manually managed buffers (as flatqueue keeps them), so
/// pushes and pops do no uniqueness or capacity checks beyond one comparison. The owner must call
/// ``release()`` exactly once when done (queries do so with `defer`). Payloads must be trivial
/// types (integers, structs of numbers). Equal keys come out in an unspecified order.
@usableFromInline
internal struct PriorityQueue<Payload> {
    @usableFromInline var keys: UnsafeMutablePointer<Double>
    @usableFromInline var payloads: UnsafeMutablePointer<Payload>
    @usableFromInline var count: Int = 0
    @usableFromInline var capacity: Int
    /// Whether `keys` and `payloads` were allocated here (and so are freed by ``release()``).
    @usableFromInline var ownsStorage: Bool

    /// An empty queue in caller-provided room for `capacity` entries (for example temporary
    /// allocations within `StackRoom`, so that a query allocates nothing unless the queue
    /// outgrows them; it then moves to the heap).
    @inlinable init(keys: UnsafeMutablePointer<Double>, payloads: UnsafeMutablePointer<Payload>, capacity: Int) {
        self.keys = keys
        self.payloads = payloads
        self.capacity = capacity
        ownsStorage = false
    }

    /// Frees the storage the queue allocated; the queue must not be used afterwards.
    @inlinable func release() {
        guard ownsStorage else { return }
        keys.deallocate()
        payloads.deallocate()
    }

    @inlinable var isEmpty: Bool { count == 0 }

    /// The smallest key; the queue must not be empty. O(1).
    @inlinable var minKey: Double {
        assert(count > 0)
        return keys[0]
    }

    /// The payload with the smallest key; the queue must not be empty. O(1).
    @inlinable var minPayload: Payload {
        assert(count > 0)
        return payloads[0]
    }

    @inlinable @inline(never) mutating func grow() {
        let newCapacity = capacity * 2
        let newKeys = UnsafeMutablePointer<Double>.allocate(capacity: newCapacity)
        let newPayloads = UnsafeMutablePointer<Payload>.allocate(capacity: newCapacity)
        newKeys.moveInitialize(from: keys, count: count)
        newPayloads.moveInitialize(from: payloads, count: count)
        release()
        keys = newKeys
        payloads = newPayloads
        capacity = newCapacity
        ownsStorage = true
    }

    /// Adds a payload. O(log n).
    @inlinable mutating func push(_ payload: Payload, key: Double) {
        if count == capacity { grow() }
        var pos = count
        count += 1
        while pos > 0 {
            let parent = (pos &- 1) >> 1
            let parentKey = keys[parent]
            if key >= parentKey { break }
            keys[pos] = parentKey
            (payloads + pos).initialize(to: payloads[parent])
            pos = parent
        }
        keys[pos] = key
        (payloads + pos).initialize(to: payload)
    }

    /// Removes and returns the payload with the smallest key; the queue must not be empty.
    /// O(log n).
    @inlinable @discardableResult mutating func pop() -> Payload {
        assert(count > 0)
        let top = payloads[0]
        count -= 1
        let n = count
        if n > 0 {
            let lastKey = keys[n]
            let lastPayload = payloads[n]
            var pos = 0
            let half = n >> 1
            while pos < half {
                var best = 2 &* pos &+ 1
                let right = best &+ 1
                if right < n && keys[right] < keys[best] { best = right }
                if keys[best] >= lastKey { break }
                keys[pos] = keys[best]
                payloads[pos] = payloads[best]
                pos = best
            }
            keys[pos] = lastKey
            payloads[pos] = lastPayload
        }
        return top
    }
}
