/// A read-only view of a `.double` build's row coordinates (`ClusterBuilder.x`, `.y`), for the
/// background thread that gathers and sorts the query trees while the build appends rows.
///
/// The build reserves room for every row it can form before the levels start (m points form at
/// most m − 1 clusters), so appending never moves the arrays, and it never changes a row once
/// appended. A row below the count at the time a job is handed over is therefore readable, with
/// the same value, until the build ends: the hand-off (`DispatchQueue.async`) orders the writes
/// before the reads. The build checks in debug builds that the arrays have not moved
/// (``isView(of:_:)``) at the start of every level and before it collects the trees.
struct RowCoordinates: @unchecked Sendable {
    private let x: UnsafePointer<Double>
    private let y: UnsafePointer<Double>
    /// The room the arrays had when the view was taken: no row can be at or above it.
    private let capacity: Int

    /// A view of `x` and `y`, which must each be the only reference to its storage and have room
    /// for every row the build will append (`reserveCapacity` first). O(1).
    init(x: ContiguousArray<Double>, y: ContiguousArray<Double>) {
        precondition(x.count == y.count)
        capacity = Swift.min(x.capacity, y.capacity)
        self.x = x.withUnsafeBufferPointer { $0.baseAddress.unsafelyUnwrapped }
        self.y = y.withUnsafeBufferPointer { $0.baseAddress.unsafelyUnwrapped }
    }

    /// Whether `x` and `y` are still the storage this view reads. O(1).
    func isView(of x: ContiguousArray<Double>, _ y: ContiguousArray<Double>) -> Bool {
        x.withUnsafeBufferPointer { $0.baseAddress == self.x } && y.withUnsafeBufferPointer { $0.baseAddress == self.y }
            && x.count <= capacity && y.count <= capacity
    }

    /// The coordinates of the rows `ids`, interleaved (x, y) and converted to `S`, as a k-d tree
    /// over them stores them. O(n).
    func gather<S: KDTreeScalar>(_ ids: ContiguousArray<UInt32>, as _: S.Type = S.self) -> ContiguousArray<S> {
        Self.gather(ids, x: x, y: y, capacity: capacity)
    }

    /// The coordinates of the rows `ids` read from `x` and `y` (each at least one past the highest
    /// id), interleaved and converted to `S`. O(n).
    static func gather<S: KDTreeScalar>(_ ids: ContiguousArray<UInt32>, x: UnsafePointer<Double>, y: UnsafePointer<Double>,
                                        capacity: Int) -> ContiguousArray<S> {
        let n = ids.count
        return ContiguousArray(filling: 2 * n) { coords in
            ids.withUnsafeBufferPointer { ids in
                for k in 0 ..< n {
                    let it = Int(ids[k])
                    assert(it < capacity, "a row beyond the arrays")
                    coords[2 * k] = S(indexValue: x[it])
                    coords[2 * k + 1] = S(indexValue: y[it])
                }
            }
        }
    }
}
