/// Writes GeoJSON: compact, valid RFC 7946 text that ``GeoJSONReader`` reads back to equal
/// features, numbers bit for bit.
///
/// Numbers follow the rules of ``JSONValue/jsonString()``: the shortest digits that read back
/// exactly, integers without `.0`, `-0` kept, non-finite numbers as `null`. A feature is written
/// `{"type":"Feature","id":…,"geometry":…,"properties":{…}}` (no `id` member when it has none);
/// positions as `[lng,lat]` or `[lng,lat,alt]`.
///
///     var writer = GeoJSONWriter()
///     writer.writeFeatureCollection(features)
///     let text = writer.string
public struct GeoJSONWriter {
    private var out = JSONOutput()

    /// An empty writer. O(1).
    public init() {}

    /// The text written so far, as UTF-8.
    public var bytes: [UInt8] { out.bytes }

    /// The text written so far.
    public var string: String { String(decoding: out.bytes, as: UTF8.self) }

    /// Writes a FeatureCollection of `features`. O(size).
    public mutating func writeFeatureCollection<S: Sequence>(_ features: S) where S.Element == Feature {
        out.append(#"{"type":"FeatureCollection","features":["#)
        var first = true
        for feature in features {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            write(feature)
        }
        out.append("]}")
    }

    /// Writes newline-delimited GeoJSON: each feature on its own line. O(size).
    public mutating func writeNewlineDelimited<S: Sequence>(_ features: S) where S.Element == Feature {
        for feature in features {
            write(feature)
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// Writes one Feature object. O(size).
    public mutating func write(_ feature: Feature) {
        out.append(#"{"type":"Feature","#)
        switch feature.id {
        case .number(let n)?:
            out.append(#""id":"#)
            out.write(n)
            out.append(UInt8(ascii: ","))
        case .string(let s)?:
            out.append(#""id":"#)
            out.write(s)
            out.append(UInt8(ascii: ","))
        case nil: break
        }
        out.append(#""geometry":"#)
        write(feature.geometry)
        out.append(#","properties":"#)
        out.write(feature.properties)
        out.append(UInt8(ascii: "}"))
    }

    /// Writes a geometry object, or `null`. O(size).
    public mutating func write(_ geometry: Geometry?) {
        guard let geometry else {
            out.append("null")
            return
        }
        out.append(#"{"type":""#)
        out.bytes.append(contentsOf: geometry.typeName.utf8)
        if case .geometryCollection(let members) = geometry {
            out.append(#"","geometries":["#)
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(member)
            }
            out.append("]}")
            return
        }
        out.append(#"","coordinates":"#)
        switch geometry {
        case .point(let p): write(p)
        case .multiPoint(let ps), .lineString(let ps): write(ps)
        case .multiLineString(let lines), .polygon(let lines): writeArray(lines) { $0.write($1) }
        case .multiPolygon(let polygons): writeArray(polygons) { w, polygon in w.writeArray(polygon) { $0.write($1) } }
        case .geometryCollection: break
        }
        out.append(UInt8(ascii: "}"))
    }

    private mutating func write(_ position: Position) {
        out.append(UInt8(ascii: "["))
        out.write(position.longitude)
        out.append(UInt8(ascii: ","))
        out.write(position.latitude)
        if let altitude = position.altitude {
            out.append(UInt8(ascii: ","))
            out.write(altitude)
        }
        out.append(UInt8(ascii: "]"))
    }

    private mutating func write(_ positions: [Position]) {
        writeArray(positions) { $0.write($1) }
    }

    private mutating func writeArray<T>(_ elements: [T], _ element: (inout GeoJSONWriter, T) -> Void) {
        out.append(UInt8(ascii: "["))
        for (i, e) in elements.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            element(&self, e)
        }
        out.append(UInt8(ascii: "]"))
    }
}

extension FeatureCollection {
    /// The collection as GeoJSON text (the report is not written). O(size).
    public func geoJSONString() -> String {
        var writer = GeoJSONWriter()
        writer.writeFeatureCollection(features)
        return writer.string
    }
}

extension Feature {
    /// The feature as a GeoJSON Feature object. O(size).
    public func geoJSONString() -> String {
        var writer = GeoJSONWriter()
        writer.write(self)
        return writer.string
    }
}

extension Geometry {
    /// The geometry as a GeoJSON geometry object. O(size).
    public func geoJSONString() -> String {
        var writer = GeoJSONWriter()
        writer.write(self)
        return writer.string
    }
}
