import Foundation
import SpatialCore

/// The scene subcommands: `query` (the `visibleFeatures` answer) and `render` (an SVG picture).
enum SceneCommands {
    static let sceneOptionNames: Set<String> = ["center", "zoom", "size", "bearing", "images"]

    /// The scene of the style document `path` under the camera of `args`.
    static func scene(_ args: Arguments, style path: String) throws(CLIError) -> Scene {
        try sceneAndStyle(args, style: path).scene
    }

    static func sceneAndStyle(_ args: Arguments, style path: String) throws(CLIError) -> (scene: Scene, style: JSONValue) {
        guard let center = try args.numbers("center", count: 2, form: "LAT,LNG (two numbers)") else {
            throw .usage("missing --center LAT,LNG")
        }
        let zoomText = try args.required("zoom", "Z")
        guard let zoom = Double(zoomText), zoom.isFinite else { throw .usage("--zoom takes a number, not '\(zoomText)'") }
        let size = try self.size(try args.required("size", "WxH"), option: "size")
        let bearing = try args.double("bearing") ?? 0
        var images: [String: CGSize] = [:]
        if let list = args.string("images") {
            for item in list.split(separator: ",") {
                let parts = item.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, !parts[0].isEmpty else {
                    throw .usage("--images takes NAME=WxH[,NAME=WxH...], not '\(list)'")
                }
                images[String(parts[0])] = try self.size(String(parts[1]), option: "images")
            }
        }
        let camera: Camera
        do {
            camera = try Camera(
                center: Coordinate(latitude: center[0], longitude: center[1]), zoom: zoom, bearing: bearing, viewSize: size)
        } catch {
            throw .usage("camera: \(error)")
        }
        let style = try Input.json(path)
        let base = path == "-" ? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            : URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            return (try Scene(style: style, baseURL: base, images: images, camera: camera), style)
        } catch {
            throw .input("\(Input.name(path)): \(error)")
        }
    }

    static func size(_ text: String, option: String) throws(CLIError) -> CGSize {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0, w.isFinite, h.isFinite else {
            throw .usage("--\(option) takes a size WxH with positive numbers, not '\(text)'")
        }
        return CGSize(width: w, height: h)
    }

    static func point(_ args: Arguments) throws(CLIError) -> CGPoint? {
        try args.numbers("at", count: 2, form: "X,Y (two numbers)").map { CGPoint(x: $0[0], y: $0[1]) }
    }

    static func layerSet(_ args: Arguments) -> Set<String>? {
        args.string("layers").map { Set($0.split(separator: ",").map(String.init)) }
    }

    /// A feature as GeoJSON.
    static func featureJSON(_ f: Feature) -> JSONValue {
        var o: JSONObject = ["type": "Feature"]
        if let id = f.id { o["id"] = id.jsonValue }
        o["properties"] = .object(f.properties)
        o["geometry"] = f.geometry.map(GeoJSONInput.json) ?? .null
        return .object(o)
    }

    static func query(_ argv: [String], out: (String) -> Void) throws(CLIError) {
        let args = try Arguments(argv, known: sceneOptionNames.union(["at", "rect", "layers"]))
        if args.wantsHelp { out(Help.query); return }
        let file = try args.file("query")
        try args.expectPositional(1, "query")
        let at = try point(args)
        let rect = try args.numbers("rect", count: 4, form: "X,Y,W,H (four numbers)")
        guard (at == nil) != (rect == nil) else { throw .usage("query: give exactly one of --at X,Y and --rect X,Y,W,H") }
        if let rect, rect[2] < 0 || rect[3] < 0 { throw .usage("--rect: width and height must not be negative") }
        let scene = try scene(args, style: file)
        let layers = layerSet(args)
        let found = at.map { scene.visibleFeatures(at: $0, styleLayerIdentifiers: layers) }
            ?? scene.visibleFeatures(in: CGRect(x: rect![0], y: rect![1], width: rect![2], height: rect![3]), styleLayerIdentifiers: layers)
        let list: [JSONValue] = found.map {
            ["layer": .string($0.layerIdentifier), "source": .string($0.sourceIdentifier), "feature": featureJSON($0.feature)]
        }
        out(jsonText(.array(list)))
    }

    static func render(_ argv: [String], out: (String) -> Void) throws(CLIError) {
        let args = try Arguments(argv, known: sceneOptionNames.union(["at", "out", "layers"]))
        if args.wantsHelp { out(Help.render); return }
        let file = try args.file("render")
        try args.expectPositional(1, "render")
        let at = try point(args)
        let destination = try args.required("out", "FILE.svg (or - for stdout)")
        let (scene, style) = try sceneAndStyle(args, style: file)
        let svg = SceneSVG(scene: scene, tap: at, layers: layerSet(args), colours: SceneSVG.colourExpressions(of: style)).render()
        if destination == "-" {
            out(svg)
        } else {
            do {
                try Data(svg.utf8).write(to: URL(fileURLWithPath: destination))
            } catch {
                throw .input("\(destination): cannot be written")
            }
        }
    }
}
