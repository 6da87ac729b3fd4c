import Foundation
@testable import SpatialCore

/// Test helpers for clustering: Foundation-parsed JSON as the library's model, FNV-1a, and the
/// oracle files.
enum ClusterTestSupport {
    /// Exactly-read JSON bytes as plain Swift values (see ``TestJSONParser``).
    static func parse(_ bytes: [UInt8]) -> Any? {
        TestJSONParser.parse(bytes)
    }

    /// An oracle file read exactly, or nil (with a note) when it is absent.
    static func oracle(_ file: String) -> Any? {
        TestData.oracle(file).flatMap(parse)
    }

    /// A JSON number as a Double (Int or Double).
    static func double(_ v: Any?) -> Double {
        if let i = v as? Int { return Double(i) }
        return v as? Double ?? .nan
    }

    /// A JSON array of numbers as Doubles.
    static func doubles(_ v: Any?) -> [Double] {
        (v as? [Any] ?? []).map(double)
    }
    /// A Foundation JSON value as a ``JSONValue``.
    static func jsonValue(_ v: Any) -> JSONValue {
        switch v {
        case is NSNull: return .null
        case let b as Bool where type(of: v) == Bool.self: return .bool(b)
        case let i as Int where type(of: v) == Int.self: return .number(Double(i))
        case let d as Double where type(of: v) == Double.self: return .number(d)
        case let s as String: return .string(s)
        case let a as [Any]: return .array(a.map(jsonValue))
        case let o as [String: Any]:
            var obj = JSONObject()
            for k in o.keys.sorted() { obj[k] = jsonValue(o[k]!) }
            return .object(obj)
        default: return .null
        }
    }

    /// The features of a GeoJSON FeatureCollection parsed with Foundation (until the library
    /// reader is merged). Only Point and null geometries are converted; others become a LineString
    /// placeholder with the same type name is not needed by these tests.
    static func features(_ bytes: [UInt8]) -> [Feature] {
        guard let root = parse(bytes) as? [String: Any],
            let list = root["features"] as? [[String: Any]]
        else { return [] }
        return list.map { f in
            var id: FeatureID? = nil
            if let s = f["id"] as? String { id = .string(s) } else if f["id"] is Int || f["id"] is Double { id = .number(double(f["id"])) }
            var geometry: Geometry? = nil
            if let g = f["geometry"] as? [String: Any], case let c = doubles(g["coordinates"]), c.count >= 2 {
                geometry = .point(Position(longitude: c[0], latitude: c[1], altitude: c.count > 2 ? c[2] : nil))
            }
            let props = (f["properties"] as? [String: Any]).map { jsonValue($0).objectValue ?? JSONObject() } ?? JSONObject()
            return Feature(id: id, geometry: geometry, properties: props)
        }
    }

    /// The features of a real dataset, or nil (with a note) when it is absent.
    static func dataset(_ file: String) -> [Feature]? {
        guard let bytes = TestData.dataset(file) else { return nil }
        return features(bytes)
    }

    /// FNV-1a 32-bit of integers fed as 4 little-endian bytes each (the oracle's digest).
    static func fnv1a(_ values: [Int]) -> UInt32 { fnv1a32(values) }

    /// Whether `latitude` is what supercluster's `yLat(y)` gives when `exp` and `atan` may each be
    /// one ulp off the platform's (V8's fdlibm against glibc): the exact input `y` is shared, so
    /// this shows that a difference comes from those two functions alone.
    static func latitudeMatchesUpToLibmULP(y: Double, expected: Double) -> Bool {
        let y2 = (180 - y * 360) * Double.pi / 180
        let e = exp(y2)
        for ev in [e, e.nextUp, e.nextDown] {
            let a = atan(ev)
            for av in [a, a.nextUp, a.nextDown] where 360 * av / Double.pi - 90 == expected { return true }
        }
        return false
    }

    /// Whether two doubles are equal or one ulp apart.
    static func withinOneULP(_ a: Double, _ b: Double) -> Bool {
        a == b || a.nextUp == b || a.nextDown == b
    }

    /// The cluster properties the "flow" oracle uses (max, any == value, sum), as typed aggregations.
    static func flowProperties(flow: String, engine: String, value: String) -> [ClusterProperty] {
        [
            ClusterProperty("max", .maximum(of: flow)),
            ClusterProperty("in_e9", .any(ClusterPredicate(property: engine, .equals(.string(value))))),
            ClusterProperty("sum", .sum(of: flow)),
        ]
    }
}

