/// The id of a cluster: the integer supercluster puts in `cluster_id`.
///
/// It encodes where the cluster was formed: `(i << 5) + (z + 1) + N`, with `i` the position of its
/// first item in level `z + 1`, `z` the zoom it was formed at and `N` the number of input features,
/// so cluster ids never collide with point indices (`0 ..< N`).
public struct ClusterID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The integer as it appears in properties and JSON.
    public let rawValue: Int

    /// An id from its integer. Any integer is accepted; an index answers an id it did not produce
    /// with ``ClusterError/noCluster(_:)``. O(1).
    @inlinable public init(rawValue: Int) { self.rawValue = rawValue }

    /// The id of the cluster formed at `zoom` around the item at `originIndex` of level `zoom + 1`,
    /// in an index built from `featureCount` features. O(1).
    @inlinable public init(originIndex: Int, zoom: Int, featureCount: Int) {
        rawValue = (originIndex << 5) + (zoom + 1) + featureCount
    }

    /// The position of the cluster's first item in its origin level, and that level's zoom
    /// (the zoom the cluster was formed at, plus one); `nil` when the integer cannot be a cluster
    /// id for `featureCount` features. O(1).
    @inlinable public func origin(featureCount: Int) -> (index: Int, zoom: Int)? {
        let (v, overflow) = rawValue.subtractingReportingOverflow(featureCount)
        guard !overflow, v >= 0 else { return nil }
        return (v >> 5, v % 32)
    }

    @inlinable public static func < (lhs: ClusterID, rhs: ClusterID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { String(rawValue) }
}

/// A failure of ``ClusterIndex``: bad input when building, or a query about something that does
/// not exist. Never a trap.
public enum ClusterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No cluster with this id exists in the index (unknown, or from another index).
    case noCluster(ClusterID)
    /// A feature's geometry is not a point.
    case unsupportedGeometry(featureIndex: Int, type: String)
    /// A feature's coordinate is NaN or infinite, or its latitude is outside −90 … 90.
    case invalidCoordinate(featureIndex: Int, longitude: Double, latitude: Double)
    /// Coordinates and property arrays of different lengths.
    case propertyCountMismatch(coordinates: Int, properties: Int)
    /// More input features than cluster ids can encode in 31 bits (about 65 million).
    case tooManyFeatures(Int)
    /// A negative `limit` for ``ClusterIndex/leaves(of:limit:offset:)``.
    case negativeLimit(Int)
    /// A negative `offset` for ``ClusterIndex/leaves(of:limit:offset:)``.
    case negativeOffset(Int)

    public var description: String {
        switch self {
        case .noCluster(let id): "no cluster with id \(id.rawValue)"
        case .unsupportedGeometry(let i, let type): "feature \(i): geometry \(type) is not a Point (clustering needs points)"
        case .invalidCoordinate(let i, let lng, let lat): "feature \(i): invalid coordinate [\(lng), \(lat)] (NaN, infinite, or latitude outside -90 … 90)"
        case .propertyCountMismatch(let c, let p): "\(c) coordinates but \(p) property objects"
        case .tooManyFeatures(let n): "\(n) features: at most \(ClusterIndex.maximumFeatureCount) can be clustered"
        case .negativeLimit(let v): "leaves limit \(v) is negative"
        case .negativeOffset(let v): "leaves offset \(v) is negative"
        }
    }
}
