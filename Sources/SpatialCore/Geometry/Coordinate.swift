/// A geographic position in degrees (WGS 84), latitude first as in CoreLocation.
///
/// A plain value: nothing is validated or wrapped on creation; readers and indexes validate and
/// wrap where their contracts say so.
public struct Coordinate: Hashable, Sendable {
    /// Degrees north of the equator, −90 … 90 for a valid position.
    public var latitude: Double
    /// Degrees east of Greenwich; any value, wrapped into −180 ..< 180 where results are returned.
    public var longitude: Double

    /// A coordinate from latitude and longitude in degrees. O(1).
    @inlinable public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both values are finite and the latitude is within −90 … 90. O(1).
    @inlinable public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && latitude >= -90 && latitude <= 90
    }
}
