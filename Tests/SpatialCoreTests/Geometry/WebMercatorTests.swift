import Foundation
import Testing
import SpatialCore

@Suite struct WebMercatorTests {
    @Test func knownPoints() {
        // The world at zoom 0 is 512 points wide; (0, 0) is its centre, −180 its western edge.
        let centre = WebMercator.project(Coordinate(latitude: 0, longitude: 0), worldSize: 512)
        #expect(abs(centre.x - 256) < 1e-9 && abs(centre.y - 256) < 1e-9)
        let west = WebMercator.project(Coordinate(latitude: 0, longitude: -180), worldSize: 512)
        #expect(west.x == 0)
        // The square world ends at ±85.0511…°: those latitudes map to the top and bottom edges.
        let top = WebMercator.project(Coordinate(latitude: WebMercator.maxLatitude, longitude: 0), worldSize: 1)
        let bottom = WebMercator.project(Coordinate(latitude: -WebMercator.maxLatitude, longitude: 0), worldSize: 1)
        #expect(abs(top.y) < 1e-12)
        #expect(abs(bottom.y - 1) < 1e-12)
        // Beyond them the latitude is clamped.
        #expect(WebMercator.projectUnit(Coordinate(latitude: 89.9, longitude: 0)).y == top.y)
        #expect(WebMercator.projectUnit(Coordinate(latitude: -90, longitude: 0)).y == bottom.y)
        #expect(WebMercator.worldSize(zoom: 3) == 4096)
    }

    @Test(arguments: 0...24)
    func roundTripAtEveryZoom(zoom: Int) {
        let size = WebMercator.worldSize(zoom: Double(zoom))
        var rng = SplitMix(seed: UInt64(zoom))
        var coordinates = [
            Coordinate(latitude: WebMercator.maxLatitude, longitude: 179.999999),
            Coordinate(latitude: -WebMercator.maxLatitude, longitude: -180),
            Coordinate(latitude: 0, longitude: 0),
        ]
        for _ in 0..<200 {
            coordinates.append(Coordinate(latitude: rng.uniform(-85.05, 85.05), longitude: rng.uniform(-180, 180)))
        }
        for c in coordinates {
            let p = WebMercator.project(c, worldSize: size)
            let back = WebMercator.unproject(p, worldSize: size)
            #expect(abs(back.latitude - c.latitude) < 1e-9, "latitude \(c.latitude) at z\(zoom)")
            #expect(abs(back.longitude - c.longitude) < 1e-9, "longitude \(c.longitude) at z\(zoom)")
            let again = WebMercator.project(back, worldSize: size)
            // 1e-6 points, or the precision of the Double values themselves at deep zooms (the world
            // is 8.6e9 points wide at zoom 24, where one ulp is 1.9e-6 points).
            let perDegree = size / 360
            let tolerance = Swift.max(
                1e-6, 4 * size.ulp, 4 * back.latitude.ulp * perDegree / cos(back.latitude * Double.pi / 180))
            #expect(abs(again.x - p.x) <= tolerance && abs(again.y - p.y) <= tolerance)
        }
    }

    @Test(arguments: [
        (180.0, -180.0), (190, -170), (-190, 170), (540, -180), (-180, -180), (359.5, -0.5),
        (-540, -180), (720.25, 0.25), (0, 0), (-0.0, -0.0), (179.999, 179.999),
    ])
    func longitudeWrapping(input: Double, expected: Double) {
        let w = Longitude.wrapped(input)
        #expect(abs(w - expected) < 1e-9)
        #expect(w >= -180 && w < 180)
    }

    @Test func wrappingKeepsNonFiniteValues() {
        #expect(Longitude.wrapped(.nan).isNaN)
        #expect(Longitude.wrapped(.infinity) == .infinity)
    }

    @Test func nearestCopy() {
        #expect(Longitude.nearestCopy(of: -179, to: 179) == 181)
        #expect(Longitude.nearestCopy(of: 179, to: -179) == -181)
        #expect(Longitude.nearestCopy(of: 10, to: 20) == 10)
        #expect(Longitude.nearestCopy(of: 10, to: 740) == 730)
    }

    @Test func haversineKnownDistances() {
        let r = GeodesicDistance.earthRadius
        // Equator to pole is a quarter of a great circle; so are 90° of the equator.
        let pole = Coordinate(latitude: 90, longitude: 0)
        let origin = Coordinate(latitude: 0, longitude: 0)
        #expect(abs(origin.distance(to: pole) - Double.pi / 2 * r) < 1e-6)
        #expect(abs(origin.distance(to: Coordinate(latitude: 0, longitude: 90)) - Double.pi / 2 * r) < 1e-6)
        // Antipodes are half a great circle apart, whichever way the longitudes are written.
        #expect(abs(origin.distance(to: Coordinate(latitude: 0, longitude: 180)) - Double.pi * r) < 1e-6)
        // Off the equator the haversine term is ill-conditioned at antipodes (1 − h cancels):
        // a few centimetres of 20,000 km.
        #expect(abs(Coordinate(latitude: 10, longitude: -170).distance(to: Coordinate(latitude: -10, longitude: 10)) - Double.pi * r) < 0.5)
        // One degree of latitude anywhere on a meridian: π/180 · R.
        let a = Coordinate(latitude: 38.5, longitude: -77)
        let b = Coordinate(latitude: 39.5, longitude: -77)
        #expect(abs(a.distance(to: b) - Double.pi / 180 * r) < 1e-6)
        // Across the antimeridian: 179.5°E to 179.5°W on the equator is one degree, not 359.
        let east = Coordinate(latitude: 0, longitude: 179.5)
        let west = Coordinate(latitude: 0, longitude: -179.5)
        #expect(abs(east.distance(to: west) - Double.pi / 180 * r) < 1e-6)
        #expect(a.distance(to: a) == 0)
        // Symmetric.
        #expect(a.distance(to: east) == east.distance(to: a))
    }
}

