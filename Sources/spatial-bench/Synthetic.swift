import Foundation

/// The seeded generators of `../shared/oracle/README.md` (`random-lcg-v1`), so that every run and
/// every implementation sees the same points.
struct LCG {
    var state: UInt32

    init(seed: UInt32) { state = seed }

    mutating func next32() -> UInt32 {
        state = 1_664_525 &* state &+ 1_013_904_223
        return state
    }

    /// A double in [0, 1) from 53 random bits.
    mutating func next53() -> Double {
        let hi = Double(next32() >> 5)
        let lo = Double(next32() >> 6)
        return (hi * 67_108_864 + lo) / 9_007_199_254_740_992
    }
}

/// A synthetic point with the oracle's properties.
struct SyntheticPoint {
    var longitude: Double
    var latitude: Double
    var flow: Double
    var engineID: Int
}

enum Synthetic {
    /// The first `n` points of the oracle's stream (seed 42); 100k of them are `random100k.geojson`.
    static func uniform(_ n: Int) -> [SyntheticPoint] {
        var rng = LCG(seed: 42)
        var points: [SyntheticPoint] = []
        points.reserveCapacity(n)
        for _ in 0..<n {
            let lng = -180 + 360 * rng.next53()
            let lat = -85 + 170 * rng.next53()
            let flow = Double(rng.next32() >> 12) / 100
            let engine = 1 + Int((rng.next32() >> 16) % 32)
            points.append(SyntheticPoint(longitude: lng, latitude: lat, flow: flow, engineID: engine))
        }
        return points
    }

    /// `n` points in Gaussian blobs around 1,000 seeded centres (seed 4242), clamped to the map.
    static func blobs(_ n: Int) -> [SyntheticPoint] {
        var rng = LCG(seed: 4242)
        var centres: [(Double, Double, Double)] = []
        for _ in 0..<1000 {
            centres.append((-180 + 360 * rng.next53(), -70 + 140 * rng.next53(), 0.05 + 2 * rng.next53()))
        }
        var points: [SyntheticPoint] = []
        points.reserveCapacity(n)
        for i in 0..<n {
            let (cx, cy, sigma) = centres[i % centres.count]
            // Box–Muller from two uniforms.
            let u1 = Swift.max(rng.next53(), 1e-300)
            let u2 = rng.next53()
            let radius = (-2 * log(u1)).squareRoot() * sigma
            let angle = 2 * Double.pi * u2
            var lng = cx + radius * cos(angle)
            let lat = Swift.min(85, Swift.max(-85, cy + radius * sin(angle)))
            if lng >= 180 { lng -= 360 } else if lng < -180 { lng += 360 }
            let flow = Double(rng.next32() >> 12) / 100
            let engine = 1 + Int((rng.next32() >> 16) % 32)
            points.append(SyntheticPoint(longitude: lng, latitude: lat, flow: flow, engineID: engine))
        }
        return points
    }

    /// The points as a GeoJSON FeatureCollection, one feature per line, as the oracle writes it.
    static func geoJSON(_ points: [SyntheticPoint]) -> [UInt8] {
        var out = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        out.reserveCapacity(points.count * 150)
        for (i, p) in points.enumerated() {
            out += "{\"type\":\"Feature\",\"properties\":{\"FLOW\":\(p.flow),\"ENGINEID\":\"E-\(p.engineID)\"},"
            out += "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(p.longitude),\(p.latitude)]}}"
            out += i + 1 < points.count ? ",\n" : "\n"
        }
        out += "]}\n"
        return Array(out.utf8)
    }

    /// A short name for a size: 100k, 1m, 5m.
    static func sizeName(_ n: Int) -> String {
        n >= 1_000_000 && n % 1_000_000 == 0 ? "\(n / 1_000_000)m" : n >= 1000 && n % 1000 == 0 ? "\(n / 1000)k" : "\(n)"
    }
}
