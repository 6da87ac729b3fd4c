/// GeoJSON values (already parsed) to ``Feature``s, for style sources. Errors name the JSON path.
/// (A stop-gap until the library's GeoJSON reader is merged.)
enum SceneGeoJSON {
    /// The features of a FeatureCollection, a Feature or a bare geometry. O(size).
    static func features(_ v: JSONValue, path: String) throws(SceneError) -> [Feature] {
        guard case .object(let o) = v, case .string(let type)? = o["type"] else {
            throw SceneError(path: path, reason: "not a GeoJSON object with a type")
        }
        switch type {
        case "FeatureCollection":
            guard case .array(let list)? = o["features"] else {
                throw SceneError(path: path + ".features", reason: "missing or not an array")
            }
            var result: [Feature] = []
            result.reserveCapacity(list.count)
            for (i, f) in list.enumerated() { result.append(try feature(f, path: "\(path).features[\(i)]")) }
            return result
        case "Feature":
            return [try feature(v, path: path)]
        default:
            return [Feature(geometry: try geometry(v, path: path))]
        }
    }

    static func feature(_ v: JSONValue, path: String) throws(SceneError) -> Feature {
        guard case .object(let o) = v, o["type"] == .string("Feature") else {
            throw SceneError(path: path, reason: "not a Feature")
        }
        var id: FeatureID?
        switch o["id"] {
        case .number(let n)?: id = .number(n)
        case .string(let s)?: id = .string(s)
        case nil, .null?: id = nil
        default: throw SceneError(path: path + ".id", reason: "must be a number or a string")
        }
        var properties = JSONObject()
        switch o["properties"] {
        case .object(let p)?: properties = p
        case nil, .null?: break
        default: throw SceneError(path: path + ".properties", reason: "must be an object or null")
        }
        var g: Geometry?
        if let gv = o["geometry"], gv != .null { g = try geometry(gv, path: path + ".geometry") }
        return Feature(id: id, geometry: g, properties: properties)
    }

    static func geometry(_ v: JSONValue, path: String) throws(SceneError) -> Geometry {
        guard case .object(let o) = v, case .string(let type)? = o["type"] else {
            throw SceneError(path: path, reason: "not a geometry with a type")
        }
        if type == "GeometryCollection" {
            guard case .array(let list)? = o["geometries"] else {
                throw SceneError(path: path + ".geometries", reason: "missing or not an array")
            }
            var gs: [Geometry] = []
            for (i, g) in list.enumerated() { gs.append(try geometry(g, path: "\(path).geometries[\(i)]")) }
            return .geometryCollection(gs)
        }
        guard let c = o["coordinates"] else { throw SceneError(path: path + ".coordinates", reason: "missing") }
        let at = path + ".coordinates"
        switch type {
        case "Point": return .point(try position(c, at))
        case "MultiPoint": return .multiPoint(try positions(c, at))
        case "LineString": return .lineString(try positions(c, at))
        case "MultiLineString", "Polygon":
            let rings = try nested(c, at) { (v, p) throws(SceneError) in try positions(v, p) }
            return type == "Polygon" ? .polygon(rings) : .multiLineString(rings)
        case "MultiPolygon":
            return .multiPolygon(try nested(c, at) { (v, p) throws(SceneError) in
                try nested(v, p) { (w, q) throws(SceneError) in try positions(w, q) }
            })
        default: throw SceneError(path: path + ".type", reason: "unknown geometry type \"\(type)\"")
        }
    }

    static func position(_ v: JSONValue, _ path: String) throws(SceneError) -> Position {
        guard case .array(let a) = v, a.count >= 2, let x = a[0].numberValue, let y = a[1].numberValue else {
            throw SceneError(path: path, reason: "a position needs at least two numbers")
        }
        guard x.isFinite, y.isFinite, y >= -90, y <= 90 else {
            throw SceneError(path: path, reason: "invalid position (\(x), \(y))")
        }
        return Position(longitude: x, latitude: y, altitude: a.count > 2 ? a[2].numberValue : nil)
    }

    static func positions(_ v: JSONValue, _ path: String) throws(SceneError) -> [Position] {
        try nested(v, path) { (w, p) throws(SceneError) in try position(w, p) }
    }

    static func nested<T>(
        _ v: JSONValue, _ path: String, _ body: (JSONValue, String) throws(SceneError) -> T
    ) throws(SceneError) -> [T] {
        guard case .array(let a) = v else { throw SceneError(path: path, reason: "must be an array") }
        var result: [T] = []
        result.reserveCapacity(a.count)
        for (i, x) in a.enumerated() { result.append(try body(x, "\(path)[\(i)]")) }
        return result
    }
}
