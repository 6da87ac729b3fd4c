import Foundation
import SpatialCore

/// Direct evaluators of the legacy forms, written from their definitions (stops, base, default;
/// the legacy filter rules). The converted expressions must agree with them.
enum LegacyReference {
    static func strictlyEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): Array(x.utf8) == Array(y.utf8)
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null): true
        default: false
        }
    }

    /// The value of a legacy style function, or nil for "no value" (the property's default).
    static func function(_ f: JSONObject, zoom: Double, properties: JSONObject) -> JSONValue? {
        let stops: [(JSONValue, JSONValue)] = (f["stops"]?.arrayValue ?? []).map { ($0.arrayValue![0], $0.arrayValue![1]) }
        let numeric = !stops.isEmpty && stops.allSatisfy {
            $0.1.numberValue != nil || ($0.1.arrayValue?.allSatisfy { $0.numberValue != nil } ?? false)
        }
        let type = f["type"]?.stringValue ?? (numeric ? "exponential" : "interval")
        let base = f["base"]?.numberValue ?? 1
        let fallback = f["default"]
        guard let property = f["property"]?.stringValue else {
            return evaluate(type, base, stops, .number(zoom), fallback)
        }
        let input = properties[property] ?? .null
        if let first = stops.first, first.0.objectValue != nil {
            // Zoom-and-property: group by zoom, evaluate each group on the property, then zoom.
            var zooms: [Double] = []
            var groups: [[(JSONValue, JSONValue)]] = []
            for (key, output) in stops {
                let z = key["zoom"]!.numberValue!
                if zooms.last != z { zooms.append(z); groups.append([]) }
                groups[groups.count - 1].append((key["value"]!, output))
            }
            let inner = groups.map { evaluate(type, base, $0, input, fallback) }
            if type == "exponential" {
                if zoom <= zooms[0] { return inner[0] }
                if zoom >= zooms.last! { return inner.last! }
                let i = zooms.lastIndex { $0 <= zoom }!
                guard let a = inner[i], let b = inner[i + 1] else { return nil }
                return mix(a, b, factor(zoom, base, zooms[i], zooms[i + 1]))
            }
            let i = zooms.lastIndex { $0 <= zoom } ?? 0
            return inner[i]
        }
        return evaluate(type, base, stops, input, fallback)
    }

    static func factor(_ x: Double, _ base: Double, _ lo: Double, _ hi: Double) -> Double {
        if hi == lo { return 0 }
        return base == 1 ? (x - lo) / (hi - lo) : (pow(base, x - lo) - 1) / (pow(base, hi - lo) - 1)
    }

    static func mix(_ a: JSONValue, _ b: JSONValue, _ t: Double) -> JSONValue? {
        switch (a, b) {
        case (.number(let p), .number(let q)): return .number(p * (1 - t) + q * t)
        case (.array(let p), .array(let q)) where p.count == q.count:
            return .array(zip(p, q).map { .number($0.numberValue! * (1 - t) + $1.numberValue! * t) })
        default: return nil
        }
    }

    static func evaluate(_ type: String, _ base: Double, _ stops: [(JSONValue, JSONValue)], _ input: JSONValue,
        _ fallback: JSONValue?) -> JSONValue?
    {
        switch type {
        case "identity":
            if let fallback, ExpressionType.of(fallback) != ExpressionType.of(input) { return fallback }
            return input
        case "categorical":
            for (key, output) in stops where strictlyEqual(key, input) { return output }
            return fallback
        case "interval":
            guard case .number(let x) = input else { return fallback }
            var result = stops[0].1
            for (key, output) in stops where key.numberValue! <= x { result = output }
            return result
        default:
            guard case .number(let x) = input else { return fallback }
            if x <= stops[0].0.numberValue! { return stops[0].1 }
            if x >= stops.last!.0.numberValue! { return stops.last!.1 }
            let i = stops.lastIndex { $0.0.numberValue! <= x }!
            return mix(stops[i].1, stops[i + 1].1, factor(x, base, stops[i].0.numberValue!, stops[i + 1].0.numberValue!))
        }
    }

    /// A legacy filter evaluated directly.
    static func filter(_ f: JSONValue, properties: JSONObject, id: FeatureID?, geometryType: String) -> Bool {
        let items = f.arrayValue!
        let op = items[0].stringValue!
        func actual(_ key: String) -> JSONValue? {
            switch key {
            case "$type": return .string(geometryType.hasPrefix("Multi") ? String(geometryType.dropFirst(5)) : geometryType)
            case "$id": return id?.jsonValue
            default: return properties[key]
            }
        }
        switch op {
        case "all": return items.dropFirst().allSatisfy { filter($0, properties: properties, id: id, geometryType: geometryType) }
        case "any": return items.dropFirst().contains { filter($0, properties: properties, id: id, geometryType: geometryType) }
        case "none": return !items.dropFirst().contains { filter($0, properties: properties, id: id, geometryType: geometryType) }
        case "has": return actual(items[1].stringValue!) != nil
        case "!has": return actual(items[1].stringValue!) == nil
        case "in", "!in":
            let v = actual(items[1].stringValue!)
            let found = v.map { v in items.dropFirst(2).contains { strictlyEqual($0, v) } } ?? false
            return op == "in" ? found : !found
        case "==", "!=":
            let v = actual(items[1].stringValue!)
            let equal = v.map { strictlyEqual($0, items[2]) } ?? false
            return op == "==" ? equal : !equal
        default:
            guard let v = actual(items[1].stringValue!) else { return false }
            switch (v, items[2]) {
            case (.number(let x), .number(let y)):
                return op == "<" ? x < y : op == "<=" ? x <= y : op == ">" ? x > y : x >= y
            case (.string(let x), .string(let y)):
                let lt = x.utf16.lexicographicallyPrecedes(y.utf16)
                let eq = Array(x.utf16) == Array(y.utf16)
                return op == "<" ? lt : op == "<=" ? (lt || eq) : op == ">" ? !(lt || eq) : !lt
            default:
                return false
            }
        }
    }
}

/// Converts a Foundation JSON object (from `JSONSerialization`) to a ``JSONValue`` (tests only).
func jsonValue(fromFoundation any: Any) -> JSONValue {
    switch any {
    case is NSNull: return .null
    case let n as NSNumber:
        if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
        return .number(n.doubleValue)
    case let s as String: return .string(s)
    case let a as [Any]: return .array(a.map(jsonValue(fromFoundation:)))
    case let o as [String: Any]: return .object(JSONObject(o.map { ($0.key, jsonValue(fromFoundation: $0.value)) }))
    default: return .null
    }
}
