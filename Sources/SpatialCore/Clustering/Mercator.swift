import Foundation

/// Unit Web Mercator as supercluster computes it (same formulas, same order of operations).
enum UnitMercator {
    /// Longitude in degrees → x in unit Mercator (not clamped). O(1).
    @inline(__always) static func x(longitude: Double) -> Double {
        longitude / 360 + 0.5
    }

    /// Latitude in degrees → y in unit Mercator, clamped to [0, 1]. O(1).
    @inline(__always) static func y(latitude: Double) -> Double {
        let s = sin(latitude * Double.pi / 180)
        let y = 0.5 - 0.25 * log((1 + s) / (1 - s)) / Double.pi
        return y < 0 ? 0 : (y > 1 ? 1 : y)
    }

    /// x in unit Mercator → longitude in degrees. O(1).
    @inline(__always) static func longitude(x: Double) -> Double {
        (x - 0.5) * 360
    }

    /// y in unit Mercator → latitude in degrees. O(1).
    @inline(__always) static func latitude(y: Double) -> Double {
        let y2 = (180 - y * 360) * Double.pi / 180
        return 360 * atan(exp(y2)) / Double.pi - 90
    }

    /// A longitude moved into −180 … 180 (values already inside are kept, 180 included). O(1).
    @inline(__always) static func wrap(longitude: Double) -> Double {
        if longitude >= -180 && longitude <= 180 { return longitude }
        return ((longitude + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
    }

    /// JavaScript's `Math.round`: halves round up (towards +∞). O(1).
    @inline(__always) static func jsRound(_ v: Double) -> Double {
        let f = v.rounded(.down)
        return v - f >= 0.5 ? f + 1 : f
    }
}
