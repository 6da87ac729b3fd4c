/// A binary min-heap of payloads keyed by a `Double` priority, for best-first traversals.
///
/// Keys and payloads live in two parallel arrays (as flatqueue keeps them). Equal keys come out in
/// an unspecified order. `removeAll` keeps the capacity, so one queue can serve many queries.
@usableFromInline
internal struct PriorityQueue<Payload> {
    @usableFromInline var keys: [Double] = []
    @usableFromInline var payloads: [Payload] = []

    @usableFromInline init() {}

    @inlinable var isEmpty: Bool { keys.isEmpty }
    @inlinable var count: Int { keys.count }

    /// The smallest key; the queue must not be empty. O(1).
    @inlinable var minKey: Double { keys[0] }
    /// The payload with the smallest key; the queue must not be empty. O(1).
    @inlinable var minPayload: Payload { payloads[0] }

    /// Adds a payload. O(log n).
    @inlinable mutating func push(_ payload: Payload, key: Double) {
        var pos = keys.count
        keys.append(key)
        payloads.append(payload)
        keys.withUnsafeMutableBufferPointer { keys in
            payloads.withUnsafeMutableBufferPointer { payloads in
                while pos > 0 {
                    let parent = (pos - 1) >> 1
                    let parentKey = keys[parent]
                    if key >= parentKey { break }
                    keys[pos] = parentKey
                    payloads[pos] = payloads[parent]
                    pos = parent
                }
                keys[pos] = key
                payloads[pos] = payload
            }
        }
    }

    /// Removes and returns the payload with the smallest key; the queue must not be empty.
    /// O(log n).
    @inlinable @discardableResult mutating func pop() -> Payload {
        let top = payloads[0]
        let lastKey = keys.removeLast()
        let lastPayload = payloads.removeLast()
        let n = keys.count
        if n > 0 {
            keys.withUnsafeMutableBufferPointer { keys in
                payloads.withUnsafeMutableBufferPointer { payloads in
                    var pos = 0
                    let half = n >> 1
                    while pos < half {
                        var best = 2 * pos + 1
                        let right = best + 1
                        if right < n && keys[right] < keys[best] { best = right }
                        if keys[best] >= lastKey { break }
                        keys[pos] = keys[best]
                        payloads[pos] = payloads[best]
                        pos = best
                    }
                    keys[pos] = lastKey
                    payloads[pos] = lastPayload
                }
            }
        }
        return top
    }

    /// Empties the queue, keeping its storage. O(1).
    @inlinable mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        payloads.removeAll(keepingCapacity: true)
    }
}
