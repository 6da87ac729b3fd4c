import Testing
@testable import SpatialCore

/// Every error path of building an R-tree and reading one from bytes: a typed error, no trap, and
/// no read outside the buffer.
@Suite("PackedRTree errors")
struct PackedRTreeErrorTests {
    /// 100 boxes, nodeSize 4: 100 + 25 + 7 + 2 + 1 = 135 boxes, UInt16 indices.
    static let valid: [UInt8] = {
        var boxes: [SIMD4<Double>] = []
        for i in 0..<100 {
            let x = Double(i), y = Double(i % 9)
            boxes.append(SIMD4(x, y, x + 1, y + 2))
        }
        return try! PackedRTree(boxes, nodeSize: 4).data
    }()
    static let numNodes = 135
    static let indexOffset = 8 + 135 * 32

    @Test(arguments: [-5, 0, 1, 65_536])
    func badNodeSize(nodeSize: Int) {
        #expect(throws: IndexError.invalidNodeSize(nodeSize)) { try PackedRTree([SIMD4(0, 0, 1, 1)], nodeSize: nodeSize) }
    }

    @Test func nanBoxes() {
        #expect(throws: IndexError.invalidCoordinate(index: 1)) {
            try PackedRTree([SIMD4(0, 0, 1, 1), SIMD4(0, .nan, 1, 1)])
        }
    }

    /// Large inputs scan their bounds as two halves: the first NaN in input order is still the
    /// one reported, in either half.
    @Test func nanInLargeInput() {
        var boxes = [SIMD4<Double>](repeating: SIMD4(1, 1, 2, 2), count: 100_000)
        boxes[70_000].w = .nan
        #expect(throws: IndexError.invalidCoordinate(index: 70_000)) { try PackedRTree(boxes) }
        boxes[10].x = .nan
        #expect(throws: IndexError.invalidCoordinate(index: 10)) { try PackedRTree(boxes) }
    }

    @Test func lengthMismatch() {
        let a: [Double] = [0, 1], b: [Double] = [0]
        #expect(throws: IndexError.lengthMismatch(expected: 2, actual: 1)) {
            try a.withUnsafeBufferPointer { a in
                try b.withUnsafeBufferPointer { b in try PackedRTree(minX: a, minY: a, maxX: b, maxY: a) }
            }
        }
    }

    @Test func sizes() {
        #expect(Self.valid.count == Self.indexOffset + Self.numNodes * 2)
        for length in [0, 5, 7] {
            #expect(throws: IndexError.truncated(expected: 8, actual: length)) { try PackedRTree(data: Self.valid.prefix(length)) }
        }
        for length in [8, 100, Self.indexOffset, Self.valid.count - 1] {
            #expect(throws: IndexError.truncated(expected: Self.valid.count, actual: length)) {
                try PackedRTree(data: Self.valid.prefix(length))
            }
        }
        #expect(throws: IndexError.trailingBytes(expected: Self.valid.count, actual: Self.valid.count + 3)) {
            try PackedRTree(data: Self.valid + [1, 2, 3])
        }
        var bytes = Self.valid
        bytes[4] = 99  // declares 99 items: a different layout and size
        #expect(throws: IndexError.self) { try PackedRTree(data: bytes) }
        bytes[4] = 0xff; bytes[5] = 0xff; bytes[6] = 0xff; bytes[7] = 0xff
        #expect(throws: IndexError.tooManyItems(Int(UInt32.max))) { try PackedRTree(data: bytes) }
    }

    @Test func badHeader() {
        var bytes = Self.valid
        bytes[0] = 0xdb
        #expect(throws: IndexError.badMagic(found: 0xdb, expected: 0xfb)) { try PackedRTree(data: bytes) }
        bytes = Self.valid
        bytes[1] = 0x18
        #expect(throws: IndexError.unsupportedVersion(found: 1, expected: 3)) { try PackedRTree(data: bytes) }
        bytes[1] = 0x37
        #expect(throws: IndexError.arrayTypeMismatch(found: 7, expected: 8)) { try PackedRTree(data: bytes) }
        bytes[1] = 0x3c
        #expect(throws: IndexError.unsupportedArrayType(code: 12)) { try PackedRTree(data: bytes) }
    }

    /// flatbush writes the nodeSize it was given (0 or 1 too) and packs with 2: such bytes read
    /// as a tree of node size 2 (its packing checked as for any other).
    @Test func nodeSizeBelowTwoReadsAsTwo() throws {
        var rng = SplitMix(seed: 13)
        let boxes = (0..<300).map { _ in
            let x = rng.uniform(-10, 10), y = rng.uniform(-10, 10)
            return SIMD4(x, y, x + rng.uniform(0, 1), y + rng.uniform(0, 1))
        }
        let tree = try PackedRTree(boxes, nodeSize: 2)
        for written in [0, 1] as [UInt8] {
            var bytes = tree.data
            bytes[2] = written
            bytes[3] = 0
            let read = try PackedRTree(data: bytes)
            #expect(read.data == tree.data)
            #expect(read.search(minX: -3, minY: -3, maxX: 4, maxY: 2) == tree.search(minX: -3, minY: -3, maxX: 4, maxY: 2))
        }
        // Written as 1 over a tree packed with 16: the packing check refuses it.
        var wrong = try PackedRTree(boxes, nodeSize: 16).data
        wrong[2] = 1
        wrong[3] = 0
        #expect(throws: IndexError.self) { try PackedRTree(data: wrong) }
    }

    @Test func crafedIndices() {
        // An item id out of range.
        var bytes = Self.valid
        bytes[Self.indexOffset + 2 * 3] = 200
        bytes[Self.indexOffset + 2 * 3 + 1] = 0
        #expect(throws: IndexError.invalidIndexValue(position: 3, value: 200, offset: Self.indexOffset + 6)) {
            try PackedRTree(data: bytes)
        }
        // A node pointing past the end of the box array.
        bytes = Self.valid
        let node = 110
        bytes[Self.indexOffset + 2 * node] = 0xff
        bytes[Self.indexOffset + 2 * node + 1] = 0xff
        #expect(throws: IndexError.invalidIndexValue(position: node, value: 0xffff, offset: Self.indexOffset + 2 * node)) {
            try PackedRTree(data: bytes)
        }
        // A node pointing at the wrong (but in-range) child block.
        bytes = Self.valid
        bytes[Self.indexOffset + 2 * node] = 4
        bytes[Self.indexOffset + 2 * node + 1] = 0
        #expect(throws: IndexError.invalidIndexValue(position: node, value: 4, offset: Self.indexOffset + 2 * node)) {
            try PackedRTree(data: bytes)
        }
        // A repeated item id.
        bytes = Self.valid
        bytes[Self.indexOffset + 2] = bytes[Self.indexOffset]
        bytes[Self.indexOffset + 3] = bytes[Self.indexOffset + 1]
        #expect(throws: IndexError.self) { try PackedRTree(data: bytes) }
    }
}
