/// A static packed Hilbert R-tree over axis-aligned boxes, laid out exactly as flatbush 4 lays
/// out its arrays.
///
/// Ids are the insertion indices `0 ..< count`. Building sorts the boxes by the Hilbert value of
/// their centres on a 2^16 × 2^16 grid over the total bounds, then packs parent nodes bottom-up,
/// `nodeSize` children each. The whole tree is one flat array of boxes (`minX, minY, maxX, maxY`
/// per item, then per node, level by level up to the root) and one array of indices (an item's id,
/// or a node's first child as an offset into the box array): no node objects.
///
/// The value is immutable and `Sendable`: any number of threads may query it.
public struct PackedRTree: Sendable {
    /// All boxes: items in Hilbert order, then each level's nodes, the root last.
    @usableFromInline internal let boxes: ContiguousArray<Double>
    /// Per box: the item id (leaf level) or the box-array offset of the node's first child.
    @usableFromInline internal let indices: ContiguousArray<UInt32>
    /// The end offset (in `boxes`, so 4 × box count) of each level, items first.
    @usableFromInline internal let levelBounds: [Int]
    /// The number of indexed boxes. O(1).
    public let count: Int
    /// The number of children per node (flatbush's default 16).
    public let nodeSize: Int

    /// The bounds of all boxes as `SIMD4(minX, minY, maxX, maxY)`; for an empty tree
    /// `(+∞, +∞, −∞, −∞)`. O(1).
    public var bounds: SIMD4<Double> {
        guard count > 0 else { return SIMD4(.infinity, .infinity, -.infinity, -.infinity) }
        let p = boxes.count - 4
        return SIMD4(boxes[p], boxes[p + 1], boxes[p + 2], boxes[p + 3])
    }

    /// The box of the item with id `id`, or `nil` when there is no such id. O(n) (the boxes are
    /// stored in Hilbert order, not by id).
    public func box(of id: Int) -> SIMD4<Double>? {
        guard id >= 0 && id < count, let p = indices.prefix(count).firstIndex(of: UInt32(id)) else { return nil }
        return SIMD4(boxes[4 * p], boxes[4 * p + 1], boxes[4 * p + 2], boxes[4 * p + 3])
    }

    /// Builds the tree from boxes `SIMD4(minX, minY, maxX, maxY)`; box `i` gets id `i`.
    ///
    /// A point is a box with `min == max`. Inverted boxes (min > max) are kept as given and
    /// intersect nothing that a normal box would not.
    /// - Throws: ``IndexError/invalidNodeSize(_:)`` outside `2 ... 65_535`,
    ///   ``IndexError/invalidCoordinate(index:)`` for a NaN bound, ``IndexError/tooManyItems(_:)``.
    /// - Complexity: O(n log n) time, O(n) memory.
    @inlinable public init<C: Collection>(_ boxes: C, nodeSize: Int = 16) throws(IndexError) where C.Element == SIMD4<Double> {
        let layout = try RTreeLayout(count: boxes.count, nodeSize: nodeSize)
        let n = layout.count
        var flat = [Double](repeating: 0, count: 4 * n)
        var index = 0
        flat.withUnsafeMutableBufferPointer { out in
            for box in boxes where index < n {
                out[4 &* index] = box.x
                out[4 &* index &+ 1] = box.y
                out[4 &* index &+ 2] = box.z
                out[4 &* index &+ 3] = box.w
                index &+= 1
            }
        }
        self = try flat.withUnsafeBufferPointer { (flat) throws(IndexError) -> PackedRTree in
            let base = flat.baseAddress ?? UnsafePointer(bitPattern: 8)!
            return try PackedRTree(
                building: BoxSource(minX: base, minY: base + 1, maxX: base + 2, maxY: base + 3, stride: 4, count: n),
                layout: layout)
        }
    }

    /// Builds the tree from four bound buffers; box `i` is
    /// `(minX[i], minY[i], maxX[i], maxY[i])` with id `i`. The buffers are read directly (no copy
    /// of the input is made).
    ///
    /// - Throws: ``IndexError/lengthMismatch(expected:actual:)`` when the buffers differ in length,
    ///   and the errors of ``init(_:nodeSize:)``.
    /// - Complexity: O(n log n) time, O(n) memory.
    public init(
        minX: UnsafeBufferPointer<Double>, minY: UnsafeBufferPointer<Double>,
        maxX: UnsafeBufferPointer<Double>, maxY: UnsafeBufferPointer<Double>, nodeSize: Int = 16
    ) throws(IndexError) {
        let n = minX.count
        for other in [minY.count, maxX.count, maxY.count] where other != n {
            throw .lengthMismatch(expected: n, actual: other)
        }
        let layout = try RTreeLayout(count: n, nodeSize: nodeSize)
        let empty = UnsafePointer<Double>(bitPattern: 8)!
        try self.init(
            building: BoxSource(
                minX: minX.baseAddress ?? empty, minY: minY.baseAddress ?? empty,
                maxX: maxX.baseAddress ?? empty, maxY: maxY.baseAddress ?? empty, stride: 1, count: n),
            layout: layout)
    }

    @usableFromInline internal init(boxes: ContiguousArray<Double>, indices: ContiguousArray<UInt32>, layout: RTreeLayout) {
        self.boxes = boxes
        self.indices = indices
        self.levelBounds = layout.levelBounds
        self.count = layout.count
        self.nodeSize = layout.nodeSize
    }
}

/// The shape of a packed tree for n items: flatbush's level bounds and node count.
@usableFromInline
internal struct RTreeLayout {
    @usableFromInline let count: Int
    @usableFromInline let nodeSize: Int
    /// End offset in the box array (4 per box) of each level, items first, root last.
    @usableFromInline let levelBounds: [Int]
    /// Items plus nodes.
    @usableFromInline let numNodes: Int

    @usableFromInline init(count n: Int, nodeSize: Int) throws(IndexError) {
        guard nodeSize >= 2 && nodeSize <= 65_535 else { throw .invalidNodeSize(nodeSize) }
        // Node indices are box-array offsets stored as UInt32: 4 × numNodes must fit.
        guard n <= 1 << 29 else { throw .tooManyItems(n) }
        self.count = n
        self.nodeSize = nodeSize
        guard n > 0 else {
            levelBounds = [0]
            numNodes = 0
            return
        }
        var m = n
        var total = n
        var bounds = [n * 4]
        repeat {
            m = (m + nodeSize - 1) / nodeSize
            total += m
            bounds.append(total * 4)
        } while m != 1
        levelBounds = bounds
        numNodes = total
    }
}
