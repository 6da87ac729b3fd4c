import Foundation
import SpatialCore

/// `scene.build/<dataset>`, `visible.at-z<z>/<dataset>` and `visible.rect44-z<z>/<dataset>` on the
/// fire-hydrant scene (the Mapbox clustering example: radius 75, three cluster properties on the
/// Tulsa file, none on DC; unclustered icons, cluster circles, count labels; 390×844 view centred on
/// the city).
///
/// Query figures are latencies of single queries in ns: `median` is the p50, `max` the p99 and
/// `min` the fastest, over 4,000 seeded queries per zoom (half at drawn items, half anywhere in the
/// view). `scene.build` includes reading the GeoJSON file through the style loader (the library's
/// GeoJSON reader), clustering, the per-level k-d trees and the layer reach bounds.
func benchQueries(_ bench: Bench) throws {
    for name in ["tulsa-fire-hydrants", "dc-fire-hydrants"] {
        guard let dataset = bench.dataset(name) else { continue }
        guard bench.wants("scene.build/\(name)") || bench.wants("visible") else { continue }
        let properties = name.hasPrefix("tulsa")
            ? #","clusterProperties":{"max":["max",["get","FLOW"]],"in_27":["any",["==",["get","STATION"],"27"]],"sum":[["+",["accumulated"],["get","sum"]],["get","FLOW"]]}"#
            : ""
        let style = """
            {"version":8,"sources":{"hydrants":{"type":"geojson","data":"\(dataset.url.lastPathComponent)",
            "cluster":true,"clusterRadius":75\(properties)}},"layers":[
            {"id":"unclustered-point-layer","type":"symbol","source":"hydrants","filter":["!",["has","point_count"]],
             "layout":{"icon-image":"hydrant","icon-rotate":["%",["get","FLOW"],360]}},
            {"id":"clustered-circle-layer","type":"circle","source":"hydrants","filter":["has","point_count"],
             "paint":{"circle-radius":25,"circle-color":"#1e90ff"}},
            {"id":"cluster-count-layer","type":"symbol","source":"hydrants","filter":["has","point_count"],
             "layout":{"text-field":["get","point_count"],"text-size":12}}]}
            """
        let data = Data(style.utf8)
        let base = dataset.url.deletingLastPathComponent()
        let images = ["hydrant": CGSize(width: 22, height: 22)]
        let start = try Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 11, viewSize: CGSize(width: 390, height: 844))
        var built: Scene?
        bench.measure("scene.build", dataset: name, n: dataset.bytes.count, runs: 3) {
            built = try? Scene(styleData: data, baseURL: base, images: images, camera: start)
        }
        var scene = try built ?? Scene(styleData: data, baseURL: base, images: images, camera: start)
        guard let index = scene.clusterIndex(forSource: "hydrants") else { continue }
        // The centre of the city: the mean of the points.
        let all = index.clusters(in: [-180, -90, 180, 90], zoom: 30)
        let center = Coordinate(
            latitude: all.map(\.coordinate.latitude).reduce(0, +) / Double(all.count),
            longitude: all.map(\.coordinate.longitude).reduce(0, +) / Double(all.count))
        for zoom in 10...16 {
            scene.camera = try Camera(center: center, zoom: Double(zoom), viewSize: CGSize(width: 390, height: 844))
            let camera = scene.camera
            let b = camera.visibleBounds
            let drawn = index.clusters(west: b.west, south: b.south, east: b.east, north: b.north, zoom: Double(zoom))
                .map { camera.point(for: $0.coordinate) }
            var state: UInt64 = 0x5EED + UInt64(zoom)
            func next() -> Double {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Double(state >> 11) / Double(1 << 53)
            }
            var taps: [CGPoint] = []
            for i in 0..<4000 {
                if i % 2 == 0, !drawn.isEmpty {
                    let p = drawn[Int(next() * Double(drawn.count)) % drawn.count]
                    taps.append(CGPoint(x: p.x + (next() - 0.5) * 20, y: p.y + (next() - 0.5) * 20))
                } else {
                    taps.append(CGPoint(x: next() * 390, y: next() * 844))
                }
            }
            if bench.wants("visible.at-z\(zoom)/\(name)") || bench.wants("visible.at-z\(zoom)") {
                record(bench, "visible.at-z\(zoom)", name, taps) { blackHole(scene.visibleFeatures(at: $0)) }
            }
            if bench.wants("visible.rect44-z\(zoom)/\(name)") || bench.wants("visible.rect44-z\(zoom)") {
                record(bench, "visible.rect44-z\(zoom)", name, taps) {
                    blackHole(scene.visibleFeatures(in: CGRect(x: $0.x - 22, y: $0.y - 22, width: 44, height: 44)))
                }
            }
        }
    }
}

/// Times each query alone; records p50 as median, p99 as max, the fastest as min (ns).
private func record(_ bench: Bench, _ figure: String, _ dataset: String, _ taps: [CGPoint], _ query: (CGPoint) -> Void) {
    for p in taps.prefix(500) { query(p) }  // warm-up
    var samples: [Double] = []
    samples.reserveCapacity(taps.count)
    for p in taps {
        let start = DispatchTime.now().uptimeNanoseconds
        query(p)
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start))
    }
    samples.sort()
    bench.record(BenchResult(
        name: figure, dataset: dataset, n: taps.count, unit: "ns", median: samples[samples.count / 2],
        min: samples[0], max: samples[min(samples.count - 1, samples.count * 99 / 100)], runs: 1, peak_rss_bytes: nil))
}
