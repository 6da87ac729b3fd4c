/// A static k-d tree over 2-D points, laid out exactly as kdbush 4 lays out its arrays.
///
/// Ids are the insertion indices `0 ..< count`. The tree has no node objects: building sorts one
/// array of ids and one interleaved array of coordinates (`x0, y0, x1, y1, …`) into k-d order by
/// Floyd–Rivest selection on alternating axes, so the layout *is* the tree. Query results come back
/// in kdbush's traversal order, which matters to callers that reproduce kdbush-based algorithms.
///
/// `Scalar` is the stored coordinate type: `Double` (kdbush's default `Float64Array`) or `Float`
/// (`Float32Array`). The value is immutable and `Sendable`: any number of threads may query it.
public struct KDTree<Scalar: KDTreeScalar>: Sendable {
    /// The ids in k-d order (kdbush's `ids`).
    @usableFromInline internal let ids: ContiguousArray<UInt32>
    /// The coordinates in k-d order, interleaved `x, y` (kdbush's `coords`).
    @usableFromInline internal let coords: ContiguousArray<Scalar>
    /// The leaf size: a range of at most `nodeSize + 1` items is scanned linearly.
    public let nodeSize: Int

    /// The number of indexed points. O(1).
    @inlinable public var count: Int { ids.count }

    /// Builds the tree from points; point `i` gets id `i`.
    ///
    /// - Parameters:
    ///   - points: the points as `SIMD2(x, y)`, for example `SIMD2(longitude, latitude)`.
    ///   - nodeSize: the leaf size, `2 ... 65_535` (kdbush's default 64).
    /// - Throws: ``IndexError/invalidNodeSize(_:)``, ``IndexError/invalidCoordinate(index:)`` for a
    ///   NaN coordinate, ``IndexError/tooManyItems(_:)`` beyond `UInt32.max` points.
    /// - Complexity: O(n log n) time, O(n) memory.
    @inlinable public init<C: Collection>(_ points: C, nodeSize: Int = 64) throws(IndexError)
    where C.Element == SIMD2<Double> {
        try Self.validate(nodeSize: nodeSize, count: points.count)
        var coords = ContiguousArray<Scalar>()
        coords.reserveCapacity(points.count * 2)
        var index = 0
        for point in points {
            if point.x.isNaN || point.y.isNaN { throw .invalidCoordinate(index: index) }
            coords.append(Scalar(indexValue: point.x))
            coords.append(Scalar(indexValue: point.y))
            index += 1
        }
        self.init(building: coords, nodeSize: nodeSize)
    }

    /// Builds the tree from two coordinate buffers; point `i` is `(x[i], y[i])` with id `i`.
    ///
    /// - Throws: ``IndexError/lengthMismatch(expected:actual:)`` when the buffers differ in length,
    ///   and the errors of ``init(_:nodeSize:)``.
    /// - Complexity: O(n log n) time, O(n) memory.
    @inlinable public init(x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>, nodeSize: Int = 64) throws(IndexError) {
        guard x.count == y.count else { throw .lengthMismatch(expected: x.count, actual: y.count) }
        try Self.validate(nodeSize: nodeSize, count: x.count)
        let n = x.count
        var firstNaN = -1
        let coords = ContiguousArray<Scalar>(filling: 2 * n) { buffer in
            LargeBuffer.adviseHugePages(buffer)
            for i in 0..<n {
                let px = x[i], py = y[i]
                if (px.isNaN || py.isNaN) && firstNaN < 0 { firstNaN = i }
                buffer[2 * i] = Scalar(indexValue: px)
                buffer[2 * i + 1] = Scalar(indexValue: py)
            }
        }
        if firstNaN >= 0 { throw .invalidCoordinate(index: firstNaN) }
        self.init(building: coords, nodeSize: nodeSize)
    }

    /// Sorts `coords` (interleaved, insertion order) into k-d order with fresh ids.
    @inlinable internal init(building coords: ContiguousArray<Scalar>, nodeSize: Int) {
        var coords = coords
        let n = coords.count / 2
        var ids = ContiguousArray<UInt32>(filling: n) { buffer in
            LargeBuffer.adviseHugePages(buffer)
            for i in 0..<n { buffer[i] = UInt32(truncatingIfNeeded: i) }
        }
        ids.withUnsafeMutableBufferPointer { idBuffer in
            coords.withUnsafeMutableBufferPointer { coordBuffer in
                KDSorter(ids: idBuffer, coords: coordBuffer, nodeSize: nodeSize).sort()
            }
        }
        self.ids = ids
        self.coords = coords
        self.nodeSize = nodeSize
    }

    /// An already-ordered tree (from bytes).
    @inlinable internal init(orderedIDs ids: ContiguousArray<UInt32>, coords: ContiguousArray<Scalar>, nodeSize: Int) {
        self.ids = ids
        self.coords = coords
        self.nodeSize = nodeSize
    }

    @inlinable internal static func validate(nodeSize: Int, count: Int) throws(IndexError) {
        guard nodeSize >= 2 && nodeSize <= 65_535 else { throw .invalidNodeSize(nodeSize) }
        guard count <= Int(UInt32.max) else { throw .tooManyItems(count) }
    }

    /// The id and stored coordinates (widened to `Double`) of the item at k-d position
    /// `position` (`0 ..< count`), for callers that walk the layout; `nil` for a position out of
    /// range. Points are kept in k-d order, not by id. O(1).
    @inlinable public func entry(at position: Int) -> (id: Int, point: SIMD2<Double>)? {
        guard position >= 0 && position < count else { return nil }
        return (Int(ids[position]),
                SIMD2(coords[2 * position].indexDouble, coords[2 * position + 1].indexDouble))
    }
}
