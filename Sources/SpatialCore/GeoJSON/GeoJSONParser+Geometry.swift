/// Geometries and positions, read straight into ``Geometry`` / ``Position``.
extension GeoJSONParser {
    /// Reads a `geometry` value: a geometry object, or `null` (`nil`).
    mutating func parseGeometryValue(pointsOnly: Bool = false) throws(ReadFailure) -> Geometry? {
        let b = s.skipWhitespace()
        if b == UInt8(ascii: "{") { return try parseGeometryObject(pointsOnly: pointsOnly) }
        if b == UInt8(ascii: "n") {
            _ = try s.parseLiteral()
            return nil
        }
        throw try wrongType(what: "\"geometry\" must be a geometry object or null")
    }

    /// Reads the geometry object at `pos` (on its `{`). With `pointsOnly`, any type but `Point`
    /// is `.notAPoint`.
    mutating func parseGeometryObject(pointsOnly: Bool = false) throws(ReadFailure) -> Geometry {
        let start = s.pos
        if pointHead.skip(&s) != nil {
            // The same opening bytes as a Point before: `{"type":"Point","coordinates":`.
            try s.enterContainer()
            s.pos = start + pointHead.count
            var geometry = try parseCoordinates(of: .point)
            var first = false
            while let key = try nextMember(&first) {
                if key == .coordinates { geometry = try parseCoordinates(of: .point) } else { try s.skipValue() }
            }
            return geometry
        }
        let found = try determineType()
        let type = found.type
        guard type.isGeometry else {
            throw ReadFailure(geo: .unexpectedType, at: found.offset, "expected a geometry, found a \(type.name)")
        }
        if pointsOnly && type != .point {
            throw ReadFailure(
                geo: .notAPoint, at: found.offset, "the geometry is a \(type.name); only Point (or null) is accepted here")
        }
        try enterObject(found)
        var first = !found.entered
        var geometry: Geometry?
        var members = found.entered ? 1 : 0
        while let key = try nextMember(&first) {
            members += 1
            switch key {
            case .coordinates where type != .geometryCollection:
                if type == .point && members == 2 && found.entered { pointHead.learn(from: s, start: start, key: key) }
                geometry = try parseCoordinates(of: type)
            case .geometries where type == .geometryCollection:
                geometry = .geometryCollection(try parseGeometries())
            default:
                try s.skipValue()
            }
        }
        guard let geometry else {
            let member = type == .geometryCollection ? "geometries" : "coordinates"
            throw ReadFailure(geo: .missingMember, at: start, "a \(type.name) needs \"\(member)\"")
        }
        return geometry
    }

    /// Reads a `coordinates` value for a geometry of `type`.
    private mutating func parseCoordinates(of type: GeoType) throws(ReadFailure) -> Geometry {
        switch type {
        case .point:
            return .point(try parsePosition(what: "the coordinates of a Point must be a position (an array of numbers)"))
        case .multiPoint:
            return .multiPoint(try parsePositions(what: "the coordinates of a MultiPoint must be an array of positions"))
        case .lineString:
            return .lineString(try parsePositions(what: "the coordinates of a LineString must be an array of positions"))
        case .multiLineString:
            let what = "the coordinates of a MultiLineString must be an array of arrays of positions"
            return .multiLineString(try parseArray(what: what) { (p: inout GeoJSONParser) throws(ReadFailure) in
                try p.parsePositions(what: what)
            })
        case .polygon:
            let what = "the coordinates of a Polygon must be an array of rings (arrays of positions)"
            return .polygon(try parseArray(what: what) { (p: inout GeoJSONParser) throws(ReadFailure) in
                try p.parsePositions(what: what)
            })
        case .multiPolygon:
            let what = "the coordinates of a MultiPolygon must be an array of polygons (arrays of rings)"
            return .multiPolygon(try parseArray(what: what) { (p: inout GeoJSONParser) throws(ReadFailure) in
                try p.parseArray(what: what) { (p: inout GeoJSONParser) throws(ReadFailure) in
                    try p.parsePositions(what: what)
                }
            })
        case .geometryCollection, .feature, .featureCollection:
            preconditionFailure("not a geometry with coordinates")
        }
    }

