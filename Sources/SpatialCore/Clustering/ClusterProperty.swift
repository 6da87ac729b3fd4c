/// A test on one property of an input point, for the typed aggregations `any`, `all` and `count`.
public struct ClusterPredicate: Sendable, Hashable {
    /// What the property value is compared with.
    public enum Test: Sendable, Hashable {
        /// The value equals this JSON value (numbers by value, strings by content).
        case equals(JSONValue)
        /// The value does not equal this JSON value (a missing property counts as not equal).
        case notEquals(JSONValue)
        /// The value is a number above this one.
        case greaterThan(Double)
        /// The value is a number below this one.
        case lessThan(Double)
        /// The value is present and not `null`.
        case exists
        /// Always true (with `count`, counts the points).
        case always
    }

    /// The property name read from each point.
    public let property: String
    /// The test applied to its value.
    public let test: Test

    /// A predicate from its parts. O(1).
    public init(property: String, _ test: Test) {
        self.property = property
        self.test = test
    }

    /// Whether the predicate holds for a point's properties (a missing property is `null`). O(members).
    public func evaluate(_ properties: JSONObject) -> Bool {
        let v = properties[property] ?? .null
        switch test {
        case .equals(let w): return v == w
        case .notEquals(let w): return v != w
        case .greaterThan(let t): return (v.numberValue ?? .nan) > t
        case .lessThan(let t): return (v.numberValue ?? .nan) < t
        case .exists: return !v.isNull
        case .always: return true
        }
    }
}

/// A typed cluster aggregation that needs no expression parsing and runs at native speed.
///
/// Numbers are read from a point property; a point whose value is not a number gives `null`, and
/// `null` stays `null` through the reduction (as with expressions). A mean is `sum` divided by
/// `point_count` (or by a `count` of the points that have the property).
public enum ClusterAggregation: Sendable, Hashable {
    /// The sum of a numeric property.
    case sum(of: String)
    /// The smallest value of a numeric property.
    case minimum(of: String)
    /// The largest value of a numeric property.
    case maximum(of: String)
    /// Whether any point satisfies the predicate (Boolean).
    case any(ClusterPredicate)
    /// Whether every point satisfies the predicate (Boolean).
    case all(ClusterPredicate)
    /// How many points satisfy the predicate (number).
    case count(ClusterPredicate)
}

/// A map/reduce pair over JSON values for a custom aggregation of one property. (Mapbox
/// `clusterProperties` expressions, whose reduce may read any property of the member, are passed
/// to ``ClusterIndex`` as ``ClusterPropertyExpressions``.)
///
/// `map` runs once per input point on its properties; when a cluster forms, its value starts as
/// the first member's value and each other member is reduced in with
/// `reduce(accumulated, member)`, in the order the level's k-d tree returned the members.
public struct ClusterReducer: Sendable {
    /// The value of one input point.
    public let map: @Sendable (JSONObject) -> JSONValue
    /// Combines the value so far with one member's value.
    public let reduce: @Sendable (_ accumulated: JSONValue, _ member: JSONValue) -> JSONValue

    /// A reducer from its two functions. O(1).
    public init(
        map: @escaping @Sendable (JSONObject) -> JSONValue,
        reduce: @escaping @Sendable (_ accumulated: JSONValue, _ member: JSONValue) -> JSONValue
    ) {
        self.map = map
        self.reduce = reduce
    }
}

/// One cluster property: the name it gets in cluster properties and how it is computed.
public struct ClusterProperty: Sendable {
    enum Kind: Sendable {
        case typed(ClusterAggregation)
        case custom(ClusterReducer)
    }

    /// The name of the property on clusters.
    public let name: String
    let kind: Kind

    /// A property computed by a typed aggregation. O(1).
    public init(_ name: String, _ aggregation: ClusterAggregation) {
        self.name = name
        kind = .typed(aggregation)
    }

    /// A property computed by a JSON map/reduce pair (expressions plug in here). O(1).
    public init(_ name: String, _ reducer: ClusterReducer) {
        self.name = name
        kind = .custom(reducer)
    }
}

extension ClusterAggregation {
    /// The numeric value of one point (NaN stands for `null`; Booleans are 0 / 1). O(members).
    @inline(__always) func map(_ properties: JSONObject) -> Double {
        switch self {
        case .sum(let p), .minimum(let p), .maximum(let p):
            return properties[p]?.numberValue ?? .nan
        case .any(let pr), .all(let pr):
            return pr.evaluate(properties) ? 1 : 0
        case .count(let pr):
            return pr.evaluate(properties) ? 1 : 0
        }
    }

    /// Reduces one member's value into the accumulated value. O(1).
    @inline(__always) func reduce(_ acc: Double, _ v: Double) -> Double {
        if acc.isNaN || v.isNaN { return .nan }
        switch self {
        case .sum, .count: return acc + v
        case .minimum: return v < acc ? v : acc
        case .maximum: return v > acc ? v : acc
        case .any: return (acc != 0 || v != 0) ? 1 : 0
        case .all: return (acc != 0 && v != 0) ? 1 : 0
        }
    }

    /// The JSON value of an accumulated number. O(1).
    func jsonValue(_ v: Double) -> JSONValue {
        if v.isNaN { return .null }
        switch self {
        case .any, .all: return .bool(v != 0)
        default: return .number(v)
        }
    }
}
