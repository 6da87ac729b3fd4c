/// The rows one level forms, collected during its greedy loop and appended to the builder after
/// it, and the level's items in order. Scratch storage: the owner calls `deallocate()`.
struct LevelRows {
    var x = ScratchBuffer<Double>(capacity: 256)
    var y = ScratchBuffer<Double>(capacity: 256)
    var count = ScratchBuffer<Int32>(capacity: 256)
    var ref = ScratchBuffer<Int32>(capacity: 256)
    /// Per new cluster: the end of its children in the builder's `childList`.
    var childEnd = ScratchBuffer<Int32>(capacity: 256)
    var children = ScratchBuffer<Int32>(capacity: 1024)
    /// The items of the new level, in order.
    var next: ScratchBuffer<UInt32>

    init(levelCount: Int) { next = ScratchBuffer(capacity: levelCount) }

    /// Appends cluster row `c` (its members already appended to `children`, whose builder list
    /// held `childBase` entries before the level) and puts it in the new level. O(1) amortized.
    @inline(__always)
    mutating func appendCluster(row c: Int, x cx: Double, y cy: Double, count n: Int, id: Int32, childBase: Int) {
        x.append(cx)
        y.append(cy)
        count.append(Int32(truncatingIfNeeded: n))
        ref.append(id)
        childEnd.append(Int32(childBase + children.count))
        next.append(UInt32(truncatingIfNeeded: c))
    }

    /// Frees the buffers; the value must not be used afterwards.
    func deallocate() {
        x.deallocate(); y.deallocate(); count.deallocate(); ref.deallocate()
        childEnd.deallocate(); children.deallocate(); next.deallocate()
    }
}
