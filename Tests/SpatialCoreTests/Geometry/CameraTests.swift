import Foundation
import Testing
import SpatialCore

@Suite struct CameraTests {
    static let bearings: [Double] = [0, 90, -37.5]
    static let insets: [EdgeInsets] = [.zero, EdgeInsets(top: 100, left: 20, bottom: 40, right: 60)]

    @Test(arguments: 0...24, bearings)
    func pointCoordinatePointRoundTrip(zoom: Int, bearing: Double) throws {
        var rng = SplitMix(seed: UInt64(zoom * 1000) + UInt64(bearing + 100))
        for inset in Self.insets {
            for _ in 0..<20 {
                let center = Coordinate(latitude: rng.uniform(-80, 80), longitude: rng.uniform(-180, 180))
                let camera = try Camera(
                    center: center, zoom: min(24, Double(zoom) + rng.uniform(0, 0.99)), bearing: bearing,
                    viewSize: CGSize(width: 390, height: 844), insets: inset)
                for _ in 0..<10 {
                    let p = CGPoint(x: rng.uniform(-50, 440), y: rng.uniform(-50, 900))
                    let c = camera.coordinate(for: p)
                    #expect(c.longitude >= -180 && c.longitude < 180)
                    // At low zoom a point can fall outside the Mercator square, where latitudes clamp,
                    // or more than half a world from the centre, where the nearest copy is another.
                    guard abs(c.latitude) < 85, abs(camera.offset(for: p).x) < camera.worldSize / 2 - 1e-6 else { continue }
                    let back = camera.point(for: c)
                    #expect(abs(Double(back.x - p.x)) < Self.tolerance(c, camera) && abs(Double(back.y - p.y)) < Self.tolerance(c, camera),
                        "z\(camera.zoom) bearing \(bearing) centre \(center) point \(p) -> \(back)")
                }
            }
        }
    }

    /// 1e-6 points, or four units in the last place of the Double coordinate in points where that is
    /// larger: at zoom 24 one ulp of a latitude of 60° is already 0.34e-6 points (1.9e-6 at 80°),
    /// so no Double-based conversion can round-trip more tightly there.
    static func tolerance(_ c: Coordinate, _ camera: Camera) -> Double {
        let perDegree = camera.worldSize / 360
        let latitudeUlp = c.latitude.ulp * perDegree / cos(c.latitude * Double.pi / 180)
        let longitudeUlp = Swift.max(c.longitude.ulp, camera.center.longitude.ulp) * perDegree
        return Swift.max(1e-6, 4 * Swift.max(latitudeUlp, longitudeUlp))
    }

    @Test(arguments: 0...22)
    func roundTripWithinOneMicropointUpToZoom22(zoom: Int) throws {
        var rng = SplitMix(seed: UInt64(zoom))
        for _ in 0..<500 {
            let camera = try Camera(
                center: Coordinate(latitude: rng.uniform(-60, 60), longitude: rng.uniform(-180, 180)),
                zoom: Double(zoom) + rng.uniform(0, 0.99), bearing: rng.uniform(-180, 180),
                viewSize: CGSize(width: 390, height: 844), insets: EdgeInsets(top: 10, left: 30, bottom: 50, right: 0))
            let p = CGPoint(x: rng.uniform(0, 390), y: rng.uniform(0, 844))
            let c = camera.coordinate(for: p)
            guard abs(c.latitude) < 85, abs(camera.offset(for: p).x) < camera.worldSize / 2 - 1e-6 else { continue }
            let back = camera.point(for: c)
            #expect(abs(Double(back.x - p.x)) < 1e-6 && abs(Double(back.y - p.y)) < 1e-6)
        }
    }

    @Test func centreIsAtTheFocalPoint() throws {
        let inset = EdgeInsets(top: 100, left: 20, bottom: 40, right: 60)
        let camera = try Camera(
            center: Coordinate(latitude: 36.1, longitude: -95.9), zoom: 11, bearing: -37.5,
            viewSize: CGSize(width: 390, height: 844), insets: inset)
        // A = (w/2 + (left − right)/2, h/2 + (top − bottom)/2) = (195 − 20, 422 + 30).
        #expect(camera.focalPoint == CGPoint(x: 175, y: 452))
        let p = camera.point(for: camera.center)
        #expect(abs(p.x - 175) < 1e-9 && abs(p.y - 452) < 1e-9)
        let c = camera.coordinate(for: CGPoint(x: 175, y: 452))
        #expect(abs(c.latitude - 36.1) < 1e-12 && abs(c.longitude + 95.9) < 1e-12)
    }

    @Test func bearingTurnsTheMap() throws {
        let size = CGSize(width: 400, height: 400)
        let origin = Coordinate(latitude: 0, longitude: 0)
        // One degree east at zoom 0 is 512/360 points.
        let east = Coordinate(latitude: 0, longitude: 1)
        let step = 512.0 / 360
        let north0 = try Camera(center: origin, zoom: 0, viewSize: size)
        let p0 = north0.point(for: east)
        #expect(abs(p0.x - (200 + step)) < 1e-9 && abs(p0.y - 200) < 1e-9)
        // Bearing 90: the top of the view faces east, so east is straight up.
        let facingEast = try Camera(center: origin, zoom: 0, bearing: 90, viewSize: size)
        let p90 = facingEast.point(for: east)
        #expect(abs(p90.x - 200) < 1e-9 && abs(p90.y - (200 - step)) < 1e-9)
        // Bearing −90: the top faces west, so east is straight down.
        let facingWest = try Camera(center: origin, zoom: 0, bearing: -90, viewSize: size)
        let pm90 = facingWest.point(for: east)
        #expect(abs(pm90.x - 200) < 1e-9 && abs(pm90.y - (200 + step)) < 1e-9)
    }

    @Test func nearestWorldCopyAcrossTheAntimeridian() throws {
        let camera = try Camera(
            center: Coordinate(latitude: 0, longitude: 179.9), zoom: 8, viewSize: CGSize(width: 400, height: 400))
        // 179.9°W is 0.2° east of the centre, not 359.8° west.
        let p = camera.point(for: Coordinate(latitude: 0, longitude: -179.9))
        let expected = 200 + 0.2 / 360 * 512 * 256
        #expect(abs(p.x - expected) < 1e-6)
        // And back: the coordinate east of the antimeridian is wrapped to the western hemisphere.
        let c = camera.coordinate(for: p)
        #expect(abs(c.longitude + 179.9) < 1e-9)
    }

    @Test func centreLongitudeIsWrapped() throws {
        let camera = try Camera(center: Coordinate(latitude: 10, longitude: 200), zoom: 3, viewSize: CGSize(width: 10, height: 10))
        #expect(abs(camera.center.longitude + 160) < 1e-12)
    }

    @Test func visibleBoundsWithoutBearing() throws {
        let camera = try Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 2, viewSize: CGSize(width: 512, height: 512))
        // 512 points at zoom 2 (world 2048) are a quarter turn: 90° of longitude.
        let b = camera.visibleBounds
        #expect(abs(b.west + 45) < 1e-9 && abs(b.east - 45) < 1e-9)
        #expect(abs(b.north + b.south) < 1e-9 && b.north > 0)
        let top = camera.coordinate(for: CGPoint(x: 256, y: 0))
        #expect(abs(b.north - top.latitude) < 1e-9)
    }

    @Test func visibleBoundsCrossTheAntimeridianAndSpanTheWorld() throws {
        let crossing = try Camera(center: Coordinate(latitude: 0, longitude: 178), zoom: 4, viewSize: CGSize(width: 400, height: 400))
        let b = crossing.visibleBounds
        #expect(b.east > 180 && b.west < 180)
        #expect(b.crossesAntimeridian)
        #expect(b.antimeridianParts.count == 2)
        let wide = try Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 0, viewSize: CGSize(width: 1200, height: 600))
        #expect(wide.visibleBounds.coversAllLongitudes)
        #expect(wide.visibleBounds.north == WebMercator.maxLatitude)
    }

    @Test func visibleBoundsOfATurnedView() throws {
        // A square view turned 45° shows the envelope of the turned square: √2 as wide.
        let straight = try Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 5, viewSize: CGSize(width: 300, height: 300))
        let turned = try Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 5, bearing: 45, viewSize: CGSize(width: 300, height: 300))
        let ratio = (turned.visibleBounds.east - turned.visibleBounds.west) / (straight.visibleBounds.east - straight.visibleBounds.west)
        #expect(abs(ratio - 2.0.squareRoot()) < 1e-9)
    }

    @Test func invalidCameras() {
        let size = CGSize(width: 100, height: 100)
        let c = Coordinate(latitude: 0, longitude: 0)
        #expect(throws: CameraError.pitchNotSupported(30)) { try Camera(center: c, zoom: 3, pitch: 30, viewSize: size) }
        #expect(throws: CameraError.zoomOutOfRange(25)) { try Camera(center: c, zoom: 25, viewSize: size) }
        #expect(throws: CameraError.zoomOutOfRange(-1)) { try Camera(center: c, zoom: -1, viewSize: size) }
        #expect(throws: CameraError.self) { try Camera(center: c, zoom: .nan, viewSize: size) }
        #expect(throws: CameraError.invalidViewSize(width: 0, height: 100)) {
            try Camera(center: c, zoom: 3, viewSize: CGSize(width: 0, height: 100))
        }
        #expect(throws: CameraError.invalidViewSize(width: 100, height: -5)) {
            try Camera(center: c, zoom: 3, viewSize: CGSize(width: 100, height: -5))
        }
        #expect(throws: CameraError.self) { try Camera(center: Coordinate(latitude: .nan, longitude: 0), zoom: 3, viewSize: size) }
        #expect(throws: CameraError.self) { try Camera(center: Coordinate(latitude: 91, longitude: 0), zoom: 3, viewSize: size) }
        #expect(throws: CameraError.self) { try Camera(center: c, zoom: 3, bearing: .infinity, viewSize: size) }
        #expect(throws: CameraError.self) {
            try Camera(center: c, zoom: 3, viewSize: size, insets: EdgeInsets(left: 60, right: 60))
        }
        #expect(throws: CameraError.self) { try Camera(center: c, zoom: 3, viewSize: size, insets: EdgeInsets(top: -1)) }
    }

    @Test func errorsDescribeThemselves() {
        #expect(CameraError.pitchNotSupported(30).description.contains("pitch"))
        #expect(CameraError.zoomOutOfRange(25).description.contains("0...24"))
    }
}

