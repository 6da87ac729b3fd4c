extension KDTree {
    /// kdbush's magic byte.
    static var magic: UInt8 { 0xdb }
    /// kdbush's serialized format version.
    static var formatVersion: Int { 1 }

    /// The tree as kdbush 4 serializes it (`index.data`, readable by `KDBush.from`): an 8-byte header
    /// (magic `0xdb`, version 1 and array type in one byte, nodeSize as `UInt16`, count as
    /// `UInt32`), the ids (`UInt16` below 65,536 points, else `UInt32`), zero padding to 8 bytes,
    /// then the interleaved coordinates; all little-endian.
    ///
    /// - Complexity: O(n).
    public var data: [UInt8] {
        let n = count
        let idWidth = n < 65_536 ? 2 : 4
        let idBytes = n * idWidth
        let padding = (8 - idBytes % 8) % 8
        let scalarWidth = MemoryLayout<Scalar>.size
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 + idBytes + padding + 2 * n * scalarWidth)
        SerializedHeader.append(magic: Self.magic, version: Self.formatVersion, arrayType: Int(Scalar.indexArrayTypeCode),
                                nodeSize: nodeSize, count: n, to: &bytes)
        SerializedHeader.appendIndexes(ids, width: idWidth, to: &bytes)
        bytes.append(contentsOf: repeatElement(0, count: padding))
        for value in coords { value.appendLittleEndian(to: &bytes) }
        return bytes
    }

    /// Reads a tree from kdbush 4 bytes (see ``data``), validating everything before use: header,
    /// version, array type (it must be this tree's `Scalar`), the exact byte length, and
    /// that the ids are a permutation of `0 ..< count`.
    /// A node size of 0 or 1 reads as 2, as the JavaScript library reads it (its trees are laid
    /// out with 2 then, while the header keeps the size it was given).
    ///
    /// - Throws: ``IndexError/truncated(expected:actual:)``, ``IndexError/trailingBytes(expected:actual:)``,
    ///   ``IndexError/badMagic(found:expected:)``, ``IndexError/unsupportedVersion(found:expected:)``,
    ///   ``IndexError/unsupportedArrayType(code:)``, ``IndexError/arrayTypeMismatch(found:expected:)``,
    ///   ``IndexError/invalidIndexValue(position:value:offset:)``.
    /// - Complexity: O(n).
    public init(data: some Collection<UInt8>) throws(IndexError) {
        let bytes = Array(data)
        let header = try SerializedHeader(reading: bytes, magic: Self.magic, version: Self.formatVersion)
        let typeCode = header.arrayType
        guard typeCode == 7 || typeCode == 8 else { throw .unsupportedArrayType(code: typeCode) }
        guard typeCode == Int(Scalar.indexArrayTypeCode) else {
            throw .arrayTypeMismatch(found: typeCode, expected: Int(Scalar.indexArrayTypeCode))
        }
        // kdbush and flatbush write the nodeSize they were given and lay the tree out with it
        // raised to 2; reading their bytes, they raise it again (0 and 1 are valid headers).
        let nodeSize = Swift.max(header.nodeSize, 2)
        let n = header.count
        let idWidth = n < 65_536 ? 2 : 4
        let idBytes = n * idWidth
        let padding = (8 - idBytes % 8) % 8
        let scalarWidth = MemoryLayout<Scalar>.size
        let coordOffset = 8 + idBytes + padding
        let expected = coordOffset + 2 * n * scalarWidth
        guard bytes.count >= expected else { throw .truncated(expected: expected, actual: bytes.count) }
        guard bytes.count == expected else { throw .trailingBytes(expected: expected, actual: bytes.count) }

        var ids = ContiguousArray<UInt32>(repeating: 0, count: n)
        var coords = ContiguousArray<Scalar>(repeating: 0, count: 2 * n)
        var failure: IndexError? = nil
        bytes.withUnsafeBytes { raw in
            var seen = [UInt64](repeating: 0, count: (n + 63) / 64)
            for i in 0..<n {
                let offset = 8 + i * idWidth
                let id = SerializedHeader.index(in: raw, at: offset, width: idWidth)
                let bit = UInt64(1) << UInt64(id & 63)
                if id >= n || seen[id >> 6] & bit != 0 {
                    failure = .invalidIndexValue(position: i, value: id, offset: offset)
                    return
                }
                seen[id >> 6] |= bit
                ids[i] = UInt32(truncatingIfNeeded: id)
            }
            for i in 0..<(2 * n) {
                coords[i] = Scalar.readLittleEndian(raw, at: coordOffset + i * scalarWidth)
            }
        }
        if let failure { throw failure }
        self.init(orderedIDs: ids, coords: coords, nodeSize: nodeSize)
    }
}
