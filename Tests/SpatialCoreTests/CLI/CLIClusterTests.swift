import Foundation
import Testing
import SpatialCore

/// The `spatial` clustering subcommands, run as subprocesses on real data; every answer is
/// compared with the library's own answer for the same input and options.
@Suite("CLI: clustering subcommands against the library", .serialized)
struct CLIClusterTests {
    /// The features the library sees (read independently of the CLI's reader).
    static func features(_ file: String) -> [Feature]? { ClusterTestSupport.dataset(file) }

    /// Checks one output FeatureCollection feature list against the library's items.
    static func expectMatches(_ output: [[String: Any]], _ items: [ClusterItem], _ features: [Feature], _ note: String) {
        #expect(output.count == items.count, "\(note): \(output.count) features, library \(items.count)")
        for (o, item) in zip(output, items) {
            let props = ClusterTestSupport.jsonValue(o["properties"] ?? NSNull()).objectValue
            let coords = ClusterTestSupport.doubles((o["geometry"] as? [String: Any])?["coordinates"])
            switch item {
            case .cluster(let c):
                #expect(ClusterTestSupport.double(o["id"]) == Double(c.id.rawValue), "\(note)")
                #expect(props == c.properties, "\(note): cluster \(c.id) properties")
                #expect(coords == [c.coordinate.longitude, c.coordinate.latitude], "\(note): cluster \(c.id) centre")
            case .point(let p):
                expectPoint(o, index: p.index, features, note)
            }
        }
    }

    /// Checks an output point against input feature `index`: its own id (or the index), its
    /// properties and its original coordinates.
    static func expectPoint(_ o: [String: Any], index: Int, _ features: [Feature], _ note: String) {
        let f = features[index]
        let id = ClusterTestSupport.jsonValue(o["id"] ?? NSNull())
        #expect(id == (f.id?.jsonValue ?? .number(Double(index))), "\(note): point \(index) id")
        #expect(ClusterTestSupport.jsonValue(o["properties"] ?? NSNull()).objectValue == f.properties, "\(note): point \(index) properties")
        if case .point(let pos)? = f.geometry {
            let coords = ClusterTestSupport.doubles((o["geometry"] as? [String: Any])?["coordinates"])
            #expect(Array(coords.prefix(2)) == [pos.longitude, pos.latitude], "\(note): point \(index) position")
        }
    }

    static func featureList(_ r: CLIRunner.Result) -> [[String: Any]] {
        (CLIRunner.json(r.stdout)?["features"] as? [[String: Any]]) ?? []
    }

