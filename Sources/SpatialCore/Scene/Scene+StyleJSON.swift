import Foundation

/// The kind of value a known paint/layout property takes, for checking style documents.
enum StylePropertyType {
    case number
    case numberPair
    case string
    /// `text-field`: a string (with `{token}` substitution), number or formatted value.
    case text
    /// `icon-padding`: a number, or 1 to 4 numbers as CSS writes a box's sides (MapLibre's
    /// `padding` type).
    case padding
}

/// A paint or layout property the scene reads, as the style specification declares it: its group,
/// the kind of value it takes and, for constants, the numbers or strings it allows.
struct StyleProperty {
    let type: StylePropertyType
    /// A `layout` property (else `paint`): under the other group the name is an unknown property.
    let isLayout: Bool
    /// The range of a number.
    var range: ClosedRange<Double>?
    /// The values of an enumeration.
    var values: Set<String>?

    static let anchors: Set<String> = [
        "center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right",
    ]
    static let translateAnchors: Set<String> = ["map", "viewport"]
    static let nonNegative: ClosedRange<Double> = 0...Double.infinity

    static func paint(_ type: StylePropertyType, _ range: ClosedRange<Double>? = nil, _ values: Set<String>? = nil) -> StyleProperty {
        StyleProperty(type: type, isLayout: false, range: range, values: values)
    }

    static func layout(_ type: StylePropertyType, _ range: ClosedRange<Double>? = nil, _ values: Set<String>? = nil) -> StyleProperty {
        StyleProperty(type: type, isLayout: true, range: range, values: values)
    }

    static let known: [String: StyleProperty] = [
        "circle-radius": .paint(.number, nonNegative), "circle-stroke-width": .paint(.number, nonNegative),
        "circle-translate": .paint(.numberPair), "circle-translate-anchor": .paint(.string, nil, translateAnchors),
        "circle-opacity": .paint(.number, 0...1), "circle-stroke-opacity": .paint(.number, 0...1),
        "circle-blur": .paint(.number),
        "icon-image": .layout(.string), "icon-size": .layout(.number, nonNegative),
        "icon-anchor": .layout(.string, nil, anchors), "icon-offset": .layout(.numberPair),
        "icon-rotate": .layout(.number), "icon-padding": .layout(.padding, nonNegative),
        "icon-translate": .paint(.numberPair), "icon-translate-anchor": .paint(.string, nil, translateAnchors),
        "icon-opacity": .paint(.number, 0...1),
        "text-field": .layout(.text), "text-size": .layout(.number, nonNegative),
        "text-anchor": .layout(.string, nil, anchors), "text-offset": .layout(.numberPair),
        "text-padding": .layout(.number, nonNegative),
        "text-translate": .paint(.numberPair), "text-translate-anchor": .paint(.string, nil, translateAnchors),
        "text-opacity": .paint(.number, 0...1),
    ]
}

