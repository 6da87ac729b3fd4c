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

    /// A sentence naming what failed and where. O(1).
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
