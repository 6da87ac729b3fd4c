/// Longitude arithmetic on the circle of degrees.
public enum Longitude {
    /// `longitude` moved by whole turns into −180 ..< 180; NaN and infinities are returned as given.
    /// O(1).
    @inlinable public static func wrapped(_ longitude: Double) -> Double {
        if longitude >= -180 && longitude < 180 { return longitude }
        guard longitude.isFinite else { return longitude }
        let turned = (longitude + 180).truncatingRemainder(dividingBy: 360)
        let wrapped = (turned < 0 ? turned + 360 : turned) - 180
        // Rounding can land exactly on 180 for tiny negative remainders.
        return wrapped >= 180 ? wrapped - 360 : wrapped
    }

    /// The copy of `longitude` (by whole turns) nearest to `reference`. O(1).
    @inlinable public static func nearestCopy(of longitude: Double, to reference: Double) -> Double {
        let delta = longitude - reference
        guard delta.isFinite, abs(delta) > 180 else { return longitude }
        return longitude - 360 * (delta / 360).rounded()
    }
}

extension Coordinate {
    /// This coordinate with its longitude wrapped into −180 ..< 180. O(1).
    @inlinable public var wrapped: Coordinate {
        Coordinate(latitude: latitude, longitude: Longitude.wrapped(longitude))
    }
}
