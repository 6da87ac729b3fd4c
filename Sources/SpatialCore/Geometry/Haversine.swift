import Foundation

/// Great-circle distances on a spherical Earth.
public enum GeodesicDistance {
    /// The mean Earth radius in metres (IUGG), the radius the haversine formula uses here.
    public static let earthRadius: Double = 6_371_008.8

    /// The haversine great-circle distance between two coordinates, in metres. O(1).
    ///
    /// Accurate to about 0.5% against the ellipsoid, which is what ranking taps by ground distance
    /// needs; longitudes need not be wrapped.
    public static func haversine(_ a: Coordinate, _ b: Coordinate) -> Double {
        let radians = Double.pi / 180
        let phi1 = a.latitude * radians
        let phi2 = b.latitude * radians
        let dPhi = phi2 - phi1
        let dLambda = (b.longitude - a.longitude) * radians
        let s1 = sin(dPhi / 2)
        let s2 = sin(dLambda / 2)
        let h = s1 * s1 + cos(phi1) * cos(phi2) * s2 * s2
        // atan2 keeps full precision near antipodes, where asin(√h) does not.
        return 2 * earthRadius * atan2(h.squareRoot(), max(0, 1 - h).squareRoot())
    }
}

extension Coordinate {
    /// The haversine distance to `other`, in metres. O(1).
    @inlinable public func distance(to other: Coordinate) -> Double {
        GeodesicDistance.haversine(self, other)
    }
}
