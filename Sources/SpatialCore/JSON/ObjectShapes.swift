/// Object shapes: readers predict an object's member names from the previous object of the same
/// kind (the previous `properties`, or the previous object at the same depth), compare each name
/// in place against the input, and share one `[String]` of names among all objects of a shape.

/// The distinct shapes of objects (ordered, distinct member names), numbered from 0 (the empty
/// shape).
struct ShapeTable {
    /// The shapes, by number.
    private(set) var shapes: [ObjectShape] = [.empty]
    private var lookup: [[Int32]: ObjectShape] = [:]
    /// The shape of the most recent properties object (the prediction for the next one).
    var last: ObjectShape = .empty
    /// The shape with no members (number 0 in every table).
    var empty: ObjectShape { .empty }

    /// The shape with these name numbers, adding it if it is new.
    mutating func shape(_ ids: [Int32], names table: KeyTable) -> ObjectShape {
        if ids.isEmpty { return .empty }
        if let shape = lookup[ids] { return shape }
        let shape = ObjectShape(id: Int32(shapes.count), keyIDs: ids, names: table)
        shapes.append(shape)
        lookup[ids] = shape
        return shape
    }
}

/// One shape: the ordered, distinct member names of an object, with their bytes laid out for
/// comparing in place against the input.
final class ObjectShape: @unchecked Sendable {  // immutable after init
    /// The shape with no members, shared by every table (as number 0).
    static let empty = ObjectShape(id: 0, keyIDs: [], names: KeyTable())

    /// The shape's number in its ``ShapeTable``.
    let id: Int32
    /// Name numbers (in the parser's ``KeyTable``), in member order.
    let keyIDs: [Int32]
    /// The names, in member order; shared by every `JSONObject` of this shape.
    let names: [String]
    /// The number of names.
    let count: Int
    /// One allocation: where each name's bytes start (`count + 1` offsets into `bytes`), then
    /// whether each name needs no escape in JSON (so that its raw input bytes equal it), then
    /// the names' UTF-8 bytes back to back.
    private let starts: UnsafeMutablePointer<Int>
    private let plain: UnsafeMutablePointer<Bool>
    private let bytes: UnsafeMutablePointer<UInt8>

    init(id: Int32, keyIDs: [Int32], names table: KeyTable) {
        self.id = id
        self.keyIDs = keyIDs
        names = keyIDs.map { table.strings[Int($0)] }
        count = keyIDs.count
        let total = names.reduce(0) { $0 + $1.utf8.count }
        let offsetsSize = (count + 1) * MemoryLayout<Int>.stride
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: offsetsSize + count + total, alignment: MemoryLayout<Int>.alignment)
        starts = raw.bindMemory(to: Int.self, capacity: count + 1)
        plain = (raw + offsetsSize).bindMemory(to: Bool.self, capacity: count)
        bytes = (raw + offsetsSize + count).bindMemory(to: UInt8.self, capacity: total)
        var offset = 0
        for (i, var name) in names.enumerated() {
            starts[i] = offset
            name.withUTF8 { utf8 in
                plain[i] = utf8.allSatisfy { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }
                if let source = utf8.baseAddress { (bytes + offset).update(from: source, count: utf8.count) }
                offset += utf8.count
            }
        }
        starts[count] = offset
    }

    deinit {
        UnsafeMutableRawPointer(starts).deallocate()
    }

    /// When the string at `pos` of the input at `base` (on its opening quote; the input ends at
    /// `end`) is exactly name `i` written without escapes, the offset after its closing quote;
    /// else `nil`.
    @inline(__always) func match(_ i: Int, base: UnsafePointer<UInt8>, at pos: Int, end: Int) -> Int? {
        let start = starts[i]
        let n = starts[i + 1] - start
        let p = pos + 1
        guard plain[i], p + n < end, base[p + n] == UInt8(ascii: "\""),
            bytesEqual(base + p, bytes + start, count: n)
        else { return nil }
        return p + n + 1
    }
}

/// Whether some name number occurs twice in `ids`. O(n²) for small n.
func hasRepeatedNames(_ ids: [Int32]) -> Bool {
    let n = ids.count
    guard n > 1 else { return false }
    if n > 32 { return Set(ids).count != n }
    for i in 1..<n {
        for j in 0..<i where ids[j] == ids[i] { return true }
    }
    return false
}

/// Folds repeated names in `ids` (the names of `values[start...]`): the first keeps its position
/// and takes the last value, as `JSON.parse` does; later ones go.
func foldRepeatedNames(_ ids: inout [Int32], values: inout [JSONValue], from start: Int) {
    guard hasRepeatedNames(ids) else { return }
    var kept: [Int32] = []
    var keptValues: [JSONValue] = []
    for i in 0..<ids.count {
        let value = values[start + i]
        if let j = kept.firstIndex(of: ids[i]) {
            keptValues[j] = value
        } else {
            kept.append(ids[i])
            keptValues.append(value)
        }
    }
    ids = kept
    values.replaceSubrange(start..., with: keptValues)
}