    /// Reads a `geometries` value: an array of geometry objects.
    private mutating func parseGeometries() throws(ReadFailure) -> [Geometry] {
        let what = "\"geometries\" must be an array of geometry objects"
        return try parseArray(what: what) { (p: inout GeoJSONParser) throws(ReadFailure) in
            try p.expectObject(what: what)
            return try p.parseGeometryObject()
        }
    }

    /// Reads a JSON array at the next value whose elements `element` reads; `what` explains the
    /// failure when the value is not an array.
    @inline(__always) private mutating func parseArray<T>(
        what: String, _ element: (inout GeoJSONParser) throws(ReadFailure) -> T
    ) throws(ReadFailure) -> [T] {
        guard s.skipWhitespace() == UInt8(ascii: "[") else { throw try wrongType(what: what) }
        try s.enterContainer()
        var result: [T] = []
        if s.skipWhitespace() == UInt8(ascii: "]") {
            s.pos += 1
            s.depth -= 1
            return result
        }
        while true {
            result.append(try element(&self))
            let b = s.skipWhitespace()
            if b == UInt8(ascii: ",") {
                s.pos += 1
                continue
            }
            guard b == UInt8(ascii: "]") else { throw s.failure(.expectedCommaOrEnd, at: s.pos) }
            s.pos += 1
            s.depth -= 1
            return result
        }
    }

    /// Reads an array of positions.
    @inline(__always) private mutating func parsePositions(what: String) throws(ReadFailure) -> [Position] {
        try parseArray(what: what) { (p: inout GeoJSONParser) throws(ReadFailure) in
            try p.parsePosition(what: what)
        }
    }

    /// Reads a position: two or more numbers, longitude and latitude first; the third is kept as
    /// the altitude, further ones are checked and dropped. The latitude must lie in −90 … 90.
    @inline(__always) mutating func parsePosition(what: @autoclosure () -> String) throws(ReadFailure) -> Position {
        guard s.skipWhitespace() == UInt8(ascii: "[") else { throw try wrongType(what: what()) }
        try s.enterContainer()
        let longitude = try coordinate(first: true)
        var b = s.skipWhitespace()
        guard b == UInt8(ascii: ",") else { throw positionEnd(b) }
        s.pos += 1
        _ = s.skipWhitespace()
        let latitudeOffset = s.pos
        let latitude = try coordinate(first: false)
        if !(latitude >= -90 && latitude <= 90) {
            throw ReadFailure(geo: .latitudeOutOfRange, at: latitudeOffset, "latitude \(JSONValue.number(latitude).jsonString()) is outside -90 … 90")
        }
        b = s.skipWhitespace()
        var altitude: Double?
        if b == UInt8(ascii: ",") {
            s.pos += 1
            altitude = try coordinate(first: false)
            b = s.skipWhitespace()
            while b == UInt8(ascii: ",") {
                s.pos += 1
                _ = try coordinate(first: false)
                b = s.skipWhitespace()
            }
        }
        guard b == UInt8(ascii: "]") else { throw s.failure(.expectedCommaOrEnd, at: s.pos) }
        s.pos += 1
        s.depth -= 1
        return Position(longitude: longitude, latitude: latitude, altitude: altitude)
    }

    /// The failure after a position's first number when no `,` follows.
    private func positionEnd(_ b: UInt8) -> ReadFailure {
        if b == UInt8(ascii: "]") {
            return ReadFailure(geo: .badPosition, at: s.pos, "a position needs at least two numbers")
        }
        return s.failure(.expectedCommaOrEnd, at: s.pos)
    }

    /// Reads one number of a position.
    @inline(__always) private mutating func coordinate(first: Bool) throws(ReadFailure) -> Double {
        let b = s.skipWhitespace()
        if isDigit(b) || b == UInt8(ascii: "-") { return try s.parseNumber() }
        if first && b == UInt8(ascii: "]") {
            throw ReadFailure(geo: .badPosition, at: s.pos, "a position needs at least two numbers")
        }
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "t"), UInt8(ascii: "f"),
            UInt8(ascii: "n"):
            throw try wrongType(what: "a coordinate must be a number", kind: .badPosition)
        default:
            throw s.notANumber(at: s.pos)
        }
    }
}
