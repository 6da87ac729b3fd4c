/// A geographic rectangle in degrees, `[west, south, east, north]` as GeoJSON and the clustering
/// queries write it.
///
/// It may cross the antimeridian (`west > east`, e.g. `170 … −170`) and, as the visible bounds of a
/// camera at low zoom, it may span 360° or more (`east − west ≥ 360`, stored unwrapped).
public struct GeoBoundingBox: Hashable, Sendable {
    /// The western edge in degrees.
    public var west: Double
    /// The southern edge in degrees.
    public var south: Double
    /// The eastern edge in degrees; less than ``west`` when the box crosses the antimeridian.
    public var east: Double
    /// The northern edge in degrees.
    public var north: Double

    /// A box from its edges, kept as given. O(1).
    @inlinable public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// The box of the whole world (`[−180, −90, 180, 90]`).
    public static let world = GeoBoundingBox(west: -180, south: -90, east: 180, north: 90)

    /// Whether the box spans at least one whole turn of longitude. O(1).
    @inlinable public var coversAllLongitudes: Bool { east - west >= 360 }

    /// Whether the box crosses the antimeridian, i.e. splits into two ``antimeridianParts``. O(1).
    @inlinable public var crossesAntimeridian: Bool { antimeridianParts.count == 2 }

    /// The box as at most two boxes that do not cross the antimeridian, with longitudes within
    /// −180 … 180: one box for an ordinary box, the eastern part (west … 180) then the western part
    /// (−180 … east) for one that crosses, and −180 … 180 for one that spans 360° or more. O(1).
    public var antimeridianParts: [GeoBoundingBox] {
        if coversAllLongitudes || (west <= -180 && east >= 180) {
            return [GeoBoundingBox(west: -180, south: south, east: 180, north: north)]
        }
        let w = Longitude.wrapped(west)
        var e = Longitude.wrapped(east)
        if e == -180 && east > west { e = 180 }
        if w <= e {
            return [GeoBoundingBox(west: w, south: south, east: e, north: north)]
        }
        return [
            GeoBoundingBox(west: w, south: south, east: 180, north: north),
            GeoBoundingBox(west: -180, south: south, east: e, north: north),
        ]
    }

    /// Whether `coordinate` lies inside the box, edges included, in any world copy. O(1).
    public func contains(_ coordinate: Coordinate) -> Bool {
        guard coordinate.latitude >= south, coordinate.latitude <= north else { return false }
        if coversAllLongitudes { return true }
        let lng = Longitude.wrapped(coordinate.longitude)
        for part in antimeridianParts where lng >= part.west && lng <= part.east { return true }
        // 180 and −180 are the same meridian.
        if lng == -180 { return antimeridianParts.contains { $0.east >= 180 } }
        return false
    }
}
