import Foundation
import Testing
import SpatialCore

/// One test per row of the bad-input table of `reliability.md` (README "Reliability" maps rows to
/// tests): each asserts the typed error (and where) or the defined result, never a trap.
@Suite("Reliability: bad input")
struct BadInputTests {
    static let world = [-180.0, -90, 180, 90]

    @Test("NaN / ±inf / latitude beyond ±90: an error naming the feature")
    func invalidCoordinatesNameTheFeature() {
        let good = Feature(geometry: .point(Position(longitude: 3, latitude: 4)))
        let bad: [(Double, Double)] = [(.nan, 0), (0, .nan), (.infinity, 0), (-.infinity, 0), (0, .infinity), (0, 90.000001), (0, -90.5)]
        for (lng, lat) in bad {
            let features = [good, good, Feature(geometry: .point(Position(longitude: lng, latitude: lat)))]
            do {
                _ = try ClusterIndex(features: features)
                Issue.record("accepted [\(lng), \(lat)]")
            } catch {
                guard case .invalidCoordinate(let index, _, let errorLatitude) = error else {
                    Issue.record("wrong error \(error)"); continue
                }
                #expect(index == 2)
                #expect(errorLatitude.isNaN ? lat.isNaN : errorLatitude == lat)
                #expect("\(error)".contains("feature 2"))
            }
        }
        // ±90 exactly is valid.
        #expect((try? ClusterIndex(coordinates: [Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -90, longitude: 0)])) != nil)
    }

    @Test("longitude beyond ±180 is wrapped")
    func longitudeIsWrapped() throws {
        let lngs = [180.0, 190, -190, 540, -900.25, 1e6]
        let index = try ClusterIndex(
            coordinates: lngs.map { Coordinate(latitude: Double(Int($0) % 80), longitude: $0) },
            options: ClusterOptions(maxZoom: 3))
        let points = index.clusters(in: Self.world, zoom: 4).compactMap(\.point)
        #expect(points.count == lngs.count)
        for p in points {
            let lng = lngs[p.index]
            // The indexed position is the same meridian moved into −180 … 180 by whole turns
            // (leaves keep the input coordinate, as supercluster keeps the input geometry).
            #expect(p.mercator.x >= 0 && p.mercator.x <= 1)
            let turns = (p.mercator.x * 360 - 180 - lng) / 360
            #expect(abs(turns - turns.rounded()) < 1e-9, "\(lng) → x \(p.mercator.x)")
            #expect(p.coordinate.longitude == lng)
        }
        // Found by a box around the wrapped longitude.
        #expect(index.clusters(in: [-171, -90, -169, 90], zoom: 4).map(\.rawID) == [1])
    }

    @Test("empty collection, one point, identical points: valid index; identical points are one cluster to maxZoom, leaves after")
    func emptyOneAndIdentical() throws {
        let empty = try ClusterIndex(coordinates: [Coordinate]())
        #expect(empty.pointCount == 0 && empty.clusters(in: Self.world, zoom: 0).isEmpty)
        #expect(empty.tile(z: 0, x: 0, y: 0) == nil)
        #expect(throws: ClusterError.noCluster(ClusterID(rawValue: 0))) { try empty.leaves(of: ClusterID(rawValue: 0)) }
        let one = try ClusterIndex(coordinates: [Coordinate(latitude: -33.9, longitude: 151.2)])
        for z in 0 ... 20 { #expect(one.clusters(in: Self.world, zoom: Double(z)).map(\.rawID) == [0]) }
        #expect(one.tile(z: 0, x: 0, y: 0)?.features.count == 1)
        // Identical points (the 1M case runs in ScaleTests): one cluster at every zoom ≤ maxZoom,
        // the points themselves after it.
        let n = 5000
        let same = try ClusterIndex(
            coordinates: [Coordinate](repeating: Coordinate(latitude: 51.5, longitude: -0.12), count: n),
            options: ClusterOptions(maxZoom: 12))
        for z in 0 ... 12 {
            let items = same.clusters(in: Self.world, zoom: Double(z))
            #expect(items.count == 1 && items[0].pointCount == n && items[0].cluster != nil)
        }
        let top = try #require(same.clusters(in: Self.world, zoom: 0).first?.cluster)
        #expect(try same.expansionZoom(of: top.id) == 13)
        #expect(Set(try same.leaves(of: top.id, limit: nil).map(\.index)) == Set(0 ..< n))
        #expect(same.clusters(in: Self.world, zoom: 13).compactMap(\.point).count == n)
    }

    @Test("non-point geometry in a clustered source: an error naming the feature and type")
    func nonPointGeometry() {
        let point = Feature(geometry: .point(Position(longitude: 0, latitude: 0)))
        let others: [(Geometry, String)] = [
            (.multiPoint([Position(longitude: 0, latitude: 0)]), "MultiPoint"),
            (.lineString([Position(longitude: 0, latitude: 0), Position(longitude: 1, latitude: 1)]), "LineString"),
            (.polygon([[Position(longitude: 0, latitude: 0), Position(longitude: 1, latitude: 0), Position(longitude: 0, latitude: 0)]]), "Polygon"),
            (.geometryCollection([]), "GeometryCollection"),
        ]
        for (geometry, type) in others {
            #expect(throws: ClusterError.unsupportedGeometry(featureIndex: 3, type: type)) {
                try ClusterIndex(features: [point, Feature(geometry: nil), point, Feature(geometry: geometry), point])
            }
        }
    }

