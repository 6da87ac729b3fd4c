/// A GeoJSON position: longitude and latitude in degrees, and the optional third value
/// (altitude or depth) that real files carry. Further values are read and dropped.
public struct Position: Hashable, Sendable {
    /// Degrees east.
    public var longitude: Double
    /// Degrees north.
    public var latitude: Double
    /// The third value of the position, when the input had one.
    public var altitude: Double?

    /// A position from its values. O(1).
    @inlinable public init(longitude: Double, latitude: Double, altitude: Double? = nil) {
        self.longitude = longitude
        self.latitude = latitude
        self.altitude = altitude
    }

    /// The position as a ``Coordinate`` (altitude dropped). O(1).
    @inlinable public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}

/// A GeoJSON geometry (RFC 7946 §3.1).
public enum Geometry: Hashable, Sendable {
    case point(Position)
    case multiPoint([Position])
    case lineString([Position])
    case multiLineString([[Position]])
    case polygon([[Position]])
    case multiPolygon([[[Position]]])
    case geometryCollection([Geometry])

    /// The GeoJSON `type` name (`"Point"`, `"LineString"`, …), as the `geometry-type` expression
    /// and error messages spell it. O(1).
    public var typeName: String {
        switch self {
        case .point: "Point"
        case .multiPoint: "MultiPoint"
        case .lineString: "LineString"
        case .multiLineString: "MultiLineString"
        case .polygon: "Polygon"
        case .multiPolygon: "MultiPolygon"
        case .geometryCollection: "GeometryCollection"
        }
    }
}

/// A feature identifier: a number or a string, kept as the input gave it.
public enum FeatureID: Hashable, Sendable {
    case number(Double)
    case string(String)

    /// The identifier as a JSON value. O(1).
    public var jsonValue: JSONValue {
        switch self {
        case .number(let n): .number(n)
        case .string(let s): .string(s)
        }
    }
}

/// A GeoJSON feature: an optional id, a geometry (`nil` for `"geometry": null`) and properties.
///
/// `"properties": null` reads as an empty object.
public struct Feature: Hashable, Sendable {
    /// The top-level `id` member, when present.
    public var id: FeatureID?
    /// The geometry, or `nil` for a feature whose geometry is `null`.
    public var geometry: Geometry?
    /// The properties object.
    public var properties: JSONObject

    /// A feature from its parts. O(1).
    public init(id: FeatureID? = nil, geometry: Geometry?, properties: JSONObject = JSONObject()) {
        self.id = id
        self.geometry = geometry
        self.properties = properties
    }
}
