/// A coordinate type a ``KDTree`` can store: `Double` (kdbush `Float64Array`) or `Float`
/// (`Float32Array`, half the memory, coordinates rounded to nearest on insertion).
///
/// Queries always compare a `Double` query against the stored value converted to `Double`, as
/// JavaScript does when reading a `Float32Array`.
public protocol KDTreeScalar: BinaryFloatingPoint, Sendable {
    /// The kdbush / flatbush array-type code of this type (7 for `Float32Array`, 8 for
    /// `Float64Array`). O(1).
    static var indexArrayTypeCode: UInt8 { get }
    /// The stored value nearest to `value` (round to nearest, ties to even). O(1).
    init(indexValue value: Double)
    /// The stored value as a `Double` (exact). O(1).
    var indexDouble: Double { get }
    /// Appends the value's little-endian bytes to `bytes`. O(1) amortised.
    func appendLittleEndian(to bytes: inout [UInt8])
    /// Reads a value from little-endian bytes at `offset` (unaligned). O(1).
    static func readLittleEndian(_ raw: UnsafeRawBufferPointer, at offset: Int) -> Self
}

extension Double: KDTreeScalar {
    /// 8: `Float64Array`. O(1).
    @inlinable public static var indexArrayTypeCode: UInt8 { 8 }
    /// The value itself. O(1).
    @inlinable public init(indexValue value: Double) { self = value }
    /// The value itself. O(1).
    @inlinable public var indexDouble: Double { self }
    /// Appends 8 little-endian bytes. O(1) amortised.
    @inlinable public func appendLittleEndian(to bytes: inout [UInt8]) {
        var bits = bitPattern.littleEndian
        withUnsafeBytes(of: &bits) { bytes.append(contentsOf: $0) }
    }
    /// Reads 8 little-endian bytes at `offset`. O(1).
    @inlinable public static func readLittleEndian(_ raw: UnsafeRawBufferPointer, at offset: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }
}

extension Float: KDTreeScalar {
    /// 7: `Float32Array`. O(1).
    @inlinable public static var indexArrayTypeCode: UInt8 { 7 }
    /// Rounds to nearest, ties to even, as a `Float32Array` store does. O(1).
    @inlinable public init(indexValue value: Double) { self = Float(value) }
    /// The exact `Double` value. O(1).
    @inlinable public var indexDouble: Double { Double(self) }
    /// Appends 4 little-endian bytes. O(1) amortised.
    @inlinable public func appendLittleEndian(to bytes: inout [UInt8]) {
        var bits = bitPattern.littleEndian
        withUnsafeBytes(of: &bits) { bytes.append(contentsOf: $0) }
    }
    /// Reads 4 little-endian bytes at `offset`. O(1).
    @inlinable public static func readLittleEndian(_ raw: UnsafeRawBufferPointer, at offset: Int) -> Float {
        Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }
}
