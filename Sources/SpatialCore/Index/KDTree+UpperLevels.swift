/// A compact copy of the median points of a k-d tree's upper levels, in breadth-first order.
///
/// A range or within query on a large tree descends about log2(n / nodeSize) levels before it
/// reaches its leaves, and each level's middle item lies far from the previous one in the
/// coordinate buffer: one cache miss per level, paid again by every query. The first levels'
/// medians copied side by side (node `j`'s children are `2j + 1`, the lower half, and `2j + 2`)
/// stay in the L2 cache across queries, so the descent touches the big buffers only below them.
/// The copy is derived from the layout (it is not part of kdbush's bytes) and built in
/// O(min(n, 2^levels)) time whenever a tree is made, from points or from bytes.
@usableFromInline
internal struct KDUpperLevels: Sendable {
    /// At most this many levels are copied: 2^12 − 1 medians of 16 bytes, 64 KiB.
    @inlinable static var maximumLevels: Int { 14 }

    /// The medians (widened to `Double`) of the inner nodes of the first levels, by breadth-first
    /// position; slots of nodes that are leaves are zero and never read.
    @usableFromInline let medians: ContiguousArray<SIMD2<Double>>

    /// An empty copy: every query reads the layout directly.
    @inlinable init() { medians = [] }

    /// Copies the medians of the inner nodes (more than `nodeSize + 1` items) of the first
    /// levels of the tree over `coords` (interleaved, k-d order). Only levels that hold at least
    /// one inner node are copied, so small trees get a small copy or none.
    @inlinable init<Scalar: KDTreeScalar>(coords: UnsafeBufferPointer<Scalar>, nodeSize: Int) {
        let n = coords.count / 2
        // Levels with an inner node: the node sizes halve per level, the largest first.
        var levels = 0
        var size = n
        while size > nodeSize &+ 1 && levels < Self.maximumLevels {
            levels &+= 1
            size = size / 2
        }
        guard levels > 0 else {
            medians = []
            return
        }
        let slots = (1 << levels) &- 1
        let points = KDPoints(coords)
        medians = ContiguousArray(unsafeUninitializedCapacity: slots) { buffer, initialized in
            buffer.initialize(repeating: SIMD2<Double>())
            // Breadth-first walk of the inner nodes: (left, right) of node j at queue slot j.
            withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: slots) { ranges in
                ranges.initialize(repeating: (0, -1))
                ranges[0] = (0, n &- 1)
                for j in 0..<slots {
                    let (left, right) = ranges[j]
                    guard right &- left > nodeSize else { continue }
                    let m = (left &+ right) >> 1
                    buffer[j] = points[m]
                    let lower = 2 &* j &+ 1
                    if lower < slots {
                        ranges[lower] = (left, m &- 1)
                        ranges[lower &+ 1] = (m &+ 1, right)
                    }
                }
            }
            initialized = slots
        }
    }

    /// Bytes held by the copy. O(1).
    @inlinable var byteCount: Int { medians.count &* MemoryLayout<SIMD2<Double>>.stride }
}
