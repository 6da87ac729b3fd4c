import Foundation

/// The spherical Web Mercator projection (EPSG:3857) with MapLibre's 512-point tiles.
///
/// World space at zoom z is a square of `worldSize(z) = 512 · 2^z` points, x east from −180°, y south
/// from about 85.05°N; unit space is the same square with side 1 (`worldSize = 1`).
///
/// The formulas are those of `projection-and-queries.md`, written in the numerically better
/// equivalent forms `asinh(tan φ)` and `atan(sinh m)`.
public enum WebMercator {
    /// The latitude where the square world ends: `atan(sinh(π))` in degrees.
    public static let maxLatitude: Double = 85.051128779806604

    /// The side of a tile in points.
    public static let tileSize: Double = 512

    /// The side of the world square at `zoom`: `512 · 2^zoom` points. O(1).
    @inlinable public static func worldSize(zoom: Double) -> Double {
        tileSize * exp2(zoom)
    }

    /// Projects a coordinate into a world of side `worldSize`; the latitude is clamped to
    /// ±``maxLatitude`` and the longitude is used as given (no wrapping). O(1).
    @inlinable public static func project(_ coordinate: Coordinate, worldSize: Double) -> SIMD2<Double> {
        let x = (coordinate.longitude + 180) / 360 * worldSize
        let y = (0.5 - mercatorOrdinate(latitude: coordinate.latitude) / (2 * Double.pi)) * worldSize
        return SIMD2(x, y)
    }

    /// The coordinate of a world point, inverse of ``project(_:worldSize:)``; the longitude is not
    /// wrapped (a point west of the world gives a longitude below −180). O(1).
    @inlinable public static func unproject(_ point: SIMD2<Double>, worldSize: Double) -> Coordinate {
        let lng = point.x * 360 / worldSize - 180
        let lat = latitude(mercatorOrdinate: (0.5 - point.y / worldSize) * (2 * Double.pi))
        return Coordinate(latitude: lat, longitude: lng)
    }

    /// The Mercator ordinate `ln(tan(π/4 + φ/2))` of a latitude in degrees, clamped to
    /// ±``maxLatitude`` (0 at the equator, ±π at the square's edges). O(1).
    ///
    /// Computed as the equal `asinh(tan φ)`, which keeps full relative precision near the equator
    /// (the camera works in differences of ordinates, so this is what makes zoom 24 round trips exact).
    @inlinable public static func mercatorOrdinate(latitude: Double) -> Double {
        let lat = min(max(latitude, -maxLatitude), maxLatitude)
        return asinh(tan(lat * Double.pi / 180))
    }

    /// The latitude in degrees of a Mercator ordinate, inverse of ``mercatorOrdinate(latitude:)``:
    /// `atan(sinh m)`, equal to the spec's `360/π · atan(exp m) − 90` without its cancellation. O(1).
    @inlinable public static func latitude(mercatorOrdinate m: Double) -> Double {
        atan(sinh(m)) * 180 / Double.pi
    }

    /// Projects into unit space (the world is [0, 1]²). O(1).
    @inlinable public static func projectUnit(_ coordinate: Coordinate) -> SIMD2<Double> {
        project(coordinate, worldSize: 1)
    }

    /// The coordinate of a unit-space point. O(1).
    @inlinable public static func unprojectUnit(_ point: SIMD2<Double>) -> Coordinate {
        unproject(point, worldSize: 1)
    }
}