extension Scene {
    /// Builds a scene from a MapLibre style document (version 8 subset of
    /// `projection-and-queries.md`): `sources` of type `geojson` (`data` inline, a path
    /// relative to `baseURL` (the style document's folder, or the document's own URL) or a
    /// `file:` URL, read with ``GeoJSONReader``; other URLs are errors; `cluster`, `clusterRadius`, `clusterMaxZoom`, `clusterMinPoints`,
    /// `maxzoom`, `clusterProperties`) and `layers` (`id`, `type`, `source`, `filter`,
    /// `minzoom`, `maxzoom`, `layout`, `paint`). Unknown members are ignored, a paint property
    /// under `layout` or a layout property under `paint` included (MapLibre does not apply it);
    /// sources of other types are skipped (layers naming them are never hit).
    ///
    /// - Throws: ``SceneError`` naming the JSON path of the first invalid value (for example
    ///   `layers[3].paint.circle-radius[2]`).
    /// - Complexity: O(size of the document and data) plus ``init(sources:layers:images:camera:)``.
    public init(style: JSONValue, baseURL: URL? = nil, images: [String: CGSize] = [:], camera: Camera) throws(SceneError) {
        guard case .object(let root) = style else { throw SceneError(path: "", reason: "a style must be a JSON object") }
        // Required, as the style specification has it: a GeoJSON file or any other object given
        // for a style is an error, not an empty scene.
        guard let version = root["version"] else {
            throw SceneError(path: "version", reason: "missing: a style document has \"version\": 8")
        }
        guard version == .number(8) else { throw SceneError(path: "version", reason: "only style version 8 is supported") }
        var sources: [GeoJSONSource] = []
        var skipped = Set<String>()
        if let s = root["sources"] {
            guard case .object(let object) = s else { throw SceneError(path: "sources", reason: "must be an object") }
            for (name, value) in object.members {
                let path = "sources.\(name)"
                if let source = try StyleDocument.source(name, value, path: path, baseURL: baseURL) {
                    sources.append(source)
                } else {
                    skipped.insert(name)
                }
            }
        }
        var layers: [StyleLayer] = []
        if let l = root["layers"] {
            guard case .array(let list) = l else { throw SceneError(path: "layers", reason: "must be an array") }
            for (i, value) in list.enumerated() {
                var layer = try StyleDocument.layer(value, path: "layers[\(i)]")
                if let s = layer.source, skipped.contains(s) { layer.source = nil }
                layers.append(layer)
            }
        }
        try self.init(sources: sources, layers: layers, images: images, camera: camera)
    }

    /// Builds a scene from the bytes of a style document; see ``init(style:baseURL:images:camera:)``.
    /// - Throws: ``SceneError`` for invalid JSON (path empty) or an invalid value.
    /// - Complexity: O(size of the document and data).
    public init(styleData: Data, baseURL: URL? = nil, images: [String: CGSize] = [:], camera: Camera) throws(SceneError) {
        try self.init(style: try StyleDocument.parse(styleData, path: ""), baseURL: baseURL, images: images, camera: camera)
    }
}

/// Reading the parts of a style document.
enum StyleDocument {
    /// JSON text to a value, with the library's JSON reader.
    static func parse(_ data: Data, path: String) throws(SceneError) -> JSONValue {
        do { return try JSONValue(parsing: data) } catch {
            throw SceneError(path: path, reason: "invalid JSON: \(error)")
        }
    }

