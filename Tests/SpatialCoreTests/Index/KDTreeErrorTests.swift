import Testing
@testable import SpatialCore

/// Every error path of building a k-d tree and reading one from bytes: a typed error, no trap.
@Suite("KDTree errors")
struct KDTreeErrorTests {
    static let valid: [UInt8] = try! KDTree<Double>((0..<100).map { SIMD2(Double($0), Double($0 % 7)) }, nodeSize: 4).data

    @Test(arguments: [Int.min, -1, 0, 1, 65_536, Int.max])
    func badNodeSize(nodeSize: Int) {
        #expect(throws: IndexError.invalidNodeSize(nodeSize)) {
            try KDTree<Double>([SIMD2(0, 0)], nodeSize: nodeSize)
        }
    }

    @Test func nanCoordinate() {
        #expect(throws: IndexError.invalidCoordinate(index: 2)) {
            try KDTree<Double>([SIMD2(0, 0), SIMD2(1, 1), SIMD2(.nan, 1)])
        }
        let xs: [Double] = [0, 1, 2], ys: [Double] = [0, .nan, 2]
        #expect(throws: IndexError.invalidCoordinate(index: 1)) {
            try xs.withUnsafeBufferPointer { x in try ys.withUnsafeBufferPointer { y in try KDTree<Float>(x: x, y: y) } }
        }
    }

    @Test func lengthMismatch() {
        let xs: [Double] = [0, 1, 2], ys: [Double] = [0, 1]
        #expect(throws: IndexError.lengthMismatch(expected: 3, actual: 2)) {
            try xs.withUnsafeBufferPointer { x in try ys.withUnsafeBufferPointer { y in try KDTree<Double>(x: x, y: y) } }
        }
    }

    @Test func truncatedBuffers() {
        for length in [0, 1, 7] {
            #expect(throws: IndexError.truncated(expected: 8, actual: length)) {
                try KDTree<Double>(data: Self.valid.prefix(length))
            }
        }
        for length in [8, 9, 200, Self.valid.count - 1] {
            #expect(throws: IndexError.truncated(expected: Self.valid.count, actual: length)) {
                try KDTree<Double>(data: Self.valid.prefix(length))
            }
        }
        #expect(throws: IndexError.trailingBytes(expected: Self.valid.count, actual: Self.valid.count + 1)) {
            try KDTree<Double>(data: Self.valid + [0])
        }
    }

    @Test func badHeader() {
        var bytes = Self.valid
        bytes[0] = 0xfb
        #expect(throws: IndexError.badMagic(found: 0xfb, expected: 0xdb)) { try KDTree<Double>(data: bytes) }
        bytes = Self.valid
        bytes[1] = 0x28
        #expect(throws: IndexError.unsupportedVersion(found: 2, expected: 1)) { try KDTree<Double>(data: bytes) }
        for code in [0, 1, 5, 6, 9, 15] {
            bytes[1] = 0x10 | UInt8(code)
            #expect(throws: IndexError.unsupportedArrayType(code: code)) { try KDTree<Double>(data: bytes) }
        }
        #expect(throws: IndexError.arrayTypeMismatch(found: 8, expected: 7)) { try KDTree<Float>(data: Self.valid) }
    }

    /// kdbush writes the nodeSize it was given (0 or 1 too) and lays the tree out with 2: such
    /// bytes read as a tree of leaf size 2 that answers as the one written.
    @Test func nodeSizeBelowTwoReadsAsTwo() throws {
        var rng = SplitMix(seed: 12)
        let points = (0..<300).map { _ in SIMD2(rng.uniform(-10, 10), rng.uniform(-10, 10)) }
        let tree = try KDTree<Double>(points, nodeSize: 2)
        for written in [0, 1] as [UInt8] {
            var bytes = tree.data
            bytes[2] = written
            bytes[3] = 0
            let read = try KDTree<Double>(data: bytes)
            #expect(read.nodeSize == 2)
            #expect(read.data == tree.data)
            #expect(read.range(minX: -3, minY: -3, maxX: 4, maxY: 2) == tree.range(minX: -3, minY: -3, maxX: 4, maxY: 2))
        }
    }

    @Test func countSizeMismatch() {
        var bytes = Self.valid
        bytes[4] = 101  // declares one more item than the bytes hold
        #expect(throws: IndexError.truncated(expected: 8 + 101 * 2 + 6 + 101 * 16, actual: Self.valid.count)) {
            try KDTree<Double>(data: bytes)
        }
        bytes[4] = 0xff
        bytes[5] = 0xff
        bytes[6] = 0xff
        bytes[7] = 0xff
        #expect(throws: IndexError.self) { try KDTree<Double>(data: bytes) }
    }

    @Test func outOfRangeAndRepeatedIDs() {
        var bytes = Self.valid
        bytes[8 + 2 * 5] = 100  // id 100 in a 100-item tree
        bytes[8 + 2 * 5 + 1] = 0
        #expect(throws: IndexError.invalidIndexValue(position: 5, value: 100, offset: 18)) { try KDTree<Double>(data: bytes) }
        bytes = Self.valid
        bytes[8 + 2 * 7] = bytes[8 + 2 * 6]
        bytes[8 + 2 * 7 + 1] = bytes[8 + 2 * 6 + 1]
        let repeated = Int(bytes[8 + 12]) | Int(bytes[8 + 13]) << 8
        #expect(throws: IndexError.invalidIndexValue(position: 7, value: repeated, offset: 22)) { try KDTree<Double>(data: bytes) }
    }

    @Test func errorsDescribeThemselves() {
        #expect(IndexError.badMagic(found: 0xfb, expected: 0xdb).description.contains("0xdb"))
        #expect(IndexError.truncated(expected: 16, actual: 3).description.contains("16"))
    }
}
