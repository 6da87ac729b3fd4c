/// The 8-byte header kdbush 4 and flatbush 4 share, and the index arrays both store as 2 or 4
/// little-endian bytes a value.
///
/// Header layout: the format's magic byte; the format version (high nibble) and the array type
/// (low nibble, an index into the JavaScript typed-array list); the node size as `UInt16`; the
/// item count as `UInt32`.
struct SerializedHeader {
    /// The array-type code of the low nibble (7 `Float32Array`, 8 `Float64Array`).
    let arrayType: Int
    let nodeSize: Int
    let count: Int

    /// Appends a header for `count` items to `bytes`. O(1).
    static func append(magic: UInt8, version: Int, arrayType: Int, nodeSize: Int, count: Int, to bytes: inout [UInt8]) {
        bytes.append(magic)
        bytes.append(UInt8(truncatingIfNeeded: version << 4 | arrayType))
        bytes.append(UInt8(truncatingIfNeeded: nodeSize))
        bytes.append(UInt8(truncatingIfNeeded: nodeSize >> 8))
        appendIndexes(CollectionOfOne(UInt32(truncatingIfNeeded: count)), width: 4, to: &bytes)
    }

    /// Reads the header at the start of `bytes`, checking its length, magic and version (the
    /// array type and node size are the format's own to check).
    ///
    /// - Throws: ``IndexError/truncated(expected:actual:)``, ``IndexError/badMagic(found:expected:)``,
    ///   ``IndexError/unsupportedVersion(found:expected:)``.
    /// - Complexity: O(1).
    init(reading bytes: [UInt8], magic: UInt8, version: Int) throws(IndexError) {
        guard bytes.count >= 8 else { throw .truncated(expected: 8, actual: bytes.count) }
        guard bytes[0] == magic else { throw .badMagic(found: bytes[0], expected: magic) }
        let found = Int(bytes[1] >> 4)
        guard found == version else { throw .unsupportedVersion(found: found, expected: version) }
        arrayType = Int(bytes[1] & 0x0f)
        nodeSize = Int(bytes[2]) | Int(bytes[3]) << 8
        count = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
    }

    /// Appends `values` as `width` (2 or 4) little-endian bytes each. O(n).
    static func appendIndexes(_ values: some Collection<UInt32>, width: Int, to bytes: inout [UInt8]) {
        assert(width == 2 || width == 4, "index arrays are Uint16Array or Uint32Array")
        for value in values {
            bytes.append(UInt8(truncatingIfNeeded: value))
            bytes.append(UInt8(truncatingIfNeeded: value >> 8))
            if width == 4 {
                bytes.append(UInt8(truncatingIfNeeded: value >> 16))
                bytes.append(UInt8(truncatingIfNeeded: value >> 24))
            }
        }
    }

    /// The index value of `width` (2 or 4) little-endian bytes at `offset`. O(1).
    @inline(__always)
    static func index(in raw: UnsafeRawBufferPointer, at offset: Int, width: Int) -> Int {
        width == 2
            ? Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
            : Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }
}