    @Test("options out of range: ClusterOptionsError")
    func optionsOutOfRange() {
        #expect(throws: ClusterOptionsError.maxZoomOutOfRange(31)) { try ClusterOptions(maxZoom: 31) }
        #expect(throws: ClusterOptionsError.maxZoomOutOfRange(Int.max)) { try ClusterOptions(maxZoom: .max) }
        #expect(throws: ClusterOptionsError.minZoomOutOfRange(9, maxZoom: 8)) { try ClusterOptions(minZoom: 9, maxZoom: 8) }
        #expect(throws: ClusterOptionsError.invalidRadius(0)) { try ClusterOptions(radius: 0) }
        #expect(throws: ClusterOptionsError.invalidRadius(-1)) { try ClusterOptions(radius: -1) }
        do {
            _ = try ClusterOptions(radius: .nan)
            Issue.record("NaN radius accepted")
        } catch {
            guard case .invalidRadius(let r) = error else { Issue.record("\(error)"); return }
            #expect(r.isNaN)
        }
        #expect(throws: ClusterOptionsError.nodeSizeOutOfRange(1)) { try ClusterOptions(nodeSize: 1) }
        #expect(throws: ClusterOptionsError.nodeSizeOutOfRange(0)) { try ClusterOptions(nodeSize: 0) }
        #expect((try? ClusterOptions(minZoom: 30, maxZoom: 30, nodeSize: 2)) != nil)
    }

    @Test("unknown / stale cluster id, negative limit or offset: error or empty result, never a trap")
    func unknownIDsAndNegativeArguments() throws {
        var rng = SplitMix(seed: 17)
        let coordinates = (0 ..< 800).map { _ in Coordinate(latitude: rng.uniform(-60, 60), longitude: rng.uniform(-170, 170)) }
        let index = try ClusterIndex(coordinates: coordinates)
        let older = try ClusterIndex(coordinates: Array(coordinates.prefix(300)))
        let stale = older.clusters(in: Self.world, zoom: 1).compactMap(\.cluster).map(\.id)
        let garbage = [Int.min, -1, 0, 799, 800, 801, 832, 1 << 31, 1 << 40, Int.max].map(ClusterID.init(rawValue:))
        for id in stale + garbage where (try? index.cluster(id)) == nil {
            #expect(throws: ClusterError.noCluster(id)) { try index.children(of: id) }
            #expect(throws: ClusterError.noCluster(id)) { try index.leaves(of: id, limit: nil) }
            #expect(throws: ClusterError.noCluster(id)) { try index.expansionZoom(of: id) }
        }
        let cluster = try #require(index.clusters(in: Self.world, zoom: 0).compactMap(\.cluster).first)
        #expect(throws: ClusterError.negativeLimit(-1)) { try index.leaves(of: cluster.id, limit: -1) }
        #expect(throws: ClusterError.negativeLimit(Int.min)) { try index.leaves(of: cluster.id, limit: .min) }
        #expect(throws: ClusterError.negativeOffset(-5)) { try index.leaves(of: cluster.id, offset: -5) }
        #expect(try index.leaves(of: cluster.id, limit: .max, offset: .max).isEmpty)
        #expect(try index.leaves(of: cluster.id, limit: 0).isEmpty)
        #expect(try index.leaves(of: cluster.id, limit: .max).count == cluster.pointCount)
    }

    struct BadExpression: Sendable, CustomTestStringConvertible {
        let json: JSONValue
        let path: String
        var testDescription: String { path.isEmpty ? "root" : path }
    }

    static let badExpressions: [BadExpression] = [
        BadExpression(json: ["all", true, ["frobnicate", 1]], path: "[2]"),  // unknown operator
        BadExpression(json: ["any", ["==", ["get"], 1]], path: "[1][1]"),  // arity
        BadExpression(json: ["case", ["has", "a"], ["+", 1, "two"], 0], path: "[2][2]"),  // types
        BadExpression(json: ["step", ["get", "n"], 0, 10, 1, 5, 2], path: "[5]"),  // unsorted stops
        BadExpression(json: ["interpolate", ["linear"], ["get", "n"], 0, 0, 0, 1], path: "[5]"),  // repeated stop
    ]

    @Test("invalid expression: parse error with JSON path", arguments: badExpressions)
    func invalidExpression(_ row: BadExpression) {
        do {
            _ = try Expression(json: row.json)
            Issue.record("parsed \(row.json)")
        } catch {
            #expect(error.path == row.path, "\(error)")
            #expect(!error.reason.isEmpty)
            #expect(error.prefixed(by: "layers[0].filter").path == "layers[0].filter" + row.path)
        }
    }

