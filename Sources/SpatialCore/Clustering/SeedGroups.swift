/// The seeds of a level that take other items, as gathered in cell order: per seed its members'
/// rows ascending (the seed among them), their total point count and their weighted centre.
/// Scratch storage: the owner calls `deallocate()`.
struct SeedGroups {
    var memberRows = ScratchBuffer<UInt32>(capacity: 1024)
    /// Per seed: the end of its rows in `memberRows` (the start is the previous seed's end).
    var memberEnd = ScratchBuffer<Int32>(capacity: 256)
    var total = ScratchBuffer<Int32>(capacity: 256)
    var centre = ScratchBuffer<SIMD2<Double>>(capacity: 256)

    var count: Int { total.count }

    /// Frees the buffers; the value must not be used afterwards.
    func deallocate() {
        memberRows.deallocate(); memberEnd.deallocate(); total.deallocate(); centre.deallocate()
    }

    /// Appends `other`'s seeds after these. O(other's rows).
    mutating func append(contentsOf other: SeedGroups) {
        let shift = Int32(memberRows.count)
        memberRows.append(contentsOf: UnsafeBufferPointer(other.memberRows.elements))
        for s in 0 ..< other.count { memberEnd.append(other.memberEnd[s] + shift) }
        total.append(contentsOf: UnsafeBufferPointer(other.total.elements))
        centre.append(contentsOf: UnsafeBufferPointer(other.centre.elements))
    }
}
