import Foundation
import Testing
import SpatialCore
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `spatial query` and `spatial render` on the fire-hydrant style (Tulsa hydrants), run as
/// subprocesses: the query answer equals the library scene's, and the rendered SVG parses as XML
/// and draws exactly the clusters the cluster index reports in view, with their evaluated radius
/// and colour, the tap and its hits.
@Suite("CLI: query and render on the fire-hydrant style", .serialized)
struct CLISceneTests {
    /// The example style with its data path pointed at the dataset, in a temporary folder.
    static func style() throws -> (path: String, json: [UInt8])? {
        guard let data = CLIRunner.datasetPath("tulsa-fire-hydrants.geojson") else { return nil }
        let example = TestData.packageRoot.appendingPathComponent("Examples/fire-hydrants/style.json")
        let text = try String(contentsOf: example, encoding: .utf8)
            .replacingOccurrences(of: "../../Datasets/tulsa-fire-hydrants.geojson", with: data)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spatial-cli-style-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        return (url.path, Array(text.utf8))
    }

    static let center = Coordinate(latitude: 36.13, longitude: -95.93)
    static let size = CGSize(width: 600, height: 600)

    /// The drawn features of an SVG, read with XMLParser.
    final class SVGReader: NSObject, XMLParserDelegate {
        struct Drawn { var classes: String; var attributes: [String: String]; var shapes: [(String, [String: String])] }
        var drawn: [Drawn] = []
        var tap: [String: String]? = nil
        var depth = 0
        var root: String? = nil
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            if root == nil { root = name }
            if name == "g", let c = attributes["class"] {
                if c.hasPrefix("feature") { drawn.append(Drawn(classes: c, attributes: attributes, shapes: [])) }
                if c == "tap" { tap = attributes }
            } else if !drawn.isEmpty, name == "circle" || name == "rect" || name == "text" {
                drawn[drawn.count - 1].shapes.append((name, attributes))
            }
        }
    }

    static func parseSVG(_ bytes: [UInt8]) -> SVGReader? {
        let parser = XMLParser(data: Data(bytes))
        let reader = SVGReader()
        parser.delegate = reader
        return parser.parse() ? reader : nil
    }

    /// The clusters the library reports as drawn in view: from the cluster index with the style's
    /// options, each kept when its circle (radius + stroke, as the style evaluates them) touches
    /// the view.
    static func expectedCircles(zoom: Double) throws -> [Int: (x: Double, y: Double, r: Double, colour: String, count: Int)]? {
        guard let features = ClusterTestSupport.dataset("tulsa-fire-hydrants.geojson") else { return nil }
        let properties = try ClusterPropertyExpressions(json: [
            "max": ["max", ["get", "FLOW"]],
            "in_station_27": ["any", ["==", ["get", "STATION"], "27"]],
            "sum": ["+", ["get", "FLOW"]],
        ])
        let options = try MapLibreOptions(clusterRadius: 50, clusterMaxZoom: 14).clusterOptions()
        let index = try ClusterIndex(features: features, options: options, clusterProperties: properties)
        let camera = try Camera(center: center, zoom: zoom, viewSize: size)
        var out: [Int: (Double, Double, Double, String, Int)] = [:]
        for case .cluster(let c) in index.clusters(west: -180, south: -85, east: 180, north: 85, zoom: zoom.rounded(.down)) {
            let p = camera.point(for: c.coordinate)
            let n = c.pointCount
            let r = n < 100 ? 20.0 : n < 750 ? 30 : 40
            let colour = n < 100 ? "#51bbd6" : n < 750 ? "#f1f075" : "#f28cb1"
            let stroke = c.clusterProperties["in_station_27"] == .bool(true) ? 3.0 : 0
            let x = Double(p.x), y = Double(p.y)
            let dx = max(0, -x, x - 600), dy = max(0, -y, y - 600)
            let inside = x >= 0 && x <= 600 && y >= 0 && y <= 600
            guard inside || (dx * dx + dy * dy).squareRoot() < r + stroke else { continue }
            out[c.id.rawValue] = (x, y, r, colour, n)
        }
        return out
    }

    @Test("render at zooms 11 and 14: valid SVG whose cluster circles are the library's clusters in view", arguments: [11.0, 14.0])
    func render(zoom: Double) throws {
        guard let style = try Self.style(), let expected = try Self.expectedCircles(zoom: zoom) else { return }
        defer { try? FileManager.default.removeItem(atPath: style.path) }
        // Tap the centre of the largest cluster in view.
        let target = try #require(expected.max { $0.value.count < $1.value.count })
        let tap = "\(target.value.x),\(target.value.y)"
        guard let r = try CLIRunner.run([
            "render", style.path, "--center", "\(Self.center.latitude),\(Self.center.longitude)", "--zoom", "\(zoom)",
            "--size", "600x600", "--at", tap, "--out", "-",
        ]) else { return }
        #expect(r.status == 0, "\(r.stderr)")
        let svg = try #require(Self.parseSVG(r.stdout), "the output is not well-formed XML")
        #expect(svg.root == "svg")
        let circles = svg.drawn.filter { $0.attributes["data-layer"] == "clusters" }
        var seen: Set<Int> = []
        for d in circles {
            let id = try #require(d.attributes["data-cluster-id"].flatMap { Int($0) })
            seen.insert(id)
            guard let e = expected[id] else { Issue.record("cluster \(id) drawn but not in view per the library"); continue }
            let circle = try #require(d.shapes.first { $0.0 == "circle" }?.1)
            let cx = Double(circle["cx"] ?? "") ?? .nan, cy = Double(circle["cy"] ?? "") ?? .nan
            #expect(abs(cx - e.x) < 0.01 && abs(cy - e.y) < 0.01, "cluster \(id) at \(cx),\(cy), library \(e.x),\(e.y)")
            #expect(Double(circle["r"] ?? "") == e.r)
            #expect(circle["fill"] == e.colour)
            #expect(d.attributes["data-point-count"] == String(e.count))
        }
        #expect(seen == Set(expected.keys), "drawn \(seen.count), library \(expected.count)")
        #expect(circles.count == expected.count)
        // Each cluster has its count label; the tapped cluster and its label are highlighted.
        let labels = svg.drawn.filter { $0.attributes["data-layer"] == "cluster-count" }
        // (a label box is smaller than its circle, so at the edges a circle may show without it)
        let labelled = Set(labels.compactMap { $0.attributes["data-cluster-id"].flatMap { Int($0) } })
        #expect(labelled.isSubset(of: seen) && !labelled.isEmpty)
        #expect(labels.allSatisfy { $0.shapes.contains { $0.0 == "text" } })
        let hits = svg.drawn.filter { $0.attributes["data-hit"] == "true" }
        #expect(hits.contains { $0.attributes["data-cluster-id"] == String(target.key) && $0.attributes["data-layer"] == "clusters" })
        #expect(svg.tap != nil && svg.tap?["data-hits"] == String(hits.count))
    }

    @Test("query --at and --rect print the library scene's visibleFeatures answer")
    func query() throws {
        guard let style = try Self.style(), let expected = try Self.expectedCircles(zoom: 12) else { return }
        defer { try? FileManager.default.removeItem(atPath: style.path) }
        let camera = try Camera(center: Self.center, zoom: 12, viewSize: Self.size)
        let scene = try Scene(
            styleData: Data(style.json), baseURL: URL(fileURLWithPath: style.path).deletingLastPathComponent(), camera: camera)
        let target = try #require(expected.max { $0.value.count < $1.value.count })
        let common = ["--center", "\(Self.center.latitude),\(Self.center.longitude)", "--zoom", "12", "--size", "600x600"]
        let cases: [([String], [VisibleFeature])] = [
            (["--at", "\(target.value.x),\(target.value.y)"], scene.visibleFeatures(at: CGPoint(x: target.value.x, y: target.value.y))),
            (["--rect", "100,100,200,150"], scene.visibleFeatures(in: CGRect(x: 100, y: 100, width: 200, height: 150))),
            (["--rect", "0,0,600,600", "--layers", "clusters"], scene.visibleFeatures(in: CGRect(x: 0, y: 0, width: 600, height: 600), styleLayerIdentifiers: ["clusters"])),
        ]
        for (arguments, answer) in cases {
            guard let r = try CLIRunner.run(["query", style.path] + common + arguments) else { return }
            #expect(r.status == 0, "\(r.stderr)")
            let list = try #require(ClusterTestSupport.parse(r.stdout) as? [[String: Any]])
            #expect(list.count == answer.count, "\(arguments)")
            #expect(!answer.isEmpty)
            for (o, v) in zip(list, answer) {
                #expect(o["layer"] as? String == v.layerIdentifier && o["source"] as? String == v.sourceIdentifier)
                let f = try #require(o["feature"] as? [String: Any])
                #expect(ClusterTestSupport.jsonValue(f["properties"] ?? NSNull()).objectValue == v.properties)
                #expect(ClusterTestSupport.jsonValue(f["id"] ?? NSNull()) == (v.feature.id?.jsonValue ?? .null))
            }
        }
        // The tap hits the tapped cluster, per the cluster index.
        #expect(cases[0].1.contains { $0.clusterID?.rawValue == target.key })
    }

    @Test("scene errors: documented exit code and one line")
    func errors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spatial-cli-scene-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func write(_ name: String, _ text: String) throws -> String {
            let url = dir.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }
        let tiny = try write("tiny.json", #"{"version":8,"sources":{"s":{"type":"geojson","data":{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[0,0]}}]}}},"layers":[{"id":"c","type":"circle","source":"s","paint":{"circle-radius":10}}]}"#)
        let badLayer = try write("bad.json", #"{"version":8,"sources":{},"layers":[{"id":"c","type":"circle","source":"nope"}]}"#)
        let missingData = try write("missing.json", #"{"version":8,"sources":{"s":{"type":"geojson","data":"no-such.geojson"}},"layers":[]}"#)
        let cam = ["--center", "0,0", "--zoom", "3", "--size", "400x300"]
        let cases: [([String], Int32, String)] = [
            (["query", tiny, "--at", "1,1"], 2, "missing --center"),
            (["query", tiny, "--center", "0,0", "--zoom", "3", "--at", "1,1"], 2, "missing --size"),
            (["query", tiny, "--center", "0,0", "--zoom", "3", "--size", "400by300", "--at", "1,1"], 2, "--size takes a size WxH"),
            (["query", tiny] + cam, 2, "exactly one of --at X,Y and --rect"),
            (["query", tiny, "--at", "1,1", "--rect", "0,0,1,1"] + cam, 2, "exactly one of --at X,Y and --rect"),
            (["query", tiny, "--center", "0,0", "--zoom", "40", "--size", "400x300", "--at", "1,1"], 2, "camera:"),
            (["query", dir.appendingPathComponent("none.json").path, "--at", "1,1"] + cam, 1, "no such file"),
            (["query", badLayer, "--at", "1,1"] + cam, 1, "layers[0].source"),
            (["query", missingData, "--at", "1,1"] + cam, 1, "sources.s"),
            (["render", tiny] + cam, 2, "missing --out"),
            (["render", tiny, "--out", dir.appendingPathComponent("no/such/dir/x.svg").path] + cam, 1, "cannot be written"),
        ]
        for (arguments, status, message) in cases {
            guard let r = try CLIRunner.run(arguments) else { return }
            #expect(r.status == status, "\(arguments): \(r.stderr)")
            #expect(r.stderr.hasPrefix("spatial: ") && r.stderr.contains(message), "\(arguments): \(r.stderr)")
            #expect(r.stderr.dropLast().split(separator: "\n").count == 1)
        }
        // The tiny style works: the point at the centre is hit and drawn.
        guard let q = try CLIRunner.run(["query", tiny, "--at", "200,150"] + cam),
            let svg = try CLIRunner.run(["render", tiny, "--at", "200,150", "--out", "-"] + cam)
        else { return }
        #expect(q.status == 0 && (ClusterTestSupport.parse(q.stdout) as? [Any])?.count == 1)
        let drawn = try #require(Self.parseSVG(svg.stdout)).drawn
        #expect(drawn.count == 1 && drawn.first?.attributes["data-hit"] == "true")
    }
}
