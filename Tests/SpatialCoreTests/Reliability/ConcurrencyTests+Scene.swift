import Foundation
import Testing
import SpatialCore

/// A scene next to an index: one `Scene` (loaded from a style document with a clustered and a
/// plain source) and one `ClusterIndex`, queried together from 8 threads started at once.
extension ConcurrencyTests {
    /// A style document over seeded points: source `c` clustered (with a cluster property), source
    /// `p` plain; circles with data-driven radii and symbols with text, on both.
    static func seededStyle(_ coordinates: [Coordinate]) -> Data {
        func features(_ range: StrideThrough<Int>) -> String {
            range.filter { $0 < coordinates.count }.map { i in
                let c = coordinates[i]
                return #"{"type":"Feature","id":\#(i),"properties":{"size":\#(i % 9),"name":"n\#(i % 17)"},"#
                    + #""geometry":{"type":"Point","coordinates":[\#(c.longitude),\#(c.latitude)]}}"#
            }.joined(separator: ",")
        }
        let half = coordinates.count - 1
        return Data(#"""
            {"version":8,"sources":{
             "c":{"type":"geojson","cluster":true,"clusterRadius":60,"clusterMaxZoom":12,
                  "clusterProperties":{"total":["+",["get","size"]]},
                  "data":{"type":"FeatureCollection","features":[\#(features(stride(from: 0, through: half, by: 2)))]}},
             "p":{"type":"geojson","data":{"type":"FeatureCollection","features":[\#(features(stride(from: 1, through: half, by: 2)))]}}},
             "layers":[
              {"id":"c-circles","type":"circle","source":"c","paint":{"circle-radius":["case",["has","point_count"],["min",40,["+",8,["/",["get","total"],20]]],["+",3,["get","size"]]]}},
              {"id":"c-count","type":"symbol","source":"c","filter":["has","point_count"],"layout":{"text-field":["get","point_count_abbreviated"],"text-size":12}},
              {"id":"p-circles","type":"circle","source":"p","paint":{"circle-radius":["get","size"],"circle-stroke-width":1}},
              {"id":"p-labels","type":"symbol","source":"p","minzoom":6,"layout":{"text-field":"{name}","text-anchor":"top","text-offset":[0,1]}}]}
            """#.utf8)
    }

    /// Every scene query kind at three cameras, flattened into one comparable answer.
    /// Query points: 30 on drawn features (where the answers are not empty), 30 spread over the view.
    static func sceneAnswers(_ scene: Scene, cameras: [Camera], on coordinates: [Coordinate]) -> [String] {
        var out: [String] = []
        var s = scene
        func line(_ found: [VisibleFeature]) -> String {
            found.map { "\($0.layerIdentifier):\($0.feature.id.map { "\($0)" } ?? "-"):\($0.distance)" }.joined(separator: ",")
        }
        for camera in cameras {
            s.camera = camera
            let onFeatures = coordinates.prefix(30).map { camera.point(for: $0) }
            let spread: [CGPoint] = (0 ..< 30).map { (i: Int) -> CGPoint in
                let x = Double(i * 37 % 400), y = Double(i * 61 % 700)
                return CGPoint(x: x, y: y)
            }
            for p in onFeatures + spread {
                out.append("at " + line(s.visibleFeatures(at: p)))
                out.append("in " + line(s.visibleFeatures(in: CGRect(x: p.x - 22, y: p.y - 22, width: 44, height: 44))))
                out.append("near " + line(s.nearestFeatures(to: p, within: 30)))
            }
            let all = s.visibleFeatures(in: CGRect(x: 0, y: 0, width: 400, height: 700))
            out.append("all " + line(all))
            if let index = s.clusterIndex(forSource: "c") {
                for id in all.compactMap(\.clusterID).prefix(5) {
                    out.append("children \(((try? index.children(of: id)) ?? []).map(\.rawID))")
                    out.append("leaves \(((try? index.leaves(of: id, limit: 10, offset: 1)) ?? []).map(\.index))")
                    out.append("expansion \((try? index.expansionZoom(of: id)) ?? -1)")
                }
            }
        }
        return out
    }

    @Test("one scene and one cluster index queried together from 8 threads: visibleFeatures at/in, nearest, clusters, children, leaves, expansion zoom, tiles")
    func sceneAndIndexFromEightThreads() throws {
        let coordinates = Self.seededCoordinates(3000, seed: 99)
        let size = CGSize(width: 400, height: 700)
        // Over a blob (where clusters are), over the whole world, and close in.
        let blob = coordinates[1]
        let cameras = try [
            Camera(center: blob, zoom: 5, viewSize: size),
            Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 0.5, bearing: 20, viewSize: size),
            Camera(center: blob, zoom: 9.5, viewSize: size),
        ]
        let scene = try Scene(styleData: Self.seededStyle(coordinates), camera: cameras[0])
        // Points of the blob the cameras look at (every 12th point from 1 is in it).
        let near = stride(from: 1, to: coordinates.count, by: 12).map { coordinates[$0] }
        let index = try ClusterIndex(coordinates: coordinates, options: ClusterOptions(maxZoom: 12))
        let expectedScene = Self.sceneAnswers(scene, cameras: cameras, on: near)
        let expectedIndex = Self.clusterAnswers(index)
        // The answers are not trivially empty: hits under points, clusters with children.
        #expect(expectedScene.filter { $0.hasPrefix("at ") && $0.count > 3 }.count > 30)
        #expect(expectedScene.contains { $0.hasPrefix("children [") && $0 != "children []" })
        let answers = Self.onThreads(run: { (Self.sceneAnswers(scene, cameras: cameras, on: near), Self.clusterAnswers(index)) })
        #expect(answers.count == 8)
        for (sceneAnswer, indexAnswer) in answers {
            #expect(sceneAnswer == expectedScene)
            #expect(indexAnswer == expectedIndex)
        }
    }

    @Test("loading a style twice gives the same answers (scene build determinism)")
    func sceneBuildIsDeterministic() throws {
        let coordinates = Self.seededCoordinates(2000, seed: 12)
        let camera = try Camera(center: coordinates[1], zoom: 6, viewSize: CGSize(width: 400, height: 700))
        let style = Self.seededStyle(coordinates)
        let near = stride(from: 1, to: coordinates.count, by: 12).map { coordinates[$0] }
        let builds = Self.onThreads(4, run: { () -> [String] in
            guard let scene = try? Scene(styleData: style, camera: camera) else { return [] }
            return Self.sceneAnswers(scene, cameras: [camera], on: near)
        })
        #expect(builds.count == 4 && !builds[0].isEmpty)
        for b in builds { #expect(b == builds[0]) }
    }
}
