// The bodies of the fuzz targets, shared by the libFuzzer entry `Fuzz/Entry.swift` (compiled by
// `Scripts/fuzz.sh` into one module with the library sources, with `-D SPATIALCORE_FUZZ`) and by
// the tests that replay the committed seed and regression inputs (`FuzzReplayTests`).
// Each body must return normally for every input: a trap or sanitizer report is a finding.
import Foundation
#if !SPATIALCORE_FUZZ
import SpatialCore
#endif

enum FuzzBodies {
    /// Expression parser and evaluator: the input is JSON text; every purpose is parsed, and each
    /// parsed expression is evaluated against a few fixed features (never throws; any answer is fine).
    static func expression(_ bytes: [UInt8]) {
        guard let json = FuzzJSON.parse(bytes) else { return }
        for purpose in [ExpressionPurpose.filter, .value, .clusterMap, .clusterReduce] {
            guard let e = try? Expression(json: json, purpose: purpose) else { continue }
            for feature in fuzzFeatures {
                for zoom in [0.0, 7.5, 24] {
                    _ = feature.withExpressionContext(zoom: zoom) { e.evaluate($0) }
                    _ = feature.withExpressionContext(zoom: zoom) { e.evaluateFilter($0) }
                    _ = feature.withExpressionContext(zoom: zoom) { e.evaluateNumber($0, default: 0) }
                }
            }
            _ = e.description
        }
    }