@Suite struct GeoBoundingBoxTests {
    @Test func parts() {
        #expect(GeoBoundingBox(west: -10, south: 0, east: 10, north: 5).antimeridianParts
            == [GeoBoundingBox(west: -10, south: 0, east: 10, north: 5)])
        #expect(GeoBoundingBox(west: 170, south: -60, east: -170, north: 60).antimeridianParts == [
            GeoBoundingBox(west: 170, south: -60, east: 180, north: 60),
            GeoBoundingBox(west: -180, south: -60, east: -170, north: 60),
        ])
        // Unwrapped east beyond 180 means the same as a crossing box.
        #expect(GeoBoundingBox(west: 170, south: 0, east: 190, north: 1).antimeridianParts.count == 2)
        // Both edges beyond 180: wrapped into the western hemisphere.
        #expect(GeoBoundingBox(west: 190, south: -20, east: 250, north: 20).antimeridianParts
            == [GeoBoundingBox(west: -170, south: -20, east: -110, north: 20)])
        #expect(GeoBoundingBox(west: -200, south: -85, east: 200, north: 85).antimeridianParts
            == [GeoBoundingBox(west: -180, south: -85, east: 180, north: 85)])
        #expect(GeoBoundingBox.world.antimeridianParts == [GeoBoundingBox.world])
    }

    @Test func containment() {
        let crossing = GeoBoundingBox(west: 170, south: -60, east: -170, north: 60)
        #expect(crossing.contains(Coordinate(latitude: 0, longitude: 175)))
        #expect(crossing.contains(Coordinate(latitude: 0, longitude: -175)))
        #expect(crossing.contains(Coordinate(latitude: 60, longitude: 180)))
        #expect(!crossing.contains(Coordinate(latitude: 0, longitude: 0)))
        #expect(!crossing.contains(Coordinate(latitude: 61, longitude: 175)))
        #expect(GeoBoundingBox(west: -10, south: 0, east: 10, north: 5).contains(Coordinate(latitude: 5, longitude: 370)))
    }
}
