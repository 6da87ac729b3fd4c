/// An error from building a spatial index or reading one from bytes.
///
/// Every case says what was wrong and, for byte buffers, where (a byte offset or an item position),
/// so that a caller can report it. Building and reading never trap on bad input: they throw one of
/// these instead.
public enum IndexError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The node size is outside the accepted range (`2 ... 65_535`).
    case invalidNodeSize(Int)
    /// The x and y coordinate buffers (or min and max arrays) have different lengths.
    case lengthMismatch(expected: Int, actual: Int)
    /// The coordinate of item `index` is NaN (or a box has NaN bounds).
    case invalidCoordinate(index: Int)
    /// More items than the index holds: `UInt32.max` for a k-d tree (its byte count field), 2^29
    /// for a packed R-tree (its node offsets).
    case tooManyItems(Int)
    /// A serialized buffer is shorter than its header or its declared sizes need.
    case truncated(expected: Int, actual: Int)
    /// A serialized buffer has bytes after the declared content.
    case trailingBytes(expected: Int, actual: Int)
    /// The first byte is not the format's magic number.
    case badMagic(found: UInt8, expected: UInt8)
    /// The format version (high 4 bits of byte 1) is not the supported one.
    case unsupportedVersion(found: Int, expected: Int)
    /// The array-type code (low 4 bits of byte 1) is not a floating-point type this index reads.
    case unsupportedArrayType(code: Int)
    /// The array-type code is valid but not the one this index's scalar type stores.
    case arrayTypeMismatch(found: Int, expected: Int)
    /// An id or node index at item `position` (byte `offset`) is out of range or repeated.
    case invalidIndexValue(position: Int, value: Int, offset: Int)
    /// The buffer's structure is inconsistent in a way not covered above.
    case corrupt(reason: String, offset: Int)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .invalidNodeSize(let size): "invalid node size \(size): must be 2 ... 65535"
        case .lengthMismatch(let expected, let actual):
            "coordinate buffers differ in length: \(expected) and \(actual)"
        case .invalidCoordinate(let index): "item \(index) has a NaN coordinate"
        case .tooManyItems(let count):
            "\(count) items are more than the index holds (a k-d tree \(UInt32.max), a packed R-tree \(1 << 29))"
        case .truncated(let expected, let actual):
            "truncated buffer: \(actual) bytes where \(expected) are needed"
        case .trailingBytes(let expected, let actual):
            "buffer has \(actual) bytes where the header declares \(expected)"
        case .badMagic(let found, let expected):
            "byte 0 is 0x\(String(found, radix: 16)), not the magic 0x\(String(expected, radix: 16))"
        case .unsupportedVersion(let found, let expected):
            "byte 1 declares version \(found); only version \(expected) is supported"
        case .unsupportedArrayType(let code): "byte 1 declares unsupported array type \(code)"
        case .arrayTypeMismatch(let found, let expected):
            "byte 1 declares array type \(found); this index stores type \(expected)"
        case .invalidIndexValue(let position, let value, let offset):
            "index value \(value) at position \(position) (byte \(offset)) is out of range or repeated"
        case .corrupt(let reason, let offset): "corrupt buffer at byte \(offset): \(reason)"
        }
    }
}