    /// Index deserialization: byte 0 chooses the reader (k-d tree of Double or Float, packed R-tree),
    /// the rest is the buffer. A buffer that reads is queried every way; none may read out of bounds.
    static func index(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        let buffer = bytes.dropFirst()
        switch selector % 3 {
        case 0:
            guard let tree = try? KDTree<Double>(data: buffer) else { return }
            queryKD(tree)
            _ = tree.data
        case 1:
            guard let tree = try? KDTree<Float>(data: buffer) else { return }
            queryKD(tree)
            _ = tree.data
        default:
            guard let tree = try? PackedRTree(data: buffer) else { return }
            _ = tree.bounds
            _ = tree.search(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
            _ = tree.search(minX: 0, minY: 0, maxX: 1, maxY: 1)
            _ = tree.neighbors(x: 0, y: 0, maxResults: 5)
            _ = tree.neighbors(x: 1e300, y: -3, maxResults: 3, maxDistance: 10)
            for id in [-1, 0, 1, tree.count - 1, tree.count] { _ = tree.box(of: id) }
            _ = tree.data
        }
    }

    private static func queryKD<S: KDTreeScalar>(_ tree: KDTree<S>) {
        _ = tree.range(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
        _ = tree.range(minX: 0, minY: 0, maxX: 1, maxY: 1)
        _ = tree.within(x: 0, y: 0, radius: 1)
        _ = tree.nearest(to: SIMD2(0, 0), k: 3)
        _ = tree.nearest(to: SIMD2(1e300, -1), k: 1, maxDistance: 5)
        for p in [-1, 0, tree.count - 1, tree.count] { _ = tree.entry(at: p) }
    }

    private static let fuzzFeatures: [Feature] = [
        Feature(geometry: .point(Position(longitude: 1, latitude: 2)),
                properties: ["n": 3, "s": "x", "b": true, "z": nil, "a": [1, "2"], "o": ["k": 1.5]]),
        Feature(id: .number(7), geometry: nil, properties: [:]),
        Feature(id: .string("f"), geometry: .point(Position(longitude: -170, latitude: 80)),
                properties: ["n": -1e308, "s": "", "point_count": 12, "name": "Zürich"]),
    ]
}

/// A small strict JSON reader for fuzz inputs: depth-limited (256), so that its own recursion is
/// not the finding; returns `nil` for anything malformed.
enum FuzzJSON {
    static func parse(_ bytes: [UInt8]) -> JSONValue? {
        var i = 0
        guard let v = value(bytes, &i, depth: 0) else { return nil }
        skip(bytes, &i)
        return i == bytes.count ? v : nil
    }

    private static func skip(_ b: [UInt8], _ i: inout Int) {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    private static func literal(_ b: [UInt8], _ i: inout Int, _ word: String) -> Bool {
        let w = Array(word.utf8)
        guard i + w.count <= b.count, Array(b[i ..< i + w.count]) == w else { return false }
        i += w.count
        return true
    }

    private static func value(_ b: [UInt8], _ i: inout Int, depth: Int) -> JSONValue? {
        guard depth < 256 else { return nil }
        skip(b, &i)
        guard i < b.count else { return nil }
        switch b[i] {
        case UInt8(ascii: "n"): return literal(b, &i, "null") ? .null : nil
        case UInt8(ascii: "t"): return literal(b, &i, "true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal(b, &i, "false") ? .bool(false) : nil
        case UInt8(ascii: "\""): return string(b, &i).map { .string($0) }
        case UInt8(ascii: "["):
            i += 1
            var items: [JSONValue] = []
            skip(b, &i)
            if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                guard let v = value(b, &i, depth: depth + 1) else { return nil }
                items.append(v)
                skip(b, &i)
                guard i < b.count else { return nil }
                if b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                guard b[i] == UInt8(ascii: ",") else { return nil }
                i += 1
            }
        case UInt8(ascii: "{"):
            i += 1
            var members: [(String, JSONValue)] = []
            skip(b, &i)
            if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return .object(JSONObject()) }
            while true {
                skip(b, &i)
                guard i < b.count, b[i] == UInt8(ascii: "\""), let k = string(b, &i) else { return nil }
                skip(b, &i)
                guard i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                guard let v = value(b, &i, depth: depth + 1) else { return nil }
                if !members.contains(where: { $0.0 == k }) { members.append((k, v)) }
                skip(b, &i)
                guard i < b.count else { return nil }
                if b[i] == UInt8(ascii: "}") { i += 1; return .object(JSONObject(members)) }
                guard b[i] == UInt8(ascii: ",") else { return nil }
                i += 1
            }
        default:
            let start = i
            while i < b.count, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: ".")
                || b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") || (b[i] >= 48 && b[i] <= 57) { i += 1 }
            guard i > start, let d = Double(String(decoding: b[start ..< i], as: UTF8.self)) else { return nil }
            return .number(d)
        }
    }

    private static func string(_ b: [UInt8], _ i: inout Int) -> String? {
        i += 1
        var out: [UInt8] = []
        while i < b.count {
            let c = b[i]
            i += 1
            if c == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
            if c == UInt8(ascii: "\\") {
                guard i < b.count else { return nil }
                let e = b[i]
                i += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard i + 4 <= b.count, let u = UInt32(String(decoding: b[i ..< i + 4], as: UTF8.self), radix: 16),
                        let s = Unicode.Scalar(u) else { return nil }
                    i += 4
                    out.append(contentsOf: Array(String(Character(s)).utf8))
                default: out.append(e)
                }
            } else {
                out.append(c)
            }
        }
        return nil
    }
}

extension FuzzBodies {
    /// Small valid index buffers (with their selector byte) that seed the index fuzzer: k-d trees
    /// of both scalars and R-trees over a few seeded points, including the empty and one-item cases.
    static func indexSeeds() -> [[UInt8]] {
        var state: UInt64 = 0x5eed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        var seeds: [[UInt8]] = []
        for (count, nodeSize) in [(0, 2), (1, 2), (5, 2), (40, 4), (200, 16)] {
            let points = (0 ..< count).map { _ in SIMD2(next() * 10 - 5, next() * 10 - 5) }
            if let t = try? KDTree<Double>(points, nodeSize: nodeSize) { seeds.append([0] + t.data) }
            if let t = try? KDTree<Float>(points, nodeSize: nodeSize) { seeds.append([1] + t.data) }
            let boxes = points.map { SIMD4($0.x, $0.y, $0.x + next(), $0.y + next()) }
            if let t = try? PackedRTree(boxes, nodeSize: max(nodeSize, 2)) { seeds.append([2] + t.data) }
        }
        return seeds
    }
}

