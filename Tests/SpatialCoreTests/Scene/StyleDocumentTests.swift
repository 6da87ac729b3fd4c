import Foundation
import Testing
@testable import SpatialCore

/// Loading a scene from a MapLibre style document: the same answers as the scene built from Swift
/// values, and typed errors that name the JSON path of a bad value.
@Suite("Style documents")
struct StyleDocumentTests {
    typealias S = SceneTestSupport

    static let camera = try! Camera(center: Coordinate(latitude: 38.9, longitude: -77.0), zoom: 11, viewSize: CGSize(width: 390, height: 844))

    static func style(layers: String, sources: String? = nil) -> Data {
        let src = sources ?? #""points":{"type":"geojson","data":{"type":"FeatureCollection","features":[{"type":"Feature","id":7,"properties":{"n":1},"geometry":{"type":"Point","coordinates":[-77.0,38.9]}}]}}"#
        return Data(#"{"version":8,"sources":{\#(src)},"layers":[\#(layers)]}"#.utf8)
    }

    static func error(_ data: Data) -> SceneError? {
        do {
            _ = try Scene(styleData: data, camera: camera)
            return nil
        } catch {
            return error
        }
    }

    @Test("the hydrant style loaded from JSON (data file relative to the style) answers as the Swift-built scene")
    func hydrantStyle() throws {
        guard let features = SceneTestSupport.dataset("dc-fire-hydrants.geojson") else { return }
        let style = #"""
            {"version":8,"sources":{"hydrants":{"type":"geojson","data":"dc-fire-hydrants.geojson","cluster":true,"clusterRadius":75},
             "tiles":{"type":"vector","url":"x"}},
             "layers":[
             {"id":"unclustered-point-layer","type":"symbol","source":"hydrants","filter":["!",["has","point_count"]],
              "layout":{"icon-image":"hydrant","icon-rotate":["%",["get","FLOW"],360]}},
             {"id":"clustered-circle-layer","type":"circle","source":"hydrants","filter":["has","point_count"],
              "paint":{"circle-radius":25,"circle-color":"#1e90ff"}},
             {"id":"cluster-count-layer","type":"symbol","source":"hydrants","filter":["has","point_count"],
              "layout":{"text-field":["get","point_count"],"text-size":12}},
             {"id":"roads","type":"line","source":"tiles","source-layer":"r"}]}
            """#
        let (swiftScene, _) = try S.hydrantScene(features, withProperties: false, center: S.center(of: features))
        let loaded = try Scene(styleData: Data(style.utf8), baseURL: TestData.datasetsDirectory,
                               images: ["hydrant": CGSize(width: 22, height: 22)], camera: swiftScene.camera)
        #expect(loaded.layers.map(\.id) == ["unclustered-point-layer", "clustered-circle-layer", "cluster-count-layer", "roads"])
        var rng = SplitMix(state: 3)
        var hits = 0
        for _ in 0..<300 {
            let p = CGPoint(x: rng.range(0, 390), y: rng.range(0, 844))
            let a = swiftScene.visibleFeatures(at: p), b = loaded.visibleFeatures(at: p)
            #expect(a.map(\.layerIdentifier) == b.map(\.layerIdentifier))
            #expect(a.map(\.properties) == b.map(\.properties))
            hits += a.count
        }
        #expect(hits > 0)
    }

    @Test("legacy filters, functions, token text fields and visibility load")
    func legacyForms() throws {
        let data = Self.style(layers: #"""
            {"id":"a","type":"circle","source":"points","filter":["==","n",1],"paint":{"circle-radius":{"stops":[[0,4],[20,8]]}}},
            {"id":"b","type":"symbol","source":"points","layout":{"text-field":"N{n}","visibility":"visible"}},
            {"id":"c","type":"circle","source":"points","layout":{"visibility":"none"}},
            {"id":"d","type":"circle","source":"points","filter":["==","n",2]},
            {"id":"e","type":"circle","source":"points","minzoom":12}
            """#)
        let scene = try Scene(styleData: data, camera: Self.camera)
        let hits = scene.visibleFeatures(at: scene.camera.point(for: Coordinate(latitude: 38.9, longitude: -77.0)))
        #expect(hits.map(\.layerIdentifier) == ["b", "a"])
        #expect(hits.first?.feature.id == .number(7))
        // "N1" is 2 characters at 16 points: 19.2 wide, so 9.6 + 2 padding either side of the point.
        let p = scene.camera.point(for: Coordinate(latitude: 38.9, longitude: -77.0))
        #expect(scene.visibleFeatures(at: CGPoint(x: p.x + 11.5, y: p.y), styleLayerIdentifiers: ["b"]).count == 1)
        #expect(scene.visibleFeatures(at: CGPoint(x: p.x + 11.7, y: p.y), styleLayerIdentifiers: ["b"]).isEmpty)
    }

    @Test("invalid values are typed errors naming their JSON path", arguments: [
        (#"{"id":"a","type":"circle","source":"points","paint":{"circle-radius":"big"}}"#, "layers[0].paint.circle-radius"),
        (#"{"id":"a","type":"circle","source":"points","paint":{"circle-radius":["interpolate",["linear"],["zoom"],5,1,2,3]}}"#, "layers[0].paint.circle-radius"),
        (#"{"id":"a","type":"circle","source":"points"},{"id":"b","type":"circle","source":"points","paint":{"circle-radius":["nope",1]}}"#, "layers[1].paint.circle-radius"),
        (#"{"id":"a","type":"circle","source":"points","filter":["==",1,"a"]}"#, "layers[0].filter"),
        (#"{"type":"circle","source":"points"}"#, "layers[0].id"),
        (#"{"id":"a","type":"circle","source":"nowhere"}"#, "layers[0].source"),
        (#"{"id":"a","type":"circle"}"#, "layers[0].source"),
        (#"{"id":"a","type":"circle","source":"points"},{"id":"a","type":"circle","source":"points"}"#, "layers[1].id"),
        (#"{"id":"a","type":"circle","source":"points","layout":{"visibility":"hidden"}}"#, "layers[0].layout.visibility"),
        (#"{"id":"a","type":"circle","source":"points","minzoom":"3"}"#, "layers[0].minzoom"),
        (#"{"id":"a","type":"circle","source":"points","paint":{"circle-translate":[1,2,3]}}"#, "layers[0].paint.circle-translate"),
        (#"{"id":"a","type":"symbol","source":"points","layout":{"icon-size":{"type":"bogus","stops":[[0,1]]}}}"#, "layers[0].layout.icon-size"),
    ])
    func layerErrors(layer: String, path: String) throws {
        let e = try #require(Self.error(Self.style(layers: layer)))
        #expect(e.path.hasPrefix(path), "\(e)")
    }

    @Test("invalid sources are typed errors naming their JSON path", arguments: [
        (#""p":{"type":"geojson","data":{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,95]}}]}}"#, "sources.p.data.features[0].geometry.coordinates"),
        (#""p":{"type":"geojson","data":{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[0,1],[1,1]]}}]},"cluster":true}"#, "sources.p.data"),
        (#""p":{"type":"geojson","data":{"type":"Feature","geometry":null},"cluster":true,"clusterRadius":-1}"#, "sources.p"),
        (#""p":{"type":"geojson","data":{"type":"Feature","geometry":null},"cluster":true,"clusterMaxZoom":18}"#, "sources.p"),
        (#""p":{"type":"geojson","data":{"type":"Feature","geometry":null},"cluster":"yes"}"#, "sources.p.cluster"),
        (#""p":{"type":"geojson","data":"missing-file.geojson"}"#, "sources.p.data"),
        (#""p":{"type":"geojson"}"#, "sources.p.data"),
        (#""p":{"type":"geojson","data":{"type":"Feature","geometry":null},"cluster":true,"clusterProperties":{"s":["+",["zoom"]]}}"#, "sources.p.clusterProperties"),
    ])
    func sourceErrors(source: String, path: String) throws {
        let e = try #require(Self.error(Self.style(layers: "", sources: source)))
        #expect(e.path.hasPrefix(path), "\(e)")
    }

    @Test("malformed JSON and a non-object style are errors, never a crash")
    func malformed() throws {
        #expect(Self.error(Data("{\"version\":8,".utf8)) != nil)
        #expect(Self.error(Data("[1]".utf8)) != nil)
        #expect(Self.error(Data(#"{"version":7}"#.utf8))?.path == "version")
    }
}
