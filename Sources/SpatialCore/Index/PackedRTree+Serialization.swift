extension PackedRTree {
    /// flatbush's magic byte.
    static var magic: UInt8 { 0xfb }
    /// flatbush's serialized format version.
    static var formatVersion: Int { 3 }
    /// `Float64Array` in flatbush's list of array types.
    static var float64Code: Int { 8 }

    /// The tree as flatbush 4 serializes it (`index.data`, readable by `Flatbush.from`): an 8-byte
    /// header (magic `0xfb`, version 3 and array type 8 in one byte, nodeSize as `UInt16`, count
    /// as `UInt32`), all boxes as `Float64`, then all indices (`UInt16` below 16,384 boxes and
    /// nodes, else `UInt32`); little-endian. An empty tree is the header alone (flatbush itself
    /// cannot hold zero items).
    ///
    /// - Complexity: O(n).
    public var data: [UInt8] {
        let numNodes = indices.count
        let indexWidth = numNodes < 16_384 ? 2 : 4
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + numNodes * (32 + indexWidth))
        SerializedHeader.append(magic: Self.magic, version: Self.formatVersion, arrayType: Self.float64Code,
                                nodeSize: nodeSize, count: count, to: &bytes)
        for value in boxes { value.appendLittleEndian(to: &bytes) }
        SerializedHeader.appendIndexes(indices, width: indexWidth, to: &bytes)
        return bytes
    }

    /// Reads a tree from flatbush 4 bytes (see ``data``), validating everything before use: header,
    /// version, array type (`Float64Array` only), the exact byte length for the declared
    /// count, that the leaf indices are a permutation of `0 ..< count`, and that every node points
    /// at exactly the child block the packing puts there.
    /// A node size of 0 or 1 reads as 2, as the JavaScript library reads it (its trees are laid
    /// out with 2 then, while the header keeps the size it was given).
    ///
    /// - Throws: ``IndexError/truncated(expected:actual:)``, ``IndexError/trailingBytes(expected:actual:)``,
    ///   ``IndexError/badMagic(found:expected:)``, ``IndexError/unsupportedVersion(found:expected:)``,
    ///   ``IndexError/unsupportedArrayType(code:)``, ``IndexError/arrayTypeMismatch(found:expected:)``,
    ///   ``IndexError/tooManyItems(_:)``,
    ///   ``IndexError/invalidIndexValue(position:value:offset:)``.
    /// - Complexity: O(n).
    public init(data: some Collection<UInt8>) throws(IndexError) {
        let bytes = Array(data)
        let header = try SerializedHeader(reading: bytes, magic: Self.magic, version: Self.formatVersion)
        let typeCode = header.arrayType
        guard typeCode <= 8 else { throw .unsupportedArrayType(code: typeCode) }
        guard typeCode == Self.float64Code else { throw .arrayTypeMismatch(found: typeCode, expected: Self.float64Code) }
        // kdbush and flatbush write the nodeSize they were given and lay the tree out with it
        // raised to 2; reading their bytes, they raise it again (0 and 1 are valid headers).
        let nodeSize = Swift.max(header.nodeSize, 2)
        let n = header.count
        let layout = try RTreeLayout(count: n, nodeSize: nodeSize)
        let numNodes = layout.numNodes
        let indexWidth = numNodes < 16_384 ? 2 : 4
        let indexOffset = 8 + numNodes * 32
        let expected = indexOffset + numNodes * indexWidth
        guard bytes.count >= expected else { throw .truncated(expected: expected, actual: bytes.count) }
        guard bytes.count == expected else { throw .trailingBytes(expected: expected, actual: bytes.count) }

        var boxes = ContiguousArray<Double>(repeating: 0, count: numNodes * 4)
        var indices = ContiguousArray<UInt32>(repeating: 0, count: numNodes)
        var failure: IndexError? = nil
        bytes.withUnsafeBytes { raw in
            for i in 0..<(numNodes * 4) { boxes[i] = Double.readLittleEndian(raw, at: 8 + 8 * i) }
            var seen = [UInt64](repeating: 0, count: (n + 63) / 64)
            var level = 0
            var levelStart = 0  // box-array offset of the current level's first box
            var childLevelStart = 0
            for i in 0..<numNodes {
                let offset = indexOffset + i * indexWidth
                let value = SerializedHeader.index(in: raw, at: offset, width: indexWidth)
                if 4 * i >= layout.levelBounds[level] {
                    childLevelStart = levelStart
                    levelStart = layout.levelBounds[level]
                    level += 1
                }
                if level == 0 {
                    let bit = UInt64(1) << UInt64(value & 63)
                    if value >= n || seen[value >> 6] & bit != 0 {
                        failure = .invalidIndexValue(position: i, value: value, offset: offset)
                        return
                    }
                    seen[value >> 6] |= bit
                } else {
                    // Node j of this level packs children j·nodeSize ..< (j+1)·nodeSize of the one below.
                    let j = (4 * i - levelStart) / 4
                    if value != childLevelStart + 4 * j * nodeSize {
                        failure = .invalidIndexValue(position: i, value: value, offset: offset)
                        return
                    }
                }
                indices[i] = UInt32(truncatingIfNeeded: value)
            }
        }
        if let failure { throw failure }
        self.init(boxes: boxes, indices: indices, layout: layout)
    }
}