    /// The folder relative paths start from: `baseURL` when it is a folder (written with a
    /// trailing slash or found on disk), else the folder of the document it names. O(1) plus one
    /// file-system look-up.
    static func styleFolder(_ baseURL: URL) -> URL {
        var isDirectory: ObjCBool = false
        let isFolder = baseURL.hasDirectoryPath
            || (FileManager.default.fileExists(atPath: baseURL.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        let folder = isFolder ? baseURL : baseURL.deletingLastPathComponent()
        return URL(fileURLWithPath: folder.path, isDirectory: true)
    }

    static func source(_ name: String, _ value: JSONValue, path: String, baseURL: URL?) throws(SceneError) -> GeoJSONSource? {
        guard case .object(let o) = value else { throw SceneError(path: path, reason: "a source must be an object") }
        guard case .string(let type)? = o["type"] else { throw SceneError(path: path + ".type", reason: "missing source type") }
        guard type == "geojson" else { return nil }
        let features: [Feature]
        switch o["data"] {
        case .string(let file)?:
            // A path relative to the style's folder, or a file: URL; other URLs (https:, asset:,
            // mapbox:) name data this engine does not fetch.
            let url: URL
            if file.lowercased().hasPrefix("file:") {
                guard let u = URL(string: file), u.isFileURL else {
                    throw SceneError(path: path + ".data", reason: "\(file) is not a valid file URL")
                }
                url = u
            } else if let scheme = file.split(separator: ":", maxSplits: 1).first, file.contains("://"),
                scheme.allSatisfy({ $0.isLetter || $0 == "+" || $0 == "-" || $0 == "." }) {
                throw SceneError(path: path + ".data",
                                 reason: "\(file): a \(scheme): URL is not fetched; pass the data inline or as a file path")
            } else {
                url = URL(fileURLWithPath: file, relativeTo: baseURL.map(styleFolder))
            }
            let bytes: Data
            do { bytes = try Data(contentsOf: url) } catch {
                throw SceneError(path: path + ".data", reason: "cannot read \(file): \(error.localizedDescription)")
            }
            do { features = try GeoJSON.read(bytes).features } catch {
                throw SceneError(path: path + ".data", reason: "\(file): \(error)")
            }
        case let inline?: features = try SceneGeoJSON.features(inline, path: path + ".data")
        case nil: throw SceneError(path: path + ".data", reason: "missing data")
        }
        func bool(_ key: String) throws(SceneError) -> Bool {
            switch o[key] {
            case nil: return false
            case .bool(let b)?: return b
            default: throw SceneError(path: "\(path).\(key)", reason: "must be a Boolean")
            }
        }
        func number(_ key: String, _ d: Double, integer: Bool) throws(SceneError) -> Double {
            switch o[key] {
            case nil: return d
            case .number(let n)? where n.isFinite && (!integer || (n == n.rounded() && abs(n) < 1e9)): return n
            default: throw SceneError(path: "\(path).\(key)", reason: integer ? "must be an integer" : "must be a finite number")
            }
        }
        let options = MapLibreOptions(
            clusterRadius: try number("clusterRadius", 50, integer: false),
            clusterMaxZoom: o["clusterMaxZoom"] == nil ? nil : Int(try number("clusterMaxZoom", 17, integer: true)),
            clusterMinPoints: Int(try number("clusterMinPoints", 2, integer: true)),
            maxzoom: Int(try number("maxzoom", 18, integer: true)))
        var properties = ClusterPropertyExpressions()
        if let p = o["clusterProperties"] {
            do { properties = try ClusterPropertyExpressions(jsonValue: p) } catch {
                throw SceneError(path: error.prefixed(by: path + ".clusterProperties").path, reason: error.reason)
            }
        }
        return GeoJSONSource(
            id: name, features: features, isClustered: try bool("cluster"), clusterOptions: options,
            clusterProperties: properties)
    }

    static func layer(_ value: JSONValue, path: String) throws(SceneError) -> StyleLayer {
        guard case .object(let o) = value else { throw SceneError(path: path, reason: "a layer must be an object") }
        guard case .string(let id)? = o["id"] else { throw SceneError(path: path + ".id", reason: "missing or not a string") }
        guard case .string(let type)? = o["type"] else { throw SceneError(path: path + ".type", reason: "missing or not a string") }
        var source: String?
        switch o["source"] {
        case nil: source = nil
        case .string(let s)?: source = s
        default: throw SceneError(path: path + ".source", reason: "must be a string")
        }
        let kind = StyleLayerKind(type: type)
        if source == nil, kind == .circle || kind == .symbol {
            throw SceneError(path: path + ".source", reason: "a \(type) layer needs a source")
        }
        var filter: Expression?
        if let f = o["filter"] {
            do { filter = try Expression(filter: f) } catch {
                throw SceneError(path: error.prefixed(by: path + ".filter").path, reason: error.reason)
            }
        }
        func zoom(_ key: String, _ d: Double) throws(SceneError) -> Double {
            switch o[key] {
            case nil: return d
            case .number(let n)? where n >= 0 && n <= 24: return n
            default: throw SceneError(path: "\(path).\(key)", reason: "must be a number in 0...24")
            }
        }
        var visible = true
        var layout: [String: Expression] = [:], paint: [String: Expression] = [:]
        for (group, isLayout) in [("layout", true), ("paint", false)] {
            guard let g = o[group] else { continue }
            guard case .object(let members) = g else { throw SceneError(path: "\(path).\(group)", reason: "must be an object") }
            for (name, v) in members.members {
                let at = "\(path).\(group).\(name)"
                if name == "visibility" {
                    switch v {
                    case .string("visible"): visible = true
                    case .string("none"): visible = false
                    default: throw SceneError(path: at, reason: "must be \"visible\" or \"none\"")
                    }
                    continue
                }
                // A property of the other group is unknown here (MapLibre does not apply it).
                guard let known = StyleProperty.known[name], known.isLayout == isLayout else { continue }
                try checkConstants(v, known, path: at)
                let e = try property(v, known.type, path: at, tokens: known.type == .text || name == "icon-image")
                if isLayout { layout[name] = e } else { paint[name] = e }
            }
        }
        return StyleLayer(
            id: id, kind: kind, source: source, filter: filter, minZoom: try zoom("minzoom", 0),
            maxZoom: try zoom("maxzoom", .infinity), isVisible: visible, paint: paint, layout: layout)
    }

    /// Checks a constant value, or the outputs of a legacy function's stops, against the range or
    /// the enumeration of its property, as the style specification's validator does (an
    /// expression is checked by type only; its results fall back to the default at evaluation).
    static func checkConstants(_ v: JSONValue, _ known: StyleProperty, path: String) throws(SceneError) {
        switch v {
        case .number(let n):
            if let range = known.range, !range.contains(n) {
                let bounds = range.upperBound.isInfinite ? "at least \(JSONText.string(of: .number(range.lowerBound)))"
                    : "in \(JSONText.string(of: .number(range.lowerBound)))...\(JSONText.string(of: .number(range.upperBound)))"
                throw SceneError(path: path, reason: "\(JSONText.string(of: v)) must be \(bounds)")
            }
        case .string(let s):
            if let values = known.values, !values.contains(s) {
                throw SceneError(path: path, reason: "\"\(s)\" is not one of \(values.sorted().joined(separator: ", "))")
            }
        case .array(let items) where known.type == .padding:
            for (i, item) in items.enumerated() {
                if case .number = item { try checkConstants(item, known, path: "\(path)[\(i)]") }
            }
        case .object(let o):
            guard case .array(let stops)? = o["stops"] else { return }
            for (i, stop) in stops.enumerated() {
                if case .array(let pair) = stop, pair.count == 2 { try checkConstants(pair[1], known, path: "\(path).stops[\(i)][1]") }
            }
        default:
            return
        }
    }

    /// One paint/layout value, checked against the type its property takes. `tokens`: a string
    /// with `{name}` tokens is the legacy token syntax (`text-field`, `icon-image`).
    static func property(_ v: JSONValue, _ expected: StylePropertyType, path: String, tokens: Bool = false) throws(SceneError) -> Expression {
        var json = v
        if tokens, case .string(let s) = v, s.contains("{") { json = Self.tokens(s) }
        let e: Expression
        do { e = try Expression(styleValue: json, interpolatable: expected != .string && expected != .text) } catch {
            throw SceneError(path: error.prefixed(by: path).path, reason: error.reason)
        }
        let ok: Bool
        switch (expected, e.type) {
        case (_, .value), (_, .null): ok = true
        case (.number, let t): ok = t == .number
        case (.numberPair, let t): ok = t == .array
        case (.string, let t): ok = t == .string
        case (.text, let t): ok = t == .string || t == .number || t == .boolean || t == .array
        case (.padding, let t): ok = t == .number || t == .array
        }
        guard ok else { throw SceneError(path: path, reason: "expected a \(expected) value, found \(e.type)") }
        if expected == .numberPair, case .literal(.array(let a)) = e.root,
            !(a.count == 2 && a.allSatisfy { $0.numberValue?.isFinite ?? false }) {
            throw SceneError(path: path, reason: "expected an array of two numbers")
        }
        if expected == .padding, case .literal(.array(let a)) = e.root,
            !((1...4).contains(a.count) && a.allSatisfy { $0.numberValue?.isFinite ?? false }) {
            throw SceneError(path: path, reason: "expected a number or an array of 1 to 4 numbers")
        }
        return e
    }

    /// A legacy token string (`"{name} m"`, `"{maki}-15"`) as a `concat` expression; a missing
    /// property reads as the empty string.
    static func tokens(_ s: String) -> JSONValue {
        var parts: [JSONValue] = []
        var rest = Substring(s)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { parts.append(.string(String(rest[..<open]))) }
            let key = String(rest[rest.index(after: open)..<close])
            parts.append(["to-string", ["get", .string(key)]])
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.string(String(rest))) }
        if parts.count == 1, case .string = parts[0] { return parts[0] }
        return .array([.string("concat")] + parts + (parts.count == 1 ? [.string("")] : []))
    }
}

