import Foundation
import Testing
import SpatialCore

/// The code examples of the DocC articles (`Sources/SpatialCore/SpatialCore.docc`), compiled and
/// run here, each followed by checks of what it printed or computed against an independent
/// computation. `everyArticleExampleIsHere` keeps the two in step: each ```swift block of an
/// article must appear in this file, line for line (leading white space aside), so an article
/// cannot show code that no longer compiles.
@Suite struct DocumentationExampleTests {
    // MARK: GettingStarted.md

    @Test func gettingStarted() throws {
        // Tulsa's hydrants where present, else hydrant-like points over the same box.
        func loadHydrants() throws -> [Feature] {
            if let bytes = TestData.dataset("tulsa-fire-hydrants.geojson") {
                return try GeoJSONReader().read(bytes).features
            }
            var rng = SplitMix(seed: 11)
            return (0 ..< 3_000).map { i in
                Feature(
                    id: .number(Double(i)),
                    geometry: .point(Position(longitude: rng.uniform(-96.1, -95.8), latitude: rng.uniform(36.0, 36.3))),
                    properties: ["FLOW": .number(Double(500 + rng.int(1_500))), "STATION": .string("\(rng.int(40))"),
                                 "HYDRANT_ID": .string("H-\(i)")])
            }
        }

        let features: [Feature] = try loadHydrants()   // your GeoJSON reader
        print(features.count, features[0].properties["FLOW"] ?? .null)

        let options = try MapLibreOptions(clusterRadius: 50, clusterMaxZoom: 14).clusterOptions()
        let properties = try ClusterPropertyExpressions(json: [
            "max": ["max", ["get", "FLOW"]],
            "in_station_27": ["any", ["==", ["get", "STATION"], "27"]],
            "sum": ["+", ["get", "FLOW"]],
        ])
        let index = try ClusterIndex(features: features, options: options, clusterProperties: properties)

        let items = index.clusters(west: -96.1, south: 36.0, east: -95.8, north: 36.3, zoom: 11)
        for case .cluster(let cluster) in items {
            print(cluster.id, cluster.pointCount, cluster.clusterProperties["sum"] ?? .null)
        }

        // Each cluster's reduced values are those of its leaves, summed and compared here.
        var clusters = 0
        for case .cluster(let cluster) in items {
            clusters += 1
            let leaves = try index.leaves(of: cluster.id, limit: nil)
            #expect(leaves.count == cluster.pointCount)
            let flows = leaves.map { $0.properties["FLOW"]?.numberValue ?? 0 }
            #expect(cluster.clusterProperties["sum"]?.numberValue == flows.reduce(0, +))
            #expect(cluster.clusterProperties["max"]?.numberValue == flows.max())
            let any27 = leaves.contains { $0.properties["STATION"] == .string("27") }
            #expect(cluster.clusterProperties["in_station_27"] == .bool(any27))
        }
        #expect(clusters > 0)

        let camera = try Camera(center: Coordinate(latitude: 36.15, longitude: -95.99), zoom: 11,
                                viewSize: CGSize(width: 390, height: 844))
        let tap = SIMD2<Double>(200, 420)
        let hits = items.filter { item in
            let p = camera.point(for: item.coordinate)
            let radius = item.pointCount >= 100 ? 30.0 : item.pointCount >= 10 ? 20 : 10
            return Footprint.circle(center: SIMD2(Double(p.x), Double(p.y)), radius: radius).contains(tap)
        }

        // The same hits by the projection's formulas (projection-and-queries.md), not the camera.
        func worldPoint(_ c: Coordinate) -> SIMD2<Double> {
            let w = 512 * pow(2, 11.0)
            let lat = min(max(c.latitude, -85.051128779806604), 85.051128779806604)
            return SIMD2((c.longitude + 180) / 360 * w,
                         (180 - 180 / .pi * log(tan(.pi / 4 + lat * .pi / 360))) / 360 * w)
        }
        let centre = worldPoint(Coordinate(latitude: 36.15, longitude: -95.99))
        let expected = items.filter { item in
            let s = worldPoint(item.coordinate) - centre + SIMD2(195, 422)
            let radius = item.pointCount >= 100 ? 30.0 : item.pointCount >= 10 ? 20 : 10
            let d = s - tap
            return (d * d).sum() < radius * radius
        }
        #expect(hits.map(\.coordinate) == expected.map(\.coordinate))

        if case .cluster(let cluster)? = hits.first {
            let zoom = try index.expansionZoom(of: cluster.id)
            let firstTen = try index.leaves(of: cluster.id, limit: 10, offset: 0)
            print("zoom to \(zoom); e.g. hydrant \(firstTen[0].properties["HYDRANT_ID"] ?? .null)")
        }

        // Expansion zoom: the first zoom at which the cluster's points show as more than one item
        // (a cluster with no neighbours at a level is carried up unchanged, so this is not always
        // the zoom just above).
        func leafIndices(_ item: ClusterItem) throws -> Set<Int> {
            switch item {
            case .cluster(let c): Set(try index.leaves(of: c.id, limit: nil).map(\.index))
            case .point(let p): [p.index]
            }
        }
        for case .cluster(let cluster) in items.prefix(20) {
            let zoom = try index.expansionZoom(of: cluster.id)
            let mine = try leafIndices(.cluster(cluster))
            var splitsAt: Int?
            for z in 12 ... 15 where splitsAt == nil {
                let pieces = try index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: Double(z))
                    .filter { !(try leafIndices($0)).isDisjoint(with: mine) }
                if pieces.count > 1 { splitsAt = z }
            }
            #expect(splitsAt == zoom, "cluster \(cluster.id)")
        }
    }

    // MARK: Clustering.md

    @Test func clustering() throws {
        var rng = SplitMix(seed: 12)
        let features = (0 ..< 2_000).map { _ in
            Feature(geometry: .point(Position(longitude: rng.uniform(-180, 180), latitude: rng.uniform(-80, 80))))
        }
        let index = try ClusterIndex(features: features, options: try ClusterOptions(maxZoom: 16, radius: 40))
        let visible = index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: 3)
        let tile = index.tile(z: 3, x: 2, y: 3)          // integer tile coordinates, as getTile

        #expect(visible.reduce(0) { $0 + $1.pointCount } == features.count)
        // Tile (2, 3) at z3 is x ∈ [512·2, 512·3), y ∈ [512·3, 512·4) in tile units of 512 each:
        // every item of z3 whose position falls inside it (padded by radius/extent) is there.
        let inTile = visible.filter { item in
            let x = (item.coordinate.longitude + 180) / 360 * 8
            let lat = item.coordinate.latitude * .pi / 180
            let y = (0.5 - log((1 + sin(lat)) / (1 - sin(lat))) / (4 * .pi)) * 8
            let pad = 40.0 / 512
            return x >= 2 - pad && x <= 3 + pad && y >= 3 - pad && y <= 4 + pad
        }
        #expect((tile?.features.count ?? 0) == inTile.count)
        for feature in tile?.features ?? [] {
            #expect(feature.x >= -40 && feature.x <= 512 + 40 && feature.y >= -40 && feature.y <= 512 + 40)
        }
    }

    // MARK: Expressions.md

    @Test func expressions() throws {
        var rng = SplitMix(seed: 13)
        let features = (0 ..< 500).map { _ in
            Feature(geometry: .point(Position(longitude: rng.uniform(-77.2, -76.9), latitude: rng.uniform(38.8, 39.0))))
        }
        let index = try ClusterIndex(features: features, options: try ClusterOptions(maxZoom: 16, radius: 60))
        var checked = 0
        for case .cluster(let cluster) in index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: 11) {
            let radius = try Expression(json: ["step", ["get", "point_count"], 10, 10, 20, 100, 30], purpose: .value)
            let context = JSONObjectExpressionContext(properties: cluster.properties, zoom: 11)
            let r = radius.evaluateNumber(context, default: 5)

            let filter = try Expression(filter: ["has", "point_count"])   // expression or legacy filter
            let isCluster = filter.evaluateFilter(context)

            #expect(r == (cluster.pointCount >= 100 ? 30 : cluster.pointCount >= 10 ? 20 : 10))
            #expect(isCluster)
            checked += 1
        }
        #expect(checked > 0)
    }

    // MARK: Indexes.md

    @Test func indexes() throws {
        var rng = SplitMix(seed: 14)
        let coordinates = (0 ..< 5_000).map { _ in
            Coordinate(latitude: rng.uniform(38.8, 39.0), longitude: rng.uniform(-77.2, -76.9))
        }
        let points: [SIMD2<Double>] = coordinates.map { SIMD2($0.longitude, $0.latitude) }
        let tree = try KDTree<Double>(points)
        let inBox = tree.range(minX: -77.1, minY: 38.8, maxX: -76.9, maxY: 39.0)   // ids
        let near = tree.within(x: -77.03, y: 38.9, radius: 0.01)
        let nearest = tree.nearest(to: SIMD2(-77.03, 38.9), k: 5)
        let byDistance = tree.around(longitude: -77.03, latitude: 38.9, maxResults: 5) // great-circle

        let all = Array(points.indices)
        #expect(inBox.sorted() == all.filter {
            points[$0].x >= -77.1 && points[$0].x <= -76.9 && points[$0].y >= 38.8 && points[$0].y <= 39.0
        })
        let q = SIMD2(-77.03, 38.9)
        func d2(_ i: Int) -> Double { let d = points[i] - q; return (d * d).sum() }
        #expect(near.sorted() == all.filter { d2($0) <= 0.01 * 0.01 })
        #expect(nearest.map(d2) == all.map(d2).sorted().prefix(5).map { $0 })
        func haversine(_ i: Int) -> Double {
            let r = Double.pi / 180, p = points[i]
            let h = pow(sin((p.y - 38.9) * r / 2), 2) + cos(p.y * r) * cos(38.9 * r) * pow(sin((p.x + 77.03) * r / 2), 2)
            return 2 * 6371 * asin(min(1, h.squareRoot()))
        }
        let expectedKm = all.map(haversine).sorted().prefix(5)
        for (got, want) in zip(byDistance.map(haversine), expectedKm) { #expect(abs(got - want) < 1e-9) }
        #expect(byDistance.count == 5)

        let queries = (0 ..< 100).map { _ in SIMD2(rng.uniform(-77.2, -76.9), rng.uniform(38.8, 39.0)) }
        var answers: [Int] = []
        func use(_ id: Int) { answers.append(id) }
        var ids: [Int] = []
        for query in queries {
            ids.removeAll(keepingCapacity: true)
            tree.nearest(to: query, k: 1, into: &ids)
            if let id = ids.first { use(id) }
        }
        #expect(answers.count == queries.count)
        for (query, answer) in zip(queries, answers) {
            let best = points.map { let d = $0 - query; return (d * d).sum() }.min()
            let d = points[answer] - query
            #expect((d * d).sum() == best)
        }

        struct Shape { var minX, minY, maxX, maxY: Double }
        let shapes = (0 ..< 2_000).map { _ in
            let x = rng.uniform(-5, 15), y = rng.uniform(-5, 15)
            return Shape(minX: x, minY: y, maxX: x + rng.uniform(0, 2), maxY: y + rng.uniform(0, 2))
        }
        let boxes: [SIMD4<Double>] = shapes.map { SIMD4($0.minX, $0.minY, $0.maxX, $0.maxY) }
        let rtree = try PackedRTree(boxes)
        let hits = rtree.search(minX: 0, minY: 0, maxX: 10, maxY: 10)
        let closest = rtree.neighbors(x: 5, y: 5, maxResults: 3)

        #expect(hits.sorted() == shapes.indices.filter {
            shapes[$0].minX <= 10 && shapes[$0].maxX >= 0 && shapes[$0].minY <= 10 && shapes[$0].maxY >= 0
        })
        func boxDistance(_ i: Int) -> Double {
            let s = shapes[i]
            let dx = max(s.minX - 5, 0, 5 - s.maxX), dy = max(s.minY - 5, 0, 5 - s.maxY)
            return dx * dx + dy * dy
        }
        #expect(closest.map(boxDistance) == shapes.indices.map(boxDistance).sorted().prefix(3).map { $0 })
    }

    // MARK: SceneQueries.md

    @Test func sceneQueries() throws {
        let camera = try Camera(center: Coordinate(latitude: 38.9, longitude: -77.03), zoom: 14,
                                bearing: 30, viewSize: CGSize(width: 390, height: 844))
        let p = camera.point(for: Coordinate(latitude: 38.91, longitude: -77.02))
        let back = camera.coordinate(for: p)
        let bounds = camera.visibleBounds

        #expect(abs(back.latitude - 38.91) < 1e-9 && abs(back.longitude + 77.02) < 1e-9)
        #expect(bounds.west < -77.03 && bounds.east > -77.03 && bounds.south < 38.9 && bounds.north > 38.9)

        // Points around the view's centre, one circle layer of radius 12 over them.
        var rng = SplitMix(seed: 15)
        var coordinates: [Coordinate] = []
        var featuresJSON: [String] = []
        for i in 0 ..< 300 {
            let c = Coordinate(latitude: rng.uniform(38.88, 38.92), longitude: rng.uniform(-77.06, -77.0))
            coordinates.append(c)
            featuresJSON.append(#"{"type":"Feature","id":\#(i),"properties":{"n":\#(i)},"geometry":{"type":"Point","coordinates":[\#(c.longitude),\#(c.latitude)]}}"#)
        }
        let styleFolder = FileManager.default.temporaryDirectory
        let styleBytes = Data(#"""
            {"version": 8,
             "sources": {"pts": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\#(featuresJSON.joined(separator: ","))]}}},
             "layers": [{"id": "dots", "type": "circle", "source": "pts", "paint": {"circle-radius": 12}}]}
            """#.utf8)

        let scene = try Scene(styleData: styleBytes, baseURL: styleFolder, camera: camera)
        for hit in scene.visibleFeatures(at: CGPoint(x: 200, y: 420)) {
            print(hit.layerIdentifier, hit.clusterID.map { "cluster \($0)" } ?? "point", hit.properties)
        }

        // What the tap hits by the footprint rule: strictly within 12 points, the last drawn first.
        let hits = scene.visibleFeatures(at: CGPoint(x: 200, y: 420))
        let expected = coordinates.indices.reversed().filter { i in
            let s = camera.point(for: coordinates[i])
            let dx = Double(s.x) - 200, dy = Double(s.y) - 420
            return dx * dx + dy * dy < 144
        }
        #expect(hits.map { $0.properties["n"]?.numberValue.map(Int.init) ?? -1 } == expected)
        #expect(hits.allSatisfy { $0.layerIdentifier == "dots" && $0.clusterID == nil })
    }

    // MARK: The articles and this file in step

    @Test func everyArticleExampleIsHere() throws {
        let here = URL(fileURLWithPath: #filePath)
        let source = try String(contentsOf: here, encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let articles = TestData.packageRoot.appendingPathComponent("Sources/SpatialCore/SpatialCore.docc")
        let names = try FileManager.default.contentsOfDirectory(atPath: articles.path).filter { $0.hasSuffix(".md") }.sorted()
        #expect(names.count >= 5)
        var blocks = 0
        for name in names {
            let text = try String(contentsOf: articles.appendingPathComponent(name), encoding: .utf8)
            var block: [String]?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if block == nil, trimmed == "```swift" {
                    block = []
                } else if let body = block, trimmed == "```" {
                    blocks += 1
                    // `import` lines sit at the top of this file, not beside the example's code.
                    let wanted = body.filter { !$0.isEmpty && !$0.hasPrefix("import ") }
                    let found = wanted.isEmpty || lines.indices.contains { start in
                        var i = start
                        for w in wanted {
                            while i < lines.count, lines[i].isEmpty { i += 1 }
                            guard i < lines.count, lines[i] == w else { return false }
                            i += 1
                        }
                        return true
                    }
                    #expect(found, "\(name): a swift example not run by this file:\n\(body.joined(separator: "\n"))")
                    block = nil
                } else if block != nil {
                    block!.append(trimmed)
                }
            }
        }
        #expect(blocks >= 12)
    }
}
