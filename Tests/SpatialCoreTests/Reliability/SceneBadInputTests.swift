import Foundation
import Testing
import SpatialCore

/// The rows of the bad-input table of `reliability.md` that reach a scene: a style document (its
/// JSON, its sources' inline GeoJSON and cluster options, its expressions) and the queries of the
/// scene it builds. Each asserts the typed error and its JSON path, or the defined result; none
/// may trap. (README "Reliability" maps rows to tests.)
@Suite("Reliability: bad input to scenes and style documents")
struct SceneBadInputTests {
    static let center = Coordinate(latitude: 36.13, longitude: -95.93)
    static let camera = try! Camera(center: center, zoom: 11, viewSize: CGSize(width: 400, height: 400))

    /// A style with one source `p` (its members after `"type":"geojson",`) and the given layers.
    static func style(source: String, layers: String = #"{"id":"c","type":"circle","source":"p"}"#) -> Data {
        Data(#"{"version":8,"sources":{"p":{"type":"geojson",\#(source)}},"layers":[\#(layers)]}"#.utf8)
    }

    /// Inline `data` of points at the given [longitude, latitude] texts, with properties.
    static func points(_ coordinates: [String], properties: String = "{}") -> String {
        let features = coordinates.enumerated().map { i, c in
            #"{"type":"Feature","id":\#(i),"properties":\#(properties),"geometry":{"type":"Point","coordinates":\#(c)}}"#
        }
        return #""data":{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#
    }

    static func load(_ data: Data, camera: Camera = camera) -> Result<Scene, SceneError> {
        Result { () throws(SceneError) in try Scene(styleData: data, camera: camera) }
    }

    static func error(_ data: Data) -> SceneError? {
        if case .failure(let e) = load(data) { return e }
        Issue.record("loaded: \(String(decoding: data, as: UTF8.self).prefix(200))")
        return nil
    }

    /// The view point at the camera's centre.
    static let middle = CGPoint(x: 200, y: 200)

    @Test("malformed / truncated style JSON, wrong member types, deep nesting: SceneError with its path")
    func malformedStyleDocuments() throws {
        let good = Self.style(source: Self.points(["[-95.93,36.13]"]))
        _ = try Self.load(good).get()
        // Every proper prefix of a valid document is invalid JSON: an error at the root (the path
        // is empty and the reason names the reader's position), never a trap.
        for cut in stride(from: 0, to: good.count, by: 7) {
            let e = try #require(Self.error(good.prefix(cut)))
            #expect(e.path == "")
            #expect(e.reason.hasPrefix("invalid JSON"), "\(e)")
        }
        // Wrong member types name the member.
        let wrongTypes: [(String, String)] = [
            (#"{"version":8,"sources":[],"layers":[]}"#, "sources"),
            (#"{"version":8,"sources":{},"layers":{}}"#, "layers"),
            (#"{"version":"8"}"#, "version"),
            // No version: not a style (a GeoJSON file given for one, say), not an empty scene.
            (#"{"sources":{},"layers":[]}"#, "version"),
            (#"{"type":"FeatureCollection","features":[]}"#, "version"),
            (#"{"version":8,"sources":{"p":"geojson"}}"#, "sources.p"),
            (#"{"version":8,"sources":{"p":{"type":7}}}"#, "sources.p.type"),
            (#"{"version":8,"layers":[{"id":1,"type":"circle"}]}"#, "layers[0].id"),
            (#"{"version":8,"layers":[{"id":"a","type":"circle","source":3}]}"#, "layers[0].source"),
            (#"{"version":8,"layers":[{"id":"a","type":"fill","paint":[]}]}"#, "layers[0].paint"),
            (#"{"version":8,"layers":[{"id":"a","type":"fill","maxzoom":25}]}"#, "layers[0].maxzoom"),
            (#"{"version":8,"sources":{"p":{"type":"geojson","data":{"type":"FeatureCollection","features":{}}}}}"#, "sources.p.data.features"),
            (#"{"version":8,"sources":{"p":{"type":"geojson","data":{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":["0",1]}}]}}}}"#,
             "sources.p.data.features[0].geometry.coordinates"),
            (#"{"version":8,"sources":{"p":{"type":"geojson","data":{"type":"Feature","geometry":null},"clusterRadius":"50"}}}"#, "sources.p.clusterRadius"),
        ]
        for (text, path) in wrongTypes {
            let e = try #require(Self.error(Data(text.utf8)))
            #expect(e.path == path, "\(text) → \(e)")
        }
        // Deep nesting: 100 000 open arrays in a filter stop at the JSON reader's depth limit (an
        // error at the root, no recursion per level); 300 levels read as JSON but exceed the
        // expression depth (256) and are a parse error under the filter's path.
        let deep = #"{"version":8,"layers":[{"id":"a","type":"fill","filter":"# + String(repeating: "[", count: 100_000)
        let e1 = try #require(Self.error(Data(deep.utf8)))
        #expect(e1.path == "" && e1.reason.hasPrefix("invalid JSON"), "\(e1)")
        let nested = String(repeating: #"["!","#, count: 300) + "true" + String(repeating: "]", count: 300)
        let e2 = try #require(Self.error(Data(#"{"version":8,"layers":[{"id":"a","type":"fill","filter":\#(nested)}]}"#.utf8)))
        #expect(e2.path.hasPrefix("layers[0].filter"), "\(e2)")
        #expect(e2.reason.contains("deep"), "\(e2)")
    }

    @Test("NaN / ±inf / latitude beyond ±90 in a source: an error naming the feature, clustered or not")
    func invalidCoordinatesInSources() throws {
        // JSON has no NaN or infinity literal: an overflowing number is the way an infinite
        // coordinate reaches a style (the reader turns it into ±inf or rejects it).
        for bad in ["[0,90.5]", "[0,-91]", "[1e400,0]", "[0,-1e400]"] {
            for cluster in [false, true] {
                let data = Self.style(source: Self.points(["[0,0]", "[1,1]", bad]) + #","cluster":\#(cluster)"#)
                let e = try #require(Self.error(data))
                if e.path.isEmpty {
                    #expect(e.reason.hasPrefix("invalid JSON"), "\(bad): \(e)")  // 1e400 refused by the reader
                } else {
                    // The third feature (index 2) is named by its path or, once clustered, by the
                    // clustering error ("feature 2").
                    #expect(e.path.hasPrefix("sources.p.data"), "\(bad): \(e)")
                    #expect(e.path.contains("features[2]") || e.reason.contains("feature 2"), "\(bad): \(e)")
                }
            }
        }
        // ±90 exactly is a valid latitude.
        _ = try Self.load(Self.style(source: Self.points(["[0,90]", "[0,-90]"]) + #","cluster":true"#)).get()
    }

    @Test("longitude beyond ±180 in a source is wrapped: drawn at the wrapped place")
    func longitudeWrappedInScenes() throws {
        // -95.93 + 360 = 264.07 and -95.93 - 720 = -815.93 both wrap to -95.93, the camera's centre.
        for cluster in [false, true] {
            let data = Self.style(source: Self.points(["[264.07,36.13]", "[-815.93,36.13]"]) + #","cluster":\#(cluster),"clusterRadius":1"#)
            let scene = try Self.load(data).get()
            let hits = scene.visibleFeatures(at: Self.middle)
            // Two points at the same place: clustered, one cluster of 2 at zoom 11; else both.
            #expect(hits.count == (cluster ? 1 : 2))
            for hit in hits {
                #expect(abs(hit.coordinate.longitude - -95.93) < 1e-9)
                #expect(abs(hit.coordinate.latitude - 36.13) < 1e-9)
            }
            if cluster { #expect(hits.first?.properties["point_count"] == 2) }
        }
    }

    @Test("empty source, one point, 1000 identical points: a valid scene with the defined answers")
    func emptyOneAndIdenticalInScenes() throws {
        for cluster in [false, true] {
            let empty = try Self.load(Self.style(source: #""data":{"type":"FeatureCollection","features":[]},"cluster":\#(cluster)"#)).get()
            #expect(empty.visibleFeatures(at: Self.middle).isEmpty)
            #expect(empty.visibleFeatures(in: CGRect(x: 0, y: 0, width: 400, height: 400)).isEmpty)
            let one = try Self.load(Self.style(source: Self.points(["[-95.93,36.13]"]) + #","cluster":\#(cluster)"#)).get()
            // One point is never a cluster (clusterMinPoints 2): the feature itself, id 0.
            #expect(one.visibleFeatures(at: Self.middle).map(\.feature.id) == [.number(0)])
        }
        let copies = Array(repeating: "[-95.93,36.13]", count: 1000)
        var scene = try Self.load(Self.style(source: Self.points(copies) + #","cluster":true,"clusterMaxZoom":14"#)).get()
        // Up to clusterMaxZoom they are one cluster of 1000 whose leaves are the 1000 points …
        for zoom in [0.0, 11, 14.5] {
            scene.camera = try Camera(center: Self.center, zoom: zoom, viewSize: CGSize(width: 400, height: 400))
            let hits = scene.visibleFeatures(at: Self.middle)
            #expect(hits.count == 1)
            #expect(hits.first?.properties["point_count"] == 1000)
            let id = try #require(hits.first?.clusterID)
            let index = try #require(scene.clusterIndex(forSource: "p"))
            #expect(try Set(index.leaves(of: id, limit: nil).map(\.index)) == Set(0 ..< 1000))
        }
        // … and beyond it (clusterMaxZoom + 1 = 15) every point is drawn on its own.
        scene.camera = try Camera(center: Self.center, zoom: 15, viewSize: CGSize(width: 400, height: 400))
        let leaves = scene.visibleFeatures(at: Self.middle)
        #expect(leaves.count == 1000)
        #expect(leaves.allSatisfy { $0.clusterID == nil })
    }

    @Test("non-point geometry in a clustered source: an error naming the feature and its type")
    func nonPointGeometryInClusteredSource() throws {
        let line = #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}"#
        let point = #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[0,0]}}"#
        let data = Self.style(source: #""cluster":true,"data":{"type":"FeatureCollection","features":[\#(point),\#(point),\#(line)]}"#)
        let e = try #require(Self.error(data))
        #expect(e.path == "sources.p.data")
        #expect(e.reason.contains("feature 2") && e.reason.contains("LineString"), "\(e)")
        // Unclustered, the same source is valid: a line draws a circle at each of its positions.
        _ = try Self.load(Self.style(source: #""data":{"type":"FeatureCollection","features":[\#(point),\#(line)]}"#)).get()
    }

    @Test("cluster options out of range in a style: an error at the source")
    func clusterOptionsOutOfRange() throws {
        let data = #""cluster":true,"data":{"type":"FeatureCollection","features":[]}"#
        let bad = [
            #""clusterRadius":0"#, #""clusterRadius":-1"#, #""clusterMaxZoom":31,"maxzoom":32"#,
            #""clusterMaxZoom":18"#, #""clusterMaxZoom":-1"#, #""maxzoom":-3"#, #""clusterMinPoints":0"#,
        ]
        for options in bad {
            let e = try #require(Self.error(Self.style(source: data + "," + options)))
            #expect(e.path == "sources.p", "\(options): \(e)")
        }
        // Non-finite and non-integer values are refused by the reader of the member itself.
        for (options, path) in [(#""clusterRadius":1e400"#, ""), (#""clusterMaxZoom":2.5"#, "sources.p.clusterMaxZoom")] {
            let e = try #require(Self.error(Self.style(source: data + "," + options)))
            #expect(e.path == path, "\(options): \(e)")
        }
    }

    @Test("unknown source, stale cluster id, negative limit or offset, unknown layer ids: nil, errors or empty")
    func unknownIDsInScenes() throws {
        let copies = Array(repeating: "[-95.93,36.13]", count: 5)
        let data = Self.style(source: Self.points(copies) + #","cluster":true"#)
        let scene = try Self.load(data).get()
        #expect(scene.clusterIndex(forSource: "nope") == nil)
        let index = try #require(scene.clusterIndex(forSource: "p"))
        let hit = try #require(scene.visibleFeatures(at: Self.middle).first)
        let id = try #require(hit.clusterID)
        #expect(throws: ClusterError.self) { try index.leaves(of: id, limit: -1) }
        #expect(throws: ClusterError.self) { try index.leaves(of: id, offset: -1) }
        // An id from a different scene's index (more points, other ids) is unknown here.
        let grid = (0 ..< 400).map { "[\(Double($0 % 20) * 0.01),\(Double($0 / 20) * 0.01)]" }
        let other = try Self.load(Self.style(source: Self.points(grid) + #","cluster":true"#)).get()
        let otherIndex = try #require(other.clusterIndex(forSource: "p"))
        let foreign = otherIndex.clusters(west: -180, south: -85, east: 180, north: 85, zoom: 0).compactMap(\.cluster).map(\.id)
        #expect(!foreign.isEmpty)
        for f in foreign where f != id {
            #expect(throws: ClusterError.self) { try index.children(of: f) }
            #expect(throws: ClusterError.self) { try index.expansionZoom(of: f) }
        }
        // Unknown layer ids are ignored; an empty set queries nothing.
        #expect(scene.visibleFeatures(at: Self.middle, styleLayerIdentifiers: ["nope"]).isEmpty)
        #expect(scene.visibleFeatures(at: Self.middle, styleLayerIdentifiers: []).isEmpty)
        #expect(scene.visibleFeatures(at: Self.middle, styleLayerIdentifiers: ["c", "nope"]).count == 1)
        // Unclustered sources have no cluster index.
        let plain = try Self.load(Self.style(source: Self.points(copies))).get()
        #expect(plain.clusterIndex(forSource: "p") == nil)
    }

    @Test("invalid expressions in a style: a parse error at the JSON path of the bad part", arguments: [
        // unknown operator: in a filter, and nested in a paint value (a paint value whose first
        // element is no operator is a literal, here an array where a number is needed)
        (#""filter":["nope",1]"#, "layers[0].filter"),
        (#""paint":{"circle-radius":["+",1,["nope",2]]}"#, "layers[0].paint.circle-radius[2]"),
        (#""paint":{"circle-radius":["nope",1]}"#, "layers[0].paint.circle-radius"),
        // arity: `-` with three arguments; `get` with three
        (#""paint":{"circle-radius":["-",1,2,3]}"#, "layers[0].paint.circle-radius"),
        (#""filter":["get","a","b","c"]"#, "layers[0].filter"),
        // types: a string where a number is needed (argument 2 of `*`)
        (#""paint":{"circle-radius":["*",2,"x"]}"#, "layers[0].paint.circle-radius[2]"),
        // unsorted stops: the stop input 2 after 5 (element 5 of interpolate)
        (#""paint":{"circle-radius":["interpolate",["linear"],["zoom"],5,1,2,3]}"#, "layers[0].paint.circle-radius[5]"),
        (#""paint":{"circle-radius":["step",["zoom"],1,8,2,4,3]}"#, "layers[0].paint.circle-radius[5]"),
        // legacy function with unsorted stops
        (#""paint":{"circle-radius":{"stops":[[10,1],[2,3]]}}"#, "layers[0].paint.circle-radius"),
    ])
    func invalidExpressionsInStyles(layerMembers: String, path: String) throws {
        let layer = #"{"id":"c","type":"circle","source":"p",\#(layerMembers)}"#
        let e = try #require(Self.error(Self.style(source: Self.points(["[0,0]"]), layers: layer)))
        #expect(e.path.hasPrefix(path), "\(e)")
        #expect(!e.reason.isEmpty)
    }

    @Test("an invalid cluster property expression in a style: a parse error under the property's path")
    func invalidClusterPropertyInStyles() throws {
        let e = try #require(Self.error(Self.style(
            source: Self.points(["[0,0]"]) + #","cluster":true,"clusterProperties":{"s":["plus",["get","n"]]}"#)))
        #expect(e.path.hasPrefix("sources.p.clusterProperties.s"), "\(e)")
    }

    @Test("an expression that fails at evaluation falls back to the property's default in a query")
    func evaluationFailureInQueries() throws {
        // `to-number` of "x" is an evaluation error: the radius falls back to its default 5 and
        // the stroke width to 0, so the footprint is a disc of radius 5 (strictly less hits).
        // (A literal that cannot be a value of its property, such as a translate of three
        // numbers, is refused at load time: `invalidExpressionsInStyles`.)
        // A filter that fails is false: layer `f` draws nothing. A predicate that fails drops
        // the candidate.
        let layers = #"""
            {"id":"c","type":"circle","source":"p","paint":{"circle-radius":["to-number",["get","s"]],
             "circle-stroke-width":["/",1,["to-number",["get","s"]]]}},
            {"id":"f","type":"circle","source":"p","filter":[">",["get","s"],["to-number",["get","s"]]]}
            """#
        let data = Self.style(source: Self.points(["[-95.93,36.13]"], properties: #"{"s":"x"}"#), layers: layers)
        let scene = try Self.load(data).get()
        let p = Self.middle
        #expect(scene.visibleFeatures(at: CGPoint(x: p.x + 4.9, y: p.y)).map(\.layerIdentifier) == ["c"])
        #expect(scene.visibleFeatures(at: CGPoint(x: p.x, y: p.y - 4.9)).map(\.layerIdentifier) == ["c"])
        #expect(scene.visibleFeatures(at: CGPoint(x: p.x + 5.1, y: p.y)).isEmpty)
        #expect(scene.visibleFeatures(in: CGRect(x: 0, y: 0, width: 400, height: 400)).map(\.layerIdentifier) == ["c"])
        let failing = try Expression(filter: ["<", ["get", "s"], 1])
        #expect(scene.visibleFeatures(at: p, predicate: failing).isEmpty)
        #expect(scene.nearestFeatures(to: p, within: 10, predicate: failing).isEmpty)
    }

    @Test("absurd query input: NaN or infinite points and rectangles, negative or NaN distances, give no features")
    func absurdQueries() throws {
        let scene = try Self.load(Self.style(source: Self.points(["[-95.93,36.13]"]))).get()
        #expect(scene.visibleFeatures(at: Self.middle).count == 1)
        for p in [CGPoint(x: Double.nan, y: 200), CGPoint(x: 200, y: -Double.infinity), CGPoint(x: 1e300, y: 1e300)] {
            #expect(scene.visibleFeatures(at: p).isEmpty)
            #expect(scene.nearestFeatures(to: p, within: 50).isEmpty)
        }
        for d in [-1.0, .nan, .infinity] { #expect(scene.nearestFeatures(to: Self.middle, within: d).isEmpty) }
        #expect(scene.visibleFeatures(in: CGRect(x: Double.nan, y: 0, width: 400, height: 400)).isEmpty)
        #expect(scene.visibleFeatures(in: CGRect(x: -Double.infinity, y: 0, width: 10, height: 10)).isEmpty)
        // A rectangle with a negative size is the same rectangle (CGRect standardizes it).
        #expect(scene.visibleFeatures(in: CGRect(x: 400, y: 400, width: -400, height: -400)).count == 1)
    }

    @Test("camera with NaN, zoom outside 0…24, zero or negative view size: CameraError before any scene query")
    func invalidCameraForScenes() throws {
        let size = CGSize(width: 400, height: 400)
        #expect(throws: CameraError.zoomOutOfRange(24.5)) { try Camera(center: Self.center, zoom: 24.5, viewSize: size) }
        #expect(throws: CameraError.zoomOutOfRange(-1)) { try Camera(center: Self.center, zoom: -1, viewSize: size) }
        #expect(throws: CameraError.invalidViewSize(width: 0, height: 400)) {
            try Camera(center: Self.center, zoom: 3, viewSize: CGSize(width: 0, height: 400))
        }
        #expect(throws: CameraError.self) { try Camera(center: Self.center, zoom: .nan, viewSize: size) }
        #expect(throws: CameraError.self) { try Camera(center: Coordinate(latitude: .nan, longitude: 0), zoom: 3, viewSize: size) }
        #expect(throws: CameraError.self) { try Camera(center: Self.center, zoom: 3, viewSize: CGSize(width: 10, height: -1)) }
        // A scene is only ever built or moved with a validated camera: its queries never see one.
        var scene = try Self.load(Self.style(source: Self.points(["[-95.93,36.13]"]))).get()
        // Zoom 24 itself shows a layer without maxzoom (MapLibre's unset maxzoom has no bound).
        scene.camera = try Camera(center: Self.center, zoom: 24, viewSize: CGSize(width: 1, height: 1))
        #expect(scene.visibleFeatures(at: CGPoint(x: 0.5, y: 0.5)).count == 1)
    }
}