    @Test("clusters --zoom Z on places.json matches clusters(in:zoom:)", arguments: [0.0, 1, 2.5, 4, 7, 16, 20])
    func clustersPlaces(zoom: Double) throws {
        guard let path = CLIRunner.datasetPath("places.json"), let features = Self.features("places.json"),
            let r = try CLIRunner.run(["clusters", path, "--zoom", "\(zoom)"])
        else { return }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 1)
        let index = try ClusterIndex(features: features)
        let items = index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: zoom)
        Self.expectMatches(Self.featureList(r), items, features, "places z\(zoom)")
        #expect(CLIRunner.json(r.stdout)?["type"] as? String == "FeatureCollection")
    }

    @Test("clusters --zoom 0-17 prints 18 NDJSON lines, each the library's answer at its zoom")
    func zoomRange() throws {
        guard let path = CLIRunner.datasetPath("places.json"), let features = Self.features("places.json"),
            let r = try CLIRunner.run(["clusters", path, "--zoom", "0-17"])
        else { return }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 18)
        let index = try ClusterIndex(features: features)
        for (z, line) in r.lines.enumerated() {
            let doc = try #require(CLIRunner.json(Array(line.utf8)))
            #expect(ClusterTestSupport.double(doc["zoom"]) == Double(z))
            let items = index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: Double(z))
            Self.expectMatches(doc["features"] as? [[String: Any]] ?? [], items, features, "places z\(z)")
        }
    }

    @Test("clusters with every option matches the library built with the same options")
    func options() throws {
        guard let path = CLIRunner.datasetPath("places.json"), let features = Self.features("places.json") else { return }
        let cases: [(args: [String], options: ClusterOptions, bbox: [Double], zoom: Double)] = [
            (["--radius", "60", "--extent", "256"], try ClusterOptions(radius: 60, extent: 256), [-180, -85, 180, 85], 2),
            (["--min-zoom", "2", "--max-zoom", "10", "--min-points", "3"], try ClusterOptions(minZoom: 2, maxZoom: 10, minPoints: 3), [-180, -85, 180, 85], 1),
            (["--precision", "float32"], try ClusterOptions(precision: .float32), [-180, -85, 180, 85], 3),
            (["--bbox", "100,-60,-100,60"], .default, [100, -60, -100, 60], 1),
            (["--bbox=-20,0,60,70", "--radius=80"], try ClusterOptions(radius: 80), [-20, 0, 60, 70], 3),
        ]
        for c in cases {
            guard let r = try CLIRunner.run(["clusters", path, "--zoom", "\(c.zoom)"] + c.args) else { return }
            #expect(r.status == 0, "\(c.args): \(r.stderr)")
            let index = try ClusterIndex(features: features, options: c.options)
            let items = index.clusters(west: c.bbox[0], south: c.bbox[1], east: c.bbox[2], north: c.bbox[3], zoom: c.zoom)
            Self.expectMatches(Self.featureList(r), items, features, "\(c.args)")
        }
    }

    @Test("--cluster-properties (inline and @FILE) gives the library's reduced properties")
    func clusterProperties() throws {
        guard let path = CLIRunner.datasetPath("places.json"), let features = Self.features("places.json") else { return }
        let text = #"{"sum":["+",["get","scalerank"]],"capes":["+",["case",["==",["get","featureclass"],"cape"],1,0]],"top":["max",["get","scalerank"]]}"#
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spatial-cli-props-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let expressions = try ClusterPropertyExpressions(json: try #require(ClusterTestSupport.jsonValue(ClusterTestSupport.parse(Array(text.utf8))!).objectValue))
        let index = try ClusterIndex(features: features, clusterProperties: expressions)
        for arg in [text, "@" + file.path] {
            guard let r = try CLIRunner.run(["clusters", path, "--zoom", "0-3", "--cluster-properties", arg]) else { return }
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.lines.count == 4)
            for (z, line) in r.lines.enumerated() {
                let doc = try #require(CLIRunner.json(Array(line.utf8)))
                let items = index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: Double(z))
                #expect(items.contains { $0.cluster?.clusterProperties["sum"]?.numberValue != nil })
                Self.expectMatches(doc["features"] as? [[String: Any]] ?? [], items, features, "props z\(z)")
            }
        }
    }

    @Test("the fire-hydrant clusters (Tulsa, max/any/sum FLOW) at zooms 11 and 14 match the library")
    func hydrants() throws {
        guard let path = CLIRunner.datasetPath("tulsa-fire-hydrants.geojson"),
            let features = Self.features("tulsa-fire-hydrants.geojson")
        else { return }
        let text = #"{"max":["max",["get","FLOW"]],"any_27":["any",["==",["get","STATION"],"27"]],"sum":["+",["get","FLOW"]]}"#
        let expressions = try ClusterPropertyExpressions(json: try #require(ClusterTestSupport.jsonValue(ClusterTestSupport.parse(Array(text.utf8))!).objectValue))
        let options = try MapLibreOptions(clusterRadius: 50, clusterMaxZoom: 14).clusterOptions()
        let index = try ClusterIndex(features: features, options: options, clusterProperties: expressions)
        guard let r = try CLIRunner.run([
            "clusters", path, "--zoom", "11-14", "--radius", "50", "--max-zoom", "14", "--cluster-properties", text,
        ]) else { return }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 4)
        for (k, line) in r.lines.enumerated() {
            let doc = try #require(CLIRunner.json(Array(line.utf8)))
            let items = index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: Double(11 + k))
            Self.expectMatches(doc["features"] as? [[String: Any]] ?? [], items, features, "tulsa z\(11 + k)")
        }
        // children, leaves and expansion-zoom of the largest cluster at zoom 11.
        let big = index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: 11).compactMap(\.cluster)
            .sorted { $0.pointCount > $1.pointCount }.prefix(1)
        let common = ["--radius", "50", "--max-zoom", "14", "--cluster-properties", text]
        for c in big {
            let id = String(c.id.rawValue)
            guard let ch = try CLIRunner.run(["children", path, "--cluster-id", id] + common),
                let lv = try CLIRunner.run(["leaves", path, "--cluster-id", id, "--limit", "all"] + common),
                let ez = try CLIRunner.run(["expansion-zoom", path, "--cluster-id", id] + common)
            else { return }
            Self.expectMatches(Self.featureList(ch), try index.children(of: c.id), features, "children \(id)")
            let leaves = try index.leaves(of: c.id, limit: nil)
            let out = Self.featureList(lv)
            #expect(out.count == leaves.count && leaves.count == c.pointCount)
            for (o, p) in zip(out, leaves) { Self.expectPoint(o, index: p.index, features, "leaves \(id)") }
            #expect(ez.text == "\(try index.expansionZoom(of: c.id))\n")
        }
    }

    @Test("children, leaves (limit/offset) and expansion-zoom of every cluster at zooms 0-2 of places.json")
    func clusterQueries() throws {
        guard let path = CLIRunner.datasetPath("places.json"), let features = Self.features("places.json") else { return }
        let index = try ClusterIndex(features: features)
        var ids: Set<ClusterID> = []
        for z in 0 ... 2 {
            for item in index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: Double(z)) {
                if let c = item.cluster { ids.insert(c.id) }
            }
        }
        #expect(ids.count > 5)
        for id in ids.sorted() {
            let s = String(id.rawValue)
            guard let ch = try CLIRunner.run(["children", path, "--cluster-id", s]),
                let lv = try CLIRunner.run(["leaves", path, "--cluster-id", s]),
                let lv2 = try CLIRunner.run(["leaves", path, "--cluster-id", s, "--limit", "3", "--offset", "2"]),
                let ez = try CLIRunner.run(["expansion-zoom", path, "--cluster-id", s])
            else { return }
            #expect(ch.status == 0 && lv.status == 0 && lv2.status == 0 && ez.status == 0)
            Self.expectMatches(Self.featureList(ch), try index.children(of: id), features, "children \(s)")
            for (out, leaves) in [(lv, try index.leaves(of: id)), (lv2, try index.leaves(of: id, limit: 3, offset: 2))] {
                let list = Self.featureList(out)
                #expect(list.count == leaves.count, "leaves \(s)")
                for (o, p) in zip(list, leaves) { Self.expectPoint(o, index: p.index, features, "leaves \(s)") }
            }
            #expect(ez.text == "\(try index.expansionZoom(of: id))\n")
        }
    }

    @Test("tile Z/X/Y gives the library's tile with integer coordinates and tags")
    func tiles() throws {
        guard let places = CLIRunner.datasetPath("places.json"), let pf = Self.features("places.json"),
            let dc = CLIRunner.datasetPath("dc-fire-hydrants.geojson"), let df = Self.features("dc-fire-hydrants.geojson")
        else { return }
        // DC (-77.03, 38.90) at zoom 11 and 14.
        func tileOf(z: Int) -> (Int, Int) {
            let n = Double(1 << z)
            let x = (-77.03 + 180) / 360 * n
            let s = sin(38.90 * .pi / 180)
            let y = (0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi) * n
            return (Int(x), Int(y))
        }
        let (x11, y11) = tileOf(z: 11)
        let (x14, y14) = tileOf(z: 14)
        let cases: [(String, [Feature], String)] = [
            (places, pf, "0/0/0"), (places, pf, "1/0/0"), (places, pf, "2/1/1"), (places, pf, "3/7/7"),
            (dc, df, "11/\(x11)/\(y11)"), (dc, df, "14/\(x14)/\(y14)"),
        ]
        var indexes: [String: ClusterIndex] = [:]
        for (path, features, zxy) in cases {
            let index = try indexes[path] ?? ClusterIndex(features: features)
            indexes[path] = index
            guard let r = try CLIRunner.run(["tile", path, zxy]) else { return }
            #expect(r.status == 0, "\(r.stderr)")
            let doc = try #require(CLIRunner.json(r.stdout))
            let p = zxy.split(separator: "/").map { Int($0)! }
            #expect(ClusterTestSupport.double(doc["z"]) == Double(p[0]))
            let expected = index.tile(z: p[0], x: p[1], y: p[2])?.features ?? []
            let out = doc["features"] as? [[String: Any]] ?? []
            #expect(out.count == expected.count, "tile \(zxy)")
            for (o, e) in zip(out, expected) {
                #expect(ClusterTestSupport.double(o["type"]) == 1)
                let g = (o["geometry"] as? [Any])?.first as? [Any]
                #expect(g?.count == 2 && g?[0] as? Int == e.x && g?[1] as? Int == e.y, "tile \(zxy) coordinates")
                #expect(ClusterTestSupport.jsonValue(o["tags"] ?? NSNull()).objectValue == e.tags)
                // supercluster's getTile: the cluster id, the point's own id, or no id at all.
                let expectedID: JSONValue? = e.item.point.map { p in features[p.index].id?.jsonValue } ?? .number(Double(e.item.rawID))
                #expect(o["id"].map { ClusterTestSupport.jsonValue($0) } == expectedID)
            }
        }
    }

    @Test("FILE - reads standard input and answers as for the file")
    func stdin() throws {
        guard let path = CLIRunner.datasetPath("places.json"), let bytes = TestData.dataset("places.json"),
            let fromFile = try CLIRunner.run(["clusters", path, "--zoom", "0-5"]),
            let fromStdin = try CLIRunner.run(["clusters", "-", "--zoom", "0-5"], stdin: bytes),
            let tile = try CLIRunner.run(["tile", "-", "1/0/0"], stdin: bytes),
            let tileFile = try CLIRunner.run(["tile", path, "1/0/0"])
        else { return }
        #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
        #expect(fromStdin.lines.count == 6)
        #expect(fromStdin.stdout == fromFile.stdout)
        #expect(tile.stdout == tileFile.stdout && !tile.stdout.isEmpty)
    }
}
