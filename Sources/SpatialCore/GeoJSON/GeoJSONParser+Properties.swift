/// Properties objects, read against the shape (the ordered member names) of the previous one.
///
/// Real files repeat one shape for every feature, so each member name is first compared, as bytes,
/// with the name at the same position in the previous shape; only a name that differs is looked
/// up in the ``KeyTable``. An object of a known shape shares that shape's `[String]` of names, so
/// the names cost no allocation per feature.
extension GeoJSONParser {
    /// Reads a `properties` value (an object, or `null` for none), pushing its member values onto
    /// `values`; returns its shape. A repeated name keeps its first position and last value.
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
        var diverged = false
        b = s.skipWhitespace()
        if b == UInt8(ascii: "}") {
            s.pos += 1
            s.depth -= 1
        } else {
            while true {
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
                values.push(try s.parseValue())
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
