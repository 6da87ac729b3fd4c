import Foundation
import Testing
@testable import SpatialCore

/// `.float32` mode against supercluster 8.0.1's golden outputs for its `places.json` fixture.
@Suite("Clustering: supercluster oracle")
struct ClusterOracleTests {
    /// The oracle runs; `places-flow.json` twice: typed aggregations, then (`+expressions`) its
    /// Mapbox `clusterProperties` parsed by the expression engine.
    static let files = [
        "places-default.json", "places-minpoints5.json", "places-r60-e256-mz4.json", "places-flow.json",
        "places-flow.json+expressions",
    ]

    /// The oracle file and the index built with its options, or nil when a file is absent.
    static func load(_ run: String) throws -> (oracle: [String: Any], index: ClusterIndex)? {
        let useExpressions = run.hasSuffix("+expressions")
        let file = useExpressions ? String(run.dropLast("+expressions".count)) : run
        guard let oracle = ClusterTestSupport.oracle(file) as? [String: Any],
            let features = ClusterTestSupport.dataset("places.json")
        else { return nil }
        let o = try #require(oracle["options"] as? [String: Any])
        let options = try ClusterOptions(
            minZoom: o["minZoom"] as! Int, maxZoom: o["maxZoom"] as! Int, minPoints: o["minPoints"] as! Int,
            radius: ClusterTestSupport.double(o["radius"]), extent: ClusterTestSupport.double(o["extent"]),
            nodeSize: o["nodeSize"] as! Int, generateId: o["generateId"] as! Bool, precision: .float32)
        var properties: [ClusterProperty] = []
        var expressions = ClusterPropertyExpressions()
        if let mr = o["map_reduce"] as? [String: Any] {
            if useExpressions {
                let json = try #require(ClusterTestSupport.jsonValue(mr["mapbox_clusterProperties"]!).objectValue)
                // Keep the oracle's property order (max, in_e9, sum) for readable output.
                expressions = try ClusterPropertyExpressions(json: JSONObject(["max", "in_e9", "sum"].map { ($0, json[$0]!) }))
            } else {
                properties = ClusterTestSupport.flowProperties(
                    flow: mr["flow_prop"] as! String, engine: mr["engine_prop"] as! String, value: mr["engine_value"] as! String)
            }
        }
        let index = try ClusterIndex(features: features, options: options, properties: properties, clusterProperties: expressions)
        return (oracle, index)
    }

    static func ids(_ items: [ClusterItem]) -> [Int] { items.map(\.rawID) }

    @Test("zoom digests of every zoom", arguments: files)
    func zoomDigests(file: String) throws {
        guard let (oracle, index) = try Self.load(file) else { return }
        let digests = try #require(oracle["zoom_digests"] as? [[String: Any]])
        #expect(digests.count == index.options.maxZoom - index.options.minZoom + 2)
        for d in digests {
            let z = d["z"] as! Int
            let items = index.clusters(in: [-180, -85, 180, 85], zoom: Double(z))
            #expect(items.count == d["count"] as! Int, "z\(z)")
            #expect(items.filter { $0.cluster != nil }.count == d["num_clusters"] as! Int, "z\(z)")
            #expect(items.filter { $0.point != nil }.count == d["num_points"] as! Int, "z\(z)")
            #expect(items.reduce(0) { $0 + $1.pointCount } == d["sum_point_count"] as! Int, "z\(z)")
            let fnv = ClusterTestSupport.fnv1a(Self.ids(items).sorted())
            #expect(Int(fnv) == d["sorted_ids_fnv1a"] as! Int, "z\(z)")
        }
    }