extension FuzzBodies {
    /// GeoJSON reader: the input is read as a document, as newline-delimited records and in the
    /// columnar point form, strictly and skipping invalid features; what reads is clustered.
    static func geojson(_ bytes: [UInt8]) {
        for skip in [false, true] {
            let options = GeoJSONReader.Options(skipInvalidFeatures: skip)
            if let collection = try? GeoJSON.read(bytes, options: options), collection.features.count <= 2000 {
                _ = try? ClusterIndex(features: collection.features, options: ClusterOptions(maxZoom: 4))
            }
            _ = try? GeoJSON.read(ndjson: bytes, options: options)
            _ = try? GeoJSON.readPoints(bytes, options: options)
        }
    }
}

extension FuzzBodies {
    /// Style-document loader: the input is the text of a style document, loaded with
    /// `Scene(styleData:)` (the library's JSON reader, sources with inline GeoJSON, clustering and
    /// its properties, layers, filters, paint and layout values); a scene that loads is queried at
    /// three cameras (under a point, in rectangles, nearest, with a layer subset and a predicate),
    /// and the clusters its clustered sources draw are expanded (children, leaves, expansion zoom).
    /// A document with a source whose `data` names a file is only parsed: the fuzzer must not read
    /// the machine's files (that path is covered by `StyleDocumentTests`).
    static func style(_ bytes: [UInt8]) {
        let data = Data(bytes)
        guard let json = try? JSONValue(parsing: data) else {
            _ = try? Scene(styleData: data, camera: styleCameras[0])  // the invalid-JSON error path
            return
        }
        if case .object(let root) = json, case .object(let sources)? = root["sources"],
            sources.members.contains(where: { if case .object(let s) = $0.1, case .string? = s["data"] { true } else { false } }) {
            return
        }
        guard var scene = try? Scene(styleData: data, images: styleImages, camera: styleCameras[0]) else { return }
        let predicate = try? Expression(filter: ["!=", ["get", "kind"], "b"])
        for camera in styleCameras {
            scene.camera = camera
            let w = Double(camera.viewSize.width), h = Double(camera.viewSize.height)
            for p in [CGPoint(x: w / 2, y: h / 2), CGPoint(x: 0, y: 0), CGPoint(x: w * 0.3, y: h * 0.7),
                      CGPoint(x: -w, y: 2 * h), CGPoint(x: Double.nan, y: 1)] {
                _ = scene.visibleFeatures(at: p)
                _ = scene.visibleFeatures(at: p, styleLayerIdentifiers: Set(scene.layers.prefix(1).map(\.id)), predicate: predicate)
                _ = scene.nearestFeatures(to: p, within: 40)
            }
            for r in [CGRect(x: 0, y: 0, width: w, height: h), CGRect(x: w / 2, y: h / 2, width: 0, height: 0),
                      CGRect(x: w, y: h, width: -w / 3, height: -h / 3), CGRect(x: -1e300, y: 0, width: 1e301, height: 1)] {
                _ = scene.visibleFeatures(in: r)
            }
            for found in scene.visibleFeatures(in: CGRect(x: 0, y: 0, width: w, height: h)).prefix(8) {
                guard let id = found.clusterID, let index = scene.clusterIndex(forSource: found.sourceIdentifier) else { continue }
                _ = try? index.children(of: id)
                _ = try? index.leaves(of: id, limit: 5, offset: 1)
                _ = try? index.expansionZoom(of: id)
            }
        }
    }

    private static let styleCameras: [Camera] = [
        try! Camera(center: Coordinate(latitude: 0, longitude: 0), zoom: 0, viewSize: CGSize(width: 512, height: 512)),
        try! Camera(center: Coordinate(latitude: 36.13, longitude: -95.93), zoom: 11.5, bearing: 30,
                    viewSize: CGSize(width: 390, height: 844), insets: EdgeInsets(top: 40, left: 0, bottom: 80, right: 10)),
        try! Camera(center: Coordinate(latitude: -33.9, longitude: 179.99), zoom: 24, viewSize: CGSize(width: 1, height: 1)),
    ]

    private static let styleImages: [String: CGSize] = [
        "icon": CGSize(width: 22, height: 22), "wide": CGSize(width: 300, height: 4), "empty": CGSize(width: 0, height: 0),
    ]
}