    @Test("expression that fails at evaluation: the defined fallback, never a throw")
    func evaluationFailureFallsBack() throws {
        let feature = Feature(geometry: .point(Position(longitude: 0, latitude: 0)), properties: ["n": 3, "s": "x"])
        // A filter that fails (number compared with a string at run time) is false.
        let filter = try Expression(json: ["<", ["get", "n"], ["get", "s"]], purpose: .filter)
        #expect(feature.withExpressionContext { filter.evaluateFilter($0) } == false)
        #expect(feature.withExpressionContext { filter.evaluate($0) } == nil)
        // A value that fails (a failed type assertion) yields the caller's default.
        let value = try Expression(json: ["*", ["number", ["get", "s"]], 2], purpose: .value)
        #expect(feature.withExpressionContext { value.evaluate($0) } == nil)
        #expect(feature.withExpressionContext { value.evaluateNumber($0, default: 5) } == 5)
        // Division by zero and NaN are values, not traps.
        let nan = try Expression(json: ["sqrt", -1], purpose: .value)
        #expect(feature.withExpressionContext { nan.evaluateNumber($0, default: 7) } == 7)
    }

    @Test("corrupt serialized index buffer: an error, never a read out of bounds")
    func corruptIndexBuffers() throws {
        var rng = SplitMix(seed: 3)
        let points = (0 ..< 300).map { _ in SIMD2(rng.uniform(-10, 10), rng.uniform(-10, 10)) }
        let kd = try KDTree<Double>(points, nodeSize: 8).data
        let rt = try PackedRTree(points.map { SIMD4($0.x, $0.y, $0.x + 1, $0.y + 1) }, nodeSize: 8).data
        // Truncation anywhere and one trailing byte are errors.
        for cut in [0, 1, 7, 8, kd.count / 2, kd.count - 1] {
            #expect(throws: IndexError.self) { try KDTree<Double>(data: kd.prefix(cut)) }
        }
        for cut in [0, 1, 7, 8, rt.count / 2, rt.count - 1] {
            #expect(throws: IndexError.self) { try PackedRTree(data: rt.prefix(cut)) }
        }
        #expect(throws: IndexError.self) { try KDTree<Double>(data: kd + [0]) }
        #expect(throws: IndexError.self) { try PackedRTree(data: rt + [0]) }
        #expect(throws: IndexError.badMagic(found: 0, expected: kd[0])) { try KDTree<Double>(data: [0] + kd.dropFirst()) }
        #expect(throws: IndexError.self) { try KDTree<Float>(data: kd) }
        // Random byte mutations: each either reads (and then answers every query) or throws; under
        // AddressSanitizer this also proves no out-of-bounds read.
        for round in 0 ..< 3000 {
            var bytes = round % 2 == 0 ? kd : rt
            for _ in 0 ... Int(rng.next() % 4) {
                bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next())
            }
            FuzzBodies.index([round % 2 == 0 ? 0 : 2] + bytes)
        }
    }

    @Test("camera with NaN, zoom outside 0…24, zero or negative view size: an error")
    func invalidCamera() {
        let size = CGSize(width: 400, height: 300)
        let origin = Coordinate(latitude: 0, longitude: 0)
        #expect(throws: CameraError.self) { try Camera(center: Coordinate(latitude: .nan, longitude: 0), zoom: 1, viewSize: size) }
        #expect(throws: CameraError.self) { try Camera(center: Coordinate(latitude: 0, longitude: .infinity), zoom: 1, viewSize: size) }
        #expect(throws: CameraError.self) { try Camera(center: Coordinate(latitude: 91, longitude: 0), zoom: 1, viewSize: size) }
        #expect(throws: CameraError.invalidBearing(.infinity)) { try Camera(center: origin, zoom: 1, bearing: .infinity, viewSize: size) }
        for zoom in [-0.001, 24.001, 1e9] {
            #expect(throws: CameraError.zoomOutOfRange(zoom)) { try Camera(center: origin, zoom: zoom, viewSize: size) }
        }
        #expect(throws: CameraError.self) { try Camera(center: origin, zoom: .nan, viewSize: size) }
        for (w, h) in [(0.0, 300.0), (400, 0), (-1, 300), (400, -5)] {
            #expect(throws: CameraError.invalidViewSize(width: w, height: h)) {
                try Camera(center: origin, zoom: 1, viewSize: CGSize(width: w, height: h))
            }
        }
        #expect(throws: CameraError.self) { try Camera(center: origin, zoom: 1, viewSize: CGSize(width: Double.nan, height: 3)) }
        #expect((try? Camera(center: origin, zoom: 0, viewSize: size)) != nil)
        #expect((try? Camera(center: origin, zoom: 24, viewSize: size)) != nil)
    }
}
