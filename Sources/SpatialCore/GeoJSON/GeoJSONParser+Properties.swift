/// Properties objects, read against the shape (the ordered member names) of the previous one.
///
/// Real files repeat one shape for every feature, so each member name is first compared, as bytes,
/// with the name at the same position in the previous shape; only a name that differs is looked
/// up in the ``KeyTable``. An object of a known shape shares that shape's `[String]` of names, so
/// the names cost no allocation per feature.
extension GeoJSONParser {
    /// Reads a `properties` value (an object, or `null` for none), pushing its member values onto
    /// `values`; returns its shape. A repeated name keeps its first position and last value.
    ///
    /// Three speeds: when the bytes around every value repeat those of the first object of the
    /// expected shape (``MemberTemplates``), each is stepped over with one comparison; else each
    /// name is compared in place with the expected one; else (a new shape) names are looked up.
    mutating func parseProperties(into values: ValueStack) throws(ReadFailure) -> ObjectShape {
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
        let id = Int(expected.id)
        if id < memberTemplates.count, let templates = memberTemplates[id] {
            while matched < expected.count, let next = templates.skip(matched, base: s.base, at: s.pos, end: s.end) {
                s.pos = next
                values.push(try s.parseValue())
                matched += 1
            }
            if matched == expected.count, let next = templates.skip(matched, base: s.base, at: s.pos, end: s.end) {
                s.pos = next
                s.depth -= 1
                return expected
            }
        }
        // Token by token from member `matched` on, noting where the bytes around the values lie
        // when this object may teach the expected shape its templates.
        let learning = matched == 0 && expected.count > 0 && (id >= memberTemplates.count || memberTemplates[id] == nil)
        if learning { templateMarks.removeAll(keepingCapacity: true) }
        var diverged = false
        var afterValue = matched > 0
        while true {
            if learning { templateMarks.append(s.pos) }
            b = s.skipWhitespace()
            if b == UInt8(ascii: "}") {
                s.pos += 1
                s.depth -= 1
                break
            }
            if afterValue {
                guard b == UInt8(ascii: ",") else { throw s.failure(.expectedCommaOrEnd, at: s.pos) }
                s.pos += 1
                b = s.skipWhitespace()
            }
            guard b == UInt8(ascii: "\"") else { throw s.failure(.expectedKey, at: s.pos) }
            if !diverged && matched < expected.count, let next = expected.match(matched, base: s.base, at: s.pos, end: s.end) {
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
            _ = s.skipWhitespace()
            if learning { templateMarks.append(s.pos) }
            values.push(try s.parseValue())
            afterValue = true
        }
        if !diverged {
            if matched == expected.count {
                if learning {
                    templateMarks.append(s.pos)
                    while memberTemplates.count <= id { memberTemplates.append(nil) }
                    memberTemplates[id] = MemberTemplates(base: s.base, marks: templateMarks)
                }
                return expected
            }
            keyScratch.removeAll(keepingCapacity: true)
            keyScratch.append(contentsOf: expected.keyIDs[..<matched])
        }
        if hasRepeatedNames(keyScratch) {
            var tail = values.popArray(from: valueStart)
            foldRepeatedNames(&keyScratch, values: &tail, from: 0)
            for value in tail { values.push(value) }
        }
        let shape = shapes.shape(keyScratch, names: propertyKeys)
        shapes.last = shape
        return shape
    }
}

/// The exact bytes around the member values of the first object of a shape that matched it in
/// full: from after `{` to the first value, from the end of each value to the next one
/// (`,"NAME":` with its white space), and from the end of the last value through `}`. They are
/// checked tokens, so an object that repeats them has the same names in the same places, and
/// the reader steps over each with one comparison.
final class MemberTemplates {
    /// The number of members (templates `0 ..< count` lead to values, template `count` closes).
    let count: Int
    private let bytes: UnsafeMutablePointer<UInt8>
    /// Template `i` spans `starts[i] ..< starts[i + 1]` in `bytes`.
    private let starts: UnsafeMutablePointer<Int>

    /// Templates from `marks`: for each member, where the bytes before its value begin and where
    /// the value begins; then where the bytes after the last value begin and where they end.
    init(base: UnsafePointer<UInt8>, marks: [Int]) {
        count = marks.count / 2 - 1
        starts = .allocate(capacity: count + 2)
        var total = 0
        for i in 0...count {
            starts[i] = total
            total += marks[2 * i + 1] - marks[2 * i]
        }
        starts[count + 1] = total
        bytes = .allocate(capacity: max(total, 1))
        for i in 0...count {
            (bytes + starts[i]).update(from: base + marks[2 * i], count: marks[2 * i + 1] - marks[2 * i])
        }
    }

    deinit {
        bytes.deallocate()
        starts.deallocate()
    }

    /// When the input at `pos` (the input at `base` ends at `end`) repeats template `i`, the
    /// offset after it; else `nil`.
    @inline(__always) func skip(_ i: Int, base: UnsafePointer<UInt8>, at pos: Int, end: Int) -> Int? {
        let start = starts[i]
        let n = starts[i + 1] - start
        guard pos + n <= end, bytesEqual(base + pos, bytes + start, count: n) else { return nil }
        return pos + n
    }
}