    @Test("items of every sampled zoom: ids, counts, positions, expansion zoom, properties, native order", arguments: files)
    func zoomItems(file: String) throws {
        guard let (oracle, index) = try Self.load(file) else { return }
        let zooms = try #require(oracle["zooms"] as? [[String: Any]])
        for var entry in zooms {
            if let side = entry["file"] as? String {
                entry = try #require(ClusterTestSupport.oracle(side) as? [String: Any])
            }
            let z = entry["z"] as! Int
            let bbox = ClusterTestSupport.doubles(entry["bbox"])
            let items = index.clusters(in: bbox, zoom: Double(z))
            #expect(Self.ids(items) == (entry["native_order"] as! [Int]), "native order z\(z)")
            let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.rawID, $0) })
            let expected = entry["items"] as! [[String: Any]]
            #expect(expected.count == items.count)
            for e in expected {
                let id = e["id"] as! Int
                guard let item = byID[id] else {
                    Issue.record("z\(z): missing item \(id)")
                    continue
                }
                let merc = ClusterTestSupport.doubles(e["merc"])
                let coords = ClusterTestSupport.doubles(e["coordinates"])
                #expect(item.pointCount == e["point_count"] as! Int, "z\(z) id \(id)")
                switch item {
                case .cluster(let c):
                    #expect(e["type"] as? String == "cluster")
                    #expect(abs(c.mercator.x - merc[0]) <= 1e-12 && abs(c.mercator.y - merc[1]) <= 1e-12, "merc z\(z) id \(id)")
                    #expect(c.coordinate.longitude == coords[0], "lng z\(z) id \(id)")
                    #expect(c.coordinate.latitude == coords[1]
                        || ClusterTestSupport.latitudeMatchesUpToLibmULP(y: c.mercator.y, expected: coords[1]), "lat z\(z) id \(id)")
                    #expect(c.abbreviatedPointCount == ClusterTestSupport.jsonValue(e["point_count_abbreviated"]!))
                    #expect(c.properties["cluster_id"] == .number(Double(id)))
                    #expect(try index.expansionZoom(of: c.id) == e["expansion_zoom"] as! Int, "z\(z) id \(id)")
                    if let props = e["props"] { #expect(JSONValue.object(c.clusterProperties) == ClusterTestSupport.jsonValue(props), "z\(z) id \(id)") }
                case .point(let p):
                    #expect(e["type"] as? String == "point")
                    #expect(p.mercator == SIMD2(merc[0], merc[1]), "merc z\(z) id \(id)")
                    #expect(p.coordinate.longitude == coords[0] && p.coordinate.latitude == coords[1])
                    if e["feature_id"] != nil { #expect(p.id == .number(ClusterTestSupport.double(e["feature_id"]))) } else { #expect(p.id == nil) }
                    if let props = e["props"] as? [String: Any] {
                        // The mapped values of the point: recompute with the same typed aggregations.
                        for (k, v) in props {
                            let mapped: JSONValue
                            if let agg = index.numericProperties.first(where: { $0.name == k })?.aggregation {
                                mapped = agg.jsonValue(agg.map(p.properties))
                            } else {
                                let slot = try #require(index.expressionProperties.names.firstIndex(of: k))
                                mapped = index.expressionProperties.mapValue(slot, JSONObjectExpressionContext(properties: p.properties))
                            }
                            #expect(mapped == ClusterTestSupport.jsonValue(v), "z\(z) id \(id) \(k)")
                        }
                    }
                }
            }
        }
    }

    @Test("bbox queries: antimeridian, ≥360°, lng > 180, fractional and clamped zooms", arguments: files)
    func bboxQueries(file: String) throws {
        guard let (oracle, index) = try Self.load(file) else { return }
        for q in try #require(oracle["bbox_queries"] as? [[String: Any]]) {
            let bbox = ClusterTestSupport.doubles(q["bbox"])
            let z = ClusterTestSupport.double(q["z"])
            let items = index.clusters(in: bbox, zoom: z)
            #expect(Self.ids(items) == (q["native_order"] as! [Int]), "bbox \(bbox) z\(z)")
            #expect(items.count == q["count"] as! Int)
        }
    }

    @Test("children and leaves of every cluster at the detail zooms", arguments: files)
    func clusterDetails(file: String) throws {
        guard let (oracle, index) = try Self.load(file) else { return }
        let details = try #require(oracle["cluster_details"] as? [[String: Any]])
        #expect(!details.isEmpty)
        for d in details {
            let id = ClusterID(rawValue: d["cluster_id"] as! Int)
            let children = try index.children(of: id)
            #expect(Self.ids(children) == (d["children"] as! [Int]), "children of \(id)")
            let leaves = try index.leaves(of: id, limit: nil)
            #expect(leaves.map(\.index) == (d["leaves"] as! [Int]), "leaves of \(id)")
            #expect(leaves.count == d["point_count"] as! Int)
        }
    }

    @Test("paged leaves in library order", arguments: files)
    func leavesPaged(file: String) throws {
        guard let (oracle, index) = try Self.load(file) else { return }
        for p in try #require(oracle["leaves_paged"] as? [[String: Any]]) {
            let id = ClusterID(rawValue: p["cluster_id"] as! Int)
            let limit = p["limit"] as? Int ?? 10
            let offset = p["offset"] as? Int ?? 0
            let leaves = try index.leaves(of: id, limit: limit, offset: offset)
            #expect(leaves.map(\.index) == (p["leaves"] as! [Int]), "leaves of \(id) limit \(limit) offset \(offset)")
        }
    }

    static func checkTile(_ tile: ClusterTile?, _ expected: [[String: Any]]?, features: [Feature], label: String) {
        guard let expected else {
            #expect(tile == nil, "\(label): expected an empty tile")
            return
        }
        guard let tile else {
            Issue.record("\(label): tile is nil")
            return
        }
        #expect(tile.features.count == expected.count, "\(label)")
        for (f, e) in zip(tile.features, expected) {
            let g = (e["geometry"] as! [[Int]])[0]
            #expect([f.x, f.y] == g, "\(label) geometry")
            if e["id"] != nil { #expect(f.id == .number(ClusterTestSupport.double(e["id"])), "\(label) id") } else { #expect(f.id == nil, "\(label) id") }
            if let pi = e["point_index"] as? Int {
                #expect(f.item.point?.index == pi, "\(label) point")
                #expect(f.tags == features[pi].properties)
            } else if let tags = e["tags"] {
                #expect(JSONValue.object(f.tags) == ClusterTestSupport.jsonValue(tags), "\(label) tags")
            }
        }
    }

    @Test("tiles: padding, wrapped copies, integer coordinates, null when empty", arguments: files)
    func tiles(file: String) throws {
        guard let (oracle, index) = try Self.load(file), let features = ClusterTestSupport.dataset("places.json") else { return }
        let file = file.replacingOccurrences(of: "+expressions", with: "")
        let tiles = try #require(oracle["tiles"] as? [[String: Any]])
        #expect(!tiles.isEmpty)
        for t in tiles {
            let (z, x, y) = (t["z"] as! Int, t["x"] as! Int, t["y"] as! Int)
            Self.checkTile(index.tile(z: z, x: x, y: y), t["features"] as? [[String: Any]], features: features, label: "\(file) \(z)/\(x)/\(y)")
        }
    }

    @Test("supercluster's own z0 tile fixtures", arguments: [("places-z0-0-0.json", 2), ("places-z0-0-0-min5.json", 5)])
    func fixtureTiles(file: String, minPoints: Int) throws {
        guard let fixture = ClusterTestSupport.oracle(file) as? [String: Any],
            let features = ClusterTestSupport.dataset("places.json")
        else { return }
        let index = try ClusterIndex(features: features, options: ClusterOptions(minPoints: minPoints, precision: .float32))
        let expected = fixture["features"] as? [[String: Any]]
        Self.checkTile(index.tile(z: 0, x: 0, y: 0), expected, features: features, label: file)
    }

    @Test("the internal dump: every level's items and positions in supercluster's order", arguments: files)
    func internalLevels(file: String) throws {
        guard let (oracle, index) = try Self.load(file) else { return }
        guard let internalDump = oracle["internal"] as? [String: Any] else { return }
        let stride = internalDump["stride"] as! Int
        for t in internalDump["trees"] as! [[String: Any]] {
            let z = t["z"] as! Int
            let data = t["data"] as! [Any]
            let n = t["num_items"] as! Int
            #expect(data.count == n * stride)
            // Level z as the index holds it, in level order: the ids of a world query sorted by
            // the oracle's order must match position by position.
            let items = index.clusters(in: [-180, -90, 180, 90], zoom: Double(z))
            let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.rawID, $0) })
            #expect(items.count == n, "z\(z)")
            for i in 0..<n {
                let id = data[i * stride + 3] as! Int
                let x = ClusterTestSupport.double(data[i * stride])
                let y = ClusterTestSupport.double(data[i * stride + 1])
                guard let item = byID[id] else {
                    Issue.record("z\(z): no item \(id)")
                    continue
                }
                let m = item.cluster?.mercator ?? item.point!.mercator
                #expect(m.x == x && m.y == y, "z\(z) id \(id)")
            }
        }
    }
}
