/// A cluster returned by a query: id, centre, size and properties.
public struct Cluster: Hashable, Sendable {
    /// The cluster's id (`cluster_id`).
    public let id: ClusterID
    /// The count-weighted centre of its points, unprojected from unit Mercator.
    public let coordinate: Coordinate
    /// The centre in unit Web Mercator ([0, 1] × [0, 1]).
    public let mercator: SIMD2<Double>
    /// The number of input points in the cluster.
    public let pointCount: Int
    /// The reduced cluster properties (empty without cluster properties).
    public let clusterProperties: JSONObject

    /// `point_count_abbreviated`: the count itself below 1000, `"1.2k"` below 10000, else `"12k"`. O(1).
    public var abbreviatedPointCount: JSONValue { Cluster.abbreviate(pointCount) }

    /// The feature properties as supercluster gives them: the cluster properties, then `cluster`,
    /// `cluster_id`, `point_count`, `point_count_abbreviated` (built-in keys win). O(properties).
    public var properties: JSONObject {
        var p = clusterProperties
        p["cluster"] = .bool(true)
        p["cluster_id"] = .number(Double(id.rawValue))
        p["point_count"] = .number(Double(pointCount))
        p["point_count_abbreviated"] = abbreviatedPointCount
        return p
    }

    /// supercluster's abbreviation of a point count. O(1).
    public static func abbreviate(_ count: Int) -> JSONValue {
        if count >= 10000 {
            return .string("\(Int(UnitMercator.jsRound(Double(count) / 1000)))k")
        }
        if count >= 1000 {
            let tenths = Int(UnitMercator.jsRound(Double(count) / 100))
            return .string(tenths % 10 == 0 ? "\(tenths / 10)k" : "\(tenths / 10).\(tenths % 10)k")
        }
        return .number(Double(count))
    }
}

/// An input point returned by a query, as it was given.
public struct ClusteredPoint: Hashable, Sendable {
    /// The index of the feature in the input (features with a null geometry count too).
    public let index: Int
    /// The feature's id (its input index when `generateId` is set).
    public let id: FeatureID?
    /// The position as given in the input (not wrapped).
    public let coordinate: Coordinate
    /// The position in unit Web Mercator as the index stores it (`Float`-rounded in `.float32`).
    public let mercator: SIMD2<Double>
    /// The feature's properties.
    public let properties: JSONObject
}

/// One item of a zoom level: a cluster or an unclustered input point.
public enum ClusterItem: Hashable, Sendable {
    /// A cluster of two or more points.
    case cluster(Cluster)
    /// An input point that is not part of a cluster at this zoom.
    case point(ClusteredPoint)

    /// The number of input points the item stands for (1 for a point). O(1).
    public var pointCount: Int {
        switch self {
        case .cluster(let c): c.pointCount
        case .point: 1
        }
    }

    /// The item's position in degrees. O(1).
    public var coordinate: Coordinate {
        switch self {
        case .cluster(let c): c.coordinate
        case .point(let p): p.coordinate
        }
    }

    /// The cluster, when this item is one. O(1).
    public var cluster: Cluster? {
        if case .cluster(let c) = self { return c }
        return nil
    }

    /// The point, when this item is one. O(1).
    public var point: ClusteredPoint? {
        if case .point(let p) = self { return p }
        return nil
    }

    /// The integer id supercluster reports: the cluster id, or the point's input index. O(1).
    public var rawID: Int {
        switch self {
        case .cluster(let c): c.id.rawValue
        case .point(let p): p.index
        }
    }
}
