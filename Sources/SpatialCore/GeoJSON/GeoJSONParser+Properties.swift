/// Properties objects, read against the shape (the ordered member names) of the previous one.
///
/// Real files repeat one shape for every feature, so each member name is first compared, as bytes,
/// with the name at the same position in the previous shape; only a name that differs is looked
/// up in the ``KeyTable``. An object of a known shape shares that shape's `[String]` of names, so
/// the names cost no allocation per feature.
extension GeoJSONParser {
    /// Reads a `properties` value (an object, or `null` for none), appending its member values
    /// to `values`; returns its shape. A repeated name keeps its first position and last value.
    mutating func parseProperties(into values: inout [JSONValue]) throws(ReadFailure) -> PropertyShape {
        var b = s.skipWhitespace()
        if b == UInt8(ascii: "n") {
            _ = try s.parseLiteral()
            return shapes.empty
        }
        guard b == UInt8(ascii: "{") else {
            throw try wrongType(what: "\"properties\" must be an object or null")
        }
        try s.enterContainer()
        let expected = shapes.last
        let valueStart = values.count
        var matched = 0
        var diverged = false
        b = s.skipWhitespace()
        if b == UInt8(ascii: "}") {
            s.pos += 1
            s.depth -= 1
        } else {
            while true {
                guard b == UInt8(ascii: "\"") else { throw s.failure(.expectedKey, at: s.pos) }
                if !diverged && matched < expected.count, let next = expected.match(matched, in: s) {
                    // The expected name, compared in place: no scan, no lookup.
                    s.pos = next
                    matched += 1
                } else {
                    let raw = try s.scanString()
                    if !diverged {
                        diverged = true
                        keyScratch.removeAll(keepingCapacity: true)
                        keyScratch.append(contentsOf: expected.keyIDs[..<matched])
                    }
                    keyScratch.append(s.withUnescapedBytes(raw) { propertyKeys.id(of: $0) })
                }
                b = s.skipWhitespace()
                guard b == UInt8(ascii: ":") else { throw s.failure(.expectedColon, at: s.pos) }
                s.pos += 1
                values.append(try s.parseValue())
                b = s.skipWhitespace()
                if b == UInt8(ascii: ",") {
                    s.pos += 1
                    b = s.skipWhitespace()
                    continue
                }
                guard b == UInt8(ascii: "}") else { throw s.failure(.expectedCommaOrEnd, at: s.pos) }
                s.pos += 1
                s.depth -= 1
                break
            }
        }
        if !diverged {
            if matched == expected.count { return expected }
            keyScratch.removeAll(keepingCapacity: true)
            keyScratch.append(contentsOf: expected.keyIDs[..<matched])
        }
        removeRepeatedNames(values: &values, from: valueStart)
        let shape = shapes.shape(keyScratch, names: propertyKeys)
        shapes.last = shape
        return shape
    }

    /// Folds repeated names in `keyScratch` (the names of `values[from...]`): the first keeps its
    /// position and takes the last value, later ones go.
    private mutating func removeRepeatedNames(values: inout [JSONValue], from start: Int) {
        let n = keyScratch.count
        guard n > 1 else { return }
        var repeated = false
        if n <= 32 {
            outer: for i in 1..<n {
                for j in 0..<i where keyScratch[j] == keyScratch[i] {
                    repeated = true
                    break outer
                }
            }
        } else {
            repeated = Set(keyScratch).count != n
        }
        guard repeated else { return }
        var ids: [Int32] = []
        var kept: [JSONValue] = []
        for i in 0..<n {
            let value = values[start + i]
            if let j = ids.firstIndex(of: keyScratch[i]) {
                kept[j] = value
            } else {
                ids.append(keyScratch[i])
                kept.append(value)
            }
        }
        keyScratch = ids
        values.replaceSubrange(start..., with: kept)
    }
}

/// The distinct shapes of properties objects, numbered from 0 (the empty shape).
struct ShapeTable {
    /// The shapes, by number.
    private(set) var shapes: [PropertyShape]
    private var lookup: [[Int32]: PropertyShape]
    /// The shape of the most recent properties object (the prediction for the next one).
    var last: PropertyShape
    /// The shape with no members.
    let empty: PropertyShape

    init() {
        empty = PropertyShape(id: 0, keyIDs: [], names: KeyTable())
        shapes = [empty]
        lookup = [[]: empty]
        last = empty
    }

    /// The shape with these name numbers, adding it if it is new.
    mutating func shape(_ ids: [Int32], names table: KeyTable) -> PropertyShape {
        if let shape = lookup[ids] { return shape }
        let shape = PropertyShape(id: Int32(shapes.count), keyIDs: ids, names: table)
        shapes.append(shape)
        lookup[ids] = shape
        return shape
    }
}

/// One shape: the ordered, distinct names of a properties object, with their bytes laid out for
/// comparing in place against the input.
final class PropertyShape {
    /// The shape's number in its ``ShapeTable``.
    let id: Int32
    /// Name numbers (in the parser's ``KeyTable``), in member order.
    let keyIDs: [Int32]
    /// The names, in member order; shared by every `JSONObject` of this shape.
    let names: [String]
    /// The number of names.
    let count: Int
    /// The names' UTF-8 bytes back to back; name `i` spans `starts[i] ..< starts[i + 1]`.
    private let bytes: UnsafeMutablePointer<UInt8>
    private let starts: UnsafeMutablePointer<Int>
    /// Per name: whether it needs no escape in JSON (so that its raw input bytes equal it).
    private let plain: UnsafeMutablePointer<Bool>

    init(id: Int32, keyIDs: [Int32], names table: KeyTable) {
        self.id = id
        self.keyIDs = keyIDs
        names = keyIDs.map { table.strings[Int($0)] }
        count = keyIDs.count
        starts = .allocate(capacity: count + 1)
        plain = .allocate(capacity: max(count, 1))
        var total = 0
        for (i, var name) in names.enumerated() {
            starts[i] = total
            total += name.utf8.count
            plain[i] = name.withUTF8 { $0.allSatisfy { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C } }
        }
        starts[count] = total
        bytes = .allocate(capacity: max(total, 1))
        for (i, var name) in names.enumerated() {
            name.withUTF8 { (bytes + starts[i]).update(from: $0.baseAddress!, count: $0.count) }
        }
    }

    deinit {
        bytes.deallocate()
        starts.deallocate()
        plain.deallocate()
    }

    /// When the string at the scanner's position (on its opening quote) is exactly name `i`
    /// written without escapes, the offset after its closing quote; else `nil`.
    @inline(__always) func match(_ i: Int, in s: JSONScanner) -> Int? {
        let start = starts[i]
        let n = starts[i + 1] - start
        let p = s.pos + 1
        guard plain[i], p + n < s.end, s.base[p + n] == UInt8(ascii: "\""),
            bytesEqual(s.base + p, bytes + start, count: n)
        else { return nil }
        return p + n + 1
    }
}
